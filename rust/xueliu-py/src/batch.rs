//! `xueliu.batch`: the analysis functions over a `uint8[N, 27]` array of counts, one hand per
//! row, computed with the GIL released and the rows split across the machine's cores.

use crate::convert;
use crate::errors::InvalidHandError;
use numpy::{PyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::prelude::*;
use xueliu_core::analysis::{self, Context, HandSize};
use xueliu_core::batch::map_hands;
use xueliu_core::hand::Counts;
use xueliu_core::tile::KINDS;

/// Runs `f` on every row, each checked to be a hand of `size`, with the GIL released.
fn per_row<T: Send + Copy + Default + numpy::Element>(
    py: Python<'_>,
    counts: PyReadonlyArray2<'_, u8>,
    void: Option<&str>,
    seven_pairs: bool,
    size: HandSize,
    f: impl Fn(&Counts, &Context) -> T + Send + Sync,
) -> PyResult<Py<PyArray1<T>>> {
    let shape = counts.shape().to_vec();
    if shape[1] != KINDS {
        return Err(InvalidHandError::new_err(format!(
            "batch arrays have shape (N, 27), one row of tile counts per hand; got {shape:?}"
        )));
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
    let result = py.detach(|| map_hands(data, &mut out, &ctx, size, threads, f));
    result.map_err(|(row, e)| InvalidHandError::new_err(format!("row {row}: {e}")))?;
    Ok(PyArray1::from_vec(py, out).unbind())
}

/// `is_win` for every row (14 tiles each); a bool array.
#[pyfunction]
#[pyo3(signature = (counts, *, void=None, seven_pairs=true))]
pub fn is_win(
    py: Python<'_>,
    counts: PyReadonlyArray2<'_, u8>,
    void: Option<&str>,
    seven_pairs: bool,
) -> PyResult<Py<PyArray1<bool>>> {
    per_row(
        py,
        counts,
        void,
        seven_pairs,
        HandSize::Complete,
        analysis::is_win,
    )
}

/// `shanten` for every row (13 or 14 tiles each); an int8 array.
#[pyfunction]
#[pyo3(signature = (counts, *, void=None, seven_pairs=true))]
pub fn shanten(
    py: Python<'_>,
    counts: PyReadonlyArray2<'_, u8>,
    void: Option<&str>,
    seven_pairs: bool,
) -> PyResult<Py<PyArray1<i8>>> {
    per_row(
        py,
        counts,
        void,
        seven_pairs,
        HandSize::Either,
        analysis::shanten,
    )
}

/// `waits` for every row (13 tiles each), as a uint32 bitmask: bit i set when tile i completes it.
#[pyfunction]
#[pyo3(signature = (counts, *, void=None, seven_pairs=true))]
pub fn waits(
    py: Python<'_>,
    counts: PyReadonlyArray2<'_, u8>,
    void: Option<&str>,
    seven_pairs: bool,
) -> PyResult<Py<PyArray1<u32>>> {
    per_row(
        py,
        counts,
        void,
        seven_pairs,
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
