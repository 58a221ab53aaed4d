//! The one error type the core reports: a variant per kind of mistake, so that the binding maps
//! each kind to its own exception in one place (`xueliu-py`'s `errors.rs`) and never guesses.

use std::fmt;

use crate::hand::HandError;
use crate::rules::RulesError;

/// What went wrong, by who made the mistake. Every message says what was wrong and what is valid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// An action the game refuses now (wrong seat or phase, a tile not held, a void rule broken);
    /// the game is unchanged.
    IllegalAction(String),
    /// Rules that are not valid or cannot be played.
    Rules(RulesError),
    /// A bot that chose an illegal action, or a bad self-play setting.
    Bot(String),
    /// A snapshot or event log that is malformed, or is not the game its seed and decisions
    /// produce; the message names the first field that disagrees.
    Snapshot(String),
    /// Tiles that are not a possible hand.
    Hand(HandError),
    /// An argument outside its range: a seat, a seed, a size, an action id.
    Argument(String),
    /// A worker thread panicked: a bug in xueliu, never the caller's mistake.
    Internal(String),
}

pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// The same kind of error with `context` put in front of its message.
    pub fn context(self, context: impl fmt::Display) -> Error {
        match self {
            Error::IllegalAction(m) => Error::IllegalAction(format!("{context}: {m}")),
            Error::Bot(m) => Error::Bot(format!("{context}: {m}")),
            Error::Snapshot(m) => Error::Snapshot(format!("{context}: {m}")),
            Error::Argument(m) => Error::Argument(format!("{context}: {m}")),
            Error::Internal(m) => Error::Internal(format!("{context}: {m}")),
            typed @ (Error::Rules(_) | Error::Hand(_)) => typed,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::IllegalAction(m)
            | Error::Bot(m)
            | Error::Snapshot(m)
            | Error::Argument(m)
            | Error::Internal(m) => f.write_str(m),
            Error::Rules(e) => e.fmt(f),
            Error::Hand(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for Error {}

impl From<RulesError> for Error {
    fn from(e: RulesError) -> Error {
        Error::Rules(e)
    }
}

impl From<HandError> for Error {
    fn from(e: HandError) -> Error {
        Error::Hand(e)
    }
}
