//! A player's decisions and a fixed-capacity list of them, so that `legal_actions` never
//! allocates on the hot path.

use crate::tile::{parse_tiles, Suit, Tile};
use std::fmt;

/// One decision (docs/game-protocol.md §2). `Pong` names no tile: it is always the discard's.
/// `Kong` names its tile for every kind (direct, added, concealed).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    /// 换三张: three tiles given away, sorted.
    Exchange([Tile; 3]),
    /// 定缺: the declared void suit.
    Void(Suit),
    Discard(Tile),
    Pong,
    Kong(Tile),
    Win,
    Pass,
    /// 幺鸡换: a natural copy of the tile goes into the seat's kong of it, whose wild comes back
    /// to the hand (docs/game-protocol.md §11).
    Swap(Tile),
}

impl Action {
    /// The kind as the protocol names it: `exchange`, `void`, `discard`, `pong`, `kong`, `win`,
    /// `pass`, `swap`.
    pub const fn kind(self) -> &'static str {
        match self {
            Action::Exchange(_) => "exchange",
            Action::Void(_) => "void",
            Action::Discard(_) => "discard",
            Action::Pong => "pong",
            Action::Kong(_) => "kong",
            Action::Win => "win",
            Action::Pass => "pass",
            Action::Swap(_) => "swap",
        }
    }

    /// An exchange of three tiles in any order; stored sorted so equal picks compare equal.
    pub fn exchange(mut tiles: [Tile; 3]) -> Action {
        tiles.sort_unstable();
        Action::Exchange(tiles)
    }

    /// Reads the readable form written by `Display`: `"discard 5m"`, `"exchange 123m"`, `"void p"`,
    /// `"kong 5m"`, `"swap 5m"`, `"pong"`, `"win"`, `"pass"`.
    pub fn parse(text: &str) -> Option<Action> {
        let mut words = text.split_whitespace();
        let kind = words.next()?;
        let arg = words.next();
        if words.next().is_some() {
            return None;
        }
        let one_tile = |arg: Option<&str>| match parse_tiles(arg?).ok()?[..] {
            [t] => Some(t),
            _ => None,
        };
        match (kind, arg) {
            ("exchange", Some(a)) => match parse_tiles(a).ok()?[..] {
                [a, b, c] => Some(Action::exchange([a, b, c])),
                _ => None,
            },
            ("void", Some(a)) => Suit::parse(a).map(Action::Void),
            ("discard", a) => one_tile(a).map(Action::Discard),
            ("kong", a) => one_tile(a).map(Action::Kong),
            ("swap", a) => one_tile(a).map(Action::Swap),
            ("pong", None) => Some(Action::Pong),
            ("win", None) => Some(Action::Win),
            ("pass", None) => Some(Action::Pass),
            _ => None,
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Exchange(t) => write!(f, "exchange {}", crate::tile::format_tiles(t)),
            Action::Void(s) => write!(f, "void {s}"),
            Action::Discard(t) => write!(f, "discard {t}"),
            Action::Kong(t) => write!(f, "kong {t}"),
            Action::Swap(t) => write!(f, "swap {t}"),
            other => f.write_str(other.kind()),
        }
    }
}

/// Most legal actions one seat can have: exchange picks of a 14-tile hand with any three tiles
/// (C(14, 3) = 364 when all differ) bound it; play never needs more than about twenty.
pub const MAX_ACTIONS: usize = 384;

/// A fixed-capacity list of actions, reused across calls.
#[derive(Clone)]
pub struct ActionList {
    items: [Action; MAX_ACTIONS],
    len: usize,
}

impl Default for ActionList {
    fn default() -> ActionList {
        ActionList::new()
    }
}

impl ActionList {
    pub const fn new() -> ActionList {
        ActionList {
            items: [Action::Pass; MAX_ACTIONS],
            len: 0,
        }
    }

    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    #[inline]
    pub fn push(&mut self, action: Action) {
        // The bound above is exact for the rules; a full list drops rather than panics.
        if self.len < MAX_ACTIONS {
            self.items[self.len] = action;
            self.len += 1;
        }
    }

    #[inline]
    pub fn as_slice(&self) -> &[Action] {
        &self.items[..self.len]
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn contains(&self, action: Action) -> bool {
        self.as_slice().contains(&action)
    }
}

impl std::ops::Deref for ActionList {
    type Target = [Action];
    fn deref(&self) -> &[Action] {
        self.as_slice()
    }
}

crate::wire::by_name! {
    Action => Action::parse, "an action like \"discard 5m\"";
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trips_and_exchange_sorts() {
        let t = |s: &str| parse_tiles(s).unwrap()[0];
        let picks = Action::exchange([t("3m"), t("1m"), t("2m")]);
        assert_eq!(picks.to_string(), "exchange 123m");
        for a in [
            picks,
            Action::Void(Suit::P),
            Action::Discard(t("5m")),
            Action::Kong(t("9s")),
            Action::Swap(t("5p")),
            Action::Pong,
            Action::Win,
            Action::Pass,
        ] {
            assert_eq!(Action::parse(&a.to_string()), Some(a), "{a}");
        }
        assert_eq!(Action::parse("discard 55m"), None);
        assert_eq!(Action::parse("pong 5m"), None);
    }
}
