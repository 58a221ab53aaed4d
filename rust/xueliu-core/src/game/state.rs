//! The physical state of a hand: the wall, each seat's tiles and melds, and the discards.
//! Fixed-size arrays throughout, so that cloning a game is a copy.

use crate::analysis::{waits, Context};
use crate::hand::Counts;
use crate::meld::melds;
use crate::meld::{Meld, Melds};
use crate::rules::Rules;
use crate::tile::bits;
use crate::tile::{Suit, Tile, COPIES, KINDS};
use crate::wire::upto;
use serde::{Deserialize, Serialize};

/// Tiles in a full wall.
pub const WALL_SIZE: usize = 108;

/// The wall, drawn from the front; replacement draws may come from the back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wall {
    pub(super) tiles: [Tile; WALL_SIZE],
    /// Index of the next tile from the front.
    pub(super) front: u8,
    /// One past the last tile still in the wall.
    pub(super) back: u8,
}

impl Wall {
    /// The 108 tiles in index order, four copies each.
    pub fn sorted() -> Wall {
        let mut tiles = [Tile::new(0).expect("tile 0"); WALL_SIZE];
        for (i, slot) in tiles.iter_mut().enumerate() {
            *slot = Tile::new((i / COPIES as usize) as u8).expect("below 27");
        }
        Wall {
            tiles,
            front: 0,
            back: WALL_SIZE as u8,
        }
    }

    #[inline]
    pub fn remaining(&self) -> usize {
        (self.back - self.front) as usize
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.front >= self.back
    }

    /// The next tile from the front; `None` when empty.
    #[inline]
    pub(super) fn draw_front(&mut self) -> Option<Tile> {
        if self.is_empty() {
            return None;
        }
        self.front += 1;
        Some(self.tiles[self.front as usize - 1])
    }

    #[inline]
    pub(super) fn draw_back(&mut self) -> Option<Tile> {
        if self.is_empty() {
            return None;
        }
        self.back -= 1;
        Some(self.tiles[self.back as usize])
    }

    /// The tiles still to draw, front first.
    pub fn live(&self) -> &[Tile] {
        &self.tiles[self.front as usize..self.back as usize]
    }
}

/// One seat's tiles and what the turn rules need to know about their history. A snapshot writes
/// it without what it derives (the meld summary, pongs, waits), which a restore rebuilds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seat {
    /// Concealed tiles. A winning tile is set aside and is not here (RULES.md §7).
    pub(super) hand: Counts,
    #[serde(with = "melds")]
    pub(super) melds: [Option<Meld>; 4],
    /// Summary of `melds` for hand analysis.
    #[serde(skip)]
    pub(super) meld_summary: Melds,
    /// Tiles (bit per kind) the seat has a pong of.
    #[serde(skip)]
    pub(super) pongs: u32,
    /// Tiles (bit per kind) of pongs made while the fourth copy was already in hand.
    #[serde(with = "bits")]
    pub(super) pong_with_three: u32,
    /// Tiles (bit per kind) of kongs that count only as a root (late kongs under `root_only`).
    #[serde(with = "bits")]
    pub(super) root_only_kongs: u32,
    /// Tiles (bit per kind) of kongs declared directly on a discard (直杠).
    #[serde(with = "bits")]
    pub(super) direct_kongs: u32,
    /// 定缺: the declared void suit.
    pub(super) void: Option<Suit>,
    /// Turns so far (docs/game-protocol.md §5): each time the seat is to move, a kong's
    /// replacement draw continuing the same turn.
    #[serde(deserialize_with = "upto::<10_000, _, _>")]
    pub(super) turn: u16,
    /// The turn on which the latest copy of each kind arrived in the hand.
    #[serde(deserialize_with = "upto::<10_000, _, _>")]
    pub(super) arrival: [u16; KINDS],
    /// Ordinary (non-replacement) draws so far, for 地胡.
    #[serde(deserialize_with = "upto::<200, _, _>")]
    pub(super) draws: u8,
    /// Wins so far (血流 allows several).
    #[serde(deserialize_with = "upto::<200, _, _>")]
    pub(super) wins: u8,
    /// 过胡: the highest (capped) fan of a win declined since the last draw.
    #[serde(deserialize_with = "upto::<10_000, _, _>")]
    pub(super) declined: Option<u32>,
    /// The waits of the hand while it is not on the move (13 counting melds as three), kept so
    /// that the claims on every discard cost one bit test.
    #[serde(skip)]
    pub(super) waits: u32,
}

