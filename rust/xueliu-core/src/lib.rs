//! xueliu-core: an exact, fast engine for Sichuan mahjong (血战到底, 血流成河). No Python here;
//! the `xueliu-py` crate wraps it.
//!
//! Modules, bottom up: [`tile`] (tiles and notation), [`hand`] (counts with per-suit keys),
//! [`meld`] (pongs and kongs), [`tables`] (per-suit tables), [`analysis`] (win, waits, shanten),
//! [`wilds`] (the same with 幺鸡 wilds).

pub mod analysis;
pub mod batch;
pub mod hand;
pub mod meld;
pub mod rng;
pub mod tables;
pub mod tile;
pub mod wilds;
