//! What the table saw happen that the physical state no longer shows, and what a careful player
//! deduces from it (RULES.md §12): the exchange's picks, each seat's discards including the
//! claimed ones, and each seat's latest discard.
//!
//! The deductions are what determinisation (`crate::search`) must respect: the three tiles a seat gave in
//! the exchange still sit in the receiving hand unless it has shown them since, and a seat whose
//! latest discard was outside its void suit holds no tile of that suit until its next draw.

use super::events::Direction;
use super::state::after;
use super::{Game, Viewer, WinKind};
use crate::hand::Counts;
use crate::meld::MeldKind;
use crate::tile::{Tile, KINDS};
use crate::wire::upto;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The exchange that stood: who gave which three tiles, and which way they went.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Exchanged {
    pub direction: Direction,
    /// The three tiles each seat gave, sorted.
    pub given: [[Tile; 3]; 4],
}

impl Exchanged {
    /// The seat that received `giver`'s tiles.
    pub const fn receiver(&self, giver: u8) -> u8 {
        after(giver, self.direction.steps())
    }
}

/// The public record kept beside the state. Fixed-size, so cloning a game stays a copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct History {
    /// `None` before the exchange resolves, after a redeal, and without an exchange.
    pub exchange: Option<Exchanged>,
    /// Each seat's discards by kind, the claimed ones included; written as their tiles.
    #[serde(with = "discards")]
    pub discarded: [[u8; KINDS]; 4],
    /// Each seat's latest discard, claimed or not.
    pub last_discard: [Option<Tile>; 4],
    /// Tiles each seat has drawn (replacements included) since its latest discard.
    #[serde(deserialize_with = "upto::<108, _, _>")]
    pub drawn_since_discard: [u8; 4],
}

/// Each seat's discards as its tiles, which must be a possible hand (four copies at most).
mod discards {
    use super::{Counts, Deserialize, Deserializer, Serialize, Serializer, Tile, KINDS};

    /// One seat's discards.
    struct Seat([u8; KINDS]);

    impl Serialize for Seat {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let n = |t: Tile| self.0[t.index()] as usize;
            s.collect_seq(Tile::all().flat_map(|t| std::iter::repeat_n(t, n(t))))
        }
    }

    impl<'de> Deserialize<'de> for Seat {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            Counts::deserialize(d).map(|c| Seat(*c.array()))
        }
    }

    pub fn serialize<S: Serializer>(counts: &[[u8; KINDS]; 4], s: S) -> Result<S::Ok, S::Error> {
        counts.map(Seat).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<[[u8; KINDS]; 4], D::Error> {
        Ok(<[Seat; 4]>::deserialize(d)?.map(|s| s.0))
    }
}

impl History {
    pub(super) fn note_discard(&mut self, seat: u8, tile: Tile) {
        let s = seat as usize & 3;
        self.discarded[s][tile.index()] = self.discarded[s][tile.index()].saturating_add(1);
        self.last_discard[s] = Some(tile);
        self.drawn_since_discard[s] = 0;
    }

    pub(super) fn note_draw(&mut self, seat: u8) {
        let s = &mut self.drawn_since_discard[seat as usize & 3];
        *s = s.saturating_add(1);
    }
}

impl Game {
    /// The public record: the exchange, every discard made.
    pub fn history(&self) -> &History {
        &self.history
    }

    /// The tiles `seat`'s hand is known to hold: of the three it received in the exchange, the
    /// copies of each kind not accounted for by what has left its hand in public since (its
    /// discards, the tiles of its melds that came from its hand, its self-drawn winning tiles,
    /// tiles robbed from its kongs). Known to the giver only; all zero without an exchange.
    pub fn known_tiles(&self, seat: u8) -> [u8; KINDS] {
        self.known_tiles_to(seat, Viewer::Seat(seat))
    }

    /// [`Game::known_tiles`] as `viewer` (the giver) can tell them: a self-draw whose tile it
    /// has not seen yet (`win_reveal = "hand_end"`) is not counted as leaving the hand, so the
    /// hand is asked to hold every received tile that win might have been. The seat itself sees
    /// every tile that left its hand.
    pub(super) fn known_tiles_to(&self, seat: u8, viewer: Viewer) -> [u8; KINDS] {
        let mut known = [0u8; KINDS];
        let Some(ex) = self.history.exchange else {
            return known;
        };
        let giver = (0..4).find(|&g| ex.receiver(g) == seat).unwrap_or(seat);
        for t in ex.given[giver as usize] {
            known[t.index()] += 1;
        }
        let left = self.shown_from_hand(seat, viewer);
        for (k, l) in known.iter_mut().zip(left) {
            *k = k.saturating_sub(l);
        }
        known
    }

    /// Copies of each kind that have left `seat`'s concealed hand in public since the deal, as
    /// `viewer` saw them: a self-draw's tile it has not seen yet (`win_reveal = "hand_end"`) has
    /// not left, for it.
    pub(super) fn shown_from_hand(&self, seat: u8, viewer: Viewer) -> [u8; KINDS] {
        let mut left = self.history.discarded[seat as usize];
        for m in self.seats[seat as usize].meld_list() {
            left[m.tile.index()] += match m.kind {
                MeldKind::Pong => 2,
                MeldKind::ExposedKong => 3,
                MeldKind::ConcealedKong => 4,
            };
        }
        for w in self.wins.iter().filter(|w| !w.shared) {
            let own_tile = match w.kind {
                WinKind::SelfDraw => w.seat == seat && !self.tile_hidden(viewer, w),
                WinKind::RobbedKong => w.from == Some(seat),
                WinKind::Discard => false,
            };
            if own_tile {
                left[w.tile.index()] += 1;
            }
        }
        left
    }

    /// The most tiles of its void suit `seat` can hold, when everyone can tell: its latest
    /// discard was outside the void suit, which a seat may not do while holding one (定缺), and
    /// pongs and kongs never take a void tile, so only the tiles drawn since can be of it.
    pub fn void_bound(&self, seat: u8) -> Option<u8> {
        let void = self.seats[seat as usize].void?;
        let last = self.history.last_discard[seat as usize]?;
        (last.suit() != void).then_some(self.history.drawn_since_discard[seat as usize])
    }

    /// The deductions hold: the receiving hand holds the known tiles, and a seat known to be
    /// free of its void suit is.
    pub(super) fn check_history(&self) -> Result<(), String> {
        for seat in 0..4u8 {
            // The deductions read the latest discard, so it must be one the seat made.
            if let Some(t) = self.history.last_discard[seat as usize] {
                if self.history.discarded[seat as usize][t.index()] == 0 {
                    return Err(format!(
                        "history.last_discard[{seat}]: {t} is not among the seat's discards"
                    ));
                }
            }
            let hand = self.seats[seat as usize].hand;
            let known = self.known_tiles(seat);
            if let Some(t) = Tile::all().find(|&t| hand.count(t) < known[t.index()]) {
                return Err(format!(
                    "seat {seat} shows fewer {t} than it received and has not given up"
                ));
            }
            let void = self.seats[seat as usize].void;
            let held = void.map_or(0, |v| hand.suit_counts(v).iter().sum::<u8>());
            if self.void_bound(seat).is_some_and(|bound| held > bound) {
                return Err(format!(
                    "seat {seat} holds {held} void tiles, more than it drew since discarding \
                     outside its void suit"
                ));
            }
        }
        Ok(())
    }
}