impl Seat {
    pub(super) const EMPTY: Seat = Seat {
        hand: Counts::new(),
        melds: [None; 4],
        meld_summary: Melds::NONE,
        pongs: 0,
        pong_with_three: 0,
        root_only_kongs: 0,
        direct_kongs: 0,
        void: None,
        turn: 0,
        arrival: [0; KINDS],
        draws: 0,
        wins: 0,
        declined: None,
        waits: 0,
    };

    /// Concealed tiles. Only the game's holder reads another seat's: a bot sees its own
    /// through [`super::SeatView`].
    #[inline]
    pub fn hand(&self) -> &Counts {
        &self.hand
    }

    /// Turns so far (docs/game-protocol.md §5), which everyone sees.
    pub fn turns(&self) -> u16 {
        self.turn
    }

    /// The melds summed up for hand analysis.
    #[inline]
    pub fn melded(&self) -> &Melds {
        &self.meld_summary
    }

    /// 定缺: the declared void suit.
    pub fn void(&self) -> Option<Suit> {
        self.void
    }

    /// Wins so far (血流 allows several).
    pub fn wins(&self) -> u8 {
        self.wins
    }

    /// 过胡: the highest (capped) fan of a win declined since the last draw.
    pub fn declined(&self) -> Option<u32> {
        self.declined
    }

    /// The context hand analysis judges this seat's hand in.
    #[inline]
    pub fn context(&self, rules: &Rules) -> Context {
        Context {
            melds: self.meld_summary,
            void: self.void,
            seven_pairs: rules.allow_seven_pairs,
        }
    }

    /// Recomputes `waits` after the hand changed to a waiting size.
    pub(super) fn refresh_waits(&mut self, rules: &Rules) {
        self.waits = waits(&self.hand, &self.context(rules));
    }

    /// The melds in the order made.
    pub fn meld_list(&self) -> impl Iterator<Item = Meld> + '_ {
        self.melds.iter().flatten().copied()
    }

    /// The meld of `tile`, if any, and its slot.
    pub fn meld_of(&self, tile: Tile) -> Option<(usize, Meld)> {
        self.melds
            .iter()
            .enumerate()
            .find_map(|(i, m)| m.filter(|m| m.tile == tile).map(|m| (i, m)))
    }

    #[inline]
    pub fn has_pong(&self, tile: Tile) -> bool {
        self.pongs & 1 << tile.index() != 0
    }

    /// Adds a meld; false when four are already held (an impossible state the caller rejects).
    pub(super) fn push_meld(&mut self, meld: Meld) -> bool {
        let Some(slot) = self.melds.iter_mut().find(|m| m.is_none()) else {
            return false;
        };
        *slot = Some(meld);
        self.rebuild_summary();
        true
    }

    /// Replaces the meld of `meld.tile` (a pong becoming a kong, or back).
    pub(super) fn replace_meld(&mut self, meld: Meld) {
        if let Some((i, _)) = self.meld_of(meld.tile) {
            self.melds[i] = Some(meld);
            self.rebuild_summary();
        }
    }

    /// Removes the meld of `tile` (a robbed concealed kong), keeping the others in order.
    pub(super) fn remove_meld(&mut self, tile: Tile) {
        let kept: Vec<Meld> = self.meld_list().filter(|m| m.tile != tile).collect();
        self.melds = [None; 4];
        for (slot, m) in self.melds.iter_mut().zip(kept) {
            *slot = Some(m);
        }
        self.rebuild_summary();
    }

    pub(super) fn rebuild_summary(&mut self) {
        let mut summary = Melds::NONE;
        for m in self.meld_list() {
            // Melds of distinct tiles, at most four: the push cannot fail.
            let _ = summary.push(m);
        }
        self.meld_summary = summary;
        self.pongs = summary.pong_mask;
    }

    /// Copies of `tile` in hand and melds.
    #[inline]
    pub fn holds(&self, tile: Tile) -> u8 {
        self.hand.count(tile) + self.meld_summary.held[tile.index()]
    }

    /// Whether the hand holds any tile of its void suit.
    #[inline]
    pub fn holds_void(&self) -> bool {
        self.void
            .is_some_and(|v| self.hand.suit_mask() & v.bit() != 0)
    }

    /// Adds a tile to the hand, noting the turn it arrives on; under `wilds` a `1s` is a wild.
    #[inline]
    pub(super) fn receive(&mut self, tile: Tile, turn: u16, wilds: bool) {
        put(&mut self.hand, tile, wilds);
        self.arrival[tile.index()] = turn;
    }
}

