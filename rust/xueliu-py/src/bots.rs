//! `Bot`, `simulate` and `compare_bots`: the bots and self-play of `xueliu_core::bots`, with the
//! games run in Rust across threads and the GIL released. No bot logic lives here.

use crate::errors::{BotError, IllegalActionError, RulesError};
use crate::game::{rules_arg, seat_arg, Action, Game};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use std::sync::{Arc, Mutex};
use xueliu_core::bots::{self as core, BotKind, Tally, WIN_KIND_NAMES};
use xueliu_core::game::Game as CoreGame;
use xueliu_core::rules::Rules;

/// A whole number argument: `games`, `threads`, `seed`, `first_game`.
fn whole(name: &str, value: i128) -> PyResult<u64> {
    u64::try_from(value).map_err(|_| {
        BotError::new_err(format!(
            "{name} must be an int from 0 to 2**64 - 1, got {value}"
        ))
    })
}

/// `threads=`: 0 for every core, else at most 256.
fn threads_arg(value: i128) -> PyResult<usize> {
    match whole("threads", value)? {
        n @ 0..=256 => Ok(n as usize),
        n => Err(BotError::new_err(format!(
            "threads={n} is too many; use 0 (every core) or at most 256"
        ))),
    }
}

fn bot_kind(name: &str) -> PyResult<BotKind> {
    BotKind::parse(name).map_err(|e| BotError::new_err(e.to_string()))
}

/// `rules=`: as `Game` takes it (None: chengdu), and playable by a game.
fn playable_rules(rules: Option<&Bound<'_, PyAny>>) -> PyResult<Arc<Rules>> {
    let rules = match rules {
        Some(r) => rules_arg(r)?,
        None => Arc::new(Rules::preset("chengdu").map_err(crate::errors::rules_error)?),
    };
    CoreGame::new(rules.clone(), 0, false).map_err(|e| RulesError::new_err(e.0))?;
    Ok(rules)
}

/// A bot that decides for any seat of a `Game`: `"random"` or `"greedy"`.
#[pyclass(frozen, module = "xueliu")]
pub struct Bot {
    kind: BotKind,
    seed: u64,
    inner: Mutex<Box<dyn core::Bot + Send>>,
}

