use pyo3::prelude::*;

#[pymodule]
fn _xueliu(_m: &Bound<'_, PyModule>) -> PyResult<()> {
    Ok(())
}
