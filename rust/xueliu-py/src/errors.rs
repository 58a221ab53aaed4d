//! The exception classes and the one place core errors become Python errors.

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use xueliu_core::hand::HandError;
use xueliu_core::rules::RulesError as CoreRulesError;
use xueliu_core::score::ScoreError as CoreScoreError;
use xueliu_core::tile::{parse_hint, TileParseError as CoreTileParseError};

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
    IllegalActionError,
    "A game snapshot (`Game.from_json`) that is not valid JSON or not a consistent game."
);
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
    Ok(())
}
