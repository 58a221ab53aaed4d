//! The arguments many calls share, read into core values: a seat, a seed, a tile or tiles,
//! exchange picks and a `rules=`. One reading each, so every call accepts the same forms and
//! refuses the rest with the same message.

use crate::convert;
use crate::errors::{
    excerpt, quote, rules_error, tile_parse_error, type_error, ArgumentError, InvalidHandError,
};
use crate::game::Game;
use crate::rules::{entries, Rules};
use crate::tiles::{index_to_tile, Tile};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use std::sync::Arc;
use xueliu_core::encode::Picks;
use xueliu_core::rules::Rules as CoreRules;
use xueliu_core::tile::{self, Tile as CoreTile};

/// `game=`: a `Game`, borrowed as given.
pub fn game_arg<'a, 'py>(game: &'a Bound<'py, PyAny>) -> PyResult<&'a Bound<'py, Game>> {
    game.cast::<Game>()
        .map_err(|_| type_error("game", game, "a Game"))
}

/// `seat=`: 0-3.
pub fn seat_arg(seat: &Bound<'_, PyAny>) -> PyResult<u8> {
    convert::int("seat", seat, "a seat: 0, 1, 2 or 3")
        .ok()
        .filter(|&s: &u8| s < 4)
        .ok_or_else(|| {
            if convert::is_int(seat) {
                ArgumentError::new_err(format!(
                    "seat {} does not exist; seats are 0-3",
                    excerpt(seat)
                ))
            } else {
                type_error("seat", seat, "a seat: 0, 1, 2 or 3")
            }
        })
}

/// A whole number from 0 to 2**64 - 1 for parameter `param` (a seed, a count of games): an int
/// or any integer with `__index__` (numpy's), never a bool.
pub fn whole(param: &str, value: &Bound<'_, PyAny>) -> PyResult<u64> {
    convert::int(param, value, "an int from 0 to 2**64 - 1")
}

/// `seed=`: an int from 0 to 2**64 - 1.
pub fn seed_arg(seed: &Bound<'_, PyAny>) -> PyResult<u64> {
    whole("seed", seed)
}

/// `seed=` that may be left out: 0 then.
pub fn seed_or_zero(seed: Option<&Bound<'_, PyAny>>) -> PyResult<u64> {
    seed.map_or(Ok(0), seed_arg)
}

/// What a tile argument accepts.
const TILE: &str = "a tile: a Tile, its notation such as \"5m\", or an index 0-26";

/// One tile given as a `Tile`, its notation (`"5m"`) or its index, for parameter `param`.
pub fn tile_arg(param: &str, value: &Bound<'_, PyAny>) -> PyResult<CoreTile> {
    if let Ok(tile) = value.cast::<Tile>() {
        return Ok(tile.get().0);
    }
    if value.cast::<PyString>().is_ok() {
        let text = convert::text(param, value, TILE)?;
        let tiles = tile::parse_tiles(&text).map_err(tile_parse_error)?;
        return match tiles[..] {
            [t] => Ok(t),
            _ => Err(InvalidHandError::new_err(format!(
                "{param} {} names {} tiles where one tile is wanted, e.g. \"5m\"",
                quote(&text),
                tiles.len()
            ))),
        };
    }
    index_to_tile(convert::int(param, value, TILE)?)
}

/// Tiles given as notation (`"123m"`) or a sequence of tiles, for parameter `param`.
pub fn tiles_arg(param: &str, value: &Bound<'_, PyAny>) -> PyResult<Vec<CoreTile>> {
    if value.cast::<PyString>().is_ok() {
        let text = convert::text(param, value, TILES)?;
        return tile::parse_tiles(&text).map_err(tile_parse_error);
    }
    if value.cast::<PyDict>().is_ok() {
        return Err(type_error(param, value, TILES));
    }
    value
        .try_iter()
        .map_err(|_| type_error(param, value, TILES))?
        .enumerate()
        .map(|(i, t)| tile_arg(&format!("{param}[{i}]"), &t?))
        .collect()
}

/// What a tiles argument accepts.
const TILES: &str =
    "tiles: notation such as \"123m\", or a sequence of tiles (Tile, \"5m\" or 0-26)";

/// `picked=`: the tiles a seat has picked so far toward its exchange (at most two).
pub fn picks_arg(picked: Option<&Bound<'_, PyAny>>) -> PyResult<Picks> {
    let Some(picked) = picked else {
        return Ok(Picks::NONE);
    };
    let tiles = tiles_arg("picked", picked)?;
    Picks::of(&tiles).ok_or_else(|| {
        ArgumentError::new_err(format!(
            "picked holds {} tiles; an exchange is picked one tile at a time and the third completes it, so at most two",
            tiles.len()
        ))
    })
}

/// What `rules=` accepts.
const RULES: &str = "a Rules, a preset name such as \"chengdu\", or a dict of options";

/// A `rules=` argument: a `Rules`, a preset's name, or a dict (`Rules.to_dict()`'s full form,
/// or a `"preset"` and options to override).
pub fn rules_arg(rules: &Bound<'_, PyAny>) -> PyResult<Arc<CoreRules>> {
    if let Ok(r) = rules.cast::<Rules>() {
        return Ok(Arc::new(r.get().0));
    }
    let rules = if rules.cast::<PyString>().is_ok() {
        CoreRules::preset(&convert::text("rules", rules, RULES)?)
    } else if let Ok(d) = rules.cast::<PyDict>() {
        CoreRules::from_entries(entries(d)?)
    } else {
        return Err(type_error("rules", rules, RULES));
    };
    rules.map(Arc::new).map_err(rules_error)
}

/// A `rules=` argument that may be None: the default preset then.
pub fn rules_or_default(rules: Option<&Bound<'_, PyAny>>) -> PyResult<Arc<CoreRules>> {
    match rules.filter(|r| !r.is_none()) {
        Some(r) => rules_arg(r),
        None => Ok(Arc::new(CoreRules::DEFAULT_PRESET.rules())),
    }
}
