//! `Game`, `Action`, `Meld` and `Win`: the turn state machine of `xueliu_core::game`, converted
//! value by value. No rule logic lives here.

use crate::errors::{argument_error, core_error, type_error, ArgumentError, IllegalActionError};
use crate::score::Score;
use crate::tiles::{index_to_tile, Tile};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyList, PyString, PyTuple};
use std::sync::Arc;
use xueliu_core::encode;
use xueliu_core::game::{self as core, ActionList};
use xueliu_core::meld::{Meld as CoreMeld, MeldKind};
use xueliu_core::rules::Rules;
use xueliu_core::tile::{self as core_tile, Suit, Tile as CoreTile};

/// One decision: `exchange`, `void`, `discard`, `pong`, `kong`, `win`, `pass` or `swap` (幺鸡换).
#[pyclass(frozen, eq, hash, module = "xueliu")]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Action(pub core::Action);

pub(crate) fn tile_arg(value: &Bound<'_, PyAny>) -> PyResult<CoreTile> {
    if let Ok(t) = value.cast::<Tile>() {
        return Ok(t.get().0);
    }
    if let Ok(text) = value.cast::<PyString>() {
        let text = text.to_cow()?;
        let tiles = core_tile::parse_tiles(&text).map_err(crate::errors::tile_parse_error)?;
        return match tiles[..] {
            [t] => Ok(t),
            _ => Err(ArgumentError::new_err(format!(
                "{text:?} names {} tiles; an action names one, e.g. \"5m\"",
                tiles.len()
            ))),
        };
    }
    index_to_tile(value.extract()?)
}

