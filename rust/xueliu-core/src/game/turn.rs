//! The seat to move: self-drawn win (自摸), concealed (暗杠) or added (补杠) kong, 幺鸡换 (swap),
//! discard; draws and replacement draws; late kongs (docs/game-protocol.md §5), 血流 locked hands
//! (§6) and wilds (§11).

use super::events::{Event, KongKind, WinKind};
use super::state::{after, holds, take};
use super::value::{ready_value, score_win};
use super::{Action, Game, Pending, Responses, Turn, TurnKind};
use crate::analysis::{is_win, tile_bits, waits};
use crate::hand::MAX_WILDS;
use crate::meld::Meld;
use crate::rules::{KongDrawFrom, KongIncomeTransfer, LastFour, LateKong, PassWinLockAfterPong};
use crate::score::Situation;
use crate::tile::{Tile, COPIES};

impl Game {
    pub(super) fn turn_actions(&self, t: &Turn, f: &mut impl FnMut(Action)) {
        let s = &self.seats[t.seat as usize];
        // Four wilds win at once, whatever the hand (s: 系统强制胡牌).
        if s.hand.wilds() >= MAX_WILDS {
            return f(Action::Win);
        }
        let can_win = self.turn_can_win(t);
        if can_win {
            f(Action::Win);
            if self.self_draw_forced(t) {
                return;
            }
        }
        if t.kind != TurnKind::AfterPong && !self.wall.is_empty() {
            for tile in self.kong_candidates(t.seat) {
                if self.kong_allowed(t, tile) {
                    f(Action::Kong(tile));
                }
            }
        }
        if self.rules.wilds && matches!(t.kind, TurnKind::Draw | TurnKind::Replacement) {
            self.swap_candidates(t.seat)
                .for_each(|tile| f(Action::Swap(tile)));
        }
        if self.locked(t.seat) {
            if let Some(d) = t.drawn {
                f(Action::Discard(d));
            }
            return;
        }
        // A hand of nothing but wilds that does not win discards one, so that the seat always
        // has an action (§11 *(c)*; only with melds in three suits).
        if s.hand.len() == s.hand.wilds() as usize && !can_win {
            return f(Action::Discard(Tile::YAOJI));
        }
        let suits = match s.void.filter(|_| s.holds_void()) {
            Some(v) => v.bit(),
            None => s.hand.suit_mask(),
        };
        // Held kinds as one bit mask, walked in index order: no branch per kind.
        let mut held = s.hand.at_least(1) & tile_bits(suits);
        while held != 0 {
            f(Action::Discard(tile_at(held.trailing_zeros() as usize)));
            held &= held - 1;
        }
    }

    /// Whether the hand on the move wins: after an ordinary draw of a natural tile the waits
    /// cached before it answer; a drawn wild (it may be a fifth copy), a swap or any other turn
    /// asks the analysis.
    fn turn_can_win(&self, t: &Turn) -> bool {
        let s = &self.seats[t.seat as usize];
        match (t.kind, t.drawn) {
            (TurnKind::AfterPong, _) => false,
            (TurnKind::Draw, Some(d)) if !self.is_wild(d) => s.waits & 1 << d.index() != 0,
            _ => is_win(&s.hand, &s.context(&self.rules)),
        }
    }

    /// Whether `tile` is a wild: a `1s` in the 幺鸡 variant.
    #[inline]
    pub(super) fn is_wild(&self, tile: Tile) -> bool {
        self.rules.is_wild(tile)
    }

