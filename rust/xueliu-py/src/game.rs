//! `Game`, `Action`, `Meld` and `Win`: the turn state machine of `xueliu_core::game`, converted
//! value by value. No rule logic lives here.

use crate::args::{
    picks_arg, rules_arg, rules_or_default, seat_arg, seed_arg, seed_or_zero, tile_arg, tiles_arg,
};
use crate::convert;
use crate::errors::{
    argument_error, core_error, exclusive, type_error, ArgumentError, IllegalActionError,
};
use crate::score::Score;
use crate::tiles::Tile;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyList, PyString, PyTuple};
use std::sync::{Mutex, MutexGuard};
use xueliu_core::encode;
use xueliu_core::game::{self as core, ActionList, TrueHands};
use xueliu_core::meld::Meld as CoreMeld;
use xueliu_core::search;
use xueliu_core::tile::{self as core_tile, Suit};
use xueliu_core::Choice;

/// One decision: `exchange`, `void`, `discard`, `pong`, `kong`, `win`, `pass` or `swap` (幺鸡换).
#[pyclass(frozen, eq, hash, module = "xueliu")]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Action(pub core::Action);

#[pymethods]
impl Action {
    /// 换三张: give three tiles (one suit, unless `exchange_same_suit` is off), e.g. `"123m"`.
    #[staticmethod]
    fn exchange(tiles: &Bound<'_, PyAny>) -> PyResult<Action> {
        let list = tiles_arg("tiles", tiles)?;
        match list[..] {
            [a, b, c] => Ok(Action(core::Action::exchange([a, b, c]))),
            _ => Err(ArgumentError::new_err(format!(
                "an exchange gives exactly three tiles, got {}",
                list.len()
            ))),
        }
    }

    /// 定缺: declare `"m"`, `"p"` or `"s"` void.
    #[staticmethod]
    fn void(suit: &Bound<'_, PyAny>) -> PyResult<Action> {
        let suit = convert::text("suit", suit, "a suit: \"m\", \"p\" or \"s\"")?;
        Suit::parse(&suit)
            .map(|s| Action(core::Action::Void(s)))
            .ok_or_else(|| {
                ArgumentError::new_err(format!(
                    "void {suit:?} is not a suit; use \"m\", \"p\" or \"s\""
                ))
            })
    }

    #[staticmethod]
    fn discard(tile: &Bound<'_, PyAny>) -> PyResult<Action> {
        Ok(Action(core::Action::Discard(tile_arg("tile", tile)?)))
    }

    /// Pong the discard (the tile is always the discard's).
    #[staticmethod]
    fn pong() -> Action {
        Action(core::Action::Pong)
    }

    /// A kong of `tile`: direct on a discard, added onto a pong, or concealed.
    #[staticmethod]
    fn kong(tile: &Bound<'_, PyAny>) -> PyResult<Action> {
        Ok(Action(core::Action::Kong(tile_arg("tile", tile)?)))
    }

    /// 幺鸡换: put a natural `tile` into the seat's kong of it and take one of its wilds back.
    #[staticmethod]
    fn swap(tile: &Bound<'_, PyAny>) -> PyResult<Action> {
        Ok(Action(core::Action::Swap(tile_arg("tile", tile)?)))
    }

    #[staticmethod]
    fn win() -> Action {
        Action(core::Action::Win)
    }

    #[staticmethod]
    fn pass_() -> Action {
        Action(core::Action::Pass)
    }

    /// Reads the `str()` form back: `"discard 5m"`, `"exchange 123m"`, `"void p"`, `"pong"`.
    #[staticmethod]
    fn parse(text: &Bound<'_, PyAny>) -> PyResult<Action> {
        let text = convert::text("text", text, "an action's text such as \"discard 5m\"")?;
        core::Action::parse(&text).map(Action).ok_or_else(|| {
            ArgumentError::new_err(format!(
                "cannot read action {}; write e.g. \"discard 5m\", \"kong 5m\", \"swap 5m\", \"exchange 123m\", \"void p\", \"pong\", \"win\", \"pass\"",
                crate::errors::quote(&text)
            ))
        })
    }

