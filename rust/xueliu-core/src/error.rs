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

/// The most characters of a bad input a message quotes: ten million characters give a short message.
pub const EXCERPT_CHARS: usize = 60;

/// `text` quoted for a message: whole when short, else its first [`EXCERPT_CHARS`] characters,
/// `"xxxx…"… (10000000 characters)`.
pub fn quote(text: &str) -> String {
    quote_around(text, 0)
}

/// `text` quoted for a message: whole when short, else the [`EXCERPT_CHARS`] characters around
/// character `at` (a fault's position), `…` marking each cut, then the text's length.
pub fn quote_around(text: &str, at: usize) -> String {
    let length = text.chars().count();
    if length <= EXCERPT_CHARS {
        return format!("{text:?}");
    }
    let start = at
        .saturating_sub(EXCERPT_CHARS / 2)
        .min(length - EXCERPT_CHARS);
    let window: String = text.chars().skip(start).take(EXCERPT_CHARS).collect();
    let before = if start > 0 { "…" } else { "" };
    let after = if start + EXCERPT_CHARS < length {
        "…"
    } else {
        ""
    };
    format!("{before}{window:?}{after} ({length} characters)")
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_are_short_whatever_the_input() {
        assert_eq!(quote("chengdoo"), "\"chengdoo\"");
        let long = "x".repeat(10_000_000);
        assert_eq!(
            quote(&long),
            format!("{:?}… (10000000 characters)", "x".repeat(EXCERPT_CHARS))
        );
        let fault = format!("{}!{}", "a".repeat(1000), "b".repeat(1000));
        let quoted = quote_around(&fault, 1000);
        assert_eq!(
            quoted,
            format!(
                "…{:?}… (2001 characters)",
                "a".repeat(30) + "!" + &"b".repeat(29)
            )
        );
    }
}