#[pymethods]
impl Bot {
    #[new]
    #[pyo3(signature = (name, *, seed = 0))]
    fn new(name: &str, seed: i128) -> PyResult<Bot> {
        let kind = bot_kind(name)?;
        let seed = whole("seed", seed)?;
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

    /// The bot's action for `seat`, which must be deciding now. The game is not changed.
    fn choose(&self, game: PyRef<'_, Game>, seat: i64) -> PyResult<Action> {
        let seat = seat_arg(seat)?;
        let game = &game.inner;
        if !game.must_act(seat) {
            return Err(IllegalActionError::new_err(format!(
                "seat {seat} has nothing to decide now; seats deciding: {:?}",
                game.to_act()
            )));
        }
        let mut bot = self
            .inner
            .lock()
            .map_err(|_| BotError::new_err("this bot failed earlier; build a new one"))?;
        let action = bot.choose(game, seat as usize);
        if !game.is_legal(seat, action) {
            return Err(IllegalActionError::new_err(format!(
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
    if let Ok(name) = bots.cast::<PyString>() {
        return Ok([bot_kind(&name.to_cow()?)?; 4]);
    }
    let names: Vec<String> = bots.extract().map_err(|_| {
        BotError::new_err("bots= takes four bot names, one per seat, or one name for all")
    })?;
    let kinds = names
        .iter()
        .map(|n| bot_kind(n))
        .collect::<PyResult<Vec<_>>>()?;
    <[BotKind; 4]>::try_from(kinds).map_err(|k| {
        BotError::new_err(format!(
            "bots= names one bot per seat: 4 names, got {}",
            k.len()
        ))
    })
}

/// The outcome of `simulate`: per-game points and per-seat and per-win counts.
#[pyclass(frozen, module = "xueliu")]
pub struct SimulationResult {
    tally: Tally,
    seconds: f64,
    bots: [BotKind; 4],
    seed: u64,
    first_game: u64,
    rules: Arc<Rules>,
}

#[pymethods]
impl SimulationResult {
    /// Hands played.
    #[getter]
    fn games(&self) -> u64 {
        self.tally.games
    }

    /// Wall-clock seconds the games took (summed over merged chunks).
    #[getter]
    fn seconds(&self) -> f64 {
        self.seconds
    }

    /// Hands per wall-clock second.
    #[getter]
    fn games_per_second(&self) -> f64 {
        if self.seconds > 0.0 {
            self.tally.games as f64 / self.seconds
        } else {
            0.0
        }
    }

    /// Final points, `int64[games, 4]`: row `i` is game `first_game + i`, column a seat.
    #[getter]
    fn points<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let flat: Vec<i64> = self.tally.points.iter().flatten().copied().collect();
        let rows = self.tally.points.len();
        Ok(PyArray1::from_vec(py, flat).reshape([rows, 4])?.into_any())
    }

    /// Wins per seat (a 血流 seat may win several times a hand).
    #[getter]
    fn wins(&self) -> Vec<u64> {
        self.tally.wins.to_vec()
    }

    /// Wins by kind: self_draw, kong_flower (杠上花), discard, kong_shot (杠上炮), robbed_kong.
    #[getter]
    fn win_kinds<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (name, n) in WIN_KIND_NAMES.iter().zip(self.tally.win_kinds) {
            d.set_item(name, n)?;
        }
        Ok(d)
    }

    /// Wins by fan (before the cap), only the fans that occurred.
    #[getter]
    fn fan_histogram<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (fan, &n) in self.tally.fan_histogram.iter().enumerate() {
            if n > 0 {
                d.set_item(fan, n)?;
            }
        }
        Ok(d)
    }

    /// Average tiles drawn from the wall per hand after the deal.
    #[getter]
    fn mean_draws(&self) -> f64 {
        self.tally.mean_draws()
    }

    /// Each game's event log as JSON lines (empty unless `logs=True`).
    #[getter]
    fn logs(&self) -> Vec<String> {
        self.tally.logs.clone()
    }

    /// The four seats' bot names.
    #[getter]
    fn bots(&self) -> Vec<String> {
        self.bots.iter().map(|k| k.to_string()).collect()
    }

    /// The simulation's seed: game `i` is dealt from (`seed`, `i`).
    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }

    /// The index of this chunk's first game within its simulation.
    #[getter]
    fn first_game(&self) -> u64 {
        self.first_game
    }

    /// This chunk followed by `other`, the next chunk of the same simulation (same rules, bots
    /// and seed, `other.first_game == self.first_game + self.games`).
    fn merge(&self, other: &SimulationResult) -> PyResult<SimulationResult> {
        let next = self.first_game.wrapping_add(self.tally.games);
        let same = self.bots == other.bots && self.seed == other.seed && self.rules == other.rules;
        if !same || other.first_game != next {
            return Err(BotError::new_err(format!(
                "merge takes the next chunk of the same simulation: same rules, bots and seed, \
                 first_game={next}; got bots={:?}, seed={}, first_game={}",
                other.bots.map(|k| k.to_string()),
                other.seed,
                other.first_game
            )));
        }
        let mut tally = self.tally.clone();
        tally.merge(other.tally.clone());
        Ok(SimulationResult {
            tally,
            seconds: self.seconds + other.seconds,
            bots: self.bots,
            seed: self.seed,
            first_game: self.first_game,
            rules: self.rules.clone(),
        })
    }

    /// Plain Python values (points as a list of rows), ready for JSON.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("games", self.games())?;
        d.set_item("seconds", self.seconds)?;
        d.set_item("games_per_second", self.games_per_second())?;
        d.set_item("bots", self.bots())?;
        d.set_item("seed", self.seed)?;
        d.set_item("first_game", self.first_game)?;
        let points: Vec<Vec<i64>> = self.tally.points.iter().map(|p| p.to_vec()).collect();
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
            self.tally.games,
            self.bots.map(|k| k.to_string()),
            self.tally.wins,
            self.tally.mean_draws()
        )
    }
}

