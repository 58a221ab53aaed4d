//! Tiles and their notation (RULES.md §1).
//!
//! 108 tiles: ranks 1–9 in three suits, four copies each. A tile kind is an index 0–26:
//! `1m..9m` = 0–8 (万 characters), `1p..9p` = 9–17 (筒 dots), `1s..9s` = 18–26 (条 bamboo).

use crate::excerpt::quote_around;
use std::fmt;

/// Number of tile kinds.
pub const KINDS: usize = 27;
/// Copies of each kind in the wall.
pub const COPIES: u8 = 4;

/// One of the three suits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Suit {
    /// 万 characters, `m`.
    M = 0,
    /// 筒 dots, `p`.
    P = 1,
    /// 条 bamboo, `s`.
    S = 2,
}

impl Suit {
    pub const ALL: [Suit; 3] = [Suit::M, Suit::P, Suit::S];

    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn from_index(i: usize) -> Suit {
        match i {
            0 => Suit::M,
            1 => Suit::P,
            _ => Suit::S,
        }
    }

    /// The notation letter: `m`, `p` or `s`.
    pub const fn letter(self) -> char {
        match self {
            Suit::M => 'm',
            Suit::P => 'p',
            Suit::S => 's',
        }
    }

    /// Reads a suit letter or Chinese suffix (`万 萬 筒 条 條`).
    pub fn from_char(c: char) -> Option<Suit> {
        match c {
            'm' | '万' | '萬' => Some(Suit::M),
            'p' | '筒' => Some(Suit::P),
            's' | '条' | '條' => Some(Suit::S),
            _ => None,
        }
    }

    /// Reads a suit name: `"m"`, `"p"` or `"s"` (or a Chinese suffix).
    pub fn parse(text: &str) -> Option<Suit> {
        let mut chars = text.trim().chars();
        let suit = Suit::from_char(chars.next()?)?;
        chars.next().is_none().then_some(suit)
    }

    /// A one-bit mask of this suit, for sets of suits.
    pub const fn bit(self) -> u8 {
        1 << self as u8
    }
}

impl fmt::Display for Suit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// A tile kind, 0–26.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Tile(u8);

impl Tile {
    /// 幺鸡, the 1 of bamboo: wild under the `wilds` rule (RULES.md §11).
    pub const YAOJI: Tile = Tile(18);

    /// The tile with this index, if it is below 27.
    pub const fn new(index: u8) -> Option<Tile> {
        if (index as usize) < KINDS {
            Some(Tile(index))
        } else {
            None
        }
    }

    /// The tile of `suit` with `rank` 1–9.
    pub const fn from_suit_rank(suit: Suit, rank: u8) -> Option<Tile> {
        if rank >= 1 && rank <= 9 {
            Some(Tile(suit as u8 * 9 + rank - 1))
        } else {
            None
        }
    }

    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline]
    pub const fn suit(self) -> Suit {
        SUIT_RANK[self.0 as usize & 31].0
    }

    /// Rank 1–9.
    #[inline]
    pub const fn rank(self) -> u8 {
        SUIT_RANK[self.0 as usize & 31].1
    }

    /// A 1 or a 9 (幺九).
    pub const fn is_terminal(self) -> bool {
        matches!(self.rank(), 1 | 9)
    }

    /// Every tile kind in index order.
    pub fn all() -> impl Iterator<Item = Tile> {
        (0..KINDS as u8).map(Tile)
    }
}

/// Each tile index's suit and rank, read rather than divided out on the hot paths; padded to 32
/// entries so that an index masked to five bits needs no bounds check.
const SUIT_RANK: [(Suit, u8); 32] = {
    let mut table = [(Suit::S, 9); 32];
    let mut i = 0;
    while i < KINDS {
        table[i] = (Suit::from_index(i / 9), (i % 9) as u8 + 1);
        i += 1;
    }
    table
};

impl fmt::Display for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.rank(), self.suit().letter())
    }
}

/// Why a tile string could not be read. `position` counts characters, from 0; `excerpt` quotes
/// the text around it (the whole text when short: [`crate::excerpt::quote_around`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TileParseError {
    pub excerpt: String,
    pub position: usize,
    pub found: Option<char>,
    pub reason: &'static str,
}

impl fmt::Display for TileParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.found {
            Some(c) => write!(
                f,
                "cannot read tiles {}: {:?} at position {} {}",
                self.excerpt, c, self.position, self.reason
            ),
            None => write!(f, "cannot read tiles {}: {}", self.excerpt, self.reason),
        }
    }
}

impl std::error::Error for TileParseError {}

const PARSE_HINT: &str =
    "write ranks 1-9 followed by a suit: m/万 (characters), p/筒 (dots), s/条 (bamboo), e.g. \"23445677m345789p\"";

/// Reads tiles written as runs of ranks each closed by a suit, e.g. `"23445677m345789p"` or
/// `"23445677万345789筒"`. Spaces between groups are allowed. The tiles come back in the order
/// written; counting copies is the caller's business.
pub fn parse_tiles(text: &str) -> Result<Vec<Tile>, TileParseError> {
    let mut tiles = Vec::with_capacity(14);
    for_each_tile(text, |t| tiles.push(t))?;
    Ok(tiles)
}

