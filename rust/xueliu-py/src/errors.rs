//! The exception classes and the one place core errors become Python errors ([`core_error`]), and
//! the messages for a bad argument ([`type_error`], [`argument_error`]).

use pyo3::create_exception;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyString, PyTuple, PyType};
use std::sync::{Mutex, MutexGuard, TryLockError};
use xueliu_core::hand::HandError;
use xueliu_core::rules::RulesError as CoreRulesError;
use xueliu_core::score::ScoreError as CoreScoreError;
use xueliu_core::tile::{parse_hint, TileParseError as CoreTileParseError};
use xueliu_core::Error as CoreError;

create_exception!(
    xueliu,
    XueliuError,
    PyValueError,
    "Base class of every error xueliu raises; a ValueError."
);
create_exception!(
    xueliu,
    TileParseError,
    XueliuError,
    "Tile notation that cannot be read; the message names the character and its position."
);
create_exception!(
    xueliu,
    InvalidHandError,
    XueliuError,
    "Tiles that are not a possible hand: five copies of a tile, a wrong size, or a bad meld."
);

create_exception!(
    xueliu,
    IllegalActionError,
    XueliuError,
    "An action the game does not allow now (wrong seat or phase, a tile not held, a void rule \
     broken, …); the message says why and what is legal. The game is unchanged."
);
create_exception!(
    xueliu,
    SnapshotError,
    XueliuError,
    "A snapshot (`Game.from_json`) or event log (`Game.from_events`) that is malformed, or is not \
     the game its seed and decisions produce; the message names the first field that disagrees."
);
create_exception!(
    xueliu,
    ArgumentError,
    XueliuError,
    "An argument outside what it accepts (a seat that does not exist, a negative seed, a size no \
     machine holds, an action id out of range); the message names the parameter, what it got and \
     what it accepts."
);
create_exception!(
    xueliu,
    ConcurrentUseError,
    XueliuError,
    "An object used from two threads at once (a `Game`, `VecEnv` or `Bot` is used by one thread \
     at a time; docs/game-protocol.md). Nothing changed; give each thread its own object."
);

/// `ArgumentTypeError(ArgumentError, TypeError)`: an argument of the wrong type, caught by both
/// `except XueliuError` and `except TypeError`. Built at import, as `create_exception!` takes one
/// base.
fn argument_type_error_class(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    static CLASS: PyOnceLock<Py<PyType>> = PyOnceLock::new();
    CLASS
        .get_or_try_init(py, || {
            let bases = PyTuple::new(
                py,
                [py.get_type::<ArgumentError>(), py.get_type::<PyTypeError>()],
            )?;
            let namespace = PyDict::new(py);
            namespace.set_item("__module__", "xueliu")?;
            namespace.set_item(
                "__doc__",
                "An argument of the wrong type; also a TypeError. The message names the \
                 parameter, the type it got and what it accepts.",
            )?;
            let class = py
                .get_type::<PyType>()
                .call1(("ArgumentTypeError", bases, namespace))?;
            Ok(class.cast_into::<PyType>()?.unbind())
        })
        .map(|class| class.bind(py))
}

/// The longest excerpt of a bad input a message quotes: the core's, so every message cuts alike.
const EXCERPT: usize = xueliu_core::excerpt::EXCERPT_CHARS;

/// A short quotation of `value`'s repr, cut to [`EXCERPT`] characters.
pub fn excerpt(value: &Bound<'_, PyAny>) -> String {
    if let Ok(text) = value.cast::<PyString>() {
        if let Ok(text) = text.to_cow() {
            return quote(&text);
        }
    }
    let repr = match value.len() {
        Ok(n) if n > EXCERPT => format!("a {} of length {n}", type_name(value)),
        _ => value.repr().map(|r| r.to_string()).unwrap_or_default(),
    };
    cut(&repr)
}

/// `text` quoted for a message, cut to the core's `EXCERPT_CHARS` characters (one home: the core).
pub use xueliu_core::excerpt::quote;

fn cut(text: &str) -> String {
    if text.chars().count() <= EXCERPT {
        text.to_owned()
    } else {
        text.chars().take(EXCERPT).chain("…".chars()).collect()
    }
}

pub fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map_or_else(|_| "?".into(), |n| n.to_string())
}

