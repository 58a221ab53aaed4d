//! Invariants of a game: tile conservation, zero-sum points, hand sizes, and wins that are real.
//! Tests run them after every step; [`Game::from_parts`] (the door a snapshot restores through)
//! and [`Game::install_hidden`] run them on a state that did not come from play, `from_parts` with
//! the checks a restored state needs besides (records that fit the seats, someone to act).

use super::state::{holds, put, take};
use super::{Game, KongKind, Pending, TurnKind, WALL_SIZE};
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
                add(m.tile, u32::from(m.naturals()));
                add(Tile::YAOJI, u32::from(m.wilds));
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
        if let Some(t) = Tile::all().find(|t| count[t.index()] != u32::from(COPIES)) {
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

/// What a restored snapshot must satisfy besides the invariants.
impl Game {
    /// Wins per seat match the win list; kongs name real melds.
    pub(super) fn check_records(&self) -> Result<(), String> {
        for seat in 0..4u8 {
            let n = self.wins.iter().filter(|w| w.seat == seat).count();
            if n != self.seats[seat as usize].wins as usize {
                return Err(format!(
                    "seats[{seat}].wins is not its number of wins ({n})"
                ));
            }
        }
        if let Some(i) = self
            .end
            .and(self.wins.iter().position(|w| w.owed != [0; 4]))
        {
            return Err(format!(
                "wins[{i}].owed: a hand that is over owes nothing (the reveal paid every win)"
            ));
        }
        for (i, k) in self.kongs.iter().enumerate() {
            if k.feeder.is_some() != (k.kind == KongKind::Direct) || k.feeder == Some(k.owner) {
                return Err(format!(
                    "kongs[{i}]: only a direct kong has a feeder, another seat"
                ));
            }
        }
        Ok(())
    }

    /// Someone must be able to act, unless the hand is over; the end reason fits.
    pub(super) fn check_pending(&self) -> Result<(), String> {
        if matches!(self.pending, Pending::Over) != self.end.is_some() {
            return Err("the hand is over exactly when it has an end reason".into());
        }
        if let Pending::Turn(t) = self.pending {
            if t.kong
                .is_some_and(|k| self.kongs[k as usize].owner != t.seat)
            {
                return Err("pending.kong is another seat's kong".into());
            }
            if self.wins.iter().any(|w| w.seat == t.seat) && !self.in_hand(t.seat) {
                return Err("a 血战 winner is on the move".into());
            }
            let four_wilds = self.seats[t.seat as usize].hand.wilds() >= crate::hand::MAX_WILDS;
            if t.kind == TurnKind::Dealt && (t.seat == self.dealer || !four_wilds) {
                return Err("a \"dealt\" turn is a non-dealer's, holding four wilds".into());
            }
        }
        if let Pending::Respond(r) = self.pending {
            if !self.in_hand(r.from) {
                return Err("pending.from has left the hand".into());
            }
            if r.kong.is_none() && self.river.entries().last() != Some(&(r.from, r.tile)) {
                return Err(
                    "the discard waiting for responses is not the last in the river".into(),
                );
            }
        }
        let mut buf = super::ActionList::new();
        for seat in self.to_act() {
            self.legal_actions(seat, &mut buf);
            if buf.is_empty() {
                return Err(format!("seat {seat} must act but has no legal action"));
            }
        }
        if !self.is_over() && self.to_act().is_empty() {
            return Err("nobody can act, yet the hand is not over".into());
        }
        Ok(())
    }
}