/// Calls `visit` with each tile of `text`, in the order written, without allocating.
pub fn for_each_tile(text: &str, mut visit: impl FnMut(Tile)) -> Result<(), TileParseError> {
    let error = |position, found, reason| TileParseError {
        excerpt: quote_around(text, position),
        position,
        found,
        reason,
    };
    const NO_SUIT: &str = "has no suit: a group must end in m, p or s";
    // The byte where the pending ranks start, and the last of them (position, character).
    let mut group_start = None;
    let mut last_rank = None;
    for (position, (byte, c)) in text.char_indices().enumerate() {
        if c.is_ascii_digit() {
            if c == '0' {
                return Err(error(position, Some(c), "is not a rank: ranks are 1-9"));
            }
            group_start.get_or_insert(byte);
            last_rank = Some((position, c));
        } else if let Some(suit) = Suit::from_char(c) {
            let Some(start) = group_start.take() else {
                return Err(error(
                    position,
                    Some(c),
                    "is a suit with no ranks before it",
                ));
            };
            for digit in text[start..byte].bytes() {
                visit(Tile::from_suit_rank(suit, digit - b'0').expect("rank 1-9"));
            }
            last_rank = None;
        } else if c.is_whitespace() {
            if let Some((position, c)) = last_rank {
                return Err(error(position, Some(c), NO_SUIT));
            }
        } else {
            return Err(error(position, Some(c), "is not a rank or a suit"));
        }
    }
    match last_rank {
        Some((position, c)) => Err(error(position, Some(c), NO_SUIT)),
        None => Ok(()),
    }
}

/// The hint appended to tile errors in user-facing messages.
pub const fn parse_hint() -> &'static str {
    PARSE_HINT
}

/// Writes tiles compactly, sorted, one suit letter per run: `"23445677m345789p"`.
pub fn format_tiles(tiles: &[Tile]) -> String {
    let mut sorted = tiles.to_vec();
    sorted.sort_unstable();
    let mut out = String::with_capacity(sorted.len() + 3);
    for (i, tile) in sorted.iter().enumerate() {
        out.push(char::from(b'0' + tile.rank()));
        let last_of_suit = sorted
            .get(i + 1)
            .is_none_or(|next| next.suit() != tile.suit());
        if last_of_suit {
            out.push(tile.suit().letter());
        }
    }
    out
}

/// Writes a count array in the same notation as [`format_tiles`].
pub fn format_counts(counts: &[u8; KINDS]) -> String {
    let tiles: Vec<Tile> = Tile::all()
        .flat_map(|t| std::iter::repeat_n(t, counts[t.index()] as usize))
        .collect();
    format_tiles(&tiles)
}

crate::wire::by_name! {
    Tile => |s| match parse_tiles(s).ok()?[..] { [t] => Some(t), _ => None }, "a tile like \"5m\"";
    Suit => Suit::parse, "a suit \"m\", \"p\" or \"s\"";
}

/// A tile bit set (a bit per kind) written as its tiles:
/// `#[serde(with = "crate::tile::bits")]`.
pub mod bits {
    use super::Tile;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(bits: &u32, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(Tile::all().filter(|t| bits & 1 << t.index() != 0))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
        let tiles = Vec::<Tile>::deserialize(d)?;
        Ok(tiles.iter().fold(0, |b, t| b | 1 << t.index()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_suit_rank_and_text_agree() {
        for t in Tile::all() {
            assert_eq!(Tile::from_suit_rank(t.suit(), t.rank()), Some(t));
            assert_eq!(parse_tiles(&t.to_string()).unwrap(), vec![t]);
        }
        assert_eq!(Tile::new(4).unwrap().to_string(), "5m");
        assert_eq!(Tile::new(26).unwrap().to_string(), "9s");
        assert_eq!(Tile::new(27), None);
    }

    #[test]
    fn parses_letters_chinese_and_spaces() {
        let a = parse_tiles("23445677m345789p").unwrap();
        let b = parse_tiles("23445677万 345789筒").unwrap();
        assert_eq!(a, b);
        assert_eq!(format_tiles(&a), "23445677m345789p");
        assert_eq!(
            parse_tiles("19萬19條").unwrap(),
            parse_tiles("19m19s").unwrap()
        );
    }

    #[test]
    fn parse_errors_name_character_and_position() {
        let e = parse_tiles("123x").unwrap_err();
        assert_eq!((e.position, e.found), (3, Some('x')));
        let e = parse_tiles("120m").unwrap_err();
        assert_eq!((e.position, e.found), (2, Some('0')));
        let e = parse_tiles("m").unwrap_err();
        assert_eq!((e.position, e.found), (0, Some('m')));
        let e = parse_tiles("12m34").unwrap_err();
        assert_eq!((e.position, e.found), (4, Some('4')));
        let e = parse_tiles("12 3m").unwrap_err();
        assert_eq!(e.position, 1);
    }

    #[test]
    fn parse_errors_quote_a_short_excerpt_around_the_fault() {
        assert_eq!(
            parse_tiles("12x").unwrap_err().to_string(),
            "cannot read tiles \"12x\": 'x' at position 2 is not a rank or a suit"
        );
        let long = format!("{}x{}", "1m".repeat(5_000_000), "2p".repeat(1000));
        let e = parse_tiles(&long).unwrap_err();
        assert_eq!(e.position, 10_000_000);
        let message = e.to_string();
        assert!(message.len() < 200, "{message}");
        assert!(
            message.contains("m1m1mx2p2p") && message.contains("(10002001 characters)"),
            "{message}"
        );
    }
}
