//! The message of an illegal action: why it is illegal, and what is legal instead.

use super::{setup, Action, ActionList, Game, Pending, TurnKind};
use crate::error::Error;
use crate::tile::Tile;
use crate::Choice;

impl Game {
    /// Why `action` is illegal for `seat`, and what is legal.
    pub(super) fn explain(&self, seat: u8, action: Action) -> Error {
        if seat > 3 {
            return Error::Argument(format!("seat {seat} does not exist; seats are 0-3"));
        }
        if self.is_over() {
            return Error::IllegalAction(format!("{action}: the hand is over; nobody acts"));
        }
        if !self.must_act(seat) {
            return Error::IllegalAction(format!(
                "seat {seat} cannot act now ({} phase): waiting for seats {:?}",
                self.phase().name(),
                self.to_act()
            ));
        }
        let mut legal = ActionList::new();
        self.legal_actions(seat, &mut legal);
        let why = self.why_illegal(seat, action);
        let shown: Vec<String> = legal
            .iter()
            .take(24)
            .map(std::string::ToString::to_string)
            .collect();
        let more = if legal.len() > shown.len() {
            format!(", … ({} in all)", legal.len())
        } else {
            String::new()
        };
        Error::IllegalAction(format!(
            "{action} is not legal for seat {seat}: {why}; legal: {}{more}",
            shown.join(", ")
        ))
    }

    fn why_illegal(&self, seat: u8, action: Action) -> String {
        let s = &self.seats[seat as usize];
        let phase = self.phase().name();
        let kind_ok = match (&self.pending, action) {
            (Pending::Exchange(_), Action::Exchange(_)) => true,
            (Pending::Void(_), Action::Void(_)) => true,
            (
                Pending::Turn(_),
                Action::Discard(_) | Action::Kong(_) | Action::Win | Action::Swap(_),
            ) => true,
            (Pending::Respond(_), Action::Win | Action::Pass) => true,
            (Pending::Respond(r), Action::Pong | Action::Kong(_)) => r.kong.is_none(),
            _ => false,
        };
        if !kind_ok {
            return format!(
                "a {} is not a decision of the {phase} phase now",
                action.kind()
            );
        }
        let held = |t: Tile, n: u8| s.hand.count(t) >= n;
        match (&self.pending, action) {
            // Before the hand check: the hand keeps its wilds apart, so a wild is never "in hand" here.
            (_, Action::Exchange(t)) if t.iter().any(|&t| self.is_wild(t)) => {
                "a wild (幺鸡, the 1s) is never passed in the exchange; give three other tiles".into()
            }
            (_, Action::Exchange(t)) if !setup::holds_all(&s.hand, &t) => {
                "those tiles are not all in hand".into()
            }
            (_, Action::Exchange(_)) => "the three must be of one suit".into(),
            (Pending::Turn(_), _) if s.hand.wilds() >= crate::hand::MAX_WILDS => {
                "four wilds (幺鸡) win at once: win is the only action".into()
            }
            (_, Action::Discard(d)) if self.is_wild(d) => {
                "a wild (幺鸡) is never discarded while the hand holds another tile".into()
            }
            (Pending::Turn(_), Action::Discard(d)) => {
                if !held(d, 1) {
                    format!("{d} is not in hand")
                } else if self.locked(seat) {
                    "a 血流 winner's hand is locked: discard the tile just drawn".into()
                } else if s.holds_void() {
                    let v = s.void.map_or('?', super::super::tile::Suit::letter);
                    format!("while holding a tile of the void suit {v}, discard one of those")
                } else {
                    "a win is forced here".into()
                }
            }
            (Pending::Turn(t), Action::Win) if t.kind == TurnKind::AfterPong => {
                "after a pong the ponger only discards".into()
            }
            (Pending::Turn(_), Action::Win) => "the hand is not complete under these rules".into(),
            (Pending::Turn(_), Action::Swap(t)) => format!(
                "幺鸡换 needs a natural {t} in hand and a kong of {t} holding a wild, on a turn after a draw"
            ),
            (Pending::Turn(_), Action::Kong(k)) => {
                if self.wall.is_empty() {
                    "no kong when the wall is empty".into()
                } else if !(held(k, 4) || s.has_pong(k) && held(k, 1)) && s.hand.wilds() == 0 {
                    format!("a kong of {k} needs four in hand or a pong of it plus one in hand (wilds stand in beside a natural {k})")
                } else {
                    format!("a kong of {k} is not allowed here (void suit, late_kong, a 血流 winner's waits, a pong this turn, or a meld of {k} already)")
                }
            }
            (Pending::Respond(r), Action::Pong) => {
                format!("pong needs two {} in hand (or one and a wild), not of the void suit, not by a 血流 winner, and not on the last discard unless pong_last_discard", r.tile)
            }
            (Pending::Respond(r), Action::Kong(k)) if k != r.tile => {
                format!("a kong on this discard is of {}", r.tile)
            }
            (Pending::Respond(r), Action::Kong(_)) => {
                format!(
                    "a direct kong needs three {} in hand (or a natural one and wilds) and tiles left in the wall",
                    r.tile
                )
            }
            (Pending::Respond(r), Action::Win) => {
                format!(
                    "{} does not complete the hand, or 过胡 locks the win",
                    r.tile
                )
            }
            (Pending::Respond(_), Action::Pass) => "the win is forced (last_four)".into(),
            _ => "it is not among the legal actions".into(),
        }
    }
}
