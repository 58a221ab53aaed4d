//! `Bot`, `simulate` and `compare_bots`: the bots and self-play of `xueliu_core::bots`, with the
//! games run in Rust across threads and the GIL released. No bot logic lives here.

use crate::args::{game_arg, rules_or_default, seat_arg, seed_or_zero, whole};
use crate::convert;
use crate::errors::{argument_error, core_error, exclusive, BotError, IllegalActionError};
use crate::game::Action;
use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString, PyTuple};
use std::fmt::Write;
use std::sync::{Arc, Mutex};
use xueliu_core::bot_protocol as protocol;
use xueliu_core::bots::{self as core, AnyBot, BotKind, Simulation, Tally, WIN_KIND_NAMES};
use xueliu_core::game::{ActionList, Reason, SeatView};

/// A whole number argument (`games`, `first_game`, `threads`); `default` when not given.
fn whole_or(name: &str, value: Option<&Bound<'_, PyAny>>, default: u64) -> PyResult<u64> {
    value.map_or(Ok(default), |v| whole(name, v))
}

/// `threads=`: 0 for every core, else at most 256.
fn threads_arg(value: Option<&Bound<'_, PyAny>>) -> PyResult<usize> {
    match whole_or("threads", value, 0)? {
        n @ 0..=256 => Ok(n as usize),
        n => Err(argument_error(
            "threads",
            n,
            "0 (every core) or at most 256",
        )),
    }
}

/// A bot's name argument, e.g. `"greedy"` or `"ismcts:50"`.
fn bot_kind(param: &str, name: &Bound<'_, PyAny>) -> PyResult<BotKind> {
    let name = convert::text(
        param,
        name,
        "a bot name such as \"greedy\" or \"ismcts:50\"",
    )?;
    BotKind::parse(&name).map_err(|e| BotError::new_err(e.to_string()))
}

/// A bot that decides for any seat of a `Game`: `"random"`, `"greedy"`, `"ismcts:N"`,
/// `"ismcts+policy:N"` or `"policy"` (docs/bots.md).
/// One thread uses a `Bot` at a time: a second one meanwhile gets ConcurrentUseError.
#[pyclass(frozen, module = "xueliu")]
pub struct Bot {
    kind: BotKind,
    seed: u64,
    inner: Mutex<Box<dyn core::Bot + Send>>,
}

#[pymethods]
impl Bot {
    #[new]
    #[pyo3(signature = (name, *, seed = None), text_signature = "(name, *, seed=0)")]
    fn new(name: &Bound<'_, PyAny>, seed: Option<&Bound<'_, PyAny>>) -> PyResult<Bot> {
        let kind = bot_kind("name", name)?;
        let seed = seed_or_zero(seed)?;
        Ok(Bot {
            kind,
            seed,
            inner: Mutex::new(kind.build(seed)),
        })
    }

    /// The bot's name as `Bot(name)` reads it: `"greedy"`, `"random"`, `"ismcts:50"`.
    #[getter]
    fn name(&self) -> String {
        self.kind.to_string()
    }

    /// The seed of the bot's own random choices.
    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }

    /// The bot's action for `seat`, which must be deciding now, chosen with the GIL released.
    /// The game is not changed.
    fn choose(
        &self,
        py: Python<'_>,
        game: &Bound<'_, PyAny>,
        seat: &Bound<'_, PyAny>,
    ) -> PyResult<Action> {
        let game = game_arg(game)?;
        let seat = seat_arg(seat)?;
        let mut bot = exclusive(&self.inner, "Bot")?;
        let state = game.get().lock()?;
        let game = &state.game;
        // The bot sees only the seat's view of the game, built here.
        let view = game.view(seat).filter(SeatView::must_act).ok_or_else(|| {
            IllegalActionError::new_err(format!(
                "seat {seat} has nothing to decide now; seats deciding: {:?}",
                game.to_act()
            ))
        })?;
        let bot = &mut **bot;
        let action = py.detach(|| bot.choose(&view));
        if !game.is_legal(seat, action) {
            return Err(BotError::new_err(format!(
                "bot {} chose {action}, which is not legal for seat {seat}",
                self.kind
            )));
        }
        Ok(Action(action))
    }

    fn __repr__(&self) -> String {
        format!("Bot({:?}, seed={})", self.kind.to_string(), self.seed)
    }
}