    /// 幺鸡换: tiles of the seat's kongs holding a wild of which the hand holds a natural copy.
    fn swap_candidates(&self, seat: u8) -> impl Iterator<Item = Tile> + '_ {
        let s = &self.seats[seat as usize];
        s.meld_list()
            .filter(move |m| m.is_kong() && m.wilds > 0 && s.hand.count(m.tile) > 0)
            .map(|m| m.tile)
    }

    /// `last_four` forces a self-drawn win on a tile drawn from the wall's last four.
    fn self_draw_forced(&self, t: &Turn) -> bool {
        t.last_four
            && matches!(
                self.rules.last_four,
                LastFour::Forced | LastFour::SelfDrawForced
            )
    }

    /// Tiles the seat could kong by shape: four in hand, or a pong plus one in hand, wilds
    /// standing for missing copies (at least one natural copy in hand for a concealed kong, and
    /// no meld of the tile yet); never of the void suit.
    fn kong_candidates(&self, seat: u8) -> impl Iterator<Item = Tile> {
        let s = &self.seats[seat as usize];
        let counts = s.hand.array();
        let wilds = s.hand.wilds();
        let mut bits = 0u32;
        let mut pongs = s.pongs;
        while pongs != 0 {
            let i = pongs.trailing_zeros() as usize;
            pongs &= pongs - 1;
            if counts[i] > 0 || wilds > 0 {
                bits |= 1 << i;
            }
        }
        let need = COPIES.saturating_sub(wilds).max(1);
        let melded = s.meld_summary.pong_mask | s.meld_summary.kong_mask;
        bits |= s.hand.at_least(need) & !melded;
        if let Some(v) = s.void {
            bits &= !tile_bits(v.bit());
        }
        std::iter::from_fn(move || {
            let i = bits.trailing_zeros() as usize;
            bits &= bits.wrapping_sub(1);
            (i < 32).then(|| tile_at(i))
        })
    }

    /// Whether the kong is late: added onto a pong made with three in hand, or whose fourth
    /// copy arrived on an earlier turn; concealed, whose fourth arrived on an earlier turn. With
    /// wilds, each kind the kong takes from the hand (its tile, a wild) arrived earlier (§11).
    fn kong_is_late(&self, seat: u8, tile: Tile) -> bool {
        let s = &self.seats[seat as usize];
        let earlier = |t: Tile| s.arrival[t.index()] < s.turn;
        let n = s.hand.count(tile);
        if s.has_pong(tile) {
            let added = if n > 0 { tile } else { Tile::YAOJI };
            earlier(added) || s.pong_with_three & 1 << tile.index() != 0
        } else {
            earlier(tile) && (n >= COPIES || earlier(Tile::YAOJI))
        }
    }

    /// `late_kong` and the 血流 lock.
    fn kong_allowed(&self, t: &Turn, tile: Tile) -> bool {
        let s = &self.seats[t.seat as usize];
        let late = self.kong_is_late(t.seat, tile);
        let allowed = match self.rules.late_kong {
            LateKong::Full | LateKong::RootOnly | LateKong::AddKongUnpaid => true,
            LateKong::Forbidden => !late,
            // T/TFMJ: an added kong only with the tile just drawn; a concealed kong any time.
            LateKong::AddKongDrawnOnly => !late || !s.has_pong(tile),
            // Seeds 001/003: only a kept fourth added onto an earlier pong is forbidden; a late
            // concealed kong and a pong made with three in hand may kong later.
            LateKong::KeptFourthForbidden => {
                !late || !s.has_pong(tile) || s.pong_with_three & 1 << tile.index() != 0
            }
        };
        allowed && (!self.locked(t.seat) || self.kong_keeps_waits(t, tile))
    }

    /// A 血流 winner may kong only if its waits stay the same (RULES.md §7 *(c)*).
    fn kong_keeps_waits(&self, t: &Turn, tile: Tile) -> bool {
        let Some(drawn) = t.drawn else {
            return false;
        };
        let rules = self.rules.clone();
        let s = self.seats[t.seat as usize];
        let mut before = s;
        before.hand.remove(drawn);
        let mut after = s;
        after.apply_kong(tile);
        waits(&before.hand, &before.context(&rules)) == waits(&after.hand, &after.context(&rules))
    }

    pub(super) fn apply_turn(&mut self, t: Turn, action: Action) {
        match action {
            Action::Win => self.self_draw_win(t),
            Action::Kong(tile) => self.declare_kong(t, tile),
            Action::Swap(tile) => self.swap(t, tile),
            Action::Discard(tile) => self.discard(t, tile),
            _ => {}
        }
    }

    /// 幺鸡换: the natural tile goes into the kong, one of its wilds to the hand, arriving now.
    /// The turn goes on; if the hand no longer holds the drawn tile, the drawn tile is the wild.
    fn swap(&mut self, mut t: Turn, tile: Tile) {
        let s = &mut self.seats[t.seat as usize];
        let Some((_, kong)) = s.meld_of(tile) else {
            return;
        };
        s.hand.remove(tile);
        let turn = s.turn;
        s.receive(Tile::YAOJI, turn, true);
        s.replace_meld(kong.with_wilds(kong.wilds - 1));
        if t.drawn == Some(tile) && s.hand.count(tile) == 0 {
            t.drawn = Some(Tile::YAOJI);
        }
        self.refresh_turn_waits(&t);
        self.push(Event::Swap { seat: t.seat, tile });
        self.pending = Pending::Turn(t);
    }

    /// Keeps the cached waits of the seat on the move those of its hand without the drawn tile
    /// (what an ordinary draw's win check reads).
    fn refresh_turn_waits(&mut self, t: &Turn) {
        let rules = self.rules.clone();
        let s = &mut self.seats[t.seat as usize];
        let mut waiting = *s;
        if let Some(d) = t.drawn.filter(|&d| holds(&s.hand, d)) {
            take(&mut waiting.hand, d);
        }
        waiting.refresh_waits(&rules);
        s.waits = waiting.waits;
    }

    fn discard(&mut self, t: Turn, tile: Tile) {
        let seat = t.seat;
        if self.rules.pass_win_lock_self_draw && self.turn_can_win(&t) {
            self.lock_declined_self_draw(&t);
        }
        let rules = self.rules.clone();
        // Discarding the natural tile just drawn restores the hand whose waits are cached (the
        // ones an ordinary draw's win check reads); any other discard changes them.
        let drawn_back = t.kind == TurnKind::Draw && t.drawn == Some(tile) && !self.is_wild(tile);
        let s = &mut self.seats[seat as usize];
        take(&mut s.hand, tile);
        if !drawn_back {
            s.refresh_waits(&rules);
        }
        if t.kind == TurnKind::AfterPong
            && rules.pass_win_lock_after_pong == PassWinLockAfterPong::KeptIfReady
            && ready_value(&rules, s).is_none()
        {
            s.declined = None;
        }
        self.river.push(seat, tile);
        self.history.note_discard(seat, tile);
        self.push(Event::Discard { seat, tile });
        let after_kong = (t.kind == TurnKind::Replacement)
            .then_some(t.kong)
            .flatten();
        let last_four = self.wall.remaining() <= 4;
        let mut r = Responses {
            from: seat,
            tile,
            kong: None,
            claims: [0; 4],
            forced: 0,
            decisions: [None; 4],
            after_kong,
        };
        for other in (0..4).filter(|&o| o != seat) {
            r.claims[other as usize] = self.discard_claims(other, tile, after_kong.is_some());
        }
        self.open_responses(r, last_four);
    }

    /// 过胡 after a passed self-draw (`pass_win_lock_self_draw`): the lock holds the fan the tile
    /// would be worth on a discard, the self-draw's own bonuses left out (T/TFMJ ES §5 compares
    /// 「自摸 +1 之前」 too).
    fn lock_declined_self_draw(&mut self, t: &Turn) {
        let (tile, _) = self.self_draw(t);
        let mut before = self.seats[t.seat as usize];
        take(&mut before.hand, tile);
        let score = score_win(&self.rules, &before, tile, Situation::DISCARD);
        self.lock_declined(t.seat, &score);
    }

    /// 暗杠 or 补杠 on the seat's turn; it stands unless someone may rob it.
    fn declare_kong(&mut self, t: Turn, tile: Tile) {
        let seat = t.seat;
        let late = self.kong_is_late(seat, tile);
        let s = &mut self.seats[seat as usize];
        let kind = if s.has_pong(tile) {
            KongKind::Added
        } else {
            KongKind::Concealed
        };
        let (wilds, added_wild) = s.apply_kong(tile);
        s.refresh_waits(&self.rules);
        self.claimed = true;
        self.push(Event::Kong {
            seat,
            tile,
            kind,
            from: None,
            late,
            wilds: self.rules.wilds.then_some(wilds),
        });
        // An added wild is no natural tile to rob (§11 *(c)*).
        let robbable = match kind {
            KongKind::Added => !added_wild,
            _ => self.rules.rob_concealed_kong,
        };
        // Declared on a kong's replacement: the next link of a kong chain, or an add kong whose
        // robbing is 杠上炮 too (`kong_shot_on_rob`).
        let chain = self.rules.kong_income_transfer == KongIncomeTransfer::KongChain;
        let shot = self.rules.kong_shot_on_rob && kind == KongKind::Added;
        let after_kong = ((chain || shot) && t.kind == TurnKind::Replacement)
            .then_some(t.kong)
            .flatten();
        let mut r = Responses {
            from: seat,
            tile,
            kong: Some((kind, late)),
            claims: [0; 4],
            forced: 0,
            decisions: [None; 4],
            after_kong,
        };
        if robbable {
            for other in (0..4).filter(|&o| o != seat) {
                r.claims[other as usize] = self.rob_claims(other, &r);
            }
        }
        let last_four = self.wall.remaining() <= 4;
        self.open_responses(r, last_four);
    }

    /// The kong stands: record it, pay it, draw the replacement. `chained`: declared on the
    /// replacement of the seat's kong before it.
    pub(super) fn kong_stands(
        &mut self,
        seat: u8,
        tile: Tile,
        kind: KongKind,
        late: bool,
        feeder: Option<u8>,
        chained: bool,
    ) {
        // Seed 002 計分規則 12's two cases are both added onto a pong: a late 暗杠 is paid in full.
        let late_added = late && kind == KongKind::Added;
        let root_only = late_added && self.rules.late_kong == LateKong::RootOnly;
        if root_only {
            self.seats[seat as usize].root_only_kongs |= 1 << tile.index();
        }
        let unpaid = root_only || (late_added && self.rules.late_kong == LateKong::AddKongUnpaid);
        let index = self.pay_kong(seat, tile, kind, feeder, unpaid, chained);
        self.draw(seat, Some(index));
    }

    /// The next draw: an ordinary one (`kong = None`) or a kong's replacement. An ordinary draw
    /// from an empty wall ends the hand (流局).
    pub(super) fn draw(&mut self, seat: u8, kong: Option<u16>) {
        if self.wall.is_empty() {
            self.end_wall_empty();
            return;
        }
        let last_four = self.wall.remaining() <= 4;
        let from_back = kong.is_some() && self.rules.kong_draw_from == KongDrawFrom::Back;
        let drawn = if from_back {
            self.wall.draw_back()
        } else {
            self.wall.draw_front()
        };
        let Some(tile) = drawn else {
            return;
        };
        let direct = kong.is_some_and(|k| self.kongs[k as usize].kind == KongKind::Direct);
        let wilds = self.rules.wilds;
        let s = &mut self.seats[seat as usize];
        s.declined = None;
        // A replacement after a kong on one's own turn continues that turn (§5 *(c)*).
        if kong.is_none() || direct {
            s.turn = s.turn.saturating_add(1);
        }
        if kong.is_none() {
            s.draws = s.draws.saturating_add(1);
        }
        let turn = s.turn;
        s.receive(tile, turn, wilds);
        self.history.note_draw(seat);
        self.push(Event::Draw {
            seat,
            tile,
            replacement: kong.is_some(),
        });
        let kind = if kong.is_some() {
            TurnKind::Replacement
        } else {
            TurnKind::Draw
        };
        self.pending = Pending::Turn(Turn {
            seat,
            kind,
            drawn: Some(tile),
            kong,
            last_four,
        });
    }

    /// The first seat still in the hand after `seat` draws.
    pub(super) fn next_draw_after(&mut self, seat: u8) {
        let next = (1..=4)
            .map(|i| after(seat, i))
            .find(|&s| self.in_hand(s))
            .unwrap_or(seat);
        self.draw(next, None);
    }

    /// The tile a self-drawn win on turn `t` names and the situation it scores in.
    pub(super) fn self_draw(&self, t: &Turn) -> (Tile, Situation) {
        let seat = t.seat;
        let s = &self.seats[seat as usize];
        // Four wilds name a wild; 天胡 has no drawn tile, and its highest natural tile stands
        // for the winning one *(c)*.
        let tile = if s.hand.wilds() >= MAX_WILDS {
            Tile::YAOJI
        } else {
            t.drawn
                .or_else(|| s.hand.tiles().last())
                .unwrap_or(Tile::new(0).expect("1m"))
        };
        let flags = Situation {
            self_draw: true,
            kong_flower: t.kind == TurnKind::Replacement,
            heavenly: t.kind == TurnKind::First,
            earthly: t.kind == TurnKind::Draw
                && seat != self.dealer
                && s.draws == 1
                && !self.claimed,
            last_tile: self.wall.is_empty(),
            ..Situation::DISCARD
        };
        (tile, flags)
    }

    fn self_draw_win(&mut self, t: Turn) {
        let seat = t.seat;
        let (tile, flags) = self.self_draw(&t);
        let feeder = t
            .kong
            .filter(|_| t.kind == TurnKind::Replacement)
            .and_then(|k| self.kongs[k as usize].feeder);
        let rules = self.rules.clone();
        let s = &mut self.seats[seat as usize];
        take(&mut s.hand, tile);
        s.refresh_waits(&rules);
        self.record_win(seat, tile, None, WinKind::SelfDraw, flags, feeder);
        if t.kind == TurnKind::Dealt {
            self.dealer_first_turn();
        } else if !self.maybe_three_won() {
            self.next_draw_after(seat);
        }
    }

    /// The turn's default (docs/game-protocol.md §2): a forced win, else a void-suit tile (the
    /// one just drawn if it is one, else the lowest), else the tile just drawn, else the highest;
    /// never a wild, unless the hand holds nothing else and does not win (§11).
    pub(super) fn default_turn_action(&self, t: &Turn) -> Action {
        let mut legal = super::ActionList::new();
        self.legal_actions(t.seat, &mut legal);
        let forced = self.self_draw_forced(t) || legal.as_slice() == [Action::Win];
        if forced && legal.contains(Action::Win) {
            return Action::Win;
        }
        let s = &self.seats[t.seat as usize];
        if let Some(v) = s.void.filter(|_| s.holds_void()) {
            // A drawn wild is the 1s it is, but in no suit: never a void-suit discard.
            if let Some(d) = t.drawn.filter(|&d| d.suit() == v && !self.is_wild(d)) {
                return Action::Discard(d);
            }
            if let Some(low) = s.hand.tiles().find(|t| t.suit() == v) {
                return Action::Discard(low);
            }
        }
        if let Some(d) = t.drawn.filter(|&d| !self.is_wild(d)) {
            return Action::Discard(d);
        }
        match s.hand.tiles().last() {
            Some(high) => Action::Discard(high),
            None if legal.contains(Action::Win) => Action::Win,
            None => Action::Discard(Tile::YAOJI),
        }
    }
}

