//! Who pays whom (docs/game-protocol.md §8): wins, kongs (刮风下雨), 点杠花, 呼叫转移 and the
//! end of the hand by 流局 (查花猪, 查叫, 补差价, 退税). Every payment is an event; points always
//! sum to zero.

use super::events::{EndReason, Event, KongKind, Reason, WinKind};
use super::value::{fan_points, payment, ready_value, score_win};
use super::{Game, KongRecord, Pending, WinRecord};
use crate::rules::{
    FlowerPigPayees, FlowerPigPenalty, FlowerPigRule, KongFlowerAfterDirectKong,
    KongIncomeTransfer, Mode, SelfDrawPayers, WinReveal,
};
use crate::score::Situation;
use crate::tile::Tile;
use std::ops::RangeInclusive;

impl Game {
    /// Moves points; nothing for a zero amount or a seat paying itself.
    pub(super) fn pay(&mut self, payer: u8, payee: u8, amount: i64, reason: Reason) {
        if amount <= 0 || payer == payee || payer > 3 || payee > 3 {
            return;
        }
        self.scores[payer as usize] -= amount;
        self.scores[payee as usize] += amount;
        self.paid[payer as usize] |= 1 << reason as u16;
        self.push(Event::Payment {
            payer,
            payee,
            amount,
            reason,
        });
    }

    /// Scores and logs a win, then settles it. The winner's hand no longer holds `tile`.
    pub(super) fn record_win(
        &mut self,
        seat: u8,
        tile: Tile,
        from: Option<u8>,
        kind: WinKind,
        flags: Situation,
        feeder: Option<u8>,
    ) {
        let s = &self.seats[seat as usize];
        let score = score_win(&self.rules, s, tile, flags);
        let index = self.wins.len();
        self.wins.push(WinRecord {
            seat,
            tile,
            from,
            kind,
            hand: s.hand,
            melds: s.melds,
            root_only_kongs: s.root_only_kongs,
            flags,
            feeder,
            score,
            shared: false,
            owed: [0; 4],
        });
        let s = &mut self.seats[seat as usize];
        s.wins = s.wins.saturating_add(1);
        self.push(Event::Win {
            seat: Some(seat),
            index: index as u16,
        });
        self.settle_win(index);
    }

    /// What `payer` pays for win `w`: its points, or with 杠进杠出 the payer's own kong fan added
    /// before the fan curve.
    fn win_points(&self, w: &WinRecord, payer: u8) -> i64 {
        payment(&w.score, &self.seats[payer as usize])
    }

    /// Pays win `index`, or under `win_reveal = "hand_end"` keeps what each seat owes it for
    /// the hand's end: the amounts as they stand now (who has won, the payers' kongs).
    fn settle_win(&mut self, index: usize) {
        let owed = self.win_payments(&self.wins[index]);
        if self.rules.win_reveal == WinReveal::HandEnd {
            self.wins[index].owed = owed;
        } else {
            self.collect_win(index, owed);
        }
    }

    /// The payments of win `index`, in seat order.
    fn collect_win(&mut self, index: usize, owed: [i64; 4]) {
        let w = &self.wins[index];
        let (seat, reason) = (w.seat, self.win_reason(w));
        for (payer, amount) in (0..4u8).zip(owed) {
            self.pay(payer, seat, amount, reason);
        }
    }

    /// What each seat owes win `w`: its discarder (or robbed kong's owner), its self-draw
    /// payers, or 点杠花's feeder by `kong_flower_after_direct_kong`.
    fn win_payments(&self, w: &WinRecord) -> [i64; 4] {
        let mut owed = [0i64; 4];
        if let (WinKind::Discard | WinKind::RobbedKong, Some(from)) = (w.kind, w.from) {
            owed[from as usize] = self.win_points(w, from);
            return owed;
        }
        let payers = (0..4u8).filter(|&p| p != w.seat && self.pays_self_draw(p));
        match (w.feeder, self.rules.kong_flower_after_direct_kong) {
            (Some(f), KongFlowerAfterDirectKong::FeederPaysAll) => {
                owed[f as usize] = payers.map(|p| self.win_points(w, p)).sum();
            }
            (Some(f), KongFlowerAfterDirectKong::AsDiscardWin) => {
                owed[f as usize] = self.win_points(w, f);
            }
            _ => payers.for_each(|p| owed[p as usize] = self.win_points(w, p)),
        }
        owed
    }

