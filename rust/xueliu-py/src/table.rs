//! The table server's questions to the engine (python/xueliu/server/table.py): private, each a
//! thin wrapper over a core call, returning plain values the server puts in its messages.

use crate::args::{game_arg, seat_arg};
use crate::convert;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};
use std::fmt::Write;
use xueliu_core::game::ActionList;
use xueliu_core::Choice;

/// The seats the table asks at its next step (`Game::step_seats`), in seat order: for each, the
/// actions it is offered and its default as text, and whether the engine asks it (else it is
/// offered only `pass`). `window`: the seat whose discard or kong opened the claim window open at
/// the table, or None; `waiting`: whether the engine waits on that window's answers.
#[pyfunction]
pub fn _step_requests<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyAny>,
    window: Option<&Bound<'py, PyAny>>,
    waiting: &Bound<'py, PyAny>,
) -> PyResult<Vec<StepRequest<'py>>> {
    let window = window.filter(|w| !w.is_none()).map(seat_arg).transpose()?;
    let waiting = convert::flag("waiting", Some(waiting), false)?;
    let state = game_arg(game)?.get().lock()?;
    let game = &state.game;
    let (mut offer, mut text) = (ActionList::default(), String::new());
    let mut texts = |action: &dyn std::fmt::Display| {
        text.clear();
        write!(text, "{action}").expect("a String takes any write");
        PyString::new(py, &text)
    };
    game.step_seats(window, waiting)
        .map(|(seat, engine)| {
            let default = game.step_offer(seat, engine, &mut offer);
            let actions = PyList::new(py, offer.iter().map(|a| texts(a)))?;
            Ok((seat, actions, texts(&default), engine))
        })
        .collect()
}

/// One seat's part of `_step_requests`: seat, actions, default, whether the engine asks it.
type StepRequest<'py> = (u8, Bound<'py, PyList>, Bound<'py, PyString>, bool);

/// 听牌: `seat`'s waits when its hand is ready, from what it may see (`SeatView::ready_waits`):
/// for each, the tile, the copies it has not seen, and the wait's 查叫 pattern, capped fan and
/// points. Empty when the hand is not ready.
#[pyfunction]
pub fn _ready_waits(game: &Bound<'_, PyAny>, seat: &Bound<'_, PyAny>) -> PyResult<Vec<ShownWait>> {
    let seat = seat_arg(seat)?;
    let state = game_arg(game)?.get().lock()?;
    let view = state.game.view(seat).expect("seat_arg checks the seat");
    Ok(view
        .ready_waits()
        .into_iter()
        .map(|w| {
            let s = w.score;
            (
                w.tile.to_string(),
                w.unseen,
                s.pattern.name(),
                s.capped_fan,
                s.points,
            )
        })
        .collect())
}

/// One wait of `_ready_waits`: tile, copies unseen, pattern, capped fan, points.
type ShownWait = (String, u8, &'static str, u32, u64);

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_step_requests, m)?)?;
    m.add_function(wrap_pyfunction!(_ready_waits, m)?)?;
    Ok(())
}