/// `bots=`: one name for every seat, or four names.
fn bot_kinds(bots: &Bound<'_, PyAny>) -> PyResult<[BotKind; 4]> {
    if bots.cast::<PyString>().is_ok() {
        return Ok([bot_kind("bots", bots)?; 4]);
    }
    let accepts = "four bot names, one per seat, or one name for all";
    let kinds = bots
        .try_iter()
        .map_err(|_| crate::errors::type_error("bots", bots, accepts))?
        .enumerate()
        .map(|(i, n)| bot_kind(&format!("bots[{i}]"), &n?))
        .collect::<PyResult<Vec<_>>>()?;
    <[BotKind; 4]>::try_from(kinds).map_err(|k| {
        BotError::new_err(format!(
            "bots= names one bot per seat: 4 names, got {}",
            k.len()
        ))
    })
}

/// A pickled `SimulationResult`: rules, bots, (seed, first_game, seconds, table_seconds), the
/// points as little-endian bytes, (wins, win kinds, fan histogram, draws), logs.
type SimulationState<'py> = (
    PyRef<'py, crate::rules::Rules>,
    Vec<String>,
    (u64, u64, f64, f64),
    Vec<u8>,
    (Vec<u64>, Vec<u64>, Vec<u64>, u64),
    Vec<String>,
);

/// A pickled `Comparison`: rules, (a, b), (seed, first_game), every deal's difference.
type ComparisonState<'py> = (
    PyRef<'py, crate::rules::Rules>,
    (String, String),
    (u64, u64),
    Vec<f64>,
);

/// The outcome of `simulate`: per-game points and per-seat and per-win counts.
#[pyclass(frozen, module = "xueliu")]
pub struct SimulationResult(core::SimulationResult);

#[pymethods]
impl SimulationResult {
    /// Hands played.
    #[getter]
    fn games(&self) -> u64 {
        self.0.tally.games
    }

    /// Wall-clock seconds the games took (summed over merged chunks).
    #[getter]
    fn seconds(&self) -> f64 {
        self.0.seconds
    }

    /// Seconds spent building the analysis tables first, once per process (not in `seconds`).
    #[getter]
    fn table_seconds(&self) -> f64 {
        self.0.table_seconds
    }

    /// Hands per wall-clock second of play: games over `seconds`, the table build left out.
    #[getter]
    fn games_per_second(&self) -> f64 {
        if self.0.seconds > 0.0 {
            self.0.tally.games as f64 / self.0.seconds
        } else {
            0.0
        }
    }

