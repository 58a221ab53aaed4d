//! The written form of a hand (docs/game-protocol.md §9): the snapshot ([`Game::to_json`],
//! [`Game::from_json`]), the replay of an event log ([`Game::from_events`],
//! [`Game::replay_states`], [`Game::replayed_prefix`]), the verification of a snapshot against
//! its seed and decisions, the reading of a full log, a match's log and snapshot
//! (`Match::log_json`, `Match::from_json`, `Match::from_log`), and [`migrate`]: what an older
//! snapshot or log leaves out.
//!
//! The record sits above the engine and reaches it through two public doors only: the game's
//! parts ([`Game::parts`], [`Game::from_parts`], where the invariant checks run) and its public
//! play (`act`, `abandon`, the log's writers); a match through `Match::with_hands`. `game` never imports `record`
//! (tests/core/test_module_graph.py checks it).
//!
//! [`Game::to_json`]: crate::game::Game::to_json
//! [`Game::from_json`]: crate::game::Game::from_json
//! [`Game::from_events`]: crate::game::Game::from_events
//! [`Game::replay_states`]: crate::game::Game::replay_states
//! [`Game::replayed_prefix`]: crate::game::Game::replayed_prefix
//! [`Game::parts`]: crate::game::Game::parts
//! [`Game::from_parts`]: crate::game::Game::from_parts

mod log;
mod match_log;
pub mod migrate;
mod replay;
mod snapshot;
mod verify;
