//! Exposed sets: pongs (碰) and kongs (杠). A kong counts as one set of a complete hand. In the
//! 幺鸡 variant a meld may hold wilds standing for copies of its tile (docs/game-protocol.md §11).

use crate::choice::choice;
use crate::hand::{Counts, HandError, MAX_WILDS};
use crate::tile::{parse_tiles, Tile, COPIES, KINDS};
use std::fmt;

choice! {
    /// A meld's kind, named as snapshots and `Game.melds` write it.
    pub enum MeldKind {
        /// 碰: three of a kind, one of them claimed.
        Pong = "pong",
        /// 明杠: a direct kong (直杠) or an added kong (补杠).
        ExposedKong = "kong",
        /// 暗杠: four of a kind from the player's own hand.
        ConcealedKong = "concealed_kong",
    }
}

#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct Meld {
    pub kind: MeldKind,
    pub tile: Tile,
    /// Wilds (幺鸡) among its tiles, each standing for a copy of `tile`; 0 outside the 幺鸡
    /// variant. The other tiles are natural copies of `tile`.
    #[serde(deserialize_with = "crate::wire::upto::<3, _, _>")]
    pub wilds: u8,
}

impl Meld {
    pub const fn pong(tile: Tile) -> Meld {
        Meld {
            kind: MeldKind::Pong,
            tile,
            wilds: 0,
        }
    }

    pub const fn kong(tile: Tile, concealed: bool) -> Meld {
        let kind = if concealed {
            MeldKind::ConcealedKong
        } else {
            MeldKind::ExposedKong
        };
        Meld {
            kind,
            tile,
            wilds: 0,
        }
    }

    /// The same meld holding `wilds` wilds among its tiles.
    pub const fn with_wilds(self, wilds: u8) -> Meld {
        Meld { wilds, ..self }
    }

    /// Tiles the meld holds, wilds included: 3 or 4.
    pub const fn size(self) -> u8 {
        match self.kind {
            MeldKind::Pong => 3,
            _ => 4,
        }
    }

    /// Natural copies of its tile the meld holds.
    pub const fn naturals(self) -> u8 {
        self.size().saturating_sub(self.wilds)
    }

    pub const fn is_kong(self) -> bool {
        !matches!(self.kind, MeldKind::Pong)
    }

    /// Reads `"555m"` (a pong) or `"5555m"` (an exposed kong; `concealed` makes it 暗杠). Besides
    /// one tile, the meld may name `1s`s, which stand for its wilds in the 幺鸡 variant: `"55m1s"`
    /// is a pong of 5m holding one wild. Whether the rules have wilds is for the caller to check.
    pub fn parse(text: &str, concealed: bool) -> Result<Meld, HandError> {
        let bad = |reason| HandError::BadMeld {
            text: text.to_owned(),
            reason,
        };
        let tiles = parse_tiles(text)
            .map_err(|_| bad("is not tile notation; write e.g. \"555m\" or \"7777p\""))?;
        let natural = |t: &&Tile| **t != Tile::YAOJI;
        let Some(&tile) = tiles.iter().find(natural).or(tiles.first()) else {
            return Err(bad("is empty"));
        };
        if tiles.iter().any(|&t| t != tile && t != Tile::YAOJI) {
            return Err(bad(
                "mixes tiles; a pong or kong is one tile three or four times (wilds written 1s)",
            ));
        }
        let wilds = tiles.iter().filter(|&&t| t != tile).count() as u8;
        let meld = match tiles.len() {
            3 if !concealed => Meld::pong(tile),
            3 => return Err(bad("is three tiles; a concealed kong has four")),
            4 => Meld::kong(tile, concealed),
            _ => return Err(bad("is neither a pong (3 tiles) nor a kong (4 tiles)")),
        };
        Ok(meld.with_wilds(wilds))
    }
}

/// The natural tiles, then one `1s` per wild: `"555m"`, `"55m1s"`, `"5m111s"`.
impl fmt::Display for Meld {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for _ in 0..self.naturals() {
            write!(f, "{}", self.tile.rank())?;
        }
        write!(f, "{}", self.tile.suit())?;
        if self.wilds > 0 {
            for _ in 0..self.wilds {
                write!(f, "{}", Tile::YAOJI.rank())?;
            }
            write!(f, "{}", Tile::YAOJI.suit())?;
        }
        Ok(())
    }
}

