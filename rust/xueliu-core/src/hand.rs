//! A player's concealed tiles as counts, with one base-5 key per suit kept up to date, so the
//! per-suit tables of [`crate::tables`] are read without re-encoding the hand. In the 幺鸡 variant
//! (RULES.md §11) the hand also holds wilds: tiles that stand for any tile, kept as a plain count
//! beside the natural tiles' counts and keys.

use crate::tile::{Suit, Tile, COPIES, KINDS};
use std::fmt;

/// `POW5[r]` is the weight of rank `r + 1` in a suit key.
pub const POW5: [u32; 9] = [1, 5, 25, 125, 625, 3125, 15_625, 78_125, 390_625];
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
    /// Natural 1s beside wilds, more than the wall's four 1s (幺鸡's wilds are the 1s).
    TooManyOnes { natural: u8, wilds: u8 },
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
                "{wilds} wilds (hand and melds together), but the wall has only {MAX_WILDS} (the four 1s of 幺鸡)"
            ),
            HandError::TooManyOnes { natural, wilds } => write!(
                f,
                "{natural} natural 1s beside {wilds} wild(s) (hand and melds together), but the \
                 wall has only four 1s and the wilds of 幺鸡 are among them"
            ),
            HandError::BadMeld { text, reason } => write!(f, "meld {text:?} {reason}"),
        }
    }
}

impl std::error::Error for HandError {}

/// `Σ count[r] · 5^r` over the eight counts in the bytes of `low` (rank 1 in the lowest byte):
/// neighbouring lanes merged three times, 8 → 4 → 2 → 1, each step weighting the upper lane.
#[inline]
fn rank_weights(low: u64) -> u32 {
    let pairs = (low & 0x00FF_00FF_00FF_00FF) + 5 * ((low >> 8) & 0x00FF_00FF_00FF_00FF);
    let quads = (pairs & 0x0000_FFFF_0000_FFFF) + 25 * ((pairs >> 16) & 0x0000_FFFF_0000_FFFF);
    ((quads & 0xFFFF_FFFF) + 625 * (quads >> 32)) as u32
}

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
    ///
    /// Every batch row and every parsed hand passes here, so a suit's first eight counts are read
    /// as one `u64` and checked, summed and weighted in its lanes (the byte-by-byte form was a
    /// third of a batch `shanten`); the error is looked for only when a count is bad.
    #[inline]
    pub fn from_array(counts: &[u8; KINDS]) -> Result<Counts, HandError> {
        const BYTES: u64 = 0x0101_0101_0101_0101;
        const LOW7: u64 = 0x7F * BYTES;
        const PLUS123: u64 = 123 * BYTES;
        const HIGH: u64 = 0x80 * BYTES;
        let (mut keys, mut over, mut len) = ([0u32; 3], 0u64, 0u64);
        for (s, key) in keys.iter_mut().enumerate() {
            let suit = &counts[9 * s..9 * s + 9];
            let low = u64::from_le_bytes(suit[..8].try_into().expect("eight counts"));
            let ninth = suit[8];
            // A byte above 4 reaches bit 7 when 123 is added to its low seven bits, or has it set.
            over |= ((((low & LOW7) + PLUS123) | low) & HIGH) | u64::from(ninth > COPIES);
            len += (low.wrapping_mul(BYTES) >> 56) + u64::from(ninth);
            *key = rank_weights(low) + u32::from(ninth) * POW5[8];
        }
        if over != 0 {
            return Err(Counts::too_many_copies(counts));
        }
        Ok(Counts {
            counts: *counts,
            keys,
            len: len as u8,
            wilds: 0,
        })
    }

    /// The error for a count array holding more than four of a tile: the first such tile.
    #[cold]
    fn too_many_copies(counts: &[u8; KINDS]) -> HandError {
        let i = counts
            .iter()
            .position(|&c| c > COPIES)
            .expect("a count above four");
        HandError::TooManyCopies {
            tile: Tile::new(i as u8).expect("index below 27"),
            count: counts[i],
        }
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

    /// Adds one wild (at most [`MAX_WILDS`]; callers keep to the wall's four).
    #[inline]
    pub fn add_wild(&mut self) {
        debug_assert!(self.wilds < MAX_WILDS);
        self.wilds += 1;
        self.len += 1;
    }

    #[inline]
    pub fn remove_wild(&mut self) {
        debug_assert!(self.wilds > 0);
        self.wilds -= 1;
        self.len -= 1;
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
        u8::from(self.keys[0] != 0)
            | u8::from(self.keys[1] != 0) << 1
            | u8::from(self.keys[2] != 0) << 2
    }

    /// `masks[k]` has bit `t` set when tile `t` is held exactly `k` times (k = 0–4). Counts 0–4
    /// take three bits; one bit plane each gives every mask without a branch or a loop over tiles.
    #[inline]
    pub fn count_masks(&self) -> [u32; 5] {
        let words = self.words();
        let [b0, b1, b2] = [0, 1, 2].map(|bit| bit_plane(&words, bit));
        let all = (1u32 << KINDS) - 1;
        [all & !(b0 | b1 | b2), b0 & !b1, b1 & !b0, b0 & b1, b2]
    }

    /// Bit `t` set when tile `t` is held at least `n` times (`n` from 1 to 4): one bit plane.
    #[inline]
    pub fn at_least(&self, n: u8) -> u32 {
        debug_assert!((1..=COPIES).contains(&n));
        // A count of at most 4 plus 0x80 − n reaches the byte's top bit exactly when it is n or
        // more, and never carries into the next byte.
        let lift = (0x80 - u64::from(n.clamp(1, COPIES))) * LOW_BYTES;
        bit_plane(&self.words().map(|w| w + lift), 7)
    }

    /// Bit `t` set when tile `t` is held an odd number of times (once or three times).
    #[inline]
    pub fn odd(&self) -> u32 {
        bit_plane(&self.words(), 0)
    }

    /// The counts as four little-endian words, a byte per tile; the five bytes past the last
    /// tile are zero.
    #[inline]
    fn words(&self) -> [u64; 4] {
        let mut bytes = [0u8; 32];
        bytes[..KINDS].copy_from_slice(&self.counts);
        std::array::from_fn(|i| u64::from_le_bytes(bytes[8 * i..8 * i + 8].try_into().unwrap()))
    }

    /// The natural tiles held, in index order, each repeated by its count.
    pub fn tiles(&self) -> impl Iterator<Item = Tile> + '_ {
        Tile::all().flat_map(move |t| std::iter::repeat_n(t, self.count(t) as usize))
    }

    /// Every tile held, in index order, each wild written as the `1s` it is in the 幺鸡 variant
    /// (docs/game-protocol.md §11).
    pub fn tiles_with_wilds(&self) -> impl Iterator<Item = Tile> + '_ {
        Tile::all().flat_map(move |t| {
            let wilds = if t == Tile::YAOJI { self.wilds } else { 0 };
            std::iter::repeat_n(t, (self.count(t) + wilds) as usize)
        })
    }
}

