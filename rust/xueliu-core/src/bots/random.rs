//! The baseline bot: a uniformly random legal action.

use super::Bot;
use crate::error::Error;
use crate::game::{Action, ActionList, Game};
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
    fn choose(&mut self, game: &Game, seat: usize) -> Action {
        if seat > 3 {
            return Action::Pass;
        }
        game.legal_actions(seat as u8, &mut self.buf);
        if self.buf.is_empty() {
            return Action::Pass;
        }
        self.buf[self.rng.below(self.buf.len() as u64) as usize]
    }

    fn play(&mut self, game: &mut Game, seat: u8) -> Result<Action, Error> {
        // The same draw from the stream as `choose`, from the list this call builds.
        game.legal_actions(seat, &mut self.buf);
        if self.buf.is_empty() {
            return game.act(seat, Action::Pass).map(|()| Action::Pass);
        }
        let action = self.buf[self.rng.below(self.buf.len() as u64) as usize];
        game.act_listed(seat, action);
        Ok(action)
    }
}