    /// What win `index` is owed, worked out again as when it was made, for a determinised copy
    /// that gave its winner another hand: who had won by then is read from the wins before it
    /// (the payers' kongs are those held now, an approximation only 杠进杠出 sees).
    pub(super) fn owed_again(&mut self, index: usize) -> [i64; 4] {
        let now = self.seats.map(|s| s.wins);
        for (s, seat) in self.seats.iter_mut().enumerate() {
            let before = self.wins[..index].iter().filter(|w| w.seat as usize == s);
            seat.wins = before.count() as u8;
        }
        let owed = self.win_payments(&self.wins[index]);
        for (seat, wins) in self.seats.iter_mut().zip(now) {
            seat.wins = wins;
        }
        owed
    }

    /// Why win `w`'s points move: a discard, a self-draw, or 点杠花's feeder paying.
    pub(super) fn win_reason(&self, w: &WinRecord) -> Reason {
        match (w.kind, w.feeder, self.rules.kong_flower_after_direct_kong) {
            (WinKind::Discard | WinKind::RobbedKong, ..) if w.from.is_some() => Reason::Win,
            (
                _,
                Some(_),
                KongFlowerAfterDirectKong::FeederPaysAll | KongFlowerAfterDirectKong::AsDiscardWin,
            ) => Reason::KongFlowerFeeder,
            _ => Reason::SelfDraw,
        }
    }

    /// `win_reveal = "hand_end"`: as the hand ends, a `reveal` event shows every win of it in
    /// full, then each win collects what it is owed, in the order the wins were made.
    pub(super) fn reveal_wins(&mut self) {
        if self.rules.win_reveal != WinReveal::HandEnd || self.wins.is_empty() {
            return;
        }
        self.push(Event::Reveal);
        for index in 0..self.wins.len() {
            let owed = std::mem::take(&mut self.wins[index].owed);
            self.collect_win(index, owed);
        }
    }

    /// `self_draw_payers`: those who have not won, or every other seat still in the hand.
    fn pays_self_draw(&self, seat: u8) -> bool {
        match self.rules.self_draw_payers {
            SelfDrawPayers::NotWon => self.seats[seat as usize].wins == 0,
            SelfDrawPayers::AllOthers => self.in_hand(seat),
        }
    }

    /// Pays a kong that stood (nothing if `unpaid`: root-only, or a late added kong under
    /// `add_kong_unpaid`) and records it; returns its index.
    pub(super) fn pay_kong(
        &mut self,
        owner: u8,
        tile: Tile,
        kind: KongKind,
        feeder: Option<u8>,
        unpaid: bool,
        chained: bool,
    ) -> u16 {
        let mut paid = [0i64; 4];
        if self.rules.kong_payments && !unpaid {
            let base = i64::from(self.rules.base_points);
            if let (KongKind::Direct, Some(f)) = (kind, feeder) {
                paid[f as usize] = 2 * base;
            } else {
                let each = if kind == KongKind::Added {
                    base
                } else {
                    2 * base
                };
                for p in (0..4u8).filter(|&p| p != owner && self.seats[p as usize].wins == 0) {
                    paid[p as usize] = each;
                }
            }
        }
        for payer in 0..4u8 {
            self.pay(payer, owner, paid[payer as usize], Reason::Kong);
        }
        self.kongs.push(KongRecord {
            owner,
            tile,
            kind,
            feeder,
            paid,
            transferred: false,
            chained,
        });
        (self.kongs.len() - 1) as u16
    }

    /// 呼叫转移: what each of `winners` receives of the income the discarder's kong(s) earned
    /// and has not passed on.
    pub(super) fn transfer_income(&self, from: u8, kong: u16, winners: usize) -> i64 {
        let earned = |k: &KongRecord| {
            if k.transferred {
                0
            } else {
                k.paid.iter().sum::<i64>()
            }
        };
        match self.rules.kong_income_transfer {
            KongIncomeTransfer::AllKongs => self
                .kongs
                .iter()
                .filter(|k| k.owner == from)
                .map(earned)
                .sum(),
            // ES §9: 「每家取得 ceil(连续杠收入 / 荣家数)，不能整除的差额由放铳者补足」.
            KongIncomeTransfer::KongChain => {
                let chain: i64 = self
                    .kong_chain(kong)
                    .filter_map(|k| self.kongs.get(k))
                    .map(earned)
                    .sum();
                let n = winners.max(1) as i64;
                (chain + n - 1) / n
            }
            _ => self.kongs.get(kong as usize).map_or(0, earned),
        }
    }

