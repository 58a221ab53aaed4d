//! What a win on offer pays: the engine settles it on a copy of the game, so that who pays a
//! win (the discarder, every seat still in, 杠上花's feeder, 呼叫转移's transfer, the hand's
//! end) keeps its one home in settle.rs. The score alone is [`Game::offered_win`], without a copy.

use super::events::{Event, Reason};
use super::log::Log;
use super::{Action, Game};

impl Game {
    /// The payments `seat` receives if it declares the win on offer now and every other seat
    /// asked passes (or takes its default): `(payer, amount, reason)` in the order the log
    /// records them, those following its win event; under `win_reveal = "hand_end"` first what
    /// its win is owed, which the log records at the hand's end. `None` when `win` is not among
    /// its legal actions. A terminal shows their sum beside the win; this game is not changed.
    pub fn offered_payments(&self, seat: u8) -> Option<Vec<(u8, i64, Reason)>> {
        if !self.is_legal(seat, Action::Win) {
            return None;
        }
        let mut trial = Game {
            log: Some(Log::default()),
            ..self.clone()
        };
        trial.act(seat, Action::Win).ok()?;
        let won = |e: &Event| matches!(*e, Event::Win { seat: Some(s), .. } if s == seat);
        while !trial.events().any(won) {
            let other = (0..4u8).find(|&s| trial.must_act(s))?;
            let pass = trial.is_legal(other, Action::Pass);
            let action = if pass {
                Some(Action::Pass)
            } else {
                trial.default_action(other)
            };
            trial.act(other, action?).ok()?;
        }
        // Under `win_reveal = "hand_end"` the win's own payments wait, owed, for the reveal.
        let index = trial.wins.iter().rposition(|w| w.seat == seat)?;
        let reason = trial.win_reason(&trial.wins[index]);
        let owed = (0..4u8).zip(trial.wins[index].owed);
        let owed = owed
            .filter(|&(_, amount)| amount > 0)
            .map(|(p, a)| (p, a, reason));
        // A third win in 血战 ends the hand at once: its payments follow the reveal.
        let after = trial.events().skip_while(|e| !won(e)).skip(1);
        let after = after.filter(|e| !matches!(e, Event::Reveal));
        let paid = after.map_while(|e| match *e {
            Event::Payment {
                payer,
                payee,
                amount,
                reason,
            } => Some((payee == seat).then_some((payer, amount, reason))),
            _ => None,
        });
        Some(owed.chain(paid.flatten()).collect())
    }
}
