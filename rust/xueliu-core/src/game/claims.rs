//! Responses to a discard (win 点炮, direct kong 直杠, pong 碰, pass) and to a kong that may be
//! robbed (抢杠胡), with 过胡 (`pass_win_lock`) and forced wins (`last_four`); how they resolve
//! and who draws next.

use super::events::{claim, Event, KongKind, On, WinKind};
use super::state::after;
use super::turn::take_naturals_first;
use super::value::score_win;
use super::{Action, Game, Pending, Responses, Turn, TurnKind};
use crate::meld::Meld;
use crate::rules::{KongIncomeTransfer, LastFour, PassWinCompare, PassWinLock, Rules};
use crate::score::{Score, Situation};
use crate::tile::Tile;

impl Game {
    /// What `seat` may claim on a discard of `tile`. With wilds a pong or kong takes natural
    /// copies first and wilds for the rest, and needs one natural copy in hand (§11).
    #[inline(always)]
    pub(super) fn discard_claims(&self, seat: u8, tile: Tile, kong_shot: bool) -> u8 {
        // Every claim needs the tile among the seat's waits or in its hand; most seats have
        // neither, and are answered here without a call.
        let s = &self.seats[seat as usize];
        if s.waits & 1 << tile.index() == 0 && s.hand.count(tile) == 0 {
            return 0;
        }
        self.claims_of_a_holder(seat, tile, kong_shot)
    }

    /// [`Game::discard_claims`] of a seat waiting on `tile` or holding a copy.
    fn claims_of_a_holder(&self, seat: u8, tile: Tile, kong_shot: bool) -> u8 {
        // Nobody claims a discarded wild (§11 *(c)*).
        if !self.in_hand(seat) || self.is_wild(tile) {
            return 0;
        }
        let flags = self.discard_situation(kong_shot);
        let mut bits = if self.win_allowed(seat, tile, flags) {
            claim::WIN
        } else {
            0
        };
        let s = &self.seats[seat as usize];
        let (n, wilds) = (s.hand.count(tile), s.hand.wilds());
        if n == 0 || self.locked(seat) || s.void == Some(tile.suit()) || s.meld_of(tile).is_some() {
            return bits;
        }
        if n + wilds >= 3 && !self.wall.is_empty() {
            bits |= claim::KONG;
        }
        // The ponger discards next, so the pong must leave a natural tile in hand.
        let naturals_left = s.hand.len() - wilds as usize - n.min(2) as usize;
        let pong_allowed = !self.wall.is_empty() || self.rules.pong_last_discard;
        if n + wilds >= 2 && pong_allowed && naturals_left > 0 {
            bits |= claim::PONG;
        }
        bits
    }

    /// How a win on a discard comes about: 杠上炮 when made right after the discarder's kong,
    /// 海底炮 when made with the wall empty.
    fn discard_situation(&self, kong_shot: bool) -> Situation {
        Situation {
            kong_shot,
            last_tile: self.wall.is_empty(),
            ..Situation::DISCARD
        }
    }

    /// The situation a win on `r`'s tile scores in: robbing a kong, or on a discard (after a
    /// kong, 杠上炮).
    pub(super) fn claim_situation(&self, r: &Responses) -> Situation {
        if r.kong.is_some() {
            self.rob_situation(r)
        } else {
            self.discard_situation(r.after_kong.is_some())
        }
    }

    /// 抢杠 on `r`'s kong; 杠上炮 too when `r` is an add kong declared on a kong's replacement
    /// and `kong_shot_on_rob` holds (MIL SBR 2025 ⑧ 「再次加杠的牌」).
    fn rob_situation(&self, r: &Responses) -> Situation {
        Situation {
            robbed_kong: true,
            kong_shot: self.rob_is_kong_shot(r),
            ..Situation::DISCARD
        }
    }

    /// Robbing `r`'s kong is 杠上炮 as well (`kong_shot_on_rob`).
    fn rob_is_kong_shot(&self, r: &Responses) -> bool {
        self.rules.kong_shot_on_rob
            && r.after_kong.is_some()
            && matches!(r.kong, Some((KongKind::Added, _)))
    }

    /// What `seat` may claim on `r`'s kong: only a win (robbing the kong).
    pub(super) fn rob_claims(&self, seat: u8, r: &Responses) -> u8 {
        let (tile, flags) = (r.tile, self.rob_situation(r));
        if self.in_hand(seat) && self.win_allowed(seat, tile, flags) {
            claim::WIN
        } else {
            0
        }
    }

    /// The hand wins with `tile` and 过胡 does not lock it.
    fn win_allowed(&self, seat: u8, tile: Tile, flags: Situation) -> bool {
        let s = &self.seats[seat as usize];
        if s.waits & 1 << tile.index() == 0 {
            return false;
        }
        match (self.rules.pass_win_lock, s.declined) {
            (PassWinLock::None, _) | (_, None) => true,
            (PassWinLock::UntilDraw, Some(_)) => false,
            (PassWinLock::UntilDrawUnlessHigher, Some(declined)) => {
                compared_fan(&self.rules, &score_win(&self.rules, s, tile, flags)) > declined
            }
        }
    }

