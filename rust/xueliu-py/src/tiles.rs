//! `Tile`, `parse_tiles` and `format_tiles`.

use crate::args::{tile_arg, tiles_arg};
use crate::errors::{tile_parse_error, InvalidHandError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyString;
use xueliu_core::tile::{self, Suit, Tile as CoreTile};

/// A tile kind: index 0–26 (`1m..9m`, `1p..9p`, `1s..9s`). `Tile(4)` and `Tile("5m")` are equal.
#[pyclass(frozen, eq, ord, hash, module = "xueliu")]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Tile(pub CoreTile);

#[pymethods]
impl Tile {
    #[new]
    fn new(value: &Bound<'_, PyAny>) -> PyResult<Tile> {
        tile_arg("value", value).map(Tile)
    }

    /// Index 0–26.
    #[getter]
    fn index(&self) -> usize {
        self.0.index()
    }

    /// `"m"`, `"p"` or `"s"`.
    #[getter]
    fn suit(&self) -> String {
        self.0.suit().letter().to_string()
    }

    /// Rank 1–9.
    #[getter]
    fn rank(&self) -> u8 {
        self.0.rank()
    }

    fn __index__(&self) -> usize {
        self.0.index()
    }

    fn __int__(&self) -> usize {
        self.0.index()
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Tile('{}')", self.0)
    }

    fn __getnewargs__(&self) -> (usize,) {
        (self.0.index(),)
    }
}

/// The 27 `Tile` objects, made once: functions that return tiles hand out these.
pub fn tile_object(py: Python<'_>, tile: CoreTile) -> Py<Tile> {
    static TILES: PyOnceLock<Vec<Py<Tile>>> = PyOnceLock::new();
    TILES.get_or_init(py, || {
        CoreTile::all()
            .map(|t| Py::new(py, Tile(t)).expect("allocating 27 small objects"))
            .collect()
    })[tile.index()]
    .clone_ref(py)
}

pub fn index_to_tile(index: i64) -> PyResult<CoreTile> {
    u8::try_from(index)
        .ok()
        .and_then(CoreTile::new)
        .ok_or_else(|| {
            InvalidHandError::new_err(format!(
                "tile index {index} is out of range; tiles are 0-26"
            ))
        })
}

pub fn suit_from_str(text: &str) -> Option<Suit> {
    Suit::parse(text)
}

/// Reads tile notation, e.g. `"23445677m345789p"` or `"23445677万345789筒"`, into tiles in the
/// order written.
#[pyfunction]
pub fn parse_tiles(py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<Vec<Py<Tile>>> {
    let text = crate::convert::text("text", text, "tile notation such as \"23445677m345789p\"")?;
    let tiles = tile::parse_tiles(&text).map_err(tile_parse_error)?;
    Ok(tiles.into_iter().map(|t| tile_object(py, t)).collect())
}

/// Writes tiles (or tile indices) sorted, one suit letter per run: `"23445677m345789p"`.
#[pyfunction]
pub fn format_tiles(tiles: &Bound<'_, PyAny>) -> PyResult<String> {
    if tiles.cast::<PyString>().is_ok() {
        let accepts =
            "a sequence of tiles (Tile, \"5m\" or 0-26); to read notation use parse_tiles";
        return Err(crate::errors::type_error("tiles", tiles, accepts));
    }
    Ok(tile::format_tiles(&tiles_arg("tiles", tiles)?))
}