    /// `"exchange"`, `"void"`, `"discard"`, `"pong"`, `"kong"`, `"swap"`, `"win"` or `"pass"`.
    #[getter]
    fn kind(&self) -> &'static str {
        self.0.kind()
    }

    /// The tile of a discard, kong or swap; None otherwise.
    #[getter]
    fn tile(&self) -> Option<Tile> {
        match self.0 {
            core::Action::Discard(t) | core::Action::Kong(t) | core::Action::Swap(t) => {
                Some(Tile(t))
            }
            _ => None,
        }
    }

    /// The three tiles of an exchange; None otherwise.
    #[getter]
    fn tiles(&self) -> Option<Vec<Tile>> {
        match self.0 {
            core::Action::Exchange(t) => Some(t.iter().map(|&t| Tile(t)).collect()),
            _ => None,
        }
    }

    /// The suit of a void declaration; None otherwise.
    #[getter]
    fn suit(&self) -> Option<String> {
        match self.0 {
            core::Action::Void(s) => Some(s.letter().to_string()),
            _ => None,
        }
    }

    /// The action's id (docs/encoding.md §1). An exchange is three ids, one per tile
    /// picked: read `ids` instead.
    #[getter]
    fn id(&self) -> PyResult<u16> {
        encode::action_id(self.0).ok_or_else(|| {
            ArgumentError::new_err(format!(
                "{} is three action ids, one per tile picked; read .ids",
                self.0
            ))
        })
    }

    /// The action's ids: one, or an exchange's three picks in tile order.
    #[getter]
    fn ids(&self) -> Vec<u16> {
        match self.0 {
            core::Action::Exchange(tiles) => encode::exchange_ids(tiles).to_vec(),
            other => encode::action_id(other).into_iter().collect(),
        }
    }

    /// The action of one id. A pick id (0-26) is one tile of an exchange: use `from_ids` with
    /// all three.
    #[staticmethod]
    fn from_id(id: &Bound<'_, PyAny>) -> PyResult<Action> {
        Action::of_ids(&[convert::int("id", id, ID)?])
    }

    /// The action of its ids: one id, or an exchange's three pick ids (`Action.ids` inverted).
    #[staticmethod]
    fn from_ids(ids: &Bound<'_, PyAny>) -> PyResult<Action> {
        let accepts = "a sequence of action ids (ints)";
        if ids.cast::<PyString>().is_ok() {
            return Err(type_error("ids", ids, accepts));
        }
        let list = ids
            .try_iter()
            .map_err(|_| type_error("ids", ids, accepts))?
            .enumerate()
            .map(|(i, id)| convert::int(&format!("ids[{i}]"), &id?, ID))
            .collect::<PyResult<Vec<i64>>>()?;
        Action::of_ids(&list)
    }
    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        match self.0 {
            core::Action::Exchange(t) => {
                format!("Action.exchange('{}')", core_tile::format_tiles(&t))
            }
            core::Action::Void(s) => format!("Action.void('{s}')"),
            core::Action::Discard(t) => format!("Action.discard('{t}')"),
            core::Action::Kong(t) => format!("Action.kong('{t}')"),
            core::Action::Swap(t) => format!("Action.swap('{t}')"),
            core::Action::Pass => "Action.pass_()".into(),
            other => format!("Action.{}()", other.kind()),
        }
    }

    fn __reduce__(&self, py: Python<'_>) -> PyResult<(Py<PyAny>, (String,))> {
        let parse = py.get_type::<Action>().getattr("parse")?.unbind();
        Ok((parse, (self.0.to_string(),)))
    }
}

/// What an action id is.
const ID: &str = "an action id, an int (docs/encoding.md)";