    /// Final points, `int64[games, 4]`: row `i` is game `first_game + i`, column a seat.
    #[getter]
    fn points<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let flat: Vec<i64> = self.0.tally.points.iter().flatten().copied().collect();
        let rows = self.0.tally.points.len();
        Ok(PyArray1::from_vec(py, flat).reshape([rows, 4])?.into_any())
    }

    /// Wins per seat (a 血流 seat may win several times a hand).
    #[getter]
    fn wins(&self) -> Vec<u64> {
        self.0.tally.wins.to_vec()
    }

    /// Wins by kind: self_draw, kong_flower (杠上花), discard, kong_shot (杠上炮), robbed_kong.
    #[getter]
    fn win_kinds<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (name, n) in WIN_KIND_NAMES.iter().zip(self.0.tally.win_kinds) {
            d.set_item(name, n)?;
        }
        Ok(d)
    }

    /// Wins by fan (before the cap), only the fans that occurred.
    #[getter]
    fn fan_histogram<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (fan, &n) in self.0.tally.fan_histogram.iter().enumerate() {
            if n > 0 {
                d.set_item(fan, n)?;
            }
        }
        Ok(d)
    }

    /// Average tiles drawn from the wall per hand after the deal.
    #[getter]
    fn mean_draws(&self) -> f64 {
        self.0.tally.mean_draws()
    }

    /// Each game's event log as JSON lines (empty unless `logs=True`).
    #[getter]
    fn logs(&self) -> Vec<String> {
        self.0.tally.logs.clone()
    }

    /// The four seats' bot names.
    #[getter]
    fn bots(&self) -> Vec<String> {
        self.0
            .simulation
            .bots
            .iter()
            .map(std::string::ToString::to_string)
            .collect()
    }

    /// The simulation's seed: game `i` is dealt from (`seed`, `i`).
    #[getter]
    fn seed(&self) -> u64 {
        self.0.simulation.seed
    }

    /// The index of this chunk's first game within its simulation.
    #[getter]
    fn first_game(&self) -> u64 {
        self.0.simulation.first_game
    }

    /// This chunk followed by `other`, the next chunk of the same simulation (same rules, bots
    /// and seed, `other.first_game == self.0.simulation.first_game + self.games`).
    fn merge(&self, other: &Bound<'_, PyAny>) -> PyResult<SimulationResult> {
        let other = other
            .cast::<SimulationResult>()
            .map_err(|_| crate::errors::type_error("other", other, "a SimulationResult"))?;
        self.0
            .merge(&other.get().0)
            .map(SimulationResult)
            .map_err(core_error)
    }

    /// This result without its logs: for merging chunks whose logs were written as they came.
    fn without_logs(&self) -> SimulationResult {
        SimulationResult(self.0.without_logs())
    }

    /// SHA-256 (hex) of every game's points, the wins, win kinds, fan histogram, draws and
    /// logs: equal for equal games however they were split over threads, shards or machines.
    fn digest(&self, py: Python<'_>) -> PyResult<String> {
        sha256(py, &self.0.tally.digest_bytes())
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let t = &self.0.tally;
        let points = t.points_bytes();
        let state = (
            crate::rules::Rules(*self.0.simulation.rules),
            self.bots(),
            (
                self.0.simulation.seed,
                self.0.simulation.first_game,
                self.0.seconds,
                self.0.table_seconds,
            ),
            PyBytes::new(py, &points),
            (
                t.wins.to_vec(),
                t.win_kinds.to_vec(),
                t.fan_histogram.clone(),
                t.draws,
            ),
            t.logs.clone(),
        );
        let restore = py.get_type::<SimulationResult>().getattr("_restore")?;
        PyTuple::new(
            py,
            [
                restore,
                PyTuple::new(py, [state.into_pyobject(py)?])?.into_any(),
            ],
        )
    }

    /// The inverse of `__reduce__`, for pickling (results come back from worker processes).
    #[staticmethod]
    fn _restore(state: SimulationState<'_>) -> PyResult<SimulationResult> {
        let (rules, bots, (seed, first_game, seconds, table_seconds), points, counts, logs) = state;
        let bad =
            |what: &str| BotError::new_err(format!("a pickled SimulationResult with bad {what}"));
        let points = Tally::points_from_bytes(&points).ok_or_else(|| bad("points"))?;
        let (wins, win_kinds, fan_histogram, draws) = counts;
        let tally = Tally {
            games: points.len() as u64,
            points,
            wins: wins.try_into().map_err(|_| bad("wins"))?,
            win_kinds: win_kinds.try_into().map_err(|_| bad("win kinds"))?,
            fan_histogram,
            draws,
            logs,
        };
        let bots = bot_kinds(&bots.into_pyobject(rules.py())?.into_any())?;
        let simulation = Simulation {
            rules: Arc::new(rules.0),
            bots,
            seed,
            first_game,
            logs: !tally.logs.is_empty(),
        };
        Ok(SimulationResult(core::SimulationResult {
            simulation,
            tally,
            seconds,
            table_seconds,
        }))
    }

    /// Plain Python values (points as a list of rows), ready for JSON.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("games", self.games())?;
        d.set_item("seconds", self.0.seconds)?;
        d.set_item("table_seconds", self.0.table_seconds)?;
        d.set_item("games_per_second", self.games_per_second())?;
        d.set_item("bots", self.bots())?;
        d.set_item("seed", self.0.simulation.seed)?;
        d.set_item("first_game", self.0.simulation.first_game)?;
        let points: Vec<Vec<i64>> = self.0.tally.points.iter().map(|p| p.to_vec()).collect();
        d.set_item("points", points)?;
        d.set_item("wins", self.wins())?;
        d.set_item("win_kinds", self.win_kinds(py)?)?;
        d.set_item("fan_histogram", self.fan_histogram(py)?)?;
        d.set_item("mean_draws", self.mean_draws())?;
        d.set_item("logs", self.logs())?;
        Ok(d)
    }

    fn __repr__(&self) -> String {
        format!(
            "SimulationResult(games={}, bots={:?}, wins={:?}, mean_draws={:.1})",
            self.0.tally.games,
            self.0.simulation.bots.map(|k| k.to_string()),
            self.0.tally.wins,
            self.0.tally.mean_draws()
        )
    }
}