/// The lowest bit of each byte of a word.
const LOW_BYTES: u64 = 0x0101_0101_0101_0101;

/// Bit `i` of byte `j` of each word, gathered into bit `8·word + j`. Multiplying the isolated
/// bits by `0x0102040810204080` moves byte `j`'s bit to bit `56 + j` with no carries.
#[inline]
fn bit_plane(words: &[u64; 4], bit: u32) -> u32 {
    const GATHER: u64 = 0x0102_0408_1020_4080;
    words.iter().enumerate().fold(0, |mask, (i, &w)| {
        let gathered = ((w >> bit) & LOW_BYTES).wrapping_mul(GATHER) >> 56;
        mask | (gathered as u32) << (8 * i)
    })
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

/// A hand is written as its sorted tiles, each wild as the `1s` it is (幺鸡), and read as natural
/// tiles: `wilded` makes its `1s` wilds where the rules have them.
impl serde::Serialize for Counts {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.tiles_with_wilds())
    }
}

impl<'de> serde::Deserialize<'de> for Counts {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let tiles = <Vec<Tile> as serde::Deserialize>::deserialize(d)?;
        Counts::from_tiles(&tiles).map_err(serde::de::Error::custom)
    }
}

/// `hand`'s `1s` as wilds under the `wilds` rules (docs/game-protocol.md §11): a hand read back
/// from the wire, where a wild is written as the `1s` it is.
pub fn wilded(mut hand: Counts, path: &str, wilds: bool) -> Result<Counts, String> {
    let n = if wilds { hand.count(Tile::YAOJI) } else { 0 };
    (0..n).for_each(|_| hand.remove(Tile::YAOJI));
    hand.with_wilds(n).map_err(|e| format!("{path}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tile::parse_tiles;

    #[test]
    fn from_array_keys_sizes_and_errors_match_their_definitions() {
        let mut rng = crate::rng::Rng::new(7);
        for _ in 0..20_000 {
            let mut array = [0u8; KINDS];
            array.iter_mut().for_each(|c| *c = rng.below(5) as u8);
            let bad = rng.below(40) as usize; // a count above four at `bad`, one time in three
            if bad < KINDS {
                array[bad] = 5 + rng.below(251) as u8;
            }
            match Counts::from_array(&array) {
                Ok(h) => {
                    assert!(bad >= KINDS);
                    for s in Suit::ALL {
                        let base = 9 * s.index();
                        let key: u32 = (0..9).map(|r| u32::from(array[base + r]) * POW5[r]).sum();
                        assert_eq!(h.key(s), key);
                    }
                    let len: usize = array.iter().map(|&c| usize::from(c)).sum();
                    assert_eq!(h.len(), len);
                }
                Err(e) => {
                    let tile = Tile::new(bad as u8).unwrap();
                    let count = array[bad];
                    assert_eq!(e, HandError::TooManyCopies { tile, count });
                }
            }
        }
    }

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
    fn count_masks_sort_tiles_by_count() {
        let h = Counts::from_tiles(&parse_tiles("1222333344m9s").unwrap()).unwrap();
        let bit = |text: &str| 1u32 << parse_tiles(text).unwrap()[0].index();
        let masks = h.count_masks();
        assert_eq!(masks[1], bit("1m") | bit("9s"));
        assert_eq!(masks[2], bit("4m"));
        assert_eq!(masks[3], bit("2m"));
        assert_eq!(masks[4], bit("3m"));
        let all_tiles = (1u32 << KINDS) - 1;
        assert_eq!(
            masks[0],
            all_tiles & !(masks[1] | masks[2] | masks[3] | masks[4])
        );
    }

    #[test]
    fn at_least_and_odd_read_the_counts() {
        let h = Counts::from_tiles(&parse_tiles("1222333344m9s99p").unwrap()).unwrap();
        let masks = h.count_masks();
        for n in 1..=4u8 {
            let expected = masks[n as usize..].iter().fold(0, |m, k| m | k);
            assert_eq!(h.at_least(n), expected, "at least {n}");
        }
        assert_eq!(h.odd(), masks[1] | masks[3]);
        assert_eq!(Counts::new().at_least(1), 0);
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
