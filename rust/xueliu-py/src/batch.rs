//! `xueliu.batch`: the analysis functions over a `uint8[N, 27]` array of counts, one hand per
//! row, computed with the GIL released and the rows split across the machine's cores.

use crate::convert;
use crate::errors::{type_error, ArgumentError, InvalidHandError};
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::prelude::*;
use xueliu_core::analysis::{self, Context, HandSize};
use xueliu_core::batch::{map_hands, Wilds};
use xueliu_core::hand::Counts;
use xueliu_core::tile::KINDS;

/// What `counts=` of a batch call accepts.
const COUNTS: &str = "a numpy uint8 array of shape (N, 27), one row of tile counts per hand \
     (convert another dtype with counts.astype(numpy.uint8))";

/// `wilds=`: one int for every row, or one per row (a numpy uint8 array or a sequence of ints).
const WILDS: &str = "an int 0-4 for every row, or one per row (a uint8 array or a list of ints)";

/// The `counts` array of a batch call, checked to be `(N, 27)` and borrowed for reading.
fn counts_array<'py>(counts: &Bound<'py, PyAny>) -> PyResult<PyReadonlyArray2<'py, u8>> {
    let array = counts
        .cast::<PyArray2<u8>>()
        .map_err(|_| type_error("counts", counts, COUNTS))?;
    let shape = array.shape();
    if shape[1] != KINDS {
        return Err(InvalidHandError::new_err(format!(
            "counts must be {COUNTS}; got shape {shape:?}"
        )));
    }
    array
        .try_readonly()
        .map_err(|_| ArgumentError::new_err("counts is being written by another call"))
}

/// The rows of `counts` one after another: the array's own memory when it is in row order
/// (C-contiguous, the usual case), else a copy in row order (a Fortran-ordered or strided array).
fn counts_rows<'a>(counts: &'a PyReadonlyArray2<'_, u8>, copy: &'a mut Vec<u8>) -> &'a [u8] {
    let view = counts.as_array();
    if let Some(rows) = view.to_slice() {
        return rows;
    }
    // `iter` walks the elements in logical (row) order whatever the strides.
    *copy = view.iter().copied().collect();
    copy
}

/// The `wilds` of a batch call: one count for all rows (`Err`), or one per row (`Ok`).
fn wilds_arg(wilds: Option<&Bound<'_, PyAny>>, rows: usize) -> PyResult<Result<Vec<u8>, u8>> {
    let Some(wilds) = wilds else {
        return Ok(Err(0));
    };
    if convert::is_int(wilds) {
        return Ok(Err(convert::wilds(Some(wilds))?));
    }
    let per_row: Vec<u8> = match wilds.cast::<PyArray1<u8>>() {
        Ok(array) => {
            let view = array
                .try_readonly()
                .map_err(|_| ArgumentError::new_err("wilds is being written by another call"))?;
            view.as_array().iter().copied().collect()
        }
        Err(_) => wilds
            .try_iter()
            .map_err(|_| type_error("wilds", wilds, WILDS))?
            .map(|w| convert::wilds(Some(&w?)))
            .collect::<PyResult<_>>()?,
    };
    if per_row.len() != rows {
        return Err(InvalidHandError::new_err(format!(
            "wilds has {} entries for {rows} rows; give one per row, or one int for all",
            per_row.len()
        )));
    }
    Ok(Ok(per_row))
}

/// Runs `f` on every row, each checked to be a hand of `size`, with the GIL released.
fn per_row<T: Send + Copy + Default + numpy::Element>(
    py: Python<'_>,
    counts: &Bound<'_, PyAny>,
    ctx: Context,
    wilds: Option<&Bound<'_, PyAny>>,
    size: HandSize,
    f: impl Fn(&Counts, &Context) -> T + Send + Sync,
) -> PyResult<Py<PyArray1<T>>> {
    let counts = counts_array(counts)?;
    let rows = counts.shape()[0];
    let mut copy = Vec::new();
    let data = counts_rows(&counts, &mut copy);
    let per_row = wilds_arg(wilds, rows)?;
    let wilds = match &per_row {
        Ok(w) => Wilds::PerRow(w),
        Err(each) => Wilds::Each(*each),
    };
    let threads = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let mut out = vec![T::default(); rows];
    let result = py.detach(|| map_hands(data, wilds, &mut out, &ctx, size, threads, f));
    result.map_err(|(row, e)| InvalidHandError::new_err(format!("row {row}: {e}")))?;
    Ok(PyArray1::from_vec(py, out).unbind())
}

/// Declares a batch function with the arguments they all share, `(counts, *, void=None,
/// seven_pairs=True, wilds=0)`, running `$f` on every row of `$size`.
macro_rules! batch_fn {
    ($(#[$doc:meta])* fn $name:ident($size:expr, $f:expr) -> $t:ty) => {
        $(#[$doc])*
        #[pyfunction]
        #[pyo3(
            signature = (counts, *, void=None, seven_pairs=None, wilds=None),
            text_signature = "(counts, *, void=None, seven_pairs=True, wilds=0)"
        )]
        pub fn $name(
            py: Python<'_>,
            counts: &Bound<'_, PyAny>,
            void: Option<&Bound<'_, PyAny>>,
            seven_pairs: Option<&Bound<'_, PyAny>>,
            wilds: Option<&Bound<'_, PyAny>>,
        ) -> PyResult<Py<PyArray1<$t>>> {
            let ctx = convert::context(void, seven_pairs)?;
            per_row(py, counts, ctx, wilds, $size, $f)
        }
    };
}

batch_fn! {
    /// `is_win` for every row (14 tiles each, wilds included); a bool array. `wilds`: the wilds
    /// each row holds besides its counts, one int for all rows or one per row.
    fn is_win(HandSize::Complete, analysis::is_win) -> bool
}

batch_fn! {
    /// `shanten` for every row (13 or 14 tiles each, wilds included); an int8 array.
    fn shanten(HandSize::Either, analysis::shanten) -> i8
}

batch_fn! {
    /// `waits` for every row (13 tiles each, wilds included), as a uint32 bitmask: bit i set
    /// when tile i completes it.
    fn waits(HandSize::Waiting, analysis::waits) -> u32
}

pub fn register(parent: &Bound<'_, PyModule>) -> PyResult<()> {
    let m = PyModule::new(parent.py(), "batch")?;
    m.add_function(wrap_pyfunction!(is_win, &m)?)?;
    m.add_function(wrap_pyfunction!(shanten, &m)?)?;
    m.add_function(wrap_pyfunction!(waits, &m)?)?;
    parent.add_submodule(&m)
}