impl Action {
    /// The action of one id, or of an exchange's three pick ids.
    fn of_ids(ids: &[i64]) -> PyResult<Action> {
        let choices = ids
            .iter()
            .map(|&id| {
                u16::try_from(id)
                    .ok()
                    .and_then(encode::meaning)
                    .ok_or_else(|| crate::encode::bad_id(id))
            })
            .collect::<PyResult<Vec<_>>>()?;
        let pick = |c: &encode::IdMeaning| match c {
            encode::IdMeaning::Pick(t) => Some(*t),
            encode::IdMeaning::Act(_) => None,
        };
        match choices[..] {
            [encode::IdMeaning::Act(a)] => Ok(Action(a)),
            [ref a, ref b, ref c] if choices.iter().all(|c| pick(c).is_some()) => {
                let t = [a, b, c].map(|c| pick(c).expect("a pick"));
                Ok(Action(core::Action::exchange(t)))
            }
            _ => Err(ArgumentError::new_err(format!(
                "ids {ids:?} are no action: give one id, or three pick ids (0-26) for an exchange"
            ))),
        }
    }
}

/// Interned Python objects for every action but exchanges, by the core's action id
/// (docs/encoding.md §1), so `legal_actions` hands out references instead of allocating.
fn interned(py: Python<'_>, action: core::Action) -> PyResult<Py<Action>> {
    static TABLE: PyOnceLock<Vec<Option<Py<Action>>>> = PyOnceLock::new();
    let Some(id) = encode::action_id(action) else {
        return Py::new(py, Action(action));
    };
    let table = TABLE.get_or_try_init(py, || {
        (0..encode::ACTION_COUNT as u16)
            .map(|id| match encode::meaning(id) {
                Some(encode::IdMeaning::Act(a)) => Py::new(py, Action(a)).map(Some),
                _ => Ok(None),
            })
            .collect::<PyResult<Vec<_>>>()
    })?;
    match table.get(usize::from(id)).and_then(Option::as_ref) {
        Some(object) => Ok(object.clone_ref(py)),
        None => Py::new(py, Action(action)),
    }
}

/// A pong or kong on the table; in the 幺鸡 variant some of its tiles may be wilds.
#[pyclass(frozen, eq, hash, module = "xueliu")]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Meld(CoreMeld);

#[pymethods]
impl Meld {
    /// `"pong"`, `"kong"` (直杠 or 补杠) or `"concealed_kong"` (暗杠).
    #[getter]
    fn kind(&self) -> &'static str {
        self.0.kind.name()
    }

    /// The tile it is made of (a wild stands in for some of its copies).
    #[getter]
    fn tile(&self) -> Tile {
        Tile(self.0.tile)
    }

    /// Wilds (幺鸡) among its tiles; 0 for an all-natural meld.
    #[getter]
    fn wilds(&self) -> u8 {
        self.0.wilds
    }

    /// The natural tiles, then one `1s` per wild: `"555m"`, `"55m1s"`.
    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Meld({}, '{}')", self.kind(), self.0)
    }
}

/// One win: who, on what tile, from whom, how, and its score.
#[pyclass(frozen, get_all, module = "xueliu")]
pub struct Win {
    /// The winner's seat.
    seat: u8,
    /// The winning tile (a wild `1s` when a wild won).
    tile: Tile,
    /// The discarder or the robbed kong's owner; None for a self-drawn win.
    from_seat: Option<u8>,
    /// `"discard"`, `"self_draw"` or `"robbed_kong"`.
    kind: &'static str,
    /// What the win scored: pattern, bonuses, fan and points per payer.
    score: Py<Score>,
}

#[pymethods]
impl Win {
    fn __repr__(&self) -> String {
        let from = self
            .from_seat
            .map_or("self-drawn".to_string(), |f| format!("from seat {f}"));
        format!(
            "Win(seat {} on {}, {}, {})",
            self.seat, self.tile.0, self.kind, from
        )
    }
}

fn action_arg(action: &Bound<'_, PyAny>) -> PyResult<core::Action> {
    if let Ok(a) = action.cast::<Action>() {
        return Ok(a.get().0);
    }
    if action.cast::<PyString>().is_ok() {
        return Ok(Action::parse(action)?.0);
    }
    Err(type_error(
        "action",
        action,
        "an Action (e.g. Action.discard(\"5m\")) or its text (\"discard 5m\")",
    ))
}

/// JSON text as Python values, by Python's own `json`.
pub(crate) fn json_loads<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?.call_method1("loads", (text,))
}

