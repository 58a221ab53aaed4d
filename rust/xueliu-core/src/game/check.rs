//! Invariants of a game: tile conservation, zero-sum points, hand sizes, and wins that are real.
//! Tests run them after every step; `from_json` runs them on what it reads.

use super::state::{holds, put, take};
use super::{Game, Pending, TurnKind, WALL_SIZE};
use crate::analysis::is_win;
use crate::hand::{Counts, MAX_WILDS};
use crate::meld::Meld;
use crate::rules::Mode;
use crate::tile::{Tile, COPIES, KINDS};

impl Game {
    /// Every invariant, or the first one broken.
    pub fn check_invariants(&self) -> Result<(), String> {
        self.check_tiles()?;
        if self.scores.iter().sum::<i64>() != 0 {
            return Err(format!("scores {:?} do not sum to zero", self.scores));
        }
        self.check_sizes()?;
        self.check_wins()?;
        self.check_history()
    }

    /// The 108 tiles: wall, hands, melds, discards and winning tiles, four of each kind; a wild
    /// counts as the `1s` it is.
    fn check_tiles(&self) -> Result<(), String> {
        let mut count = [0u32; KINDS];
        let mut add = |t: Tile, n: u32| count[t.index()] += n;
        self.wall.live().iter().for_each(|&t| add(t, 1));
        for s in &self.seats {
            s.hand.tiles_with_wilds().for_each(|t| add(t, 1));
            for m in s.meld_list() {
                add(m.tile, m.naturals() as u32);
                add(Tile::YAOJI, m.wilds as u32);
            }
        }
        let (mut river, mut by_seat) = ([0u8; KINDS], [[0u8; KINDS]; 4]);
        for &(s, t) in self.river.entries() {
            add(t, 1);
            river[t.index()] += 1;
            by_seat[s as usize & 3][t.index()] += 1;
        }
        if &river != self.river.counts()
            || (0..4).any(|s| &by_seat[s] != self.river.counts_of(s as u8))
        {
            return Err(format!(
                "river counts {:?} differ from its entries {river:?}",
                self.river.counts()
            ));
        }
        self.wins
            .iter()
            .filter(|w| !w.shared)
            .for_each(|w| add(w.tile, 1));
        let total: u32 = count.iter().sum();
        if let Some(t) = Tile::all().find(|t| count[t.index()] != COPIES as u32) {
            return Err(format!(
                "{} copies of {t} in play (4 expected; {total} tiles of {WALL_SIZE} in all)",
                count[t.index()]
            ));
        }
        Ok(())
    }

    /// A seat on the move holds a complete-sized hand (14 counting melds as three); every
    /// other seat a waiting-sized one (13).
    fn check_sizes(&self) -> Result<(), String> {
        if self.leaver().is_some() {
            // 逃跑 can cut a turn or the exchange short: any size stands.
            return Ok(());
        }
        if matches!(self.pending, Pending::Exchange(_) | Pending::Void(_)) {
            let sizes: Vec<usize> = self.seats.iter().map(|s| s.hand.len()).collect();
            let expected: Vec<usize> = (0..4)
                .map(|i| if i == self.dealer as usize { 14 } else { 13 })
                .collect();
            return if sizes == expected {
                Ok(())
            } else {
                Err(format!(
                    "hand sizes {sizes:?} before play, expected {expected:?}"
                ))
            };
        }
        for (i, s) in self.seats.iter().enumerate() {
            let mut fresh = *s;
            fresh.refresh_waits(&self.rules);
            let on_move_now = matches!(self.pending, Pending::Turn(t) if t.seat as usize == i);
            if let Pending::Turn(t) = self.pending {
                let drawn = t.drawn.filter(|&d| holds(&s.hand, d));
                if let (true, TurnKind::Draw, Some(d)) = (on_move_now, t.kind, drawn) {
                    take(&mut fresh.hand, d);
                    fresh.refresh_waits(&self.rules);
                }
            }
            let stale = fresh.waits != s.waits;
            let cached = !on_move_now
                || matches!(self.pending, Pending::Turn(t) if t.kind == TurnKind::Draw);
            if cached && stale {
                return Err(format!("seat {i}'s cached waits are stale"));
            }
            if !self.in_hand(i as u8) {
                self.check_frozen(i as u8)?;
                continue;
            }
            let on_move = match self.pending {
                Pending::Turn(t) if t.seat as usize == i => Some(t.kind),
                _ => None,
            };
            let size = s.hand.len() + 3 * s.meld_summary.sets as usize;
            // A non-dealer's dealt four wilds win before the dealer's first turn (§11).
            let dealer_waits = matches!(self.pending, Pending::Turn(t) if t.kind == TurnKind::Dealt)
                && i == self.dealer as usize;
            let expected = match on_move {
                Some(TurnKind::Dealt) => 13,
                None if dealer_waits => 14,
                None => 13,
                Some(_) => 14,
            };
            if size != expected {
                return Err(format!(
                    "seat {i} holds {size} tiles counting melds as three, expected {expected}"
                ));
            }
        }
        if let Pending::Turn(t) = self.pending {
            let s = &self.seats[t.seat as usize];
            if let Some(d) = t.drawn {
                if !holds(&s.hand, d) {
                    return Err(format!("seat {} drew {d} but does not hold it", t.seat));
                }
            } else if !matches!(
                t.kind,
                TurnKind::First | TurnKind::AfterPong | TurnKind::Dealt
            ) {
                return Err("a turn after a draw names no drawn tile".into());
            }
        }
        Ok(())
    }

    /// A 血战 winner has left the hand: its tiles are those of its win.
    fn check_frozen(&self, seat: u8) -> Result<(), String> {
        let s = &self.seats[seat as usize];
        match self.wins.iter().rev().find(|w| w.seat == seat) {
            Some(w) if w.hand == s.hand && w.melds == s.melds => Ok(()),
            _ => Err(format!(
                "seat {seat} has won but its tiles are not its win's"
            )),
        }
    }

    /// Each win is a complete hand without its void suit; 血战 never has four winners.
    fn check_wins(&self) -> Result<(), String> {
        for w in &self.wins {
            let mut hand: Counts = w.hand;
            let wild = self.rules.is_wild(w.tile);
            let fifth = if wild {
                hand.wilds() >= MAX_WILDS
            } else {
                hand.count(w.tile) >= COPIES
            };
            if fifth {
                return Err(format!("win of seat {} on a fifth {}", w.seat, w.tile));
            }
            put(&mut hand, w.tile, self.rules.wilds);
            let mut seat = self.seats[w.seat as usize];
            seat.melds = w.melds;
            seat.rebuild_summary();
            let ctx = seat.context(&self.rules);
            if !is_win(&hand, &ctx) {
                let melds: Vec<Meld> = seat.meld_list().collect();
                return Err(format!(
                    "seat {} won on {} with {hand} {melds:?}, not a complete hand",
                    w.seat, w.tile
                ));
            }
        }
        let winners = self.seats.iter().filter(|s| s.wins > 0).count();
        if self.rules.mode == Mode::Xuezhan && winners > 3 {
            return Err("four winners in 血战".into());
        }
        Ok(())
    }
}
