//! 逃跑 (RULES.md §2, seed 002 計分規則 10–11): a seat that has not won leaves mid-hand. What
//! was settled stands; the leaver pays each seat that has not won `escape_penalty` points, or
//! within the wall's last four tiles that seat's 查大叫 amount when higher; the hand then ends.

use super::events::{EndKind, EndReason, Event, Reason};
use super::value::ready_value;
use super::{Game, Pending};
use crate::error::Error;
use crate::rules::Rules;

impl Game {
    /// `seat` leaves the hand (逃跑) and pays its penalty; the hand ends. An error, changing
    /// nothing, for a seat that does not exist or has won, or a hand already over.
    pub fn abandon(&mut self, seat: u8) -> Result<(), Error> {
        if seat > 3 {
            return Err(Error::Argument(format!(
                "seat {seat} does not exist; seats are 0-3"
            )));
        }
        if self.is_over() {
            return Err(Error::IllegalAction(
                "the hand is over; nobody can leave it any more".into(),
            ));
        }
        if self.seats[seat as usize].wins > 0 {
            return Err(Error::IllegalAction(format!(
                "seat {seat} has won this hand; only a seat that has not won can leave (逃跑)"
            )));
        }
        self.push(Event::Abandon { seat });
        let late = self.wall.remaining() <= 4;
        for other in (0..4u8).filter(|&o| o != seat) {
            if self.seats[other as usize].wins > 0 {
                continue;
            }
            let amount = self.escape_amount(other, late);
            self.pay(seat, other, amount, Reason::Escape);
        }
        self.reveal_wins();
        self.end = Some(EndReason::Abandoned(seat));
        self.push(Event::End {
            reason: EndKind::Abandoned,
            scores: self.scores,
        });
        self.pending = Pending::Over;
        Ok(())
    }

    /// What the leaver pays `other`: the penalty, or in the last four tiles the higher of it
    /// and `other`'s 查大叫 amount (按高分的一种扣).
    fn escape_amount(&self, other: u8, late: bool) -> i64 {
        let penalty = i64::from(self.rules.escape_penalty);
        if !late {
            return penalty;
        }
        penalty.max(claim_value(&self.rules, self, other))
    }
}

/// `seat`'s 查叫 value: its best wait, 0 when not ready. A seat on the move (14 tiles counting
/// melds as three) is valued at its best discard *(c)*.
fn claim_value(rules: &Rules, game: &Game, seat: u8) -> i64 {
    let s = game.seats[seat as usize];
    let size = s.hand.len() + 3 * s.meld_summary.sets as usize;
    if size <= 13 {
        return ready_value(rules, &s).unwrap_or(0);
    }
    s.hand
        .tiles_with_wilds()
        .map(|t| {
            let mut after = s;
            super::state::take(&mut after.hand, t);
            ready_value(rules, &after).unwrap_or(0)
        })
        .max()
        .unwrap_or(0)
}
