//! `xueliu.batch`: the analysis functions over a `uint8[N, 27]` array of counts, one hand per
//! row, computed with the GIL released.

use crate::convert;
use crate::errors::{hand_error, InvalidHandError};
use numpy::{PyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::prelude::*;
use xueliu_core::analysis::{self, Context, HandSize};
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
    let result = py.detach(|| {
        let mut out = vec![T::default(); shape[0]];
        for (row, (slot, counts)) in out.iter_mut().zip(data.chunks_exact(KINDS)).enumerate() {
            let array: &[u8; KINDS] = counts.try_into().expect("rows of 27");
            let hand = Counts::from_array(array).map_err(|e| (row, e))?;
            ctx.check(&hand, size).map_err(|e| (row, e))?;
            *slot = f(&hand, &ctx);
        }
        Ok(out)
    });
    let out = result.map_err(|(row, e)| {
        let err = hand_error(e);
        InvalidHandError::new_err(format!("row {row}: {}", err.value(py)))
    })?;
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