/// The tile of index `i` (below 27).
#[inline]
fn tile_at(i: usize) -> Tile {
    Tile::new(i as u8).unwrap_or(Tile::new(0).expect("1m"))
}

impl super::Seat {
    /// Moves a kong's tiles from the hand to the melds: the fourth onto a pong, or four;
    /// natural copies first, wilds for what is missing (§11). Returns the wilds the kong holds
    /// and whether the tile added to a pong was a wild.
    pub(super) fn apply_kong(&mut self, tile: Tile) -> (u8, bool) {
        if let Some((_, pong)) = self.meld_of(tile).filter(|(_, m)| !m.is_kong()) {
            let added_wild = self.hand.count(tile) == 0;
            take_naturals_first(&mut self.hand, tile, 1);
            let wilds = pong.wilds + u8::from(added_wild);
            self.replace_meld(Meld::kong(tile, false).with_wilds(wilds));
            (wilds, added_wild)
        } else {
            let wilds = take_naturals_first(&mut self.hand, tile, COPIES);
            self.push_meld(Meld::kong(tile, true).with_wilds(wilds));
            (wilds, false)
        }
    }
}

/// Takes `n` copies of `tile` from the hand, natural ones first and wilds for the rest; returns
/// the wilds taken.
pub(super) fn take_naturals_first(hand: &mut crate::hand::Counts, tile: Tile, n: u8) -> u8 {
    let naturals = hand.count(tile).min(n);
    (0..naturals).for_each(|_| hand.remove(tile));
    let wilds = n - naturals;
    (0..wilds).for_each(|_| hand.remove_wild());
    wilds
}
