//! Reading Python arguments into core values: a hand (a string, a sequence of tiles or indices, or
//! a length-27 count array), melds (strings like `"555m"`), and a void suit.

use crate::errors::{
    argument_error, excerpt, hand_error, quote, tile_parse_error, type_error, type_name,
    ArgumentError, InvalidHandError,
};
use crate::tiles::{index_to_tile, suit_from_str, Tile};
use numpy::{PyArray1, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt};
use pyo3::types::{PyDict, PyList, PyString, PyTuple};
use xueliu_core::analysis::{Context, HandSize};
use xueliu_core::hand::{Counts, MAX_WILDS};
use xueliu_core::meld::{Meld, Melds};
use xueliu_core::tile::{self, Suit, KINDS};

/// A hand given in any of the accepted forms.
pub fn counts(hand: &Bound<'_, PyAny>) -> PyResult<Counts> {
    if let Ok(string) = hand.cast::<PyString>() {
        let mut stack = [0u8; SHORT];
        let owned;
        let text = if let Some(text) = short_ascii(string, &mut stack) {
            text
        } else {
            owned = self::text("hand", hand, "a string like \"23445677m345789p\"")?;
            &owned
        };
        let mut array = [0u8; KINDS];
        tile::for_each_tile(text, |t| {
            array[t.index()] = array[t.index()].saturating_add(1);
        })
        .map_err(tile_parse_error)?;
        return Counts::from_array(&array).map_err(hand_error);
    }
    let accepts = "a string like \"23445677m345789p\", a sequence of tiles (Tile or index 0-26), or 27 counts";
    if hand.cast::<PyDict>().is_ok() {
        return Err(type_error("hand", hand, accepts));
    }
    if let Ok(row) = hand.cast::<PyArray1<u8>>() {
        if row.len() == KINDS {
            return numpy_counts(row);
        }
    }
    let len = hand.len().map_err(|_| type_error("hand", hand, accepts))?;
    let tiles_given = items(hand)?
        .any(|i| i.is_ok_and(|i| !i.is_exact_instance_of::<PyInt>() && i.cast::<Tile>().is_ok()));
    if len == KINDS && !tiles_given {
        let mut array = [0u8; KINDS];
        for (i, item) in items(hand)?.enumerate() {
            let item = item?;
            // A plain int in range reads in one C call; anything else names itself below.
            let plain = item.is_exact_instance_of::<PyInt>();
            let n = match plain.then(|| item.extract::<i64>()) {
                Some(Ok(n)) => n,
                _ => int(&format!("hand[{i}]"), &item, "a count 0-4")?,
            };
            array[i] = count(i, n)?;
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

/// A `uint8` numpy row of 27 counts (one row of a batch array), read without a Python object
/// per element.
fn numpy_counts(row: &Bound<'_, PyArray1<u8>>) -> PyResult<Counts> {
    let view = row
        .try_readonly()
        .map_err(|_| ArgumentError::new_err("hand is being written by another call"))?;
    let mut array = [0u8; KINDS];
    for (i, (slot, &c)) in array.iter_mut().zip(view.as_array().iter()).enumerate() {
        *slot = count(i, i64::from(c))?;
    }
    Counts::from_array(&array).map_err(hand_error)
}

/// The count of tile `i` in a 27-count array, checked to be 0-4.
fn count(i: usize, count: i64) -> PyResult<u8> {
    u8::try_from(count).ok().filter(|&c| c <= 4).ok_or_else(|| {
        InvalidHandError::new_err(format!(
            "count {count} for tile {} in a 27-count array; counts are 0-4",
            xueliu_core::tile::Tile::new(i as u8).expect("index below 27")
        ))
    })
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

/// What `void=` accepts.
const VOID: &str = "None or a suit: \"m\", \"p\" or \"s\"";

/// `void=`: None or a suit letter.
pub fn void(void: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Suit>> {
    let Some(value) = void.filter(|v| !v.is_none()) else {
        return Ok(None);
    };
    let text = text("void", value, VOID)?;
    match suit_from_str(&text) {
        Some(suit) => Ok(Some(suit)),
        None => Err(InvalidHandError::new_err(format!(
            "void {} is not a suit; use \"m\", \"p\", \"s\" or None",
            quote(&text)
        ))),
    }
}

/// `melds=` (and `concealed_kongs=`): None or a sequence of meld strings, `concealed` for 暗杠.
pub fn melds(
    param: &str,
    value: Option<&Bound<'_, PyAny>>,
    concealed: bool,
) -> PyResult<Vec<Meld>> {
    let accepts = "a sequence of meld strings such as [\"555m\", \"7777p\"]";
    let Some(value) = value.filter(|v| !v.is_none()) else {
        return Ok(Vec::new());
    };
    if value.cast::<PyString>().is_ok() || value.cast::<PyDict>().is_ok() {
        return Err(type_error(param, value, accepts));
    }
    let list = items(value).map_err(|_| type_error(param, value, accepts))?;
    list.enumerate()
        .map(|(i, item)| {
            let text = text(
                &format!("{param}[{i}]"),
                &item?,
                "a meld string such as \"555m\"",
            )?;
            Meld::parse(&text, concealed).map_err(hand_error)
        })
        .collect()
}

/// A number of wilds (幺鸡) held: 0–4.
pub fn wilds(value: Option<&Bound<'_, PyAny>>) -> PyResult<u8> {
    let Some(value) = value else { return Ok(0) };
    let accepts = "a number of wilds, an int 0-4";
    let wilds: i128 = int("wilds", value, accepts)?;
    u8::try_from(wilds)
        .ok()
        .filter(|&w| w <= MAX_WILDS)
        .ok_or_else(|| {
            InvalidHandError::new_err(format!(
                "wilds={wilds}, but a hand holds 0-{MAX_WILDS} wilds (the four 1s of 幺鸡)"
            ))
        })
}

/// A flag argument: True or False (a numpy bool too); `default` when not given.
pub fn flag(param: &str, value: Option<&Bound<'_, PyAny>>, default: bool) -> PyResult<bool> {
    match value {
        None => Ok(default),
        Some(v)
            if v.is_instance_of::<PyBool>()
                || type_name(v) == "bool"
                || type_name(v) == "bool_" =>
        {
            v.extract()
                .map_err(|_| type_error(param, v, "True or False"))
        }
        Some(v) => Err(type_error(param, v, "True or False")),
    }
}

/// The longest string [`short_ascii`] reads on the stack: a hand of 14 tiles with kongs and
/// spaces fits.
const SHORT: usize = 64;

/// `string` as `&str` in `buf` when it is ASCII and at most [`SHORT`] characters, else None (then
/// read it with [`text`]). Python 3.9's stable ABI has no borrowed UTF-8 view of a `str`, so
/// [`text`] makes a bytes object and a `String` on every call (about a ninth of the instructions
/// of a `shanten` call on a string); this copies the characters out with one C call and
/// allocates nothing.
fn short_ascii<'a>(string: &Bound<'_, PyString>, buf: &'a mut [u8; SHORT]) -> Option<&'a str> {
    let mut wide = [0 as pyo3::ffi::Py_UCS4; SHORT];
    // SAFETY: `string` is a live `str` and the GIL is held (it is a `Bound`); `wide` holds
    // `SHORT` characters and `PyUnicode_AsUCS4` writes at most that many (no NUL: copy_null 0).
    let len = unsafe {
        let len = pyo3::ffi::PyUnicode_GetLength(string.as_ptr());
        let copied = (0..=SHORT as pyo3::ffi::Py_ssize_t).contains(&len)
            && !pyo3::ffi::PyUnicode_AsUCS4(
                string.as_ptr(),
                wide.as_mut_ptr(),
                SHORT as pyo3::ffi::Py_ssize_t,
                0,
            )
            .is_null();
        if !copied {
            // A failed call (none is expected of a `str`) leaves no error behind for the caller.
            drop(PyErr::take(string.py()));
            return None;
        }
        usize::try_from(len).ok()?
    };
    for (byte, &c) in buf.iter_mut().zip(&wide[..len]) {
        *byte = u8::try_from(c).ok().filter(u8::is_ascii)?;
    }
    std::str::from_utf8(&buf[..len]).ok()
}

/// A string argument: ArgumentTypeError when it is no `str`, ArgumentError when it cannot be
/// read as text (a lone surrogate).
pub fn text(param: &str, value: &Bound<'_, PyAny>, accepts: &str) -> PyResult<String> {
    let s = value
        .cast::<PyString>()
        .map_err(|_| type_error(param, value, accepts))?;
    s.to_cow().map(std::borrow::Cow::into_owned).map_err(|_| {
        argument_error(
            param,
            "a string holding a lone surrogate (not valid Unicode)",
            accepts,
        )
    })
}

/// The context arguments every analysis call shares: `void=` and `seven_pairs=`; no melds.
pub fn context(
    void: Option<&Bound<'_, PyAny>>,
    seven_pairs: Option<&Bound<'_, PyAny>>,
) -> PyResult<Context> {
    Ok(Context {
        void: self::void(void)?,
        seven_pairs: flag("seven_pairs", seven_pairs, true)?,
        ..Context::PLAIN
    })
}

/// The arguments of the analysis functions, `(hand, *, melds, void, seven_pairs, wilds)`,
/// read once: the hand with its wilds, the melds and the context, checked for `size`.
pub struct HandArgs {
    pub counts: Counts,
    pub melds: Vec<Meld>,
    pub ctx: Context,
}

impl HandArgs {
    pub fn read(
        hand: &Bound<'_, PyAny>,
        melds: Option<&Bound<'_, PyAny>>,
        void: Option<&Bound<'_, PyAny>>,
        seven_pairs: Option<&Bound<'_, PyAny>>,
        wilds: Option<&Bound<'_, PyAny>>,
        size: HandSize,
    ) -> PyResult<HandArgs> {
        let counts = counts(hand)?
            .with_wilds(self::wilds(wilds)?)
            .map_err(hand_error)?;
        let melds = self::melds("melds", melds, false)?;
        let ctx = Context {
            melds: Melds::new(&melds).map_err(hand_error)?,
            ..context(void, seven_pairs)?
        };
        ctx.check(&counts, size).map_err(hand_error)?;
        Ok(HandArgs { counts, melds, ctx })
    }
}

/// Whether `value` is an integer: an int or a numpy integer (a number with `__index__`), but
/// not a bool (`True` is no seat or count) nor a `Tile` (a tile is no number).
///
/// Every seat, action id and count passes here, so an exact `int` answers first, and the rest
/// is read from the type's slots: looking `__len__` up as an attribute raised and caught an
/// AttributeError for every int (about 1 µs a call).
pub fn is_int(value: &Bound<'_, PyAny>) -> bool {
    if value.is_exact_instance_of::<PyInt>() {
        return true;
    }
    // SAFETY: `value` is a live object and the GIL is held (it is a `Bound`); both calls only
    // read its type's slots.
    let (index, sequence) = unsafe {
        (
            pyo3::ffi::PyIndex_Check(value.as_ptr()) != 0,
            pyo3::ffi::PySequence_Check(value.as_ptr()) != 0,
        )
    };
    // An array has `__index__` too (for one element); a number is no sequence.
    let integer = value.is_instance_of::<PyInt>() || (index && !sequence);
    integer && !value.is_instance_of::<PyBool>() && value.cast::<Tile>().is_err()
}

/// The int argument `param` as a `T`: ArgumentTypeError when it is no int, ArgumentError when
/// `T` cannot hold it; `accepts` says what is valid.
pub fn int<T: TryFrom<i128>>(param: &str, value: &Bound<'_, PyAny>, accepts: &str) -> PyResult<T> {
    if !is_int(value) {
        return Err(type_error(param, value, accepts));
    }
    // An `i64` reads in one C call; `i128` (for seeds up to 2**64 - 1) takes Python arithmetic
    // under the stable ABI, so only a number beyond `i64` pays for it.
    value
        .extract::<i64>()
        .map(i128::from)
        .or_else(|_| value.extract::<i128>())
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
        .ok_or_else(|| {
            if is_int(value) {
                argument_error(param, excerpt(value), &accepts)
            } else {
                type_error(param, value, &accepts)
            }
        })
}
