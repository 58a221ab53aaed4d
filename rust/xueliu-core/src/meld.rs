//! Exposed sets: pongs (碰) and kongs (杠). A kong counts as one set of a complete hand.

use crate::hand::{Counts, HandError};
use crate::tile::{parse_tiles, Tile, COPIES, KINDS};
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MeldKind {
    /// 碰: three of a kind, one of them claimed.
    Pong,
    /// 明杠: a direct kong (直杠) or an added kong (补杠).
    ExposedKong,
    /// 暗杠: four of a kind from the player's own hand.
    ConcealedKong,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Meld {
    pub kind: MeldKind,
    pub tile: Tile,
}

impl Meld {
    pub const fn pong(tile: Tile) -> Meld {
        Meld {
            kind: MeldKind::Pong,
            tile,
        }
    }

    pub const fn kong(tile: Tile, concealed: bool) -> Meld {
        let kind = if concealed {
            MeldKind::ConcealedKong
        } else {
            MeldKind::ExposedKong
        };
        Meld { kind, tile }
    }

    /// Copies of its tile the meld holds: 3 or 4.
    pub const fn size(self) -> u8 {
        match self.kind {
            MeldKind::Pong => 3,
            _ => 4,
        }
    }

    pub const fn is_kong(self) -> bool {
        !matches!(self.kind, MeldKind::Pong)
    }

    /// Reads `"555m"` (a pong) or `"5555m"` (an exposed kong; `concealed` makes it 暗杠).
    pub fn parse(text: &str, concealed: bool) -> Result<Meld, HandError> {
        let bad = |reason| HandError::BadMeld {
            text: text.to_owned(),
            reason,
        };
        let tiles = parse_tiles(text)
            .map_err(|_| bad("is not tile notation; write e.g. \"555m\" or \"7777p\""))?;
        let Some(&tile) = tiles.first() else {
            return Err(bad("is empty"));
        };
        if tiles.iter().any(|&t| t != tile) {
            return Err(bad(
                "mixes tiles; a pong or kong is one tile three or four times",
            ));
        }
        match tiles.len() {
            3 if !concealed => Ok(Meld::pong(tile)),
            3 => Err(bad("is three tiles; a concealed kong has four")),
            4 => Ok(Meld::kong(tile, concealed)),
            _ => Err(bad("is neither a pong (3 tiles) nor a kong (4 tiles)")),
        }
    }
}

impl fmt::Display for Meld {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for _ in 0..self.size() {
            write!(f, "{}", self.tile.rank())?;
        }
        write!(f, "{}", self.tile.suit())
    }
}

/// What hand analysis needs to know about a player's melds, summarised once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Melds {
    /// Number of melds: each is one set of the complete hand.
    pub sets: u8,
    /// Suits the melds use.
    pub suit_mask: u8,
    /// Copies of each tile the melds hold.
    pub held: [u8; KINDS],
}

impl Melds {
    pub const NONE: Melds = Melds {
        sets: 0,
        suit_mask: 0,
        held: [0; KINDS],
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
        let held = &mut self.held[meld.tile.index()];
        if *held > 0 {
            return Err(HandError::TooManyCopies {
                tile: meld.tile,
                count: *held + meld.size(),
            });
        }
        *held = meld.size();
        self.sets += 1;
        self.suit_mask |= meld.tile.suit().bit();
        Ok(())
    }

    /// Concealed tiles a complete hand needs with these melds: 14, 11, 8, 5 or 2.
    pub const fn concealed_size(&self) -> usize {
        14 - 3 * self.sets as usize
    }

    /// Checks that hand and melds together hold at most four of each tile.
    pub fn check_copies(&self, hand: &Counts) -> Result<(), HandError> {
        if self.sets == 0 {
            return Ok(()); // a Counts never holds more than four of a tile
        }
        for t in Tile::all() {
            let count = hand.count(t) + self.held[t.index()];
            if count > COPIES {
                return Err(HandError::TooManyCopies { tile: t, count });
            }
        }
        Ok(())
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
        ])
        .unwrap();
        assert_eq!(
            (melds.sets, melds.suit_mask, melds.concealed_size()),
            (2, 0b011, 8)
        );
        let hand = Counts::from_tiles(&parse_tiles("55m").unwrap()).unwrap();
        assert!(melds.check_copies(&hand).is_err());
    }
}
