//! What a table server asks of the engine at each step (docs/server.md, "Information"), so that
//! the server re-derives no rule: who it asks in a claim window, and the 听牌 hint it shows a
//! ready seat, from what that seat may see.

use super::{Action, ActionList, Game, SeatView};
use crate::score::{best_waits_known, Score};
use crate::tile::Tile;

impl Game {
    /// The seats a table asks when `from`'s discard or kong opens a claim window, in seat order:
    /// every other seat still in the hand, whether or not it may claim, so that being asked tells
    /// nobody whether some seat could (issue 14). The engine asks only those that may.
    pub fn window_seats(&self, from: u8) -> impl Iterator<Item = u8> + '_ {
        (0..4).filter(move |&s| s != from && self.in_hand(s))
    }

    /// The seats a table asks at its next step, in seat order, each with whether the engine asks
    /// it too: those that must act or, while a claim window that `window`'s seat opened is open
    /// at the table, the [`Game::window_seats`], the engine's among them only while it waits on
    /// the window (`waiting`; when no seat may claim, it moved past the window at once).
    pub fn step_seats(
        &self,
        window: Option<u8>,
        waiting: bool,
    ) -> impl Iterator<Item = (u8, bool)> + '_ {
        (0..4).filter_map(move |s| {
            let engine = (window.is_none() || waiting) && self.must_act(s);
            let table = window.is_some_and(|from| s != from && self.in_hand(s));
            (engine || table).then_some((s, engine))
        })
    }

    /// What a table offers `seat` at a step ([`Game::step_seats`]), written into `out`, and the
    /// action it plays when the seat's time runs out: the engine's legal actions and default
    /// when the engine asks the seat, else only `pass`.
    pub fn step_offer(&self, seat: u8, engine: bool, out: &mut ActionList) -> Action {
        out.clear();
        if let Some(default) = self.default_action(seat).filter(|_| engine) {
            self.legal_actions(seat, out);
            return default;
        }
        out.push(Action::Pass);
        Action::Pass
    }
}

/// One tile a ready hand waits on, as its seat may see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReadyWait {
    pub tile: Tile,
    /// Copies the seat has not seen (in the wall or in other hands, as far as it knows).
    pub unseen: u8,
    /// The wait's least value (查叫: pattern, roots and the seat's own kongs, capped; a
    /// situational bonus such as 自摸 adds to it).
    pub score: Score,
}

impl SeatView<'_> {
    /// 听牌: the waits of the seat's hand when it is ready (13 tiles less 3 per meld), else none,
    /// each with the copies the seat has not seen and its 查叫 value ([`best_waits_known`]).
    pub fn ready_waits(&self) -> Vec<ReadyWait> {
        let hand = self.hand();
        let mut waits = Vec::new();
        if hand.len() % 3 != 1 {
            return waits;
        }
        best_waits_known(hand, &self.context(), self.rules(), |tile, score| {
            waits.push(ReadyWait {
                tile,
                unseen: self.unseen(tile),
                score,
            });
        });
        waits
    }
}
