//! `Match`: hands in a row at one table (`xueliu_core::matches`). `match.game` is a live
//! `Game` the caller plays; the core match takes it back for each call that needs it.

use crate::args::{rules_or_default, seed_or_zero};
use crate::errors::{core_error, type_error};
use crate::game::{json_dumps, json_loads, Game};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use xueliu_core::matches::Match as CoreMatch;

/// A match of `hands` hands (RULES.md §2): `game` is the hand in play; `next_hand()` deals the
/// next once it is over, its dealer the hand's `next_dealer` and its seed derived from `seed`.
/// It is a session (盘): `call_time()` makes the hand in play the last, and once over each seat
/// gets `placement_points` by its place in the totals (`placement`, 4/3/2/1 unless given).
#[pyclass(module = "xueliu")]
pub struct Match {
    /// The core match; its current game is stale: `game` holds the live one.
    inner: CoreMatch,
    game: Py<Game>,
}

impl Match {
    fn wrap(py: Python<'_>, inner: CoreMatch) -> PyResult<Match> {
        let game = Py::new(py, Game::of(inner.game().clone()))?;
        Ok(Match { inner, game })
    }

    /// Runs `f` on the core match holding the live game, then hands the game back.
    fn with_core<T>(&mut self, py: Python<'_>, f: impl FnOnce(&mut CoreMatch) -> T) -> PyResult<T> {
        let live = self.game.bind(py).get();
        let mut live = live.lock()?;
        std::mem::swap(live.game_mut(), self.inner.game_mut());
        let out = f(&mut self.inner);
        std::mem::swap(live.game_mut(), self.inner.game_mut());
        Ok(out)
    }
}