/// Plays `games` whole hands with four bots, across `threads` threads (0: every core) with the
/// GIL released. Game `i` (from `first_game`) is dealt from `game_seed(seed, i)`, so results do
/// not depend on `threads` and chunks merge into one run.
#[pyfunction]
#[pyo3(
    signature = (games, rules = None, *, bots = None, seed = None, threads = None, first_game = None, logs = None),
    text_signature = "(games, rules=None, *, bots=None, seed=0, threads=0, first_game=0, logs=False)"
)]
#[allow(clippy::too_many_arguments)]
pub fn simulate(
    py: Python<'_>,
    games: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyAny>>,
    bots: Option<&Bound<'_, PyAny>>,
    seed: Option<&Bound<'_, PyAny>>,
    threads: Option<&Bound<'_, PyAny>>,
    first_game: Option<&Bound<'_, PyAny>>,
    logs: Option<&Bound<'_, PyAny>>,
) -> PyResult<SimulationResult> {
    let (games, seed) = (whole("games", games)?, seed_or_zero(seed)?);
    let (threads, first_game) = (
        threads_arg(threads)?,
        whole_or("first_game", first_game, 0)?,
    );
    let rules = rules_or_default(rules)?;
    let bots = match bots.filter(|b| !b.is_none()) {
        Some(b) => bot_kinds(b)?,
        None => [BotKind::Greedy; 4],
    };
    let logs = convert::flag("logs", logs, false)?;
    let simulation = Simulation {
        rules,
        bots,
        seed,
        first_game,
        logs,
    };
    let table_seconds = py.detach(|| core::build_tables(&simulation.rules));
    let (tally, seconds) = py
        .detach(|| core::simulate(&simulation, games, threads))
        .map_err(core_error)?;
    Ok(SimulationResult(core::SimulationResult {
        simulation,
        tally,
        seconds,
        table_seconds,
    }))
}

/// Duplicate evaluation of bot `a` against bot `b` (see `compare_bots`).
#[pyclass(frozen, module = "xueliu")]
pub struct Comparison {
    inner: core::Comparison,
}

#[pymethods]
impl Comparison {
    /// The first bot's name.
    #[getter]
    fn a(&self) -> String {
        self.inner.a.to_string()
    }

    /// The second bot's name.
    #[getter]
    fn b(&self) -> String {
        self.inner.b.to_string()
    }

    /// Deals compared; each was played four times.
    #[getter]
    fn games(&self) -> u64 {
        self.inner.games
    }

    /// The seed deal `i` is dealt from: `game_seed(seed, i)`.
    #[getter]
    fn seed(&self) -> u64 {
        self.inner.seed
    }

    /// The first deal's number (0 unless this is a later shard).
    #[getter]
    fn first_game(&self) -> u64 {
        self.inner.first_game
    }