/// What hand analysis needs to know about a player's melds, summarised once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Melds {
    /// Number of melds: each is one set of the complete hand.
    pub sets: u8,
    /// Suits the melds use.
    pub suit_mask: u8,
    /// Natural copies of each tile the melds hold (a wild is no copy of any tile).
    pub held: [u8; KINDS],
    /// Wilds the melds hold (幺鸡).
    pub wilds: u8,
    /// `pongs_by_naturals[n]`: bit `t` set for a pong of tile `t` holding `n` natural copies
    /// (3 without wilds), so that a 根 (four natural copies) is a bit test per count.
    pub pongs_by_naturals: [u32; 4],
    /// Bit `t` set for a pong of tile `t`.
    pub pong_mask: u32,
    /// Bit `t` set for a kong of tile `t`.
    pub kong_mask: u32,
    /// Direct and added kongs (明杠), which score apart from concealed ones.
    pub exposed_kongs: u8,
    /// 暗杠.
    pub concealed_kongs: u8,
}

impl Melds {
    pub const NONE: Melds = Melds {
        sets: 0,
        suit_mask: 0,
        held: [0; KINDS],
        wilds: 0,
        pongs_by_naturals: [0; 4],
        pong_mask: 0,
        kong_mask: 0,
        exposed_kongs: 0,
        concealed_kongs: 0,
    };

    pub fn new(melds: &[Meld]) -> Result<Melds, HandError> {
        let mut summary = Melds::NONE;
        for m in melds {
            summary.push(*m)?;
        }
        Ok(summary)
    }

    pub fn push(&mut self, meld: Meld) -> Result<(), HandError> {
        if self.sets >= 4 {
            return Err(HandError::BadMeld {
                text: meld.to_string(),
                reason: "is a fifth meld; a hand has at most four",
            });
        }
        let bit = 1 << meld.tile.index();
        if (self.pong_mask | self.kong_mask) & bit != 0 {
            return Err(HandError::BadMeld {
                text: meld.to_string(),
                reason: "is a second meld of the same tile",
            });
        }
        if meld.naturals() == 0 {
            return Err(HandError::BadMeld {
                text: meld.to_string(),
                reason: "holds no natural tile; a meld with wilds holds at least one",
            });
        }
        self.held[meld.tile.index()] = meld.naturals();
        self.wilds += meld.wilds;
        self.sets += 1;
        match meld.kind {
            MeldKind::Pong => {
                self.pong_mask |= bit;
                self.pongs_by_naturals[meld.naturals() as usize] |= bit;
            }
            _ => self.kong_mask |= bit,
        }
        match meld.kind {
            MeldKind::Pong => {}
            MeldKind::ExposedKong => self.exposed_kongs += 1,
            MeldKind::ConcealedKong => self.concealed_kongs += 1,
        }
        self.suit_mask |= meld.tile.suit().bit();
        Ok(())
    }

    pub const fn kongs(&self) -> u8 {
        self.exposed_kongs + self.concealed_kongs
    }

    /// Kongs of four natural copies: the ones `gen_counts_kongs` counts as 根 (a four made with
    /// a wild is never a 根, docs/game-protocol.md §11).
    pub fn natural_kongs(&self) -> u8 {
        let natural = self
            .held
            .iter()
            .enumerate()
            .filter(|&(t, &n)| n == 4 && self.kong_mask & 1 << t != 0);
        // At most four kongs, so the count fits.
        natural.count() as u8
    }

    /// Pongs and exposed kongs: sets that took another player's tile.
    pub const fn claimed(&self) -> u8 {
        self.sets - self.concealed_kongs
    }

    /// Concealed tiles a complete hand needs with these melds: 14, 11, 8, 5 or 2.
    pub const fn concealed_size(&self) -> usize {
        14 - 3 * self.sets as usize
    }

