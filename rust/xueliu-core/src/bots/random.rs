//! The baseline bot: a uniformly random legal action.

use super::Bot;
use crate::game::{Action, ActionList, Decision, SeatView};
use crate::rng::Rng;

/// Picks uniformly among the legal actions, from its own SplitMix64 stream.
#[derive(Clone)]
pub struct RandomBot {
    rng: Rng,
    buf: ActionList,
}

impl RandomBot {
    pub fn new(seed: u64) -> RandomBot {
        RandomBot {
            rng: Rng::new(seed),
            buf: ActionList::new(),
        }
    }

    /// Plays on as [`RandomBot::new`]`(seed)` would: the buffer holds nothing between choices.
    pub fn reseed(&mut self, seed: u64) {
        self.rng = Rng::new(seed);
    }
}

impl Bot for RandomBot {
    fn decide(&mut self, view: &SeatView<'_>) -> Decision {
        view.legal_actions(&mut self.buf);
        if self.buf.is_empty() {
            return Decision::checked(Action::Pass);
        }
        let action = self.buf[self.rng.below(self.buf.len() as u64) as usize];
        Decision::listed(action)
    }
}