    /// Each deal's difference, `float64[games]`: row `i` is deal `first_game + i`.
    #[getter]
    fn differences<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        PyArray1::from_slice(py, &self.inner.differences)
    }

    /// `a`'s points per game minus `b`'s points per seat and game, averaged over deals.
    #[getter]
    fn mean(&self) -> f64 {
        self.inner.mean
    }

    /// The standard error of `mean`.
    #[getter]
    fn std_error(&self) -> f64 {
        self.inner.std_error
    }

    /// The low end of the 95% confidence interval of `mean` (mean − 1.96 · std_error).
    #[getter]
    fn ci_low(&self) -> f64 {
        self.inner.ci_low
    }

    /// The high end of the 95% confidence interval of `mean` (mean + 1.96 · std_error).
    #[getter]
    fn ci_high(&self) -> f64 {
        self.inner.ci_high
    }

    /// This shard followed by `other`, the next deals of the same comparison (same bots, rules
    /// and seed, `other.first_game == self.first_game + self.games`).
    fn merge(&self, other: &Bound<'_, PyAny>) -> PyResult<Comparison> {
        let other = other
            .cast::<Comparison>()
            .map_err(|_| crate::errors::type_error("other", other, "a Comparison"))?;
        let inner = self.inner.merge(&other.get().inner).map_err(core_error)?;
        Ok(Comparison { inner })
    }

    /// SHA-256 (hex) of the bots and every deal's difference (its exact bits): equal for equal
    /// deals however they were split over threads, shards or machines.
    fn digest(&self, py: Python<'_>) -> PyResult<String> {
        sha256(py, &self.inner.digest_bytes())
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let c = &self.inner;
        let state = (
            crate::rules::Rules(*self.inner.rules),
            (c.a.to_string(), c.b.to_string()),
            (self.inner.seed, c.first_game),
            c.differences.clone(),
        );
        let restore = py.get_type::<Comparison>().getattr("_restore")?;
        PyTuple::new(
            py,
            [
                restore,
                PyTuple::new(py, [state.into_pyobject(py)?])?.into_any(),
            ],
        )
    }

    /// The inverse of `__reduce__`, for pickling (results come back from worker processes).
    #[staticmethod]
    fn _restore(state: ComparisonState<'_>) -> PyResult<Comparison> {
        let (rules, (a, b), (seed, first_game), differences) = state;
        let parse = |name: &str| BotKind::parse(name).map_err(|e| BotError::new_err(e.to_string()));
        let pair = [parse(&a)?, parse(&b)?];
        let inner = core::Comparison::of(Arc::new(rules.0), pair, seed, first_game, differences);
        Ok(Comparison { inner })
    }

    /// Plain Python values, ready for JSON.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        let c = &self.inner;
        d.set_item("a", self.a())?;
        d.set_item("b", self.b())?;
        d.set_item("games", c.games)?;
        d.set_item("seed", self.inner.seed)?;
        d.set_item("first_game", c.first_game)?;
        d.set_item("mean", c.mean)?;
        d.set_item("std_error", c.std_error)?;
        d.set_item("ci_low", c.ci_low)?;
        d.set_item("ci_high", c.ci_high)?;
        d.set_item("differences", c.differences.clone())?;
        Ok(d)
    }

    fn __repr__(&self) -> String {
        let c = &self.inner;
        format!(
            "Comparison({:?} - {:?}: {:.2} points/game, 95% CI [{:.2}, {:.2}], {} deals)",
            c.a.to_string(),
            c.b.to_string(),
            c.mean,
            c.ci_low,
            c.ci_high,
            c.games
        )
    }
}

/// Duplicate evaluation: each of `games` deals (from `first_game`) is played four times with
/// `a` in each seat in turn and `b` in the other three; returns the mean points difference and
/// its 95% interval.
#[pyfunction]
#[pyo3(
    signature = (a, b, games, rules = None, *, seed = None, threads = None, first_game = None),
    text_signature = "(a, b, games, rules=None, *, seed=0, threads=0, first_game=0)"
)]
#[allow(clippy::too_many_arguments)]
pub fn compare_bots(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    games: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyAny>>,
    seed: Option<&Bound<'_, PyAny>>,
    threads: Option<&Bound<'_, PyAny>>,
    first_game: Option<&Bound<'_, PyAny>>,
) -> PyResult<Comparison> {
    let (games, seed) = (whole("games", games)?, seed_or_zero(seed)?);
    let (threads, first_game) = (
        threads_arg(threads)?,
        whole_or("first_game", first_game, 0)?,
    );
    let pair = [bot_kind("a", a)?, bot_kind("b", b)?];
    let rules = rules_or_default(rules)?;
    let inner = py
        .detach(|| core::compare_range(&rules, pair, seed, first_game, games, threads))
        .map_err(core_error)?;
    Ok(Comparison { inner })
}

