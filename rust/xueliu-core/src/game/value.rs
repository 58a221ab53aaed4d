//! What the game asks of scoring: the score of a win, points for a fan, a payer's own kong
//! fan and a ready hand's best wait (查叫). PROVISIONAL until issue 3's `score` lands: the
//! pattern here is only `basic` plus roots and kongs.

use super::state::Seat;
use crate::analysis::{facts, is_win, waits};
use crate::meld::MeldKind;
use crate::rules::{Rules, Scoring};
use crate::tile::Tile;

/// The situation of a win, beyond the hand.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WinFlags {
    pub self_draw: bool,
    /// 杠上花: on a kong's replacement tile.
    pub kong_flower: bool,
    /// 杠上炮: on the discard right after the discarder's kong.
    pub kong_shot: bool,
    /// 抢杠.
    pub robbed_kong: bool,
    /// 天胡.
    pub heavenly: bool,
    /// 地胡.
    pub earthly: bool,
}

/// A scored win.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Score {
    /// Total fan after the cap.
    pub fan: i32,
    pub points: i64,
}

impl Score {
    /// `Score.to_dict()` as JSON.
    pub fn to_json(&self) -> String {
        format!("{{\"fan\": {}, \"points\": {}}}", self.fan, self.points)
    }
}

/// Points for `fan` on the preset's curve, after the cap.
pub fn points(rules: &Rules, fan: i32) -> i64 {
    let fan = rules.cap_fan.map_or(fan, |c| fan.min(c));
    uncapped_points(rules, fan)
}

/// Points for `fan` without the cap (a fixed pig fan is never capped).
pub fn uncapped_points(rules: &Rules, fan: i32) -> i64 {
    match rules.scoring {
        Scoring::Linear => fan as i64 * rules.base_points,
        Scoring::Exponential => {
            let e = (fan - rules.fan_offset).clamp(0, 40);
            rules.base_points << e
        }
    }
}

/// The fan a seat's own kongs are worth (杠进杠出 adds it to what the seat pays).
pub fn kong_fan(rules: &Rules, seat: &Seat) -> i32 {
    seat.meld_list()
        .filter(|m| m.tile.index() < 27 && seat.root_only_kongs & 1 << m.tile.index() == 0)
        .map(|m| match m.kind {
            MeldKind::Pong => 0,
            MeldKind::ExposedKong => rules.exposed_kong_fan,
            MeldKind::ConcealedKong => rules.concealed_kong_fan,
        })
        .sum()
}

/// The fan of the hand (pattern, roots, own kongs) without situational bonuses.
fn hand_fan(rules: &Rules, seat: &Seat, tile: Tile) -> i32 {
    let mut hand = seat.hand;
    hand.add(tile);
    let f = facts(&hand, &seat.context(rules.allow_seven_pairs));
    let root_only = seat.root_only_kongs.count_ones() as i32;
    rules.basic_fan + rules.gen_fan * (f.roots as i32 + root_only) + kong_fan(rules, seat)
}

/// The score of `seat` winning on `tile` (its hand holds the 13 before the win).
pub fn score_win(rules: &Rules, seat: &Seat, tile: Tile, flags: WinFlags) -> Score {
    let mut fan = hand_fan(rules, seat, tile);
    fan += rules.kong_flower_fan * flags.kong_flower as i32;
    fan += rules.kong_shot_fan * flags.kong_shot as i32;
    fan += rules.rob_kong_fan * flags.robbed_kong as i32;
    let fan = rules.cap_fan.map_or(fan, |c| fan.min(c));
    Score {
        fan,
        points: points(rules, fan),
    }
}

/// The best wait of a 13-tile hand in points (查叫), or `None` when it is not ready.
pub fn ready_value(rules: &Rules, seat: &Seat) -> Option<i64> {
    let ctx = seat.context(rules.allow_seven_pairs);
    let mask = waits(&seat.hand, &ctx);
    (0..27u8)
        .filter(|t| mask & 1 << t != 0)
        .filter_map(Tile::new)
        .filter(|&t| {
            let mut h = seat.hand;
            h.add(t);
            is_win(&h, &ctx)
        })
        .map(|t| points(rules, hand_fan(rules, seat, t)))
        .max()
}
