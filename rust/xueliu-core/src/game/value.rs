//! What the game asks of scoring ([`crate::score`]): the score of a win, a payer's share under
//! 杠进杠出, and a ready hand's best wait (查叫); and `Score.to_dict()` as JSON for the log.

use super::state::{take, Seat};
use super::{Action, Game, Pending};
use crate::hand::MAX_WILDS;
use crate::meld::MeldKind;
use crate::rules::Rules;
use crate::score::{best_waits_known, score_known_win, Score, Situation};
use crate::tile::Tile;

/// The root-only kongs of a seat (late kongs under `late_kong = "root_only"`): exposed,
/// concealed, and how many of them hold no wild.
fn root_kongs(seat: &Seat) -> (u8, u8, u8) {
    let mut out = (0, 0, 0);
    for m in seat.meld_list() {
        if seat.root_only_kongs & 1 << m.tile.index() != 0 {
            match m.kind {
                MeldKind::ExposedKong => out.0 += 1,
                MeldKind::ConcealedKong => out.1 += 1,
                MeldKind::Pong => continue,
            }
            out.2 += u8::from(m.wilds == 0);
        }
    }
    out
}

/// A score with the seat's root-only kongs counted as roots.
fn as_roots(rules: &Rules, seat: &Seat, score: Score) -> Score {
    match root_kongs(seat) {
        (0, 0, _) => score,
        (exposed, concealed, natural) => {
            score.with_root_only_kongs(rules, exposed, concealed, natural)
        }
    }
}

/// The score of `seat` winning on `tile`; its hand holds the 13 before the win, and the game
/// has already checked that the hand wins.
pub fn score_win(rules: &Rules, seat: &Seat, tile: Tile, situation: Situation) -> Score {
    let mut hand = seat.hand;
    if rules.is_wild(tile) {
        if hand.wilds() < MAX_WILDS {
            hand.add_wild();
        }
    } else if hand.count(tile) < 4 {
        hand.add(tile);
    }
    let ctx = seat.context(rules);
    let score = score_known_win(&hand, &ctx, rules, &situation);
    // Four wilds score the cap and nothing else: no root-only kongs either (§11).
    if hand.wilds() >= MAX_WILDS {
        return score;
    }
    as_roots(rules, seat, score)
}

impl Game {
    /// The score of the win `seat` may declare now (on its turn, on a discard or robbing a
    /// kong), as it would be recorded; `None` when no win is among its legal actions. What a
    /// table shows beside the win button: it reads only the seat's own hand and what all see.
    pub fn offered_win(&self, seat: u8) -> Option<Score> {
        if !self.is_legal(seat, Action::Win) {
            return None;
        }
        let s = &self.seats[seat as usize];
        match &self.pending {
            Pending::Turn(t) => {
                let (tile, flags) = self.self_draw(t);
                let mut before = *s;
                take(&mut before.hand, tile);
                Some(score_win(&self.rules, &before, tile, flags))
            }
            Pending::Respond(r) => Some(score_win(&self.rules, s, r.tile, self.claim_situation(r))),
            _ => None,
        }
    }
}

/// What `payer` pays for `score`: its points, or under 杠进杠出 with the payer's own kong fan
/// added (root-only kongs are not kongs).
pub fn payment(score: &Score, payer: &Seat) -> i64 {
    let (root_exposed, root_concealed, _) = root_kongs(payer);
    let m = &payer.meld_summary;
    let exposed = m.exposed_kongs.saturating_sub(root_exposed);
    let concealed = m.concealed_kongs.saturating_sub(root_concealed);
    clamp(score.payment(exposed, concealed))
}

/// Points for `fan` on the room's curve, capped or not (a fixed pig fan is never capped).
pub fn fan_points(rules: &Rules, fan: u32, capped: bool) -> i64 {
    let curve = rules.curve();
    let fan = if capped { curve.cap(fan) } else { fan };
    clamp(curve.points(fan).unwrap_or(u64::MAX))
}

/// The best wait of a waiting hand in points (查叫), or `None` when it is not ready.
pub fn ready_value(rules: &Rules, seat: &Seat) -> Option<i64> {
    let ctx = seat.context(rules);
    let mut best = None;
    best_waits_known(&seat.hand, &ctx, rules, |_, s| {
        best = best.max(Some(clamp(as_roots(rules, seat, s).points)));
    });
    best
}

/// Points fit i64 for every validated `Rules`; this keeps sums safe for any other.
fn clamp(points: u64) -> i64 {
    points.min(1 << 52) as i64
}