/// The per-seat figures of a finished hand the arena reports, one column each, in this order.
pub const HAND_STAT_NAMES: [&str; 9] = [
    "points",
    "wins",
    "won",
    "self_draws",
    "deal_ins",
    "fan",
    "flower_pig",
    "not_ready",
    "kongs",
];

/// [`HAND_STAT_NAMES`] of each seat of a finished hand: its points, wins, whether it won, wins
/// self-drawn, wins it fed (a discard or a robbed kong), fan summed over its wins (before the
/// cap), whether it paid as 花猪 and for 查叫, and the kongs it made.
fn hand_stats(game: &xueliu_core::game::Game) -> [[i64; 9]; 4] {
    let mut rows = [[0i64; 9]; 4];
    for (row, points) in rows.iter_mut().zip(game.scores()) {
        row[0] = points;
    }
    for w in game.wins() {
        let row = &mut rows[w.seat as usize & 3];
        row[1] += 1;
        row[2] = 1;
        row[5] += i64::from(w.score.fan);
        match w.from {
            None => row[3] += 1,
            Some(feeder) => rows[feeder as usize & 3][4] += 1,
        }
    }
    for (seat, row) in (0..4u8).zip(rows.iter_mut()) {
        row[6] = i64::from(game.has_paid(seat, Reason::FlowerPig));
        row[7] = i64::from(game.has_paid(seat, Reason::NotReady));
    }
    for k in game.kongs() {
        rows[k.owner as usize & 3][8] += 1;
    }
    rows
}

/// The arena's per-seat figures of a finished `Game` (`HAND_STAT_NAMES` columns), a row a seat.
#[pyfunction]
pub fn _hand_stats(game: &Bound<'_, PyAny>) -> PyResult<Vec<[i64; 9]>> {
    let game = game_arg(game)?;
    let state = game.get().lock()?;
    if !state.game.is_over() {
        return Err(argument_error("game", "a hand in play", "a finished hand"));
    }
    Ok(hand_stats(&state.game).to_vec())
}

/// The arena's fast path for built-in bots: deals `first_game .. first_game + games` of `seed`,
/// each played once per seating (four bot names) exactly as `simulate` plays it, on this
/// thread with the GIL released (processes, `xueliu.shards`, run shards side by side). Returns `int64[games, seatings, 4, 9]`: the
/// `HAND_STAT_NAMES` of every seat of every hand.
#[pyfunction]
#[pyo3(signature = (rules, seatings, seed, first_game, games))]
pub fn _arena_hands<'py>(
    py: Python<'py>,
    rules: Option<&Bound<'py, PyAny>>,
    seatings: &Bound<'py, PyAny>,
    seed: u64,
    first_game: u64,
    games: u64,
) -> PyResult<Bound<'py, PyAny>> {
    let rules = rules_or_default(rules)?;
    let seatings = seatings
        .try_iter()?
        .map(|s| bot_kinds(&s?))
        .collect::<PyResult<Vec<_>>>()?;
    // Each seating keeps its four bots from deal to deal, reseeded per hand, and plays with the
    // log off (the figures need none): as `compare_bots` plays, so within its time.
    let mut players: Vec<[AnyBot; 4]> = seatings
        .iter()
        .map(|bots| bots.map(|kind| AnyBot::new(kind, 0)))
        .collect();
    let mut play = |i: u64| -> Result<Vec<[[i64; 9]; 4]>, xueliu_core::error::Error> {
        let deal = core::game_seed(seed, first_game.wrapping_add(i));
        players
            .iter_mut()
            .map(|four| core::play_hand(&rules, four, deal, false).map(|g| hand_stats(&g)))
            .collect()
    };
    let hands = py
        .detach(|| {
            xueliu_core::game::playable(&rules).map_err(xueliu_core::error::Error::Rules)?;
            (0..games).map(&mut play).collect::<Result<Vec<_>, _>>()
        })
        .map_err(core_error)?;
    let flat: Vec<i64> = hands
        .iter()
        .flatten()
        .flatten()
        .flatten()
        .copied()
        .collect();
    let shape = [games as usize, seatings.len(), 4, HAND_STAT_NAMES.len()];
    Ok(PyArray1::from_vec(py, flat).reshape(shape)?.into_any())
}