    /// The kong chain ending at `kong`, as indices: it and the kongs before it, each declared on
    /// the replacement of the one before.
    fn kong_chain(&self, kong: u16) -> RangeInclusive<usize> {
        let last = kong as usize;
        let mut first = last;
        while first > 0 && self.kongs.get(first).is_some_and(|k| k.chained) {
            first -= 1;
        }
        first..=last
    }

    /// Pays one winner of a 杠上炮 its transfer; a refund to the kong's payers happens once.
    pub(super) fn transfer_kong_income(
        &mut self,
        from: u8,
        winner: u8,
        kong: u16,
        income: i64,
        first: bool,
    ) {
        match self.rules.kong_income_transfer {
            KongIncomeTransfer::None => {}
            KongIncomeTransfer::LastKong
            | KongIncomeTransfer::AllKongs
            | KongIncomeTransfer::KongChain => {
                self.pay(from, winner, income, Reason::KongTransfer);
            }
            KongIncomeTransfer::RefundToPayers => {
                let Some(k) = self.kongs.get(kong as usize).copied() else {
                    return;
                };
                if first && !k.transferred {
                    for p in 0..4u8 {
                        self.pay(from, p, k.paid[p as usize], Reason::KongTransfer);
                    }
                }
            }
        }
    }

    /// Income passed on is not repaid by 退税 *(c)*.
    pub(super) fn mark_transferred(&mut self, from: u8, kong: u16) {
        match self.rules.kong_income_transfer {
            KongIncomeTransfer::None => {}
            KongIncomeTransfer::AllKongs => self
                .kongs
                .iter_mut()
                .filter(|k| k.owner == from)
                .for_each(|k| k.transferred = true),
            KongIncomeTransfer::KongChain => {
                for k in self.kong_chain(kong) {
                    if let Some(record) = self.kongs.get_mut(k) {
                        record.transferred = true;
                    }
                }
            }
            _ => {
                if let Some(k) = self.kongs.get_mut(kong as usize) {
                    k.transferred = true;
                }
            }
        }
    }

    /// 血战 ends at once when the third player wins.
    pub(super) fn maybe_three_won(&mut self) -> bool {
        let winners = self.seats.iter().filter(|s| s.wins > 0).count();
        if self.rules.mode == Mode::Xuezhan && winners >= 3 {
            self.reveal_wins();
            self.finish(EndReason::ThreeWon);
            return true;
        }
        false
    }

    fn finish(&mut self, reason: EndReason) {
        self.end = Some(reason);
        self.push(Event::End {
            reason: reason.kind(),
            scores: self.scores,
        });
        self.pending = Pending::Over;
    }

    /// 流局: the wall is empty. Settle in RULES.md §9's order, then end.
    pub(super) fn end_wall_empty(&mut self) {
        self.reveal_wins();
        let view = DrawView::of(self);
        self.settle_pigs(&view);
        self.settle_not_ready(&view);
        if self.rules.ready_difference {
            self.settle_ready_difference(&view);
        }
        if self.rules.tax_refund {
            self.settle_tax_refund(&view);
        }
        self.finish(EndReason::WallEmpty);
    }

