//! The `xueliu._xueliu` extension: converts Python values to core values and core errors to
//! Python exceptions. No game logic lives here.

use pyo3::prelude::*;

mod analysis;
mod args;
mod batch;
mod bots;
mod convert;
mod encode;
mod errors;
mod game;
mod matches;
mod rules;
mod score;
mod table;
mod tiles;

#[pymodule]
fn _xueliu(m: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::register(m)?;
    m.add_class::<tiles::Tile>()?;
    m.add_class::<analysis::Decomposition>()?;
    m.add_class::<analysis::HandFacts>()?;
    m.add_class::<game::Game>()?;
    m.add_class::<game::Action>()?;
    m.add_class::<game::Meld>()?;
    m.add_class::<game::Win>()?;
    m.add_class::<matches::Match>()?;
    m.add_class::<rules::Rules>()?;
    m.add_class::<score::Score>()?;
    m.add_function(wrap_pyfunction!(tiles::parse_tiles, m)?)?;
    m.add_function(wrap_pyfunction!(tiles::format_tiles, m)?)?;
    m.add_function(wrap_pyfunction!(analysis::is_win, m)?)?;
    m.add_function(wrap_pyfunction!(analysis::waits, m)?)?;
    m.add_function(wrap_pyfunction!(analysis::shanten, m)?)?;
    m.add_function(wrap_pyfunction!(analysis::decompositions, m)?)?;
    m.add_function(wrap_pyfunction!(analysis::hand_facts, m)?)?;
    m.add_function(wrap_pyfunction!(score::score, m)?)?;
    m.add_function(wrap_pyfunction!(score::best_waits, m)?)?;
    m.add("UNREACHABLE", xueliu_core::analysis::UNREACHABLE)?;
    batch::register(m)?;
    encode::register(m)?;
    bots::register(m)?;
    table::register(m)?;
    Ok(())
}