/// A seat's decision in the bot protocol, as the lines its bot is sent (docs/bot-protocol.md):
/// the events `seat` may see from the log's `start`-th on, and the request `request_id` for its
/// decision now (none without an id); with where the log ends (the next call's `start`) and
/// the request's action texts, which an answer is read against. One call a decision, written
/// by the core: no event or action is built as a Python object.
#[pyfunction]
#[pyo3(signature = (game, seat, start, *, request_id=None, deadline_ms=0))]
pub fn _bot_lines<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyAny>,
    seat: &Bound<'py, PyAny>,
    start: usize,
    request_id: Option<u64>,
    deadline_ms: u64,
) -> PyResult<BotLines<'py>> {
    let game = game_arg(game)?;
    let seat = seat_arg(seat)?;
    let (mut events, mut request, mut actions) = (Vec::new(), Vec::new(), ActionList::new());
    let end = {
        let state = game.get().lock()?;
        state.game.seat_event_lines(seat, start, &mut events);
        if let Some(id) = request_id {
            protocol::request_line(
                &state.game,
                seat,
                id,
                deadline_ms,
                &mut actions,
                &mut request,
            );
        }
        state.game.log_len()
    };
    let mut text = String::new();
    let texts = actions.as_slice().iter().map(|a| {
        text.clear();
        write!(text, "{a}").expect("a String takes any write");
        PyString::new(py, &text)
    });
    let texts = PyList::new(py, texts)?;
    Ok((
        PyBytes::new(py, &events),
        PyBytes::new(py, &request),
        end,
        texts,
    ))
}

/// What `_bot_lines` returns: events, request, the log's end, the action texts.
type BotLines<'py> = (
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    usize,
    Bound<'py, PyList>,
);

/// What the table server sends at once (`Game::to_window`), read from the full log's `read`-th
/// event on: for each viewer (seats 0-3, then the public: `Viewer::ALL`) its events up to and
/// including the first that opens a claim window, as the engine writes them (a JSON array) with
/// their count; that window's event as the public sees it, if one opened; whether public
/// events follow it; and where the next reading starts. One reading of what is new for all five,
/// as text the server embeds in its messages without reading it into Python objects.
#[pyfunction]
pub fn _events_to_window(
    game: &Bound<'_, PyAny>,
    read: &Bound<'_, PyAny>,
) -> PyResult<ToWindowTuple> {
    let read = convert::int("read", read, "a place in the full log, 0 or more")?;
    let cut = game_arg(game)?.get().lock()?.game.to_window(read);
    Ok((cut.views, cut.window, cut.held, cut.read))
}

/// What `_events_to_window` returns: each viewer's (text, count), the window's event, whether
/// public events follow it, where the next reading starts.
type ToWindowTuple = ([(String, usize); 5], Option<String>, bool, usize);

/// Where `_events_to_window` reads next once each viewer was sent its first `sent[viewer]` events
/// (`Game::read_place`): for a table restored from its counts.
#[pyfunction]
pub fn _read_place(game: &Bound<'_, PyAny>, sent: &Bound<'_, PyAny>) -> PyResult<usize> {
    let accepts = "a list of five counts: the events each seat and the spectators were sent";
    let list = sent
        .cast::<PyList>()
        .map_err(|_| crate::errors::type_error("sent", sent, accepts))?;
    if list.len() != 5 {
        let got = format!("a list of {}", list.len());
        return Err(argument_error("sent", got, accepts));
    }
    let mut counts = [0usize; 5];
    for (count, item) in counts.iter_mut().zip(list.iter()) {
        *count = convert::int("sent", &item, accepts)?;
    }
    Ok(game_arg(game)?.get().lock()?.game.read_place(counts))
}

/// The hand's full event log as the engine writes it (`game.events` as JSON text): what the table
/// server stores when a hand ends, without reading the log into Python objects first.
#[pyfunction]
pub fn _events_json(game: &Bound<'_, PyAny>) -> PyResult<String> {
    Ok(game_arg(game)?.get().lock()?.game.events_json(None))
}