    /// Checks that hand and melds together hold at most four of each tile, and at most four
    /// 1s counting wilds (the wilds of 幺鸡 are the four `1s`), wherever they sit: in the hand
    /// or in melds. A `Counts` never holds more than four, so only the melds need a look.
    pub fn check_copies(&self, hand: &Counts) -> Result<(), HandError> {
        let wilds = hand.wilds() + self.wilds;
        if wilds > MAX_WILDS {
            return Err(HandError::TooManyWilds { wilds });
        }
        let natural = hand.count(Tile::YAOJI) + self.held[Tile::YAOJI.index()];
        if wilds > 0 && natural + wilds > COPIES {
            return Err(HandError::TooManyOnes { natural, wilds });
        }
        let mut melded = self.pong_mask | self.kong_mask;
        while melded != 0 {
            let t = Tile::new(melded.trailing_zeros() as u8).expect("a meld bit is a tile");
            melded &= melded - 1;
            let count = hand.count(t) + self.held[t.index()];
            if count > COPIES {
                return Err(HandError::TooManyCopies { tile: t, count });
            }
        }
        Ok(())
    }
}

/// A seat's melds, at most four, written as a list: `#[serde(with = "crate::meld::melds")]`.
pub mod melds {
    use super::Meld;
    use serde::{de, Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(melds: &[Option<Meld>; 4], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(melds.iter().flatten())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<[Option<Meld>; 4], D::Error> {
        let list = Vec::<Meld>::deserialize(d)?;
        if list.len() > 4 {
            let e = format!("at most four melds, got {}", list.len());
            return Err(de::Error::custom(e));
        }
        Ok(std::array::from_fn(|i| list.get(i).copied()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_pongs_and_kongs() {
        let t = parse_tiles("5m").unwrap()[0];
        assert_eq!(Meld::parse("555m", false).unwrap(), Meld::pong(t));
        assert_eq!(Meld::parse("5555m", true).unwrap(), Meld::kong(t, true));
        assert_eq!(Meld::parse("5555m", false).unwrap().to_string(), "5555m");
        assert!(Meld::parse("556m", false).is_err());
        assert!(Meld::parse("55m", false).is_err());
        assert!(Meld::parse("555m", true).is_err());
    }

    #[test]
    fn melds_summary_counts_sets_suits_and_copies() {
        let melds = Melds::new(&[
            Meld::parse("555m", false).unwrap(),
            Meld::parse("7777p", false).unwrap(),
            Meld::parse("9999p", true).unwrap(),
        ])
        .unwrap();
        assert_eq!(
            (melds.sets, melds.suit_mask, melds.concealed_size()),
            (3, 0b011, 5)
        );
        assert_eq!(
            (melds.exposed_kongs, melds.concealed_kongs, melds.claimed()),
            (1, 1, 2)
        );
        let hand = Counts::from_tiles(&parse_tiles("55m").unwrap()).unwrap();
        assert!(melds.check_copies(&hand).is_err());
    }

    #[test]
    fn melds_may_hold_wilds_written_as_1s() {
        let t = parse_tiles("5m").unwrap()[0];
        let pong = Meld::parse("5m1s5m", false).unwrap();
        assert_eq!(pong, Meld::pong(t).with_wilds(1));
        assert_eq!((pong.to_string(), pong.naturals()), ("55m1s".into(), 2));
        let kong = Meld::parse("5m111s", true).unwrap();
        assert_eq!((kong.to_string(), kong.wilds), ("5m111s".into(), 3));
        // All 1s is a natural pong of 1s; a second kind besides 1s is an error.
        assert_eq!(Meld::parse("111s", false).unwrap().wilds, 0);
        assert!(Meld::parse("5m6m1s", false).is_err());
        // The summary counts natural copies: 55m + a wild leaves room for two more 5m.
        let melds = Melds::new(&[pong, Meld::parse("7777p", false).unwrap()]).unwrap();
        assert_eq!((melds.held[t.index()], melds.wilds), (2, 1));
        assert_eq!(melds.pongs_by_naturals[2], 1 << t.index());
        let hand = Counts::from_tiles(&parse_tiles("55m").unwrap()).unwrap();
        assert!(melds.check_copies(&hand).is_ok());
        assert!(Melds::new(&[pong, Meld::kong(t, true)]).is_err());
        assert!(Melds::new(&[Meld::pong(t).with_wilds(3)]).is_err());
    }
}