    /// 查花猪: each pig pays each payee `flower_pig_payees` names; pigs never pay each other.
    /// Under `"as_not_ready"` a pig pays nothing here, only 查叫.
    fn settle_pigs(&mut self, v: &DrawView) {
        let fixed = match self.rules.flower_pig_penalty {
            FlowerPigPenalty::FixedFan => fan_points(&self.rules, self.rules.flower_pig_fan, false),
            // Rules::validate demands a cap_fan with this penalty.
            FlowerPigPenalty::Cap => fan_points(&self.rules, self.rules.cap_fan.unwrap_or(0), true),
            FlowerPigPenalty::DoubleReadyValue => 0,
            FlowerPigPenalty::AsNotReady => return,
        };
        for pig in (0..4).filter(|&p| v.pig[p]) {
            for q in (0..4).filter(|&q| !v.pig[q]) {
                let payee = match self.rules.flower_pig_payees {
                    FlowerPigPayees::Ready => v.ready[q] && v.takes_part[q],
                    FlowerPigPayees::ReadyOrWon => v.ready[q] || v.won[q],
                    FlowerPigPayees::NonPigs => true,
                };
                if !payee {
                    continue;
                }
                let amount = match self.rules.flower_pig_penalty {
                    FlowerPigPenalty::DoubleReadyValue => 2 * v.value[q],
                    _ => fixed,
                };
                self.pay(pig as u8, q as u8, amount, Reason::FlowerPig);
            }
        }
    }

    /// 查叫: each player not ready and not a pig (a pig too under `"as_not_ready"`) pays each
    /// ready player its best wait.
    fn settle_not_ready(&mut self, v: &DrawView) {
        let pigs_pay = self.rules.flower_pig_penalty == FlowerPigPenalty::AsNotReady;
        for p in (0..4).filter(|&p| v.takes_part[p] && !v.ready[p] && (pigs_pay || !v.pig[p])) {
            for q in (0..4).filter(|&q| v.takes_part[q] && v.ready[q]) {
                self.pay(p as u8, q as u8, v.value[q], Reason::NotReady);
            }
        }
    }

    /// 补差价: each ready player pays each ready player with a larger best wait the difference.
    fn settle_ready_difference(&mut self, v: &DrawView) {
        let ready = |i: usize| v.takes_part[i] && v.ready[i];
        for p in (0..4).filter(|&p| ready(p)) {
            for q in (0..4).filter(|&q| ready(q)) {
                self.pay(
                    p as u8,
                    q as u8,
                    v.value[q] - v.value[p],
                    Reason::ReadyDifference,
                );
            }
        }
    }

    /// 退税: each player not ready repays the kong payments it received, per payer, a payer that
    /// has since won included (RULES.md §9.4: 「退回所有」); income passed on by 呼叫转移 stays
    /// passed on.
    fn settle_tax_refund(&mut self, v: &DrawView) {
        for p in (0..4).filter(|&p| v.takes_part[p] && !v.ready[p]) {
            let mut owed = [0i64; 4];
            for k in self
                .kongs
                .iter()
                .filter(|k| k.owner as usize == p && !k.transferred)
            {
                for (owed, paid) in owed.iter_mut().zip(k.paid) {
                    *owed += paid;
                }
            }
            for (x, &amount) in owed.iter().enumerate() {
                self.pay(p as u8, x as u8, amount, Reason::TaxRefund);
            }
        }
    }
}

/// Each seat's standing when the wall runs out.
struct DrawView {
    won: [bool; 4],
    /// Settles 查叫, 补差价 and 退税: everyone in 血流, those who have not won in 血战.
    takes_part: [bool; 4],
    /// 花猪: never won and still holding three suits (or, under `flower_pig_rule = "void_held"`,
    /// a tile of the void suit).
    pig: [bool; 4],
    /// Ready (听牌); a 血流 winner always is, through its locked hand.
    ready: [bool; 4],
    /// The best wait in points (查叫 value); 0 when not ready.
    value: [i64; 4],
}

impl DrawView {
    fn of(game: &Game) -> DrawView {
        let xueliu = game.rules.mode == Mode::Xueliu;
        // The platform variant's pig: any tile of the declared void suit (§9.1).
        let void_held = game.rules.flower_pig_rule == FlowerPigRule::VoidHeld;
        let mut v = DrawView {
            won: [false; 4],
            takes_part: [true; 4],
            pig: [false; 4],
            ready: [false; 4],
            value: [0; 4],
        };
        for (i, s) in game.seats.iter().enumerate() {
            let won = s.wins > 0;
            let best = ready_value(&game.rules, s);
            let suits = s.hand.suit_mask() | s.meld_summary.suit_mask;
            v.won[i] = won;
            v.takes_part[i] = xueliu || !won;
            v.pig[i] = !won && (suits.count_ones() == 3 || (void_held && s.holds_void()));
            v.ready[i] = (xueliu && won) || best.is_some();
            v.value[i] = best.unwrap_or(0);
        }
        v
    }
}