#[pymethods]
impl Match {
    #[new]
    #[pyo3(
        signature = (rules=None, *, seed=None, hands=None, placement=None),
        text_signature = "(rules=None, *, seed=None, hands=8, placement=(4, 3, 2, 1))"
    )]
    fn new(
        py: Python<'_>,
        rules: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
        hands: Option<&Bound<'_, PyAny>>,
        placement: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Match> {
        let rules = rules_or_default(rules)?;
        let seed = seed_or_zero(seed)?;
        let hands = hands.map_or(Ok(8), |h| {
            crate::convert::int("hands", h, "a number of hands, an int of at least 1")
        })?;
        let mut inner = CoreMatch::new(rules, seed, hands).map_err(core_error)?;
        if let Some(p) = placement {
            let accepts = "four placement points, first place to fourth, e.g. (4, 3, 2, 1)";
            let points: Vec<u32> = p
                .extract()
                .map_err(|_| type_error("placement", p, accepts))?;
            let points: [u32; 4] = points
                .try_into()
                .map_err(|_| type_error("placement", p, accepts))?;
            inner = inner.with_placement(points).map_err(core_error)?;
        }
        Match::wrap(py, inner)
    }

    /// Placement points by place, first to fourth.
    #[getter]
    fn placement(&self) -> [u32; 4] {
        self.inner.placement()
    }

    /// The session's time is up (the caller's clock decides): the hand in play is the last.
    fn call_time(&mut self) {
        self.inner.call_time();
    }

    /// Whether `call_time()` was called.
    #[getter]
    fn time_called(&self) -> bool {
        self.inner.time_called()
    }

    /// Each seat's placement points once the match is over (None before): seats ranked by their
    /// totals, tied seats sharing their places' points.
    #[getter]
    fn placement_points(&mut self, py: Python<'_>) -> PyResult<Option<[f64; 4]>> {
        self.with_core(py, |m| m.placement_points())
    }

    /// The hand in play (the last one once the match is over); play it with `act`.
    #[getter]
    fn game(&self, py: Python<'_>) -> Py<Game> {
        self.game.clone_ref(py)
    }

    /// The match seed; hand `i` is dealt from a seed derived from it and `i`.
    #[getter]
    fn seed(&self) -> u64 {
        self.inner.seed()
    }

    /// The number of hands the match plays.
    #[getter]
    fn hands(&self) -> u32 {
        self.inner.hands()
    }

    /// Deals the next hand once the current one is over; `game` is then the new hand.
    /// A `Game` held from before keeps the finished hand.
    fn next_hand(&mut self, py: Python<'_>) -> PyResult<()> {
        let done = self.with_core(py, |m| {
            m.next_hand()?;
            Ok(m.finished().last().cloned())
        })?;
        let Some(done) = done.map_err(core_error)? else {
            return Ok(());
        };
        // The held object now has the new hand: it keeps the finished one, a new object the new.
        let next = self.game.bind(py).get().lock()?.replace(done);
        self.game = Py::new(py, Game::of(next))?;
        Ok(())
    }

    /// The dealer of each hand dealt so far.
    #[getter]
    fn dealers(&mut self, py: Python<'_>) -> PyResult<Vec<u32>> {
        self.with_core(py, |m| m.dealers().into_iter().map(u32::from).collect())
    }

    /// The dealer of the next hand once the current one is over; None before, and at the end.
    #[getter]
    fn next_dealer(&mut self, py: Python<'_>) -> PyResult<Option<u8>> {
        self.with_core(py, |m| m.next_dealer())
    }

    /// Each finished hand's points per seat.
    #[getter]
    fn results(&mut self, py: Python<'_>) -> PyResult<Vec<[i64; 4]>> {
        self.with_core(py, |m| m.results())
    }

    /// The finished hands' points summed per seat.
    #[getter]
    fn totals(&mut self, py: Python<'_>) -> PyResult<[i64; 4]> {
        self.with_core(py, |m| m.totals())
    }

    /// Hands over so far (the current one counts once it is over).
    #[getter]
    fn hands_played(&mut self, py: Python<'_>) -> PyResult<u32> {
        self.with_core(py, |m| m.hands_played())
    }

    /// Every hand has been played.
    #[getter]
    fn is_over(&mut self, py: Python<'_>) -> PyResult<bool> {
        self.with_core(py, |m| m.is_over())
    }

    /// The match log: every hand's event log, in order (docs/game-protocol.md §13).
    fn log<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let text = self.with_core(py, |m| m.log_json())?;
        json_loads(py, &text)
    }

    /// A full snapshot as JSON text; `Match.from_json` restores it exactly. (`&mut`: the live
    /// game is lent to the core match for the call.)
    #[allow(clippy::wrong_self_convention)]
    fn to_json(&mut self, py: Python<'_>) -> PyResult<String> {
        self.with_core(py, |m| m.to_json())
    }

    /// Restores a snapshot, verifying every hand; bad input raises SnapshotError.
    #[staticmethod]
    fn from_json(py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<Match> {
        let text = crate::convert::text(
            "text",
            text,
            "a match snapshot's JSON text (Match.to_json())",
        )?;
        let inner = CoreMatch::from_json(&text).map_err(core_error)?;
        Match::wrap(py, inner)
    }

    /// Replays a match log (`Match.log()`, as a dict or its JSON text), checking every hand.
    #[staticmethod]
    fn from_log(py: Python<'_>, log: &Bound<'_, PyAny>) -> PyResult<Match> {
        let accepts = "a match log (Match.log(), a dict) or its JSON text";
        let text = if log.cast::<PyString>().is_ok() {
            crate::convert::text("log", log, accepts)?
        } else if log.cast::<PyDict>().is_ok() || log.cast::<PyList>().is_ok() {
            json_dumps(py, "log", log, accepts)?
        } else {
            return Err(type_error("log", log, accepts));
        };
        Match::wrap(py, CoreMatch::from_log(&text).map_err(core_error)?)
    }

    /// Pickles as its snapshot: `Match.from_json(match.to_json())`.
    fn __reduce__(&mut self, py: Python<'_>) -> PyResult<(Py<PyAny>, (String,))> {
        let from_json = py.get_type::<Match>().getattr("from_json")?.unbind();
        Ok((from_json, (self.to_json(py)?,)))
    }

    fn __repr__(&mut self, py: Python<'_>) -> PyResult<String> {
        self.with_core(py, |m| {
            format!(
                "Match(seed={}, hands_played={}/{}, totals={:?})",
                m.seed(),
                m.hands_played(),
                m.hands(),
                m.totals()
            )
        })
    }
}