/// A wrong-typed `value` for parameter `param`, which accepts `accepts`.
pub fn type_error(param: &str, value: &Bound<'_, PyAny>, accepts: &str) -> PyErr {
    let got = match (value.getattr("dtype"), value.getattr("shape")) {
        (Ok(dtype), Ok(shape)) => format!("a numpy array of dtype {dtype} and shape {shape}"),
        _ => format!("{} {}", type_name(value), excerpt(value)),
    };
    let message = format!("{param} must be {accepts}; got {got}");
    match argument_type_error_class(value.py()) {
        Ok(class) => PyErr::from_type(class.clone(), message),
        Err(e) => e,
    }
}

/// A `value` of the right type but outside what parameter `param` accepts.
pub fn argument_error(param: &str, value: impl std::fmt::Display, accepts: &str) -> PyErr {
    ArgumentError::new_err(format!("{param} must be {accepts}; got {value}"))
}

/// The value behind `lock`, unless another thread is using it: then ConcurrentUseError, and
/// nothing changes. The one place a `Game`, `Bot` or `VecEnv` is claimed by a thread. (A lock
/// poisoned by a panic, which PyO3 already raised, is taken as it is.)
pub fn exclusive<'a, T>(lock: &'a Mutex<T>, what: &str) -> PyResult<MutexGuard<'a, T>> {
    match lock.try_lock() {
        Ok(guard) => Ok(guard),
        Err(TryLockError::Poisoned(p)) => Ok(p.into_inner()),
        Err(TryLockError::WouldBlock) => Err(ConcurrentUseError::new_err(format!(
            "this {what} is in use by another thread; a {what} is used by one thread at a time \
             (give each thread its own, e.g. game.clone())"
        ))),
    }
}

/// Every core error as the Python exception of its kind: the one place the mapping lives.
pub fn core_error(e: CoreError) -> PyErr {
    match e {
        CoreError::IllegalAction(m) => IllegalActionError::new_err(m),
        CoreError::Rules(e) => rules_error(e),
        CoreError::Bot(m) => BotError::new_err(m),
        CoreError::Snapshot(m) => SnapshotError::new_err(m),
        CoreError::Hand(e) => hand_error(e),
        CoreError::Argument(m) => ArgumentError::new_err(m),
        CoreError::Internal(m) => {
            XueliuError::new_err(format!("{m}; this is a bug in xueliu, please report it"))
        }
    }
}

create_exception!(
    xueliu,
    RulesError,
    XueliuError,
    "An unknown preset, option or pattern name, or a bad option value; the message lists the valid ones."
);
create_exception!(
    xueliu,
    ScoreError,
    XueliuError,
    "A win that cannot be scored: the hand does not win under the rules, or the situation flags contradict each other."
);
create_exception!(
    xueliu,
    BotError,
    XueliuError,
    "An unknown bot name or a bad self-play setting (bots, games, chunks to merge); the message lists what is valid."
);

pub fn tile_parse_error(e: CoreTileParseError) -> PyErr {
    TileParseError::new_err(format!("{e}; {}", parse_hint()))
}

pub fn hand_error(e: HandError) -> PyErr {
    InvalidHandError::new_err(e.to_string())
}

pub fn rules_error(e: CoreRulesError) -> PyErr {
    RulesError::new_err(e.to_string())
}

pub fn score_error(e: CoreScoreError) -> PyErr {
    match e {
        CoreScoreError::Hand(e) => hand_error(e),
        other => ScoreError::new_err(other.to_string()),
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("XueliuError", py.get_type::<XueliuError>())?;
    m.add("TileParseError", py.get_type::<TileParseError>())?;
    m.add("InvalidHandError", py.get_type::<InvalidHandError>())?;
    m.add("IllegalActionError", py.get_type::<IllegalActionError>())?;
    m.add("SnapshotError", py.get_type::<SnapshotError>())?;
    m.add("RulesError", py.get_type::<RulesError>())?;
    m.add("ScoreError", py.get_type::<ScoreError>())?;
    m.add("BotError", py.get_type::<BotError>())?;
    m.add("ArgumentError", py.get_type::<ArgumentError>())?;
    m.add("ArgumentTypeError", argument_type_error_class(py)?)?;
    m.add("ConcurrentUseError", py.get_type::<ConcurrentUseError>())?;
    Ok(())
}