/// The SHA-256 of `bytes` as hex, by Python's own `hashlib`.
fn sha256(py: Python<'_>, bytes: &[u8]) -> PyResult<String> {
    let hash = py
        .import("hashlib")?
        .call_method1("sha256", (PyBytes::new(py, bytes),))?;
    hash.call_method0("hexdigest")?.extract()
}

/// Loads a policy weights file (bytes, the format docs/bots.md describes) for this process and
/// returns its version: `Bot("policy:VERSION")` and every bot name then play it.
#[pyfunction]
pub fn load_policy(weights: &Bound<'_, PyAny>) -> PyResult<u32> {
    let bytes = weights
        .cast::<PyBytes>()
        .map_err(|_| crate::errors::type_error("weights", weights, "bytes of a weights file"))?;
    core::policy::load(bytes.as_bytes()).map_err(core_error)
}

/// Hands played by `players` (default: the teacher in every seat) with `teacher` labelling each
/// decision, for `xueliu.train`: observations `uint8[n, 71, 27]`, the policy's features
/// `uint8[n, 546]`, legal ids `bool[n, 114]` and the teacher's ids `uint16[n]`, in game order, the GIL released. Game `i` is dealt as in
/// `simulate`, so the samples do not depend on `threads`.
#[pyfunction]
#[pyo3(
    signature = (games, rules = None, *, teacher = None, players = None, seed = None, threads = None, first_game = None),
    text_signature = "(games, rules=None, *, teacher='greedy', players=None, seed=0, threads=0, first_game=0)"
)]
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
pub fn _policy_samples<'py>(
    py: Python<'py>,
    games: &Bound<'py, PyAny>,
    rules: Option<&Bound<'py, PyAny>>,
    teacher: Option<&Bound<'py, PyAny>>,
    players: Option<&Bound<'py, PyAny>>,
    seed: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
    first_game: Option<&Bound<'py, PyAny>>,
) -> PyResult<(
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
)> {
    let (games, seed) = (whole("games", games)?, seed_or_zero(seed)?);
    let (threads, first_game) = (
        threads_arg(threads)?,
        whole_or("first_game", first_game, 0)?,
    );
    let teacher = match teacher.filter(|t| !t.is_none()) {
        Some(t) => bot_kind("teacher", t)?,
        None => BotKind::Greedy,
    };
    let players = match players.filter(|p| !p.is_none()) {
        Some(p) => bot_kinds(p)?,
        None => [teacher; 4],
    };
    let plan = core::policy::Distillation {
        rules: rules_or_default(rules)?,
        teacher,
        players,
        seed,
        first_game,
    };
    let samples = py
        .detach(|| core::policy::samples(&plan, games, threads))
        .map_err(core_error)?;
    let n = samples.len();
    let obs = PyArray1::from_vec(py, samples.obs).reshape([n, 71, 27])?;
    let features =
        PyArray1::from_vec(py, samples.features).reshape([n, core::policy::features::FEATURES])?;
    let legal = PyArray1::from_vec(py, samples.legal).reshape([n, 114])?;
    let labels = PyArray1::from_vec(py, samples.labels);
    Ok((
        obs.into_any(),
        features.into_any(),
        legal.into_any(),
        labels.into_any(),
    ))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Bot>()?;
    m.add_class::<SimulationResult>()?;
    m.add_class::<Comparison>()?;
    m.add_function(wrap_pyfunction!(simulate, m)?)?;
    m.add_function(wrap_pyfunction!(compare_bots, m)?)?;
    m.add_function(wrap_pyfunction!(_hand_stats, m)?)?;
    m.add_function(wrap_pyfunction!(_arena_hands, m)?)?;
    m.add_function(wrap_pyfunction!(_bot_lines, m)?)?;
    m.add_function(wrap_pyfunction!(_events_to_window, m)?)?;
    m.add_function(wrap_pyfunction!(_read_place, m)?)?;
    m.add_function(wrap_pyfunction!(_events_json, m)?)?;
    m.add_function(wrap_pyfunction!(load_policy, m)?)?;
    m.add_function(wrap_pyfunction!(_policy_samples, m)?)?;
    m.add("HAND_STAT_NAMES", HAND_STAT_NAMES.to_vec())?;
    Ok(())
}