#[pymethods]
impl Action {
    /// 换三张: give three tiles (one suit, unless `exchange_same_suit` is off), e.g. `"123m"`.
    #[staticmethod]
    fn exchange(tiles: &Bound<'_, PyAny>) -> PyResult<Action> {
        let list: Vec<CoreTile> = if let Ok(text) = tiles.cast::<PyString>() {
            core_tile::parse_tiles(&text.to_cow()?).map_err(crate::errors::tile_parse_error)?
        } else {
            tiles
                .try_iter()?
                .map(|t| tile_arg(&t?))
                .collect::<PyResult<_>>()?
        };
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
    fn void(suit: &str) -> PyResult<Action> {
        Suit::parse(suit)
            .map(|s| Action(core::Action::Void(s)))
            .ok_or_else(|| {
                ArgumentError::new_err(format!(
                    "void {suit:?} is not a suit; use \"m\", \"p\" or \"s\""
                ))
            })
    }

    #[staticmethod]
    fn discard(tile: &Bound<'_, PyAny>) -> PyResult<Action> {
        Ok(Action(core::Action::Discard(tile_arg(tile)?)))
    }

    /// Pong the discard (the tile is always the discard's).
    #[staticmethod]
    fn pong() -> Action {
        Action(core::Action::Pong)
    }

    /// A kong of `tile`: direct on a discard, added onto a pong, or concealed.
    #[staticmethod]
    fn kong(tile: &Bound<'_, PyAny>) -> PyResult<Action> {
        Ok(Action(core::Action::Kong(tile_arg(tile)?)))
    }

    /// 幺鸡换: put a natural `tile` into the seat's kong of it and take one of its wilds back.
    #[staticmethod]
    fn swap(tile: &Bound<'_, PyAny>) -> PyResult<Action> {
        Ok(Action(core::Action::Swap(tile_arg(tile)?)))
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
    fn parse(text: &str) -> PyResult<Action> {
        core::Action::parse(text).map(Action).ok_or_else(|| {
            ArgumentError::new_err(format!(
                "cannot read action {}; write e.g. \"discard 5m\", \"kong 5m\", \"swap 5m\", \"exchange 123m\", \"void p\", \"pong\", \"win\", \"pass\"",
                crate::errors::quote(text)
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
    fn from_id(id: i64) -> PyResult<Action> {
        Action::from_ids(vec![id])
    }

    /// The action of its ids: one id, or an exchange's three pick ids (`Action.ids` inverted).
    #[staticmethod]
    fn from_ids(ids: Vec<i64>) -> PyResult<Action> {
        let choices = ids
            .iter()
            .map(|&id| {
                u16::try_from(id)
                    .ok()
                    .and_then(encode::choice)
                    .ok_or_else(|| crate::encode::bad_id(id))
            })
            .collect::<PyResult<Vec<_>>>()?;
        let pick = |c: &encode::Choice| match c {
            encode::Choice::Pick(t) => Some(*t),
            _ => None,
        };
        match choices[..] {
            [encode::Choice::Act(a)] => Ok(Action(a)),
            [ref a, ref b, ref c] if choices.iter().all(|c| pick(c).is_some()) => {
                let t = [a, b, c].map(|c| pick(c).expect("a pick"));
                Ok(Action(core::Action::exchange(t)))
            }
            _ => Err(ArgumentError::new_err(format!(
                "ids {ids:?} are no action: give one id, or three pick ids (0-26) for an exchange"
            ))),
        }
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

/// Interned Python objects for every action but exchanges, so `legal_actions` hands out
/// references instead of allocating.
fn interned(py: Python<'_>, action: core::Action) -> PyResult<Py<Action>> {
    static TABLE: PyOnceLock<Vec<Py<Action>>> = PyOnceLock::new();
    let slot = match action {
        core::Action::Discard(t) => t.index(),
        core::Action::Kong(t) => 27 + t.index(),
        core::Action::Void(s) => 54 + s.index(),
        core::Action::Pong => 57,
        core::Action::Win => 58,
        core::Action::Pass => 59,
        core::Action::Swap(t) => 60 + t.index(),
        core::Action::Exchange(_) => return Py::new(py, Action(action)),
    };
    let table = TABLE.get_or_try_init(py, || {
        let mut all = Vec::with_capacity(87);
        for t in CoreTile::all() {
            all.push(Py::new(py, Action(core::Action::Discard(t)))?);
        }
        for t in CoreTile::all() {
            all.push(Py::new(py, Action(core::Action::Kong(t)))?);
        }
        for s in Suit::ALL {
            all.push(Py::new(py, Action(core::Action::Void(s)))?);
        }
        for a in [core::Action::Pong, core::Action::Win, core::Action::Pass] {
            all.push(Py::new(py, Action(a))?);
        }
        for t in CoreTile::all() {
            all.push(Py::new(py, Action(core::Action::Swap(t)))?);
        }
        Ok::<_, PyErr>(all)
    })?;
    Ok(table[slot].clone_ref(py))
}

/// A pong or kong on the table; in the 幺鸡 variant some of its tiles may be wilds.
#[pyclass(frozen, eq, hash, module = "xueliu")]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Meld {
    /// `"pong"`, `"kong"` (直杠 or 补杠) or `"concealed_kong"` (暗杠).
    #[pyo3(get)]
    kind: &'static str,
    /// The tile it is made of (a wild stands in for some of its copies).
    #[pyo3(get)]
    tile: Tile,
    /// Wilds (幺鸡) among its tiles; 0 for an all-natural meld.
    #[pyo3(get)]
    wilds: u8,
}

#[pymethods]
impl Meld {
    /// The natural tiles, then one `1s` per wild: `"555m"`, `"55m1s"`.
    fn __str__(&self) -> String {
        let meld = match self.kind {
            "pong" => CoreMeld::pong(self.tile.0),
            kind => CoreMeld::kong(self.tile.0, kind == "concealed_kong"),
        };
        meld.with_wilds(self.wilds).to_string()
    }

    fn __repr__(&self) -> String {
        format!("Meld({}, '{}')", self.kind, self.__str__())
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

/// Rules given as a `Rules`, a preset name, or a dict: `Rules.to_dict()`'s full form, or a
/// `"preset"` (chengdu if absent) and options to override.
pub(crate) fn rules_arg(rules: &Bound<'_, PyAny>) -> PyResult<Arc<Rules>> {
    let class = rules.py().get_type::<crate::rules::Rules>();
    let rules = match rules.cast::<pyo3::types::PyDict>() {
        Ok(d) if d.len() == Rules::KEYS.len() => class.call_method1("from_dict", (d,))?,
        Ok(d) => {
            let overrides = d.copy()?;
            let name = match overrides.get_item("preset")? {
                Some(name) => {
                    overrides.del_item("preset")?;
                    name
                }
                None => "chengdu".into_pyobject(rules.py())?.into_any(),
            };
            class.call_method("preset", (name,), Some(&overrides))?
        }
        Err(_) => rules.clone(),
    };
    crate::rules::rules_arg(&rules).map(Arc::new)
}

/// The rules given, or chengdu's.
pub(crate) fn rules_or_chengdu(rules: Option<&Bound<'_, PyAny>>) -> PyResult<Arc<Rules>> {
    match rules {
        Some(r) => rules_arg(r),
        None => Rules::preset("chengdu")
            .map(Arc::new)
            .map_err(crate::errors::rules_error),
    }
}

pub(crate) fn seat_arg(seat: &Bound<'_, PyAny>) -> PyResult<u8> {
    crate::convert::int("seat", seat, "a seat: 0, 1, 2 or 3")
        .ok()
        .filter(|&s: &u8| s < 4)
        .ok_or_else(|| match crate::convert::is_int(seat) {
            true => ArgumentError::new_err(format!(
                "seat {} does not exist; seats are 0-3",
                crate::errors::excerpt(seat)
            )),
            false => type_error("seat", seat, "a seat: 0, 1, 2 or 3"),
        })
}

pub(crate) fn seed_arg(seed: &Bound<'_, PyAny>) -> PyResult<u64> {
    if !seed.is_instance_of::<pyo3::types::PyInt>() {
        return Err(type_error("seed", seed, "an int from 0 to 2**64 - 1"));
    }
    seed.extract::<u64>().map_err(|_| {
        argument_error(
            "seed",
            crate::errors::excerpt(seed),
            "an int from 0 to 2**64 - 1",
        )
    })
}

fn action_arg(action: &Bound<'_, PyAny>) -> PyResult<core::Action> {
    if let Ok(a) = action.cast::<Action>() {
        return Ok(a.get().0);
    }
    if let Ok(text) = action.cast::<PyString>() {
        return Ok(Action::parse(&text.to_cow()?)?.0);
    }
    Err(type_error(
        "action",
        action,
        "an Action (e.g. Action.discard(\"5m\")) or its text (\"discard 5m\")",
    ))
}

pub(crate) fn json_loads<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?.call_method1("loads", (text,))
}

/// One hand of Sichuan mahjong (docs/game-protocol.md). `rules` is a preset name; `seed` drives
/// the only random generator.
#[pyclass(module = "xueliu")]
pub struct Game {
    pub(crate) inner: core::Game,
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
        dealer: Option<i64>,
    ) -> PyResult<Game> {
        let rules = rules_or_chengdu(rules)?;
        let seed = seed.map(seed_arg).transpose()?.unwrap_or(0);
        let dealer = dealer
            .map(|d| {
                u8::try_from(d).ok().filter(|&d| d < 4).ok_or_else(|| {
                    ArgumentError::new_err(format!(
                        "dealer {d} does not exist; the dealer is a seat 0-3"
                    ))
                })
            })
            .transpose()?;
        let inner = core::Game::with_dealer(rules, seed, dealer, true).map_err(core_error)?;
        Ok(Game { inner })
    }

    /// The dealer of the next hand of a match under `dealer_rotation`, once this hand is over;
    /// None before.
    #[getter]
    fn next_dealer(&self) -> Option<u8> {
        self.inner.next_dealer()
    }

    /// 逃跑: `seat`, which has not won, leaves; it pays the escape penalty and the hand ends.
    fn abandon(&mut self, seat: &Bound<'_, PyAny>) -> PyResult<()> {
        self.inner.abandon(seat_arg(seat)?).map_err(core_error)
    }

    /// The seat that left the hand (逃跑), or None.
    #[getter]
    fn leaver(&self) -> Option<u8> {
        self.inner.leaver()
    }

    /// `"exchange"`, `"void"`, `"play"` or `"over"`.
    #[getter]
    fn phase(&self) -> &'static str {
        self.inner.phase().name()
    }

    /// True once the hand has ended (its `end` event is logged); no seat acts any more.
    #[getter]
    fn is_over(&self) -> bool {
        self.inner.is_over()
    }

    /// The seed the hand was dealt from: same seed and same actions, same game.
    #[getter]
    fn seed(&self) -> u64 {
        self.inner.seed()
    }

    /// The dealer's seat (0 East … 3 North), who starts with 14 tiles.
    #[getter]
    fn dealer(&self) -> u8 {
        self.inner.dealer()
    }

    /// Each seat's running total of points.
    #[getter]
    fn scores(&self) -> [i64; 4] {
        self.inner.scores()
    }

    /// Tiles left to draw in the wall.
    #[getter]
    fn wall_remaining(&self) -> usize {
        self.inner.wall_remaining()
    }

    /// Seats that must decide now, in seat order.
    fn to_act(&self) -> Vec<usize> {
        self.inner.to_act().into_iter().map(usize::from).collect()
    }

    /// The legal actions of `seat` now; empty when it need not decide.
    fn legal_actions(&self, py: Python<'_>, seat: &Bound<'_, PyAny>) -> PyResult<Vec<Py<Action>>> {
        let seat = seat_arg(seat)?;
        let mut list = ActionList::new();
        self.inner.legal_actions(seat, &mut list);
        list.iter().map(|&a| interned(py, a)).collect()
    }

    /// Takes `action` for `seat`. An illegal one raises IllegalActionError and changes nothing.
    fn act(&mut self, seat: &Bound<'_, PyAny>, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let seat = seat_arg(seat)?;
        let action = action_arg(action)?;
        self.inner.act(seat, action).map_err(core_error)
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
        let picks = crate::encode::picks_arg(picked)?;
        crate::encode::action_mask(py, &self.inner, seat_arg(seat)?, &picks)
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
        let picks = crate::encode::picks_arg(picked)?;
        crate::encode::observe(py, &self.inner, seat_arg(seat)?, &picks)
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
        let picks = crate::encode::picks_arg(picked)?;
        crate::encode::observe_packed(py, &self.inner, seat_arg(seat)?, &picks)
    }

    /// `observe` written into `out`, a C-contiguous `uint8` array of `OBS_SHAPE`.
    #[pyo3(signature = (seat, out, *, picked=None))]
    fn observe_into(
        &self,
        seat: &Bound<'_, PyAny>,
        out: &Bound<'_, PyAny>,
        picked: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let picks = crate::encode::picks_arg(picked)?;
        crate::encode::observe_into(&self.inner, seat_arg(seat)?, &picks, out)
    }

    /// What a server plays for `seat` on a timeout.
    fn default_action(&self, py: Python<'_>, seat: &Bound<'_, PyAny>) -> PyResult<Py<Action>> {
        let seat = seat_arg(seat)?;
        let action = self.inner.default_action(seat).ok_or_else(|| {
            IllegalActionError::new_err(format!(
                "seat {seat} need not decide now; waiting for seats {:?}",
                self.inner.to_act()
            ))
        })?;
        interned(py, action)
    }

    /// The concealed tiles of `seat`, sorted; a wild is the `1s` it is.
    fn hand(&self, seat: &Bound<'_, PyAny>) -> PyResult<Vec<Tile>> {
        let seat = seat_arg(seat)?;
        let hand = &self.inner.seat(seat).hand;
        Ok(hand.tiles_with_wilds().map(Tile).collect())
    }

    /// The pongs and kongs of `seat`, in the order they were made.
    fn melds(&self, seat: &Bound<'_, PyAny>) -> PyResult<Vec<Meld>> {
        let seat = seat_arg(seat)?;
        Ok(self
            .inner
            .seat(seat)
            .meld_list()
            .map(|m| Meld {
                kind: match m.kind {
                    MeldKind::Pong => "pong",
                    MeldKind::ExposedKong => "kong",
                    MeldKind::ConcealedKong => "concealed_kong",
                },
                tile: Tile(m.tile),
                wilds: m.wilds,
            })
            .collect())
    }

    /// The discards still in front of `seat` (a claimed tile leaves).
    fn discards(&self, seat: &Bound<'_, PyAny>) -> PyResult<Vec<Tile>> {
        let seat = seat_arg(seat)?;
        Ok(self.inner.discards(seat).into_iter().map(Tile).collect())
    }

    /// The declared void suit of `seat`, or None.
    fn void(&self, seat: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
        let seat = seat_arg(seat)?;
        Ok(self.inner.seat(seat).void.map(|s| s.letter().to_string()))
    }

    /// Every win so far, in the order it was settled, each with its `Score`.
    #[getter]
    fn wins(&self, py: Python<'_>) -> PyResult<Vec<Win>> {
        self.inner
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

    /// The event log: a list of dicts (docs/game-protocol.md §9).
    #[getter]
    fn events<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_loads(py, &self.inner.events_json(None))
    }

    /// The log as `seat` may see it (RULES.md §12), from its `start`-th event.
    #[pyo3(signature = (seat, *, start = 0))]
    fn events_for<'py>(
        &self,
        py: Python<'py>,
        seat: &Bound<'_, PyAny>,
        start: usize,
    ) -> PyResult<Bound<'py, PyAny>> {
        let seat = seat_arg(seat)?;
        json_loads(py, &self.inner.events_json_from(Some(seat), start))
    }

    /// The log as a spectator may see it: only what every seat sees (RULES.md §12), from its
    /// `start`-th event.
    #[pyo3(signature = (*, start = 0))]
    fn public_events<'py>(&self, py: Python<'py>, start: usize) -> PyResult<Bound<'py, PyAny>> {
        json_loads(py, &self.inner.public_events_json(start))
    }

    /// A copy in which every tile hidden from `seat` (other hands, the wall) is dealt again at
    /// random from `seed`, consistent with all `seat` knows (RULES.md §12); for search.
    fn determinize(&self, seat: &Bound<'_, PyAny>, seed: &Bound<'_, PyAny>) -> PyResult<Game> {
        let seat = seat_arg(seat)?;
        let inner = self
            .inner
            .determinize(seat, seed_arg(seed)?)
            .map_err(core_error)?;
        Ok(Game { inner })
    }

    /// An independent copy; cheap.
    fn clone(&self) -> Game {
        Game {
            inner: self.inner.clone(),
        }
    }

    fn __copy__(&self) -> Game {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Game {
        self.clone()
    }

    /// A full snapshot as JSON text; `Game.from_json` restores it exactly.
    fn to_json(&self) -> String {
        self.inner.to_json()
    }

    /// Restores a snapshot, validating everything; bad input raises SnapshotError.
    #[staticmethod]
    fn from_json(text: &str) -> PyResult<Game> {
        core::Game::from_json(text)
            .map(|inner| Game { inner })
            .map_err(core_error)
    }

    /// Plays `(seat, action)` pairs from a fresh hand of `rules` and `seed`.
    #[staticmethod]
    fn replay(
        rules: &Bound<'_, PyAny>,
        seed: &Bound<'_, PyAny>,
        actions: &Bound<'_, PyAny>,
    ) -> PyResult<Game> {
        let mut pairs = Vec::new();
        for item in actions.try_iter()? {
            let item = item?;
            let pair = item.cast::<PyTuple>().map_err(|_| {
                pyo3::exceptions::PyTypeError::new_err("actions are (seat, action) pairs")
            })?;
            if pair.len() != 2 {
                return Err(pyo3::exceptions::PyTypeError::new_err(
                    "actions are (seat, action) pairs",
                ));
            }
            pairs.push((
                seat_arg(&pair.get_item(0)?)?,
                action_arg(&pair.get_item(1)?)?,
            ));
        }
        core::Game::replay(rules_arg(rules)?, seed_arg(seed)?, &pairs, true)
            .map(|inner| Game { inner })
            .map_err(core_error)
    }

    /// Replays an event log (a list of event dicts, or its JSON text) and checks that the
    /// replay writes the same log.
    #[staticmethod]
    fn from_events(py: Python<'_>, events: &Bound<'_, PyAny>) -> PyResult<Game> {
        let text: String = if let Ok(s) = events.cast::<PyString>() {
            s.to_cow()?.into_owned()
        } else if events.cast::<PyList>().is_ok() {
            py.import("json")?
                .call_method1("dumps", (events,))?
                .extract()?
        } else {
            return Err(pyo3::exceptions::PyTypeError::new_err(
                "events are a list of event dicts or its JSON text",
            ));
        };
        core::Game::from_events(&text)
            .map(|inner| Game { inner })
            .map_err(core_error)
    }

    fn __repr__(&self) -> String {
        format!(
            "Game(seed={}, phase={:?}, wall={}, scores={:?})",
            self.inner.seed(),
            self.inner.phase().name(),
            self.inner.wall_remaining(),
            self.inner.scores()
        )
    }
}
