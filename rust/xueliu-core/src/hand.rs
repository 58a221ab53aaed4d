//! A player's concealed tiles as counts, with one base-5 key per suit kept up to date, so the
//! per-suit tables of [`crate::tables`] are read without re-encoding the hand. In the 幺鸡 variant
//! (RULES.md §11) the hand also holds wilds: tiles that stand for any tile, kept as a plain count
//! beside the natural tiles' counts and keys.

use crate::tile::{Suit, Tile, COPIES, KINDS};
use std::fmt;

/// `POW5[r]` is the weight of rank `r + 1` in a suit key.
pub const POW5: [u32; 9] = [1, 5, 25, 125, 625, 3125, 15625, 78125, 390625];
/// Number of distinct suit keys: 5^9.
pub const SUIT_KEYS: usize = 1_953_125;
/// The wall holds four wilds (the four 1s of the 幺鸡 variant).
pub const MAX_WILDS: u8 = 4;

/// Tile counts plus per-suit keys `Σ count[rank] · 5^rank`, and the number of wilds held.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Counts {
    counts: [u8; KINDS],
    keys: [u32; 3],
    /// Natural tiles plus wilds.
    len: u8,
    wilds: u8,
}

/// A count array that is not a set of real tiles.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HandError {
    /// More than four copies of a tile (counting melds where they are known).
    TooManyCopies { tile: Tile, count: u8 },
    /// The hand's size (wilds included) does not fit its melds.
    WrongSize {
        len: usize,
        wilds: u8,
        expected: &'static str,
    },
    /// More wilds than the wall holds.
    TooManyWilds { wilds: u8 },
    /// A meld that is not a pong or kong of one tile, or that cannot be held.
    BadMeld { text: String, reason: &'static str },
}

impl fmt::Display for HandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HandError::TooManyCopies { tile, count } => write!(
                f,
                "{count} copies of {tile}, but the wall has only 4 of each tile (hand and melds together)"
            ),
            HandError::WrongSize {
                len,
                wilds: 0,
                expected,
            } => write!(f, "a hand of {len} tiles, but {expected}"),
            HandError::WrongSize {
                len,
                wilds,
                expected,
            } => write!(
                f,
                "a hand of {len} tiles counting {wilds} wild(s), but {expected}"
            ),
            HandError::TooManyWilds { wilds } => write!(
                f,
                "{wilds} wilds, but the wall has only {MAX_WILDS} (the four 1s of 幺鸡)"
            ),
            HandError::BadMeld { text, reason } => write!(f, "meld {text:?} {reason}"),
        }
    }
}

impl std::error::Error for HandError {}

impl Counts {
    pub const fn new() -> Counts {
        Counts {
            counts: [0; KINDS],
            keys: [0; 3],
            len: 0,
            wilds: 0,
        }
    }

    /// Counts from a list of tiles; more than four copies of a tile is an error.
    pub fn from_tiles(tiles: &[Tile]) -> Result<Counts, HandError> {
        let mut counts = [0u8; KINDS];
        for t in tiles {
            counts[t.index()] = counts[t.index()].saturating_add(1);
        }
        Counts::from_array(&counts)
    }

    /// Counts from a count array; a count above four is an error.
    #[inline]
    pub fn from_array(counts: &[u8; KINDS]) -> Result<Counts, HandError> {
        if let Some(i) = counts.iter().position(|&c| c > COPIES) {
            let tile = Tile::new(i as u8).expect("index below 27");
            return Err(HandError::TooManyCopies {
                tile,
                count: counts[i],
            });
        }
        let key =
            |suit: usize| -> u32 { (0..9).map(|r| counts[9 * suit + r] as u32 * POW5[r]).sum() };
        Ok(Counts {
            counts: *counts,
            keys: [key(0), key(1), key(2)],
            len: counts.iter().sum(),
            wilds: 0,
        })
    }

    /// The same natural tiles holding `wilds` wilds (0–4) beside them.
    #[inline]
    pub fn with_wilds(mut self, wilds: u8) -> Result<Counts, HandError> {
        if wilds > MAX_WILDS {
            return Err(HandError::TooManyWilds { wilds });
        }
        self.len = self.len - self.wilds + wilds;
        self.wilds = wilds;
        Ok(self)
    }

