//! xueliu-core: an exact, fast engine for Sichuan mahjong (血战到底, 血流成河). No Python here;
//! the `xueliu-py` crate wraps it.
//!
//! Modules, bottom up: `wire` (the JSON plumbing every written type uses), [`tile`] (tiles and
//! notation), [`hand`] (counts with per-suit keys), [`meld`] (pongs and kongs), [`tables`]
//! (per-suit tables), [`analysis`] (win, waits, shanten), [`pattern`] (patterns and fan tables),
//! [`points`] (fan to points), [`rules`] (options and presets), [`score`] (scoring a win and a
//! ready hand's waits), [`game`] (the turn state machine: one hand from the shuffle to the last
//! payment), [`record`] (the hand's written form: snapshots, replays of logs, their verification
//! and older formats; it reaches the game through [`game::Game::parts`] and
//! [`game::Game::from_parts`] only), [`search`] (determinisation for search over hidden tiles,
//! written against the seat's view: it reaches the game through [`game::SeatView::world`], and
//! the true tiles only through an explicit [`game::TrueHands`]), [`mod@matches`] (hands in a
//! row: dealers, seeds, totals),
//! [`analysis::wilds`] (analysis with 幺鸡 wilds), [`bot_protocol`] (the lines a bot process is sent
//! at each decision).

pub mod analysis;
pub mod batch;
pub mod bot_protocol;
pub mod bots;
mod choice;
pub mod encode;
pub mod env;
pub mod error;
pub mod excerpt;
pub mod game;
pub mod hand;
pub mod matches;
pub mod meld;
pub mod pattern;
pub mod points;
pub mod record;
pub mod rng;
pub mod rules;
pub mod score;
pub mod search;
pub mod tables;
pub mod tile;
pub(crate) mod wire;

pub use choice::Choice;
pub use error::{Error, Result};
pub use matches::Match;