/// One hand of Sichuan mahjong (docs/game-protocol.md). `rules` is a preset name; `seed` drives
/// the only random generator. One thread uses a `Game` at a time: a second one meanwhile gets
/// ConcurrentUseError and changes nothing (docs/guarantees.md).
#[pyclass(frozen, module = "xueliu")]
pub struct Game {
    state: Mutex<State>,
}

/// A `Game`'s core game and its event log as Python dicts, each built once.
pub(crate) struct State {
    pub game: core::Game,
    events: Vec<Py<PyAny>>,
}

impl Game {
    pub(crate) fn of(game: core::Game) -> Game {
        Game {
            state: Mutex::new(State {
                game,
                events: Vec::new(),
            }),
        }
    }

    /// The state, unless another thread is using this game.
    pub(crate) fn lock(&self) -> PyResult<MutexGuard<'_, State>> {
        exclusive(&self.state, "Game")
    }

    /// The core game, for a read.
    fn with<T>(&self, f: impl FnOnce(&core::Game) -> T) -> PyResult<T> {
        Ok(f(&self.lock()?.game))
    }
}

impl State {
    /// The core game, changed: the events built so far stay, as the log only grows.
    pub fn game_mut(&mut self) -> &mut core::Game {
        &mut self.game
    }

    /// Replaces the game (a match's next hand): the events built are of the old one.
    pub fn replace(&mut self, game: core::Game) -> core::Game {
        self.events.clear();
        std::mem::replace(&mut self.game, game)
    }
}

#[pymethods]
impl Game {
    /// `dealer` (0-3) deals this hand when given, as a match's next hand; otherwise
    /// `first_dealer` chooses.
    #[new]
    #[pyo3(signature = (rules=None, *, seed=None, dealer=None))]
    fn new(
        rules: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
        dealer: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Game> {
        let rules = rules_or_default(rules)?;
        let seed = seed_or_zero(seed)?;
        let dealer = match dealer.filter(|d| !d.is_none()) {
            None => None,
            Some(d) => {
                // The core refuses a dealer 4-255; one no u8 holds is refused here alike.
                let d: i128 = convert::int("dealer", d, "a seat 0-3, or None")?;
                Some(u8::try_from(d).map_err(|_| {
                    ArgumentError::new_err(format!(
                        "dealer {d} does not exist; the dealer is a seat 0-3"
                    ))
                })?)
            }
        };
        let inner = core::Game::with_dealer(rules, seed, dealer, true).map_err(core_error)?;
        Ok(Game::of(inner))
    }

    /// The dealer of the next hand of a match under `dealer_rotation`, once this hand is over;
    /// None before.
    #[getter]
    fn next_dealer(&self) -> PyResult<Option<u8>> {
        self.with(xueliu_core::game::Game::next_dealer)
    }

    /// 逃跑: `seat`, which has not won, leaves; it pays the escape penalty and the hand ends.
    fn abandon(&self, seat: &Bound<'_, PyAny>) -> PyResult<()> {
        let seat = seat_arg(seat)?;
        self.lock()?.game_mut().abandon(seat).map_err(core_error)
    }

    /// The seat that left the hand (逃跑), or None.
    #[getter]
    fn leaver(&self) -> PyResult<Option<u8>> {
        self.with(xueliu_core::game::Game::leaver)
    }

    /// `"exchange"`, `"void"`, `"play"` or `"over"`.
    #[getter]
    fn phase(&self) -> PyResult<&'static str> {
        self.with(|g| g.phase().name())
    }

    /// True once the hand has ended (its `end` event is logged); no seat acts any more.
    #[getter]
    fn is_over(&self) -> PyResult<bool> {
        self.with(xueliu_core::game::Game::is_over)
    }

    /// The seed the hand was dealt from: same seed and same actions, same game.
    #[getter]
    fn seed(&self) -> PyResult<u64> {
        self.with(xueliu_core::game::Game::seed)
    }

    /// The dealer's seat (0 East … 3 North), who starts with 14 tiles.
    #[getter]
    fn dealer(&self) -> PyResult<u8> {
        self.with(xueliu_core::game::Game::dealer)
    }

    /// Each seat's running total of points.
    #[getter]
    fn scores(&self) -> PyResult<[i64; 4]> {
        self.with(xueliu_core::game::Game::scores)
    }