impl super::Game {
    /// Recomputes the waits kept per seat (see `Seat::waits`).
    pub(super) fn refresh_cached_waits(&mut self) {
        let rules = self.rules.clone();
        let on_move = match self.pending {
            super::Pending::Turn(t) => Some(t),
            _ => None,
        };
        for (i, s) in self.seats.iter_mut().enumerate() {
            let mut waiting = *s;
            if let Some(t) = on_move.filter(|t| t.seat as usize == i) {
                match t.drawn.filter(|&d| holds(&s.hand, d)) {
                    Some(d) if t.kind == super::TurnKind::Draw => take(&mut waiting.hand, d),
                    _ => continue,
                }
            }
            waiting.refresh_waits(&rules);
            s.waits = waiting.waits;
        }
    }
}

/// Adds `tile` to a hand: under `wilds` a `1s` is a wild (幺鸡, docs/game-protocol.md §11).
#[inline]
pub fn put(hand: &mut Counts, tile: Tile, wilds: bool) {
    if wilds && tile == Tile::YAOJI {
        hand.add_wild();
    } else {
        hand.add(tile);
    }
}

/// Whether a hand holds `tile`; a `1s` is held as a natural tile or, in the 幺鸡 variant (where no
/// hand holds a natural `1s`), as a wild.
#[inline]
pub fn holds(hand: &Counts, tile: Tile) -> bool {
    hand.count(tile) > 0 || (tile == Tile::YAOJI && hand.wilds() > 0)
}

/// Takes a tile the hand [`holds`] out of it: a natural copy if there is one, else a wild.
#[inline]
pub fn take(hand: &mut Counts, tile: Tile) {
    if hand.count(tile) > 0 {
        hand.remove(tile);
    } else if tile == Tile::YAOJI && hand.wilds() > 0 {
        hand.remove_wild();
    }
}

/// Every discard still lying in front of its discarder, in order; a claimed tile leaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct River {
    /// `(seat, tile)` pairs.
    entries: [(u8, Tile); WALL_SIZE],
    len: u8,
    /// Copies of each kind among the entries, kept with them for bots that count what is seen.
    counts: [u8; KINDS],
    /// The same per discarder, kept so that an observation copies them instead of recounting.
    by_seat: [[u8; KINDS]; 4],
}

impl River {
    pub fn new() -> River {
        River {
            entries: [(0, Tile::new(0).expect("tile 0")); WALL_SIZE],
            len: 0,
            counts: [0; KINDS],
            by_seat: [[0; KINDS]; 4],
        }
    }

    pub fn push(&mut self, seat: u8, tile: Tile) {
        if (self.len as usize) < WALL_SIZE {
            self.entries[self.len as usize] = (seat, tile);
            self.len += 1;
            self.counts[tile.index()] += 1;
            self.by_seat[seat as usize & 3][tile.index()] += 1;
        }
    }

    /// Takes back the latest discard (claimed by a pong, kong or win).
    pub fn pop(&mut self) {
        if let Some(&(seat, tile)) = self.entries().last() {
            self.counts[tile.index()] -= 1;
            self.by_seat[seat as usize & 3][tile.index()] -= 1;
            self.len -= 1;
        }
    }

    /// Copies of each kind lying in the river.
    pub fn counts(&self) -> &[u8; KINDS] {
        &self.counts
    }

    /// Copies of each kind lying in the river of `seat`.
    pub fn counts_of(&self, seat: u8) -> &[u8; KINDS] {
        &self.by_seat[seat as usize & 3]
    }

    pub fn entries(&self) -> &[(u8, Tile)] {
        &self.entries[..self.len as usize]
    }

    pub fn of(&self, seat: u8) -> impl Iterator<Item = Tile> + '_ {
        self.entries()
            .iter()
            .filter(move |(s, _)| *s == seat)
            .map(|(_, t)| *t)
    }
}

impl Default for River {
    fn default() -> River {
        River::new()
    }
}

/// The seat `steps` places after `seat` in turn order.
#[inline]
pub const fn after(seat: u8, steps: u8) -> u8 {
    (seat + steps) % 4
}