/// Plays `games` whole hands with four bots, across `threads` threads (0: every core) with the
/// GIL released. Game `i` (from `first_game`) is dealt from `game_seed(seed, i)`, so results do
/// not depend on `threads` and chunks merge into one run.
#[pyfunction]
#[pyo3(signature = (games, rules = None, *, bots = None, seed = 0, threads = 0, first_game = 0, logs = false))]
#[allow(clippy::too_many_arguments)]
pub fn simulate(
    py: Python<'_>,
    games: i128,
    rules: Option<&Bound<'_, PyAny>>,
    bots: Option<&Bound<'_, PyAny>>,
    seed: i128,
    threads: i128,
    first_game: i128,
    logs: bool,
) -> PyResult<SimulationResult> {
    let (games, seed) = (whole("games", games)?, whole("seed", seed)?);
    let (threads, first_game) = (threads_arg(threads)?, whole("first_game", first_game)?);
    let rules = playable_rules(rules)?;
    let kinds = match bots {
        Some(b) => bot_kinds(b)?,
        None => [BotKind::Greedy; 4],
    };
    let sim = core::Simulation {
        rules: rules.clone(),
        bots: kinds,
        seed,
        first_game,
        logs,
    };
    let (tally, seconds) = py
        .detach(|| core::simulate(&sim, games, threads))
        .map_err(|e| BotError::new_err(e.0))?;
    Ok(SimulationResult {
        tally,
        seconds,
        bots: kinds,
        seed,
        first_game,
        rules,
    })
}

/// Duplicate evaluation of bot `a` against bot `b` (see `compare_bots`).
#[pyclass(frozen, module = "xueliu")]
pub struct Comparison(core::Comparison);

#[pymethods]
impl Comparison {
    /// The first bot's name.
    #[getter]
    fn a(&self) -> String {
        self.0.a.to_string()
    }

    /// The second bot's name.
    #[getter]
    fn b(&self) -> String {
        self.0.b.to_string()
    }

    /// Deals compared; each was played four times.
    #[getter]
    fn games(&self) -> u64 {
        self.0.games
    }

    /// `a`'s points per game minus `b`'s points per seat and game, averaged over deals.
    #[getter]
    fn mean(&self) -> f64 {
        self.0.mean
    }

    /// The standard error of `mean`.
    #[getter]
    fn std_error(&self) -> f64 {
        self.0.std_error
    }

    /// The low end of the 95% confidence interval of `mean` (mean − 1.96 · std_error).
    #[getter]
    fn ci_low(&self) -> f64 {
        self.0.ci_low
    }

    /// The high end of the 95% confidence interval of `mean` (mean + 1.96 · std_error).
    #[getter]
    fn ci_high(&self) -> f64 {
        self.0.ci_high
    }

    /// Plain Python values, ready for JSON.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("a", self.a())?;
        d.set_item("b", self.b())?;
        d.set_item("games", self.0.games)?;
        d.set_item("mean", self.0.mean)?;
        d.set_item("std_error", self.0.std_error)?;
        d.set_item("ci_low", self.0.ci_low)?;
        d.set_item("ci_high", self.0.ci_high)?;
        Ok(d)
    }

    fn __repr__(&self) -> String {
        let c = &self.0;
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

/// Duplicate evaluation: each of `games` deals is played four times with `a` in each seat in
/// turn and `b` in the other three; returns the mean points difference and its 95% interval.
#[pyfunction]
#[pyo3(signature = (a, b, games, rules = None, *, seed = 0, threads = 0))]
pub fn compare_bots(
    py: Python<'_>,
    a: &str,
    b: &str,
    games: i128,
    rules: Option<&Bound<'_, PyAny>>,
    seed: i128,
    threads: i128,
) -> PyResult<Comparison> {
    let (games, seed) = (whole("games", games)?, whole("seed", seed)?);
    let threads = threads_arg(threads)?;
    let (a, b) = (bot_kind(a)?, bot_kind(b)?);
    let rules = playable_rules(rules)?;
    py.detach(|| core::compare(&rules, a, b, games, seed, threads))
        .map(Comparison)
        .map_err(|e| BotError::new_err(e.0))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Bot>()?;
    m.add_class::<SimulationResult>()?;
    m.add_class::<Comparison>()?;
    m.add_function(wrap_pyfunction!(simulate, m)?)?;
    m.add_function(wrap_pyfunction!(compare_bots, m)?)?;
    Ok(())
}