    /// Tiles left to draw in the wall.
    #[getter]
    fn wall_remaining(&self) -> PyResult<usize> {
        self.with(xueliu_core::game::Game::wall_remaining)
    }

    /// Seats that must decide now, in seat order.
    fn to_act(&self) -> PyResult<Vec<usize>> {
        self.with(|g| g.to_act().into_iter().map(usize::from).collect())
    }

    /// The legal actions of `seat` now; empty when it need not decide.
    fn legal_actions(&self, py: Python<'_>, seat: &Bound<'_, PyAny>) -> PyResult<Vec<Py<Action>>> {
        let seat = seat_arg(seat)?;
        let mut list = ActionList::new();
        self.with(|g| g.legal_actions(seat, &mut list))?;
        list.iter().map(|&a| interned(py, a)).collect()
    }

    /// Takes `action` for `seat`. An illegal one raises IllegalActionError and changes nothing.
    fn act(&self, seat: &Bound<'_, PyAny>, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let seat = seat_arg(seat)?;
        let action = action_arg(action)?;
        self.lock()?
            .game_mut()
            .act(seat, action)
            .map_err(core_error)
    }

    /// Takes action id `action_id` for `seat` (docs/encoding.md §1), whose exchange picks so far
    /// are `picked`: a pick joins them and the third plays the exchange; any other id plays its
    /// action. Returns the picks to keep (empty except mid-exchange). An id not legal now raises
    /// IllegalActionError naming the legal ids, and changes nothing.
    #[pyo3(signature = (seat, action_id, *, picked=None))]
    fn act_id(
        &self,
        seat: &Bound<'_, PyAny>,
        action_id: &Bound<'_, PyAny>,
        picked: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Vec<u16>> {
        let seat = seat_arg(seat)?;
        let id: i64 = convert::int("action_id", action_id, ID)?;
        let id = u16::try_from(id)
            .ok()
            .filter(|&id| usize::from(id) < encode::ACTION_COUNT)
            .ok_or_else(|| crate::encode::bad_id(id))?;
        let mut picks = picks_arg(picked)?;
        let mut state = self.lock()?;
        encode::act_id(state.game_mut(), seat, &mut picks, id).map_err(core_error)?;
        let kept = picks.as_slice().iter().copied();
        Ok(kept.map(encode::pick_id).collect())
    }

    /// Raises what `act(seat, action)` would raise (IllegalActionError with the engine's
    /// reason), changing nothing; returns None when the action is legal now.
    fn check(&self, seat: &Bound<'_, PyAny>, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let seat = seat_arg(seat)?;
        let action = action_arg(action)?;
        self.with(|g| g.check(seat, action))?.map_err(core_error)
    }

    /// The ids `seat` may take now, as a bool array of `ACTION_COUNT` (docs/encoding.md
    /// §1). During the exchange, `picked` names the tiles already picked toward it (one id per
    /// tile): the mask then offers the tiles that can follow.
    #[pyo3(signature = (seat, *, picked=None))]
    fn action_mask<'py>(
        &self,
        py: Python<'py>,
        seat: &Bound<'_, PyAny>,
        picked: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, numpy::PyArray1<bool>>> {
        let picks = picks_arg(picked)?;
        let seat = seat_arg(seat)?;
        crate::encode::action_mask(py, &self.lock()?.game, seat, &picks)
    }

    /// `seat`'s observation: a new `uint8` array of `OBS_SHAPE`, built only from what the seat
    /// may see (docs/encoding.md §2). `picked` as for `action_mask`.
    #[pyo3(signature = (seat, *, picked=None))]
    fn observe<'py>(
        &self,
        py: Python<'py>,
        seat: &Bound<'_, PyAny>,
        picked: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, numpy::PyArray2<u8>>> {
        let picks = picks_arg(picked)?;
        let seat = seat_arg(seat)?;
        crate::encode::observe(py, &self.lock()?.game, seat, &picks)
    }

    /// `observe` bit-packed: a new `uint32` array of `OBS_PACKED_SHAPE` (docs/encoding.md §2.1;
    /// `xueliu.unpack_observations` inverts it).
    #[pyo3(signature = (seat, *, picked=None))]
    fn observe_packed<'py>(
        &self,
        py: Python<'py>,
        seat: &Bound<'_, PyAny>,
        picked: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, numpy::PyArray1<u32>>> {
        let picks = picks_arg(picked)?;
        let seat = seat_arg(seat)?;
        crate::encode::observe_packed(py, &self.lock()?.game, seat, &picks)
    }

    /// `observe` written into `out`, a C-contiguous `uint8` array of `OBS_SHAPE`.
    #[pyo3(signature = (seat, out, *, picked=None))]
    fn observe_into(
        &self,
        seat: &Bound<'_, PyAny>,
        out: &Bound<'_, PyAny>,
        picked: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let picks = picks_arg(picked)?;
        let seat = seat_arg(seat)?;
        crate::encode::observe_into(&self.lock()?.game, seat, &picks, out)
    }

    /// Whether `seat` still plays this hand: always in 血流 (`mode = "xueliu"`), until its win
    /// in 血战.
    fn in_hand(&self, seat: &Bound<'_, PyAny>) -> PyResult<bool> {
        let seat = seat_arg(seat)?;
        self.with(|g| g.in_hand(seat))
    }

    /// The score of the win `seat` may declare now, as it would be recorded (its situation
    /// included: 自摸, 杠上花, 杠上炮, 抢杠, 海底 …); `None` when `win` is not among its legal
    /// actions. For the value shown beside a win button, without a trial copy of the game.
    fn offered_win(&self, seat: &Bound<'_, PyAny>) -> PyResult<Option<Score>> {
        let seat = seat_arg(seat)?;
        Ok(self.with(|g| g.offered_win(seat))?.map(Score))
    }

    /// The payments the win on offer brings `seat`, as `(payer, amount, reason)` in log order,
    /// if it wins now and the other seats asked pass; `None` when `win` is not among its legal
    /// actions. The engine settles the win on a copy (this game is not changed).
    fn offered_payments(&self, seat: &Bound<'_, PyAny>) -> PyResult<Option<Vec<Paid>>> {
        let seat = seat_arg(seat)?;
        let paid = self.with(|g| g.offered_payments(seat))?;
        Ok(paid.map(|p| {
            p.into_iter()
                .map(|(payer, amount, reason)| (payer, amount, reason.name()))
                .collect()
        }))
    }

    /// What a server plays for `seat` on a timeout.
    fn default_action(&self, py: Python<'_>, seat: &Bound<'_, PyAny>) -> PyResult<Py<Action>> {
        let seat = seat_arg(seat)?;
        let action = self.with(|g| {
            g.default_action(seat).ok_or_else(|| {
                IllegalActionError::new_err(format!(
                    "seat {seat} need not decide now; waiting for seats {:?}",
                    g.to_act()
                ))
            })
        })??;
        interned(py, action)
    }

    /// The concealed tiles of `seat`, sorted; a wild is the `1s` it is.
    fn hand(&self, seat: &Bound<'_, PyAny>) -> PyResult<Vec<Tile>> {
        let seat = seat_arg(seat)?;
        self.with(|g| g.seat(seat).hand().tiles_with_wilds().map(Tile).collect())
    }

    /// The pongs and kongs of `seat`, in the order they were made.
    fn melds(&self, seat: &Bound<'_, PyAny>) -> PyResult<Vec<Meld>> {
        let seat = seat_arg(seat)?;
        self.with(|g| g.seat(seat).meld_list().map(Meld).collect())
    }

    /// The discards still in front of `seat` (a claimed tile leaves).
    fn discards(&self, seat: &Bound<'_, PyAny>) -> PyResult<Vec<Tile>> {
        let seat = seat_arg(seat)?;
        self.with(|g| g.discards(seat).into_iter().map(Tile).collect())
    }

    /// The declared void suit of `seat`, or None.
    fn void(&self, seat: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
        let seat = seat_arg(seat)?;
        self.with(|g| g.seat(seat).void().map(|s| s.letter().to_string()))
    }

    /// Every win so far, in the order it was settled, each with its `Score`.
    #[getter]
    fn wins(&self, py: Python<'_>) -> PyResult<Vec<Win>> {
        let state = self.lock()?;
        state
            .game
            .wins()
            .iter()
            .map(|w| {
                Ok(Win {
                    seat: w.seat,
                    tile: Tile(w.tile),
                    from_seat: w.from,
                    kind: w.kind.name(),
                    score: Py::new(py, Score(w.score))?,
                })
            })
            .collect()
    }

    /// The event log: a new list of dicts (docs/game-protocol.md §9). Each event's dict is
    /// built once and the same object is handed out on every read: copy one before changing it.
    #[getter]
    fn events<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let mut state = self.lock()?;
        let built = state.events.len();
        if state.game.events().count() > built {
            let new = json_loads(py, &state.game.events_json_from(None, built))?;
            for event in new.try_iter()? {
                state.events.push(event?.unbind());
            }
        }
        PyList::new(py, state.events.iter().map(|e| e.bind(py)))
    }

