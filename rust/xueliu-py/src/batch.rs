//! `xueliu.batch`: the analysis functions over a `uint8[N, 27]` array of counts, one hand per
//! row, computed with the GIL released and the rows split across the machine's cores.

use crate::convert;
use crate::errors::InvalidHandError;
use numpy::{PyArray1, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::prelude::*;
use xueliu_core::analysis::{self, Context, HandSize};
use xueliu_core::batch::{map_hands, Wilds};
use xueliu_core::hand::Counts;
use xueliu_core::tile::KINDS;

/// `wilds=` of a batch call: one number for every row, or one per row (a uint8 array read in
/// place, or any sequence of ints).
#[derive(FromPyObject)]
pub enum BatchWilds<'py> {
    Each(i64),
    Array(PyReadonlyArray1<'py, u8>),
    List(Vec<i64>),
}

/// Runs `f` on every row, each checked to be a hand of `size`, with the GIL released.
fn per_row<T: Send + Copy + Default + numpy::Element>(
    py: Python<'_>,
    counts: PyReadonlyArray2<'_, u8>,
    void: Option<&str>,
    seven_pairs: bool,
    wilds: BatchWilds<'_>,
    size: HandSize,
    f: impl Fn(&Counts, &Context) -> T + Send + Sync,
) -> PyResult<Py<PyArray1<T>>> {
    let shape = counts.shape().to_vec();
    if shape[1] != KINDS {
        return Err(InvalidHandError::new_err(format!(
            "batch arrays have shape (N, 27), one row of tile counts per hand; got {shape:?}"
        )));
    }
    let owned_wilds: Vec<u8>;
    let wilds = match wilds {
        BatchWilds::Each(w) => Wilds::Each(convert::wilds(w)?),
        BatchWilds::Array(ref array) => Wilds::PerRow(array.as_slice().map_err(|_| {
            InvalidHandError::new_err("wilds must be a contiguous 1-D array, one count per row")
        })?),
        BatchWilds::List(list) => {
            owned_wilds = list
                .into_iter()
                .map(convert::wilds)
                .collect::<PyResult<_>>()?;
            Wilds::PerRow(&owned_wilds)
        }
    };
    if let Wilds::PerRow(w) = wilds {
        if w.len() != shape[0] {
            return Err(InvalidHandError::new_err(format!(
                "wilds has {} entries for {} rows; give one per row, or one int for all",
                w.len(),
                shape[0]
            )));
        }
    }
    let ctx = Context {
        void: convert::void(void)?,
        seven_pairs,
        ..Context::PLAIN
    };
    let owned;
    let data: &[u8] = match counts.as_slice() {
        Ok(slice) => slice,
        Err(_) => {
            owned = counts.as_array().iter().copied().collect::<Vec<u8>>();
            &owned
        }
    };
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut out = vec![T::default(); shape[0]];
    let result = py.detach(|| map_hands(data, wilds, &mut out, &ctx, size, threads, f));
    result.map_err(|(row, e)| InvalidHandError::new_err(format!("row {row}: {e}")))?;
    Ok(PyArray1::from_vec(py, out).unbind())
}

/// `is_win` for every row (14 tiles each, wilds included); a bool array. `wilds`: the wilds each
/// row holds besides its counts, one int for all rows or one per row.
#[pyfunction]
#[pyo3(
    signature = (counts, *, void=None, seven_pairs=true, wilds=BatchWilds::Each(0)),
    text_signature = "(counts, *, void=None, seven_pairs=True, wilds=0)"
)]
pub fn is_win(
    py: Python<'_>,
    counts: PyReadonlyArray2<'_, u8>,
    void: Option<&str>,
    seven_pairs: bool,
    wilds: BatchWilds<'_>,
) -> PyResult<Py<PyArray1<bool>>> {
    per_row(
        py,
        counts,
        void,
        seven_pairs,
        wilds,
        HandSize::Complete,
        analysis::is_win,
    )
}

/// `shanten` for every row (13 or 14 tiles each, wilds included); an int8 array.
#[pyfunction]
#[pyo3(
    signature = (counts, *, void=None, seven_pairs=true, wilds=BatchWilds::Each(0)),
    text_signature = "(counts, *, void=None, seven_pairs=True, wilds=0)"
)]
pub fn shanten(
    py: Python<'_>,
    counts: PyReadonlyArray2<'_, u8>,
    void: Option<&str>,
    seven_pairs: bool,
    wilds: BatchWilds<'_>,
) -> PyResult<Py<PyArray1<i8>>> {
    per_row(
        py,
        counts,
        void,
        seven_pairs,
        wilds,
        HandSize::Either,
        analysis::shanten,
    )
}

/// `waits` for every row (13 tiles each, wilds included), as a uint32 bitmask: bit i set when
/// tile i completes it.
#[pyfunction]
#[pyo3(
    signature = (counts, *, void=None, seven_pairs=true, wilds=BatchWilds::Each(0)),
    text_signature = "(counts, *, void=None, seven_pairs=True, wilds=0)"
)]
pub fn waits(
    py: Python<'_>,
    counts: PyReadonlyArray2<'_, u8>,
    void: Option<&str>,
    seven_pairs: bool,
    wilds: BatchWilds<'_>,
) -> PyResult<Py<PyArray1<u32>>> {
    per_row(
        py,
        counts,
        void,
        seven_pairs,
        wilds,
        HandSize::Waiting,
        analysis::waits,
    )
}

pub fn register(parent: &Bound<'_, PyModule>) -> PyResult<()> {
    let m = PyModule::new(parent.py(), "batch")?;
    m.add_function(wrap_pyfunction!(is_win, &m)?)?;
    m.add_function(wrap_pyfunction!(shanten, &m)?)?;
    m.add_function(wrap_pyfunction!(waits, &m)?)?;
    parent.add_submodule(&m)
}
