//! Reading Python arguments into core values: a hand (a string, a sequence of tiles or indices, or
//! a length-27 count array), melds (strings like `"555m"`), and a void suit.

use crate::errors::{
    argument_error, excerpt, hand_error, tile_parse_error, type_error, InvalidHandError,
};
use crate::tiles::{index_to_tile, suit_from_str, Tile};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt};
use pyo3::types::{PyDict, PyList, PyString, PyTuple};
use xueliu_core::analysis::{Context, HandSize};
use xueliu_core::hand::{Counts, MAX_WILDS};
use xueliu_core::meld::{Meld, Melds};
use xueliu_core::tile::{self, Suit, KINDS};

/// A hand given in any of the accepted forms.
pub fn counts(hand: &Bound<'_, PyAny>) -> PyResult<Counts> {
    if let Ok(text) = hand.cast::<PyString>() {
        let mut array = [0u8; KINDS];
        tile::for_each_tile(&text.to_cow()?, |t| {
            array[t.index()] = array[t.index()].saturating_add(1)
        })
        .map_err(tile_parse_error)?;
        return Counts::from_array(&array).map_err(hand_error);
    }
    let accepts = "a string like \"23445677m345789p\", a sequence of tiles (Tile or index 0-26), or 27 counts";
    if hand.cast::<PyDict>().is_ok() {
        return Err(type_error("hand", hand, accepts));
    }
    let len = hand.len().map_err(|_| type_error("hand", hand, accepts))?;
    let tiles_given = items(hand)?.any(|i| i.is_ok_and(|i| i.cast::<Tile>().is_ok()));
    if len == KINDS && !tiles_given {
        let mut array = [0u8; KINDS];
        for (i, item) in items(hand)?.enumerate() {
            let item = item?;
            let count: i64 = int(&format!("hand[{i}]"), &item, "a count 0-4")?;
            array[i] = u8::try_from(count)
                .ok()
                .filter(|&c| c <= 4)
                .ok_or_else(|| {
                    InvalidHandError::new_err(format!(
                        "count {count} for tile {} in a 27-count array; counts are 0-4",
                        xueliu_core::tile::Tile::new(i as u8).expect("index below 27")
                    ))
                })?;
        }
        return Counts::from_array(&array).map_err(hand_error);
    }
    let mut tiles = Vec::with_capacity(len);
    for item in items(hand)? {
        let item = item?;
        let tile = match item.cast::<Tile>() {
            Ok(t) => t.get().0,
            Err(_) => index_to_tile(int("hand item", &item, "a Tile or an index 0-26")?)?,
        };
        tiles.push(tile);
    }
    Counts::from_tiles(&tiles).map_err(hand_error)
}

/// The items of a list or tuple by direct access, of any other sequence by iteration.
fn items<'py>(
    seq: &Bound<'py, PyAny>,
) -> PyResult<Box<dyn Iterator<Item = PyResult<Bound<'py, PyAny>>> + 'py>> {
    if let Ok(list) = seq.cast::<PyList>() {
        return Ok(Box::new(list.clone().into_iter().map(Ok)));
    }
    if let Ok(tuple) = seq.cast::<PyTuple>() {
        return Ok(Box::new(tuple.clone().into_iter().map(Ok)));
    }
    Ok(Box::new(seq.try_iter()?))
}

pub fn void(void: Option<&str>) -> PyResult<Option<Suit>> {
    void.map(|text| {
        suit_from_str(text).ok_or_else(|| {
            InvalidHandError::new_err(format!(
                "void {text:?} is not a suit; use \"m\", \"p\", \"s\" or None"
            ))
        })
    })
    .transpose()
}

pub fn melds(melds: Option<Vec<String>>) -> PyResult<Vec<Meld>> {
    melds
        .unwrap_or_default()
        .iter()
        .map(|text| Meld::parse(text, false).map_err(hand_error))
        .collect()
}

/// A number of wilds (幺鸡) held: 0–4.
pub fn wilds(wilds: i64) -> PyResult<u8> {
    u8::try_from(wilds)
        .ok()
        .filter(|&w| w <= MAX_WILDS)
        .ok_or_else(|| {
            InvalidHandError::new_err(format!(
                "wilds={wilds}, but a hand holds 0-{MAX_WILDS} wilds (the four 1s of 幺鸡)"
            ))
        })
}

/// The hand (holding `wilds` wilds besides its natural tiles) and its context, checked to have
/// the size `size` asks for.
pub fn hand_and_context(
    hand: &Bound<'_, PyAny>,
    melds: Option<Vec<String>>,
    void: Option<&str>,
    seven_pairs: bool,
    wilds: i64,
    size: HandSize,
) -> PyResult<(Counts, Context)> {
    let counts = counts(hand)?
        .with_wilds(self::wilds(wilds)?)
        .map_err(hand_error)?;
    let ctx = Context {
        melds: Melds::new(&self::melds(melds)?).map_err(hand_error)?,
        void: self::void(void)?,
        seven_pairs,
    };
    ctx.check(&counts, size).map_err(hand_error)?;
    Ok((counts, ctx))
}

/// Whether `value` is an integer: an int or a numpy integer (a number with `__index__`), but
/// not a bool (`True` is no seat or count) nor a `Tile` (a tile is no number).
pub fn is_int(value: &Bound<'_, PyAny>) -> bool {
    // An array has `__index__` too (for one element); a number has no length.
    let number =
        value.hasattr("__index__").unwrap_or(false) && !value.hasattr("__len__").unwrap_or(true);
    let integer = value.is_instance_of::<PyInt>() || number;
    integer && !value.is_instance_of::<PyBool>() && value.cast::<Tile>().is_err()
}

/// The int argument `param` as a `T`: ArgumentTypeError when it is no int, ArgumentError when
/// `T` cannot hold it; `accepts` says what is valid.
pub fn int<T: TryFrom<i128>>(param: &str, value: &Bound<'_, PyAny>, accepts: &str) -> PyResult<T> {
    if !is_int(value) {
        return Err(type_error(param, value, accepts));
    }
    value
        .extract::<i128>()
        .ok()
        .and_then(|v| T::try_from(v).ok())
        .ok_or_else(|| argument_error(param, excerpt(value), accepts))
}

/// An index argument below `len`; `what` names what it indexes.
pub fn index(param: &str, value: &Bound<'_, PyAny>, len: usize, what: &str) -> PyResult<usize> {
    let accepts = format!("{what}: an int from 0 to {}", len.saturating_sub(1));
    int::<usize>(param, value, &accepts)
        .ok()
        .filter(|&i| i < len)
        .ok_or_else(|| match is_int(value) {
            true => argument_error(param, excerpt(value), &accepts),
            false => type_error(param, value, &accepts),
        })
}