    /// The log as `seat` may see it (RULES.md §12), from its `start`-th event.
    #[pyo3(signature = (seat, *, start=None), text_signature = "($self, seat, *, start=0)")]
    fn events_for<'py>(
        &self,
        py: Python<'py>,
        seat: &Bound<'_, PyAny>,
        start: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let seat = seat_arg(seat)?;
        let start = start_arg(start)?;
        let text = self.with(|g| g.events_json_from(Some(core::Viewer::Seat(seat)), start))?;
        json_loads(py, &text)
    }

    /// The log as a spectator may see it: only what every seat sees (RULES.md §12), from its
    /// `start`-th event.
    #[pyo3(signature = (*, start=None), text_signature = "($self, *, start=0)")]
    fn public_events<'py>(
        &self,
        py: Python<'py>,
        start: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let start = start_arg(start)?;
        let text = self.with(|g| g.public_events_json(start))?;
        json_loads(py, &text)
    }

    /// A copy in which every tile hidden from `seat` (other hands, the wall) is dealt again at
    /// random from `seed`, consistent with all `seat` knows (RULES.md §12); for search. It keeps
    /// no event log: the true log would give the true deal away.
    fn determinize(&self, seat: &Bound<'_, PyAny>, seed: &Bound<'_, PyAny>) -> PyResult<Game> {
        let seat = seat_arg(seat)?;
        let seed = seed_arg(seed)?;
        let copy = self.with(|g| match g.view(seat) {
            Some(view) => search::determinize(&view, seed, Some(TrueHands::of(g))),
            None => Err(xueliu_core::Error::Argument(format!("seat {seat}: 0 to 3"))),
        })?;
        copy.map(Game::of).map_err(core_error)
    }

    /// An independent copy; cheap.
    fn clone(&self) -> PyResult<Game> {
        self.with(|g| Game::of(g.clone()))
    }

    fn __copy__(&self) -> PyResult<Game> {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyResult<Game> {
        self.clone()
    }

    /// Pickles as its snapshot: `Game.from_json(game.to_json())`.
    fn __reduce__(&self, py: Python<'_>) -> PyResult<(Py<PyAny>, (String,))> {
        let from_json = py.get_type::<Game>().getattr("from_json")?.unbind();
        Ok((from_json, (self.to_json()?,)))
    }

    /// A full snapshot as JSON text; `Game.from_json` restores it exactly.
    fn to_json(&self) -> PyResult<String> {
        self.with(xueliu_core::game::Game::to_json)
    }

    /// Restores a snapshot, verified by replaying its seed and decisions (SnapshotError naming
    /// the first field that disagrees); `trusted=True` trusts that it is what they produce and
    /// checks only that it is a consistent game (docs/guarantees.md).
    #[staticmethod]
    #[pyo3(signature = (text, *, trusted = None), text_signature = "(text, *, trusted=False)")]
    fn from_json(text: &Bound<'_, PyAny>, trusted: Option<&Bound<'_, PyAny>>) -> PyResult<Game> {
        let text = convert::text("text", text, "a snapshot's JSON text (Game.to_json())")?;
        let restore = if convert::flag("trusted", trusted, false)? {
            core::Game::from_json_trusted
        } else {
            core::Game::from_json
        };
        restore(&text).map(Game::of).map_err(core_error)
    }

    /// Plays `(seat, action)` pairs from a fresh hand of `rules` and `seed`.
    #[staticmethod]
    fn replay(
        rules: &Bound<'_, PyAny>,
        seed: &Bound<'_, PyAny>,
        actions: &Bound<'_, PyAny>,
    ) -> PyResult<Game> {
        let accepts = "a sequence of (seat, action) pairs";
        let items = actions
            .try_iter()
            .map_err(|_| type_error("actions", actions, accepts))?;
        let mut pairs = Vec::new();
        for (i, item) in items.enumerate() {
            let item = item?;
            let pair = item
                .cast::<PyTuple>()
                .ok()
                .filter(|p| p.len() == 2)
                .ok_or_else(|| {
                    type_error(&format!("actions[{i}]"), &item, "a (seat, action) pair")
                })?;
            pairs.push((
                seat_arg(&pair.get_item(0)?)?,
                action_arg(&pair.get_item(1)?)?,
            ));
        }
        core::Game::replay(rules_arg(rules)?, seed_arg(seed)?, &pairs, true)
            .map(Game::of)
            .map_err(core_error)
    }

    /// Replays an event log (a list of event dicts, or its JSON text) and checks that the
    /// replay writes the same log.
    #[staticmethod]
    fn from_events(py: Python<'_>, events: &Bound<'_, PyAny>) -> PyResult<Game> {
        core::Game::from_events(&events_text(py, events)?)
            .map(Game::of)
            .map_err(core_error)
    }

    /// Replays an event log as `from_events` does (the same checks), returning the game before
    /// its first decision and after each one, each with the number of events written by then:
    /// what a replay viewer shows beside each event. The games carry no log.
    #[staticmethod]
    fn replay_states(py: Python<'_>, events: &Bound<'_, PyAny>) -> PyResult<Vec<(usize, Game)>> {
        let states = core::Game::replay_states(&events_text(py, events)?).map_err(core_error)?;
        Ok(states
            .into_iter()
            .map(|(written, game)| (written, Game::of(game)))
            .collect())
    }

    /// How many of a log's first events replay as a log the engine writes (0 if none), in one
    /// pass: how far a log cut short or tampered with is confirmed.
    #[staticmethod]
    fn replayed_prefix(py: Python<'_>, events: &Bound<'_, PyAny>) -> PyResult<usize> {
        core::Game::replayed_prefix(&events_text(py, events)?).map_err(core_error)
    }

    fn __repr__(&self) -> PyResult<String> {
        self.with(|g| {
            format!(
                "Game(seed={}, phase={:?}, wall={}, scores={:?})",
                g.seed(),
                g.phase().name(),
                g.wall_remaining(),
                g.scores()
            )
        })
    }
}