    /// Wilds held (幺鸡): tiles that stand for any tile. They are in [`Counts::len`] but not in
    /// the count array, the keys or [`Counts::tiles`].
    #[inline]
    pub fn wilds(&self) -> u8 {
        self.wilds
    }

    #[inline]
    pub fn add(&mut self, t: Tile) {
        debug_assert!(self.counts[t.index()] < COPIES);
        self.counts[t.index()] += 1;
        self.keys[t.suit().index()] += POW5[t.rank() as usize - 1];
        self.len += 1;
    }

    #[inline]
    pub fn remove(&mut self, t: Tile) {
        debug_assert!(self.counts[t.index()] > 0);
        self.counts[t.index()] -= 1;
        self.keys[t.suit().index()] -= POW5[t.rank() as usize - 1];
        self.len -= 1;
    }

    #[inline]
    pub fn count(&self, t: Tile) -> u8 {
        self.counts[t.index()]
    }

    /// Tiles held, wilds included.
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn array(&self) -> &[u8; KINDS] {
        &self.counts
    }

    /// The base-5 key of one suit.
    #[inline]
    pub fn key(&self, suit: Suit) -> u32 {
        self.keys[suit.index()]
    }

    /// The nine counts of one suit.
    #[inline]
    pub fn suit_counts(&self, suit: Suit) -> [u8; 9] {
        let base = suit.index() * 9;
        std::array::from_fn(|r| self.counts[base + r])
    }

    /// A mask of the suits that have at least one tile.
    #[inline]
    pub fn suit_mask(&self) -> u8 {
        (self.keys[0] != 0) as u8
            | ((self.keys[1] != 0) as u8) << 1
            | ((self.keys[2] != 0) as u8) << 2
    }

    /// The natural tiles held, in index order, each repeated by its count.
    pub fn tiles(&self) -> impl Iterator<Item = Tile> + '_ {
        Tile::all().flat_map(move |t| std::iter::repeat_n(t, self.count(t) as usize))
    }
}

impl fmt::Debug for Counts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Counts({self})")
    }
}

/// The natural tiles, then `+N wilds` when there are any: `"2345m +2 wilds"`.
impl fmt::Display for Counts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&crate::tile::format_counts(&self.counts))?;
        match self.wilds {
            0 => Ok(()),
            1 => f.write_str(" +1 wild"),
            n => write!(f, " +{n} wilds"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tile::parse_tiles;

    #[test]
    fn keys_follow_adds_and_removes() {
        let mut h = Counts::from_tiles(&parse_tiles("1199m5p").unwrap()).unwrap();
        assert_eq!(h.key(Suit::M), 2 + 2 * POW5[8]);
        assert_eq!(h.key(Suit::P), POW5[4]);
        assert_eq!(h.suit_mask(), 0b011);
        h.remove(Tile::from_suit_rank(Suit::P, 5).unwrap());
        assert_eq!((h.key(Suit::P), h.suit_mask(), h.len()), (0, 0b001, 4));
        assert_eq!(h.to_string(), "1199m");
    }

    #[test]
    fn wilds_count_in_the_size_but_not_in_the_keys() {
        let h = Counts::from_tiles(&parse_tiles("1199m").unwrap()).unwrap();
        let w = h.with_wilds(2).unwrap();
        assert_eq!((w.len(), w.wilds(), w.key(Suit::M)), (6, 2, h.key(Suit::M)));
        assert_eq!(w.with_wilds(1).unwrap().len(), 5);
        assert_eq!(w.to_string(), "1199m +2 wilds");
        assert_eq!(w.tiles().count(), 4);
        assert!(matches!(
            h.with_wilds(5),
            Err(HandError::TooManyWilds { wilds: 5 })
        ));
    }

    #[test]
    fn five_copies_is_an_error() {
        let e = Counts::from_tiles(&parse_tiles("55555m").unwrap()).unwrap_err();
        assert!(matches!(e, HandError::TooManyCopies { count: 5, .. }));
    }
}