    /// Asks the seats with a claim, or moves on when nobody has one.
    pub(super) fn open_responses(&mut self, mut r: Responses, last_four: bool) {
        // Robbing a kong is forced like a win on a discard *(c)*.
        let forced_rule = matches!(self.rules.last_four, LastFour::Forced | LastFour::RonForced);
        if last_four && forced_rule {
            for seat in 0..4 {
                if r.claims[seat] & claim::WIN != 0 {
                    r.forced |= 1 << seat;
                }
            }
        }
        if r.claims.iter().any(|&c| c != 0) {
            self.pending = Pending::Respond(r);
        } else if r.kong.is_none() {
            // Nobody may claim the discard: what resolving no decisions comes to, directly.
            self.next_draw_after(r.from);
        } else {
            self.resolve_responses(r);
        }
    }

    pub(super) fn response_actions(&self, r: &Responses, seat: u8, f: &mut impl FnMut(Action)) {
        let bits = r.claims[seat as usize];
        if bits & claim::WIN != 0 {
            f(Action::Win);
            if r.forced & 1 << seat != 0 {
                return;
            }
        }
        if bits & claim::KONG != 0 {
            f(Action::Kong(r.tile));
        }
        if bits & claim::PONG != 0 {
            f(Action::Pong);
        }
        f(Action::Pass);
    }

    /// Every asked seat has decided (or none was asked).
    pub(super) fn resolve_responses(&mut self, r: Responses) {
        let winners: Vec<u8> = (1..4)
            .map(|i| after(r.from, i))
            .filter(|&s| r.decisions[s as usize] == Some(Action::Win))
            .collect();
        let taker = if winners.is_empty() {
            claimer(&r)
        } else {
            None
        };
        self.log_declines(&r, taker);
        match r.kong {
            Some((kind, late)) => self.resolve_kong(&r, kind, late, &winners),
            None => self.resolve_discard(&r, &winners),
        }
    }

    /// Logs each asked seat's decision that is not carried out, in seat order: `pass`, or
    /// `beaten` for a pong or kong that lost to a win or (with wilds) to the `taker`'s claim. Any
    /// answer but `win` to an offered win declines it and locks the seat (过胡, RULES.md §6).
    fn log_declines(&mut self, r: &Responses, taker: Option<u8>) {
        for seat in 0..4u8 {
            let could = r.claims[seat as usize];
            let decision = r.decisions[seat as usize];
            if could & claim::WIN != 0 && decision.is_some_and(|d| d != Action::Win) {
                self.lock_declined_win(seat, r);
            }
            match decision {
                Some(Action::Pass) => self.push(Event::Pass {
                    seat,
                    on: if r.kong.is_some() {
                        On::Kong
                    } else {
                        On::Discard
                    },
                    could,
                }),
                Some(Action::Pong) if taker != Some(seat) => self.push(Event::Beaten {
                    seat,
                    claim: claim::PONG,
                }),
                Some(Action::Kong(_)) if taker != Some(seat) => self.push(Event::Beaten {
                    seat,
                    claim: claim::KONG,
                }),
                _ => {}
            }
        }
    }

    /// 过胡: remember the highest fan declined until the seat's next draw.
    fn lock_declined_win(&mut self, seat: u8, r: &Responses) {
        let s = &self.seats[seat as usize];
        let score = score_win(&self.rules, s, r.tile, self.claim_situation(r));
        self.lock_declined(seat, &score);
    }

    /// 过胡 (RULES.md §6): `seat` declined a win worth `score`.
    pub(super) fn lock_declined(&mut self, seat: u8, score: &Score) {
        if self.rules.pass_win_lock == PassWinLock::None {
            return;
        }
        let fan = compared_fan(&self.rules, score);
        let s = &mut self.seats[seat as usize];
        s.declined = Some(s.declined.map_or(fan, |d| d.max(fan)));
    }

    fn resolve_discard(&mut self, r: &Responses, winners: &[u8]) {
        let claimer = claimer(r).and_then(|s| r.decisions[s as usize].map(|a| (s, a)));
        if !winners.is_empty() {
            self.river.pop();
            let flags = self.discard_situation(r.after_kong.is_some());
            self.record_claimed_wins(r, winners, WinKind::Discard, flags, r.after_kong);
            if !self.maybe_three_won() {
                let farthest = winners[winners.len() - 1];
                self.next_draw_after(farthest);
            }
        } else if let Some((seat, action)) = claimer {
            self.river.pop();
            self.claimed = true;
            match action {
                Action::Pong => self.pong(seat, r),
                _ => self.direct_kong(seat, r),
            }
        } else {
            self.next_draw_after(r.from);
        }
    }