/// One payment to a seat: payer, amount, reason.
type Paid = (u8, i64, &'static str);

/// `events=`: a list of event dicts (`Game.events`) or its JSON text, as JSON text.
fn events_text(py: Python<'_>, events: &Bound<'_, PyAny>) -> PyResult<String> {
    let accepts = "a list of event dicts (Game.events) or its JSON text";
    if events.cast::<PyString>().is_ok() {
        convert::text("events", events, accepts)
    } else if events.cast::<PyList>().is_ok() {
        json_dumps(py, "events", events, accepts)
    } else {
        Err(type_error("events", events, accepts))
    }
}

/// `start=`: the index of the first event wanted.
fn start_arg(start: Option<&Bound<'_, PyAny>>) -> PyResult<usize> {
    start.map_or(Ok(0), |s| {
        convert::int("start", s, "an event index, an int of at least 0")
    })
}

/// `value` as JSON text by Python's `json`; a value JSON cannot hold is an argument error.
pub(crate) fn json_dumps(
    py: Python<'_>,
    param: &str,
    value: &Bound<'_, PyAny>,
    accepts: &str,
) -> PyResult<String> {
    let text = py
        .import("json")?
        .call_method1("dumps", (value,))
        .map_err(|e| argument_error(param, format!("a value JSON cannot hold ({e})"), accepts))?;
    convert::text(param, &text, accepts)
}
