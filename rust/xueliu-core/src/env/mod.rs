//! Games for learning agents, stepped by action ids (`encode`): one hand with built-in opponents
//! ([`Table`]) and many hands stepped together across threads ([`VecEnv`]).

mod table;
mod vec_env;

pub use table::{Policy, Table};
pub use vec_env::{hand_seed, Obs, Outputs, VecEnv};