    /// Records each of `winners` on `r`'s tile, paid by `r.from`; after a kong (`shot`, 杠上炮) the
    /// kong's income goes to the winners as `kong_income_transfer` says. One home for a discard's
    /// winners and a robbed kong's.
    fn record_claimed_wins(
        &mut self,
        r: &Responses,
        winners: &[u8],
        kind: WinKind,
        flags: Situation,
        shot: Option<u16>,
    ) {
        let income = shot.map(|k| (k, self.transfer_income(r.from, k, winners.len())));
        for (i, &w) in winners.iter().enumerate() {
            self.record_win(w, r.tile, Some(r.from), kind, flags, None);
            self.mark_shared(i);
            if let Some((k, income)) = income {
                self.transfer_kong_income(r.from, w, k, income, i == 0);
            }
        }
        if let Some(k) = shot {
            self.mark_transferred(r.from, k);
        }
    }

    /// Marks the latest win as sharing its tile with the one before, unless it is the first.
    fn mark_shared(&mut self, nth: usize) {
        if let Some(w) = self.wins.last_mut() {
            w.shared = nth > 0;
        }
    }

    fn pong(&mut self, seat: u8, r: &Responses) {
        let s = &mut self.seats[seat as usize];
        let wilds = take_naturals_first(&mut s.hand, r.tile, 2);
        if s.hand.count(r.tile) > 0 {
            s.pong_with_three |= 1 << r.tile.index();
        }
        s.push_meld(Meld::pong(r.tile).with_wilds(wilds));
        s.turn = s.turn.saturating_add(1);
        self.push(Event::Pong {
            seat,
            tile: r.tile,
            from: r.from,
            wilds: self.rules.wilds.then_some(wilds),
        });
        self.pending = Pending::Turn(Turn {
            seat,
            kind: TurnKind::AfterPong,
            drawn: None,
            kong: None,
            last_four: false,
        });
    }

    fn direct_kong(&mut self, seat: u8, r: &Responses) {
        let s = &mut self.seats[seat as usize];
        let wilds = take_naturals_first(&mut s.hand, r.tile, 3);
        s.push_meld(Meld::kong(r.tile, false).with_wilds(wilds));
        s.direct_kongs |= 1 << r.tile.index();
        self.push(Event::Kong {
            seat,
            tile: r.tile,
            kind: KongKind::Direct,
            from: Some(r.from),
            late: false,
            wilds: self.rules.wilds.then_some(wilds),
        });
        self.kong_stands(seat, r.tile, KongKind::Direct, false, Some(r.from), false);
    }

    /// A declared kong: robbed by every winner (the owner pays each), or it stands.
    fn resolve_kong(&mut self, r: &Responses, kind: KongKind, late: bool, winners: &[u8]) {
        if winners.is_empty() {
            // `after_kong` on a kong links it to a kong chain, or marks a robbing 杠上炮.
            let chained = r.after_kong.is_some()
                && self.rules.kong_income_transfer == KongIncomeTransfer::KongChain;
            self.kong_stands(r.from, r.tile, kind, late, None, chained);
            return;
        }
        self.push(Event::Robbed {
            seat: r.from,
            tile: r.tile,
        });
        // The robber takes a natural copy; the kong's other tiles, wilds too, stay: as the pong,
        // or back in the hand.
        let owner = &mut self.seats[r.from as usize];
        let wilds = owner.meld_of(r.tile).map_or(0, |(_, m)| m.wilds);
        if kind == KongKind::Added {
            owner.replace_meld(Meld::pong(r.tile).with_wilds(wilds));
        } else {
            owner.remove_meld(r.tile);
            (0..3 - wilds).for_each(|_| owner.hand.add(r.tile));
            (0..wilds).for_each(|_| owner.hand.add_wild());
        }
        owner.refresh_waits(&self.rules);
        let flags = self.rob_situation(r);
        // 杠上炮 on a robbed add kong: the kong before it pays back as after a discard.
        let shot = r.after_kong.filter(|_| flags.kong_shot);
        self.record_claimed_wins(r, winners, WinKind::RobbedKong, flags, shot);
        if !self.maybe_three_won() {
            self.next_draw_after(winners[winners.len() - 1]);
        }
    }
}

/// The seat whose pong or kong is carried out when nobody wins: the first claimer after the
/// discarder in turn order. Only wilds let two seats claim one discard (§11 *(c)*).
fn claimer(r: &Responses) -> Option<u8> {
    (1..4).map(|i| after(r.from, i)).find(|&s| {
        matches!(
            r.decisions[s as usize],
            Some(Action::Pong | Action::Kong(_))
        )
    })
}

/// The fan 过胡 compares a declined win and a later one by (`pass_win_compare`).
fn compared_fan(rules: &Rules, score: &Score) -> u32 {
    match rules.pass_win_compare {
        PassWinCompare::CappedFan => score.capped_fan,
        PassWinCompare::Fan => score.fan,
    }
}
