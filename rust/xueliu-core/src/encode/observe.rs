//! One seat's observation: `CHANNELS` planes of 27 bytes, one column per tile kind, built only
//! from what that seat may see (RULES.md §12). docs/encoding.md documents every channel;
//! [`LAYOUT`] names them in order.
//!
//! The observation is read from the seat's [`SeatView`] alone, as a bot's decision is, so it
//! cannot read a hidden tile: its own tiles, picks, drawn tile, exchange and 过胡 state;
//! everyone's melds, discards, void suits, wins and scores; the wall's size; the rules; and the
//! public part of the pending decision (who is on the move, which tile waits for responses). Seats are relative to the observer: 0 itself, 1 the next seat
//! (下家), 2 the opposite seat (对家), 3 the previous seat (上家).

use super::packed::{Bits, PACKED_PLANES, PLANE_OF};
use super::picks::Picks;
use crate::game::{Direction, Game, Phase, SeatView, TurnKind};
use crate::meld::MeldKind;
use crate::pattern::PATTERNS;
use crate::points::Scoring;
use crate::rules::{LastFour, LateKong, Mode, PassWinLock, Rules};
use crate::tile::{Tile, COPIES, KINDS};

/// Discards per seat shown in order, newest first.
pub const RECENT: usize = 6;

/// The channel groups in order: name, number of channels, and bits per value in the packed
/// form (the largest value a channel of the group can hold fits; docs/encoding.md §2, §2.1).
pub const LAYOUT: [(&str, usize, u8); 20] = [
    ("hand", 4, 1),
    ("drawn", 1, 1),
    ("picked", 1, 2),
    ("given", 1, 2),
    ("received", 1, 2),
    ("pongs", 4, 1),
    ("kongs", 4, 1),
    ("concealed_kongs", 4, 1),
    ("discards", 4, 3),
    ("recent_discards", 4 * RECENT, 1),
    ("voids", 4, 1),
    ("won", 4, 3),
    ("unseen", 1, 3),
    ("table_tile", 1, 1),
    ("decision", 1, 1),
    ("wall", 2, 1),
    ("scores", 4, 1),
    ("meld_wilds", 4, 3),
    ("rules", 1, 1),
    ("rule_values", 1, 8),
];

/// The first channel of group `name`.
const fn first(name: &str) -> usize {
    let mut i = 0;
    let mut at = 0;
    while i < LAYOUT.len() {
        if eq(LAYOUT[i].0, name) {
            return at;
        }
        at += LAYOUT[i].1;
        i += 1;
    }
    panic!("no such channel group")
}

const fn eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

const fn total() -> usize {
    let mut i = 0;
    let mut n = 0;
    while i < LAYOUT.len() {
        n += LAYOUT[i].1;
        i += 1;
    }
    n
}

/// Number of channels.
pub const CHANNELS: usize = total();
/// Bytes of one observation: `CHANNELS × 27`.
pub const OBS_SIZE: usize = CHANNELS * KINDS;

const HAND: usize = first("hand");
const DRAWN: usize = first("drawn");
const PICKED: usize = first("picked");
const GIVEN: usize = first("given");
const RECEIVED: usize = first("received");
const PONGS: usize = first("pongs");
const KONGS: usize = first("kongs");
const CONCEALED_KONGS: usize = first("concealed_kongs");
const DISCARDS: usize = first("discards");
const RECENT_DISCARDS: usize = first("recent_discards");
const VOIDS: usize = first("voids");
const WON: usize = first("won");
const UNSEEN: usize = first("unseen");
const TABLE_TILE: usize = first("table_tile");
const DECISION: usize = first("decision");
const WALL: usize = first("wall");
const SCORES: usize = first("scores");
const MELD_WILDS: usize = first("meld_wilds");
const RULES: usize = first("rules");
const RULE_VALUES: usize = first("rule_values");

/// Columns of the `decision` channel.
pub mod decision {
    /// One-hot phase: exchange, void, play, over.
    pub const PHASE: usize = 0;
    /// The observer must decide now.
    pub const MUST_ACT: usize = 4;
    /// What is pending (one-hot): a turn, responses to a discard, responses to a kong.
    pub const TURN: usize = 5;
    pub const RESPOND_DISCARD: usize = 6;
    pub const RESPOND_KONG: usize = 7;
    /// One-hot relative seat on the move, or of the discarder / the kong's owner.
    pub const ACTOR: usize = 8;
    /// One-hot, during a turn: first turn (also a non-dealer's win on four dealt wilds, 幺鸡),
    /// after a draw, after a replacement, after a pong.
    pub const TURN_KIND: usize = 12;
    /// One-hot relative seat of the dealer.
    pub const DEALER: usize = 16;
    /// One-hot, once the exchange resolved: counterclockwise, clockwise, opposite.
    pub const DIRECTION: usize = 20;
    /// The observer declined a win since its last draw (过胡 may hold).
    pub const DECLINED: usize = 23;
}

/// Writes the observation of `seat` (whose exchange picks so far are `picks`) into `out`, which
/// holds `OBS_SIZE` bytes: channel `c`, tile `t` at `c * 27 + t`. Every byte is written.
pub fn observe(game: &Game, seat: u8, picks: &Picks, out: &mut [u8]) {
    RulePlanes::new(game.rules()).observe(game, seat, picks, out);
}

/// The same observation bit-packed into `out`, which holds `PACKED_PLANES` words
/// ([`super::packed`], docs/encoding.md §2.1).
pub fn observe_packed(game: &Game, seat: u8, picks: &Picks, out: &mut [u32]) {
    RulePlanes::new(game.rules()).observe_packed(game, seat, picks, out);
}

/// The `rules` and `rule_values` planes of one ruleset, plain and packed, computed once: they
/// never change during a game, so an env that observes every step copies them instead of
/// rebuilding them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RulePlanes {
    bytes: [u8; 2 * KINDS],
    bits: [u32; PACKED_PLANES - RULE_PLANE],
}

const _: () = assert!(RULE_VALUES == RULES + 1 && RULE_VALUES + 1 == CHANNELS);
/// The first packed plane of the rules (they are last in both forms).
const RULE_PLANE: usize = PLANE_OF[RULES] as usize;

impl RulePlanes {
    pub fn new(r: &Rules) -> RulePlanes {
        let mut all = [0u8; OBS_SIZE];
        rules(r, &mut Planes(&mut all));
        let mut bytes = [0u8; 2 * KINDS];
        bytes.copy_from_slice(&all[RULES * KINDS..]);
        let mut packed = [0u32; PACKED_PLANES];
        rules(r, &mut Bits(&mut packed));
        let mut bits = [0u32; PACKED_PLANES - RULE_PLANE];
        bits.copy_from_slice(&packed[RULE_PLANE..]);
        RulePlanes { bytes, bits }
    }

    /// [`observe`] for a game of these rules.
    pub fn observe(&self, game: &Game, seat: u8, picks: &Picks, out: &mut [u8]) {
        assert_eq!(
            out.len(),
            OBS_SIZE,
            "an observation is {CHANNELS} × 27 bytes"
        );
        let (planes, rules) = out.split_at_mut(RULES * KINDS);
        planes.fill(0);
        rules.copy_from_slice(&self.bytes);
        if let Some(view) = game.view(seat) {
            encode(&view, picks, &mut Planes(out));
        }
    }

    /// Writes the rules planes alone into `out`, every other byte zero.
    pub fn observe_rules(&self, out: &mut [u8; OBS_SIZE]) {
        let (planes, rules) = out.split_at_mut(RULES * KINDS);
        planes.fill(0);
        rules.copy_from_slice(&self.bytes);
    }

    /// [`observe`] from the seat's view alone, as a bot sees the game: the same bytes.
    pub fn observe_view(&self, view: &SeatView<'_>, picks: &Picks, out: &mut [u8; OBS_SIZE]) {
        self.observe_rules(out);
        encode(view, picks, &mut Planes(out));
    }

    /// [`observe_packed`] for a game of these rules.
    pub fn observe_packed(&self, game: &Game, seat: u8, picks: &Picks, out: &mut [u32]) {
        assert_eq!(
            out.len(),
            PACKED_PLANES,
            "a packed observation is {PACKED_PLANES} words"
        );
        let (planes, rules) = out.split_at_mut(RULE_PLANE);
        planes.fill(0);
        rules.copy_from_slice(&self.bits);
        if let Some(view) = game.view(seat) {
            encode(&view, picks, &mut Bits(out));
        }
    }
}

/// Every channel but the rules, into a sink that starts all zero.
#[inline]
fn encode(view: &SeatView<'_>, picks: &Picks, sink: &mut impl Sink) {
    own_tiles(view, picks, sink);
    table(view, sink);
    decision(view, sink);
    wall_and_scores(view, sink);
}

/// Where an observation is written: one byte per channel and tile ([`Planes`]) or bit planes
/// ([`Bits`]). The encoder below is written once against it, so both forms hold the same
/// values. Every position starts at zero and is `set` at most once.
pub(super) trait Sink {
    /// Writes `value` at channel `channel`, column `column`.
    fn set(&mut self, channel: usize, column: usize, value: u8);
    /// Adds one at `channel`, the column of `tile`.
    fn add(&mut self, channel: usize, tile: Tile);
    /// Writes `levels` channels from `channel` on as a thermometer of `counts`: channel
    /// `channel + k` is 1 where the count exceeds `k`.
    fn thermometer(&mut self, channel: usize, levels: usize, counts: &[u8; KINDS]);
    /// Writes a whole channel.
    fn row(&mut self, channel: usize, values: &[u8; KINDS]);
}

/// The plain output, addressed by channel and tile.
struct Planes<'a>(&'a mut [u8]);

impl Sink for Planes<'_> {
    #[inline]
    fn set(&mut self, channel: usize, column: usize, value: u8) {
        self.0[channel * KINDS + column] = value;
    }

    #[inline]
    fn add(&mut self, channel: usize, tile: Tile) {
        self.0[channel * KINDS + tile.index()] += 1;
    }

    #[inline]
    fn thermometer(&mut self, channel: usize, levels: usize, counts: &[u8; KINDS]) {
        let words = Words::of(counts);
        for k in 0..levels {
            let row = words.above(k as u8).bytes();
            self.0[(channel + k) * KINDS..][..KINDS].copy_from_slice(&row[..KINDS]);
        }
    }

    #[inline]
    fn row(&mut self, channel: usize, values: &[u8; KINDS]) {
        self.0[channel * KINDS..][..KINDS].copy_from_slice(values);
    }
}

/// A row of small values (below 128) as four little-endian words, eight columns each, so that
/// a comparison covers eight columns at once (a loop over 27 bytes did not vectorise).
#[derive(Clone, Copy)]
pub(super) struct Words([u64; 4]);

impl Words {
    /// Where each byte is one.
    pub(super) const ONES: u64 = 0x0101_0101_0101_0101;

    #[inline]
    pub(super) fn of(row: &[u8; KINDS]) -> Words {
        let mut bytes = [0u8; 32];
        bytes[..KINDS].copy_from_slice(row);
        Words(std::array::from_fn(|i| {
            u64::from_le_bytes(bytes[8 * i..8 * i + 8].try_into().expect("8 bytes"))
        }))
    }

    /// 1 in each column whose value exceeds `k`, 0 elsewhere: adding `127 − k` sets a byte's top
    /// bit exactly then, and no byte carries into the next.
    #[inline]
    pub(super) fn above(self, k: u8) -> Words {
        let add = Self::ONES * u64::from(127 - k);
        Words(self.0.map(|w| (w + add) >> 7 & Self::ONES))
    }

    /// Bit `k` of each value, as 0 or 1.
    #[inline]
    pub(super) fn bit(self, k: usize) -> Words {
        Words(self.0.map(|w| w >> k & Self::ONES))
    }

    /// The words as bytes (the five after the 27th are zero).
    #[inline]
    pub(super) fn bytes(self) -> [u8; 32] {
        let mut bytes = [0u8; 32];
        for (chunk, w) in bytes.chunks_exact_mut(8).zip(self.0) {
            chunk.copy_from_slice(&w.to_le_bytes());
        }
        bytes
    }

    /// Columns holding 1 (of 0 or 1) as the bits of a `u32`: the multiplication moves byte `i`'s
    /// bit to bit `56 + i`, and no two partial products meet below it.
    #[inline]
    pub(super) fn mask(self) -> u32 {
        self.0.iter().enumerate().fold(0, |acc, (i, &w)| {
            acc | ((w.wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32) << (8 * i)
        })
    }
}

/// The observer's seat number of `seat`.
#[inline]
fn relative(viewer: u8, seat: u8) -> usize {
    ((seat + 4 - viewer) % 4) as usize
}

/// The tiles of a hand as counts, its wilds (幺鸡) counted as the `1s` they are.
fn hand_counts(view: &SeatView<'_>) -> [u8; KINDS] {
    let hand = view.hand();
    let mut counts = *hand.array();
    counts[Tile::YAOJI.index()] += hand.wilds();
    counts
}

/// Its hand, drawn tile, picks and exchange.
fn own_tiles(view: &SeatView<'_>, picks: &Picks, p: &mut impl Sink) {
    p.thermometer(HAND, COPIES as usize, &hand_counts(view));
    if let Some(d) = view.drawn() {
        p.add(DRAWN, d);
    }
    picks.as_slice().iter().for_each(|&t| p.add(PICKED, t));
    if let Some(x) = view.exchanged() {
        x.given.iter().for_each(|&t| p.add(GIVEN, t));
        x.received.iter().for_each(|&t| p.add(RECEIVED, t));
    }
}

/// Melds, discards, voids and wins of every seat, and the tiles the observer cannot see.
fn table(view: &SeatView<'_>, p: &mut impl Sink) {
    let seat = view.seat();
    let mut seen = hand_counts(view);
    for s in 0..4u8 {
        let r = relative(seat, s);
        for m in view.melds(s) {
            let group = match m.kind {
                MeldKind::Pong => PONGS,
                MeldKind::ExposedKong => KONGS,
                MeldKind::ConcealedKong => CONCEALED_KONGS,
            };
            p.add(group + r, m.tile);
            if m.wilds > 0 {
                p.set(MELD_WILDS + r, m.tile.index(), m.wilds);
            }
            seen[m.tile.index()] += m.size() - m.wilds;
            seen[Tile::YAOJI.index()] += m.wilds;
        }
        if let Some(v) = view.void(s) {
            (0..9).for_each(|i| p.set(VOIDS + r, v.index() * 9 + i, 1));
        }
        // The river keeps these counts as discards come and go, so they are copied, not counted.
        p.row(DISCARDS + r, view.river_counts_of(s));
    }
    seen.iter_mut()
        .zip(view.river_counts())
        .for_each(|(n, &r)| *n += r);
    recent_discards(view, p);
    // A self-draw's tile the seat does not see yet (`win_reveal = "hand_end"`) marks nothing.
    for w in view.wins() {
        let Some(tile) = w.tile else { continue };
        p.add(WON + relative(seat, w.seat), tile);
        // A shared win (一炮多响) is on the same copy as the one before it.
        seen[tile.index()] += u8::from(!w.shared);
    }
    p.row(UNSEEN, &seen.map(|n| COPIES.saturating_sub(n)));
}

/// Each seat's last `RECENT` discards, newest first, read back from the river's end only as far
/// as they go.
fn recent_discards(view: &SeatView<'_>, p: &mut impl Sink) {
    let mut shown = [0usize; 4];
    let mut missing = 4 * RECENT;
    for &(s, t) in view.river().iter().rev() {
        let r = relative(view.seat(), s);
        if shown[r] < RECENT {
            p.add(RECENT_DISCARDS + r * RECENT + shown[r], t);
            shown[r] += 1;
            missing -= 1;
            if missing == 0 {
                return;
            }
        }
    }
}

/// The phase and the public part of the pending decision.
fn decision(view: &SeatView<'_>, p: &mut impl Sink) {
    use decision::*;
    let seat = view.seat();
    let phase = match view.phase() {
        Phase::Exchange => 0,
        Phase::Void => 1,
        Phase::Play => 2,
        Phase::Over => 3,
    };
    p.set(DECISION, PHASE + phase, 1);
    p.set(DECISION, MUST_ACT, u8::from(view.must_act()));
    if let Some((actor, turn)) = view.turn() {
        p.set(DECISION, TURN, 1);
        p.set(DECISION, ACTOR + relative(seat, actor), 1);
        let kind = match turn {
            TurnKind::First | TurnKind::Dealt => 0,
            TurnKind::Draw => 1,
            TurnKind::Replacement => 2,
            TurnKind::AfterPong => 3,
        };
        p.set(DECISION, TURN_KIND + kind, 1);
    }
    if let Some(open) = view.open_tile() {
        let on = if open.robbing {
            RESPOND_KONG
        } else {
            RESPOND_DISCARD
        };
        p.set(DECISION, on, 1);
        p.set(DECISION, ACTOR + relative(seat, open.from), 1);
        p.add(TABLE_TILE, open.tile);
    }
    p.set(DECISION, DEALER + relative(seat, view.dealer()), 1);
    if let Some(x) = view.exchanged() {
        let d = match x.direction {
            Direction::Counterclockwise => 0,
            Direction::Clockwise => 1,
            Direction::Opposite => 2,
        };
        p.set(DECISION, DIRECTION + d, 1);
    }
    p.set(DECISION, DECLINED, u8::from(view.declined().is_some()));
}

/// The wall's size exactly (fours as a bar, the rest one-hot) and each seat's score as a bar.
fn wall_and_scores(view: &SeatView<'_>, p: &mut impl Sink) {
    let seat = view.seat();
    let wall = view.wall_remaining();
    (0..(wall / 4).min(KINDS)).for_each(|j| p.set(WALL, j, 1));
    p.set(WALL + 1, wall % 4, 1);
    let base = i64::from(view.rules().base_points.max(1));
    for (s, &score) in view.scores().iter().enumerate() {
        score_bar(score, base, SCORES + relative(seat, s as u8), p);
    }
}

/// Column 13 marks a zero score; columns 14–26 grow right for a gain (14: above zero, 14 + k:
/// at least 2^k base points), columns 12–0 left for a loss, the same way.
fn score_bar(score: i64, base: i64, channel: usize, p: &mut impl Sink) {
    const MID: usize = KINDS / 2;
    if score == 0 {
        p.set(channel, MID, 1);
        return;
    }
    let size = score.unsigned_abs();
    for k in 0..MID {
        let threshold = if k == 0 { 1 } else { (base as u64) << k };
        if size < threshold {
            break;
        }
        let column = if score > 0 { MID + 1 + k } else { MID - 1 - k };
        p.set(channel, column, 1);
    }
}

/// The rules: flags and one-hot options in `rules`, fan values in `rule_values`.
fn rules(r: &Rules, p: &mut impl Sink) {
    let flags = [
        r.mode == Mode::Xueliu,
        r.exchange.is_some(),
        r.exchange_same_suit,
        r.declare_void,
        r.allow_seven_pairs,
        r.pong_last_discard,
        r.kong_draw_from == crate::rules::KongDrawFrom::Back,
        r.rob_concealed_kong,
    ];
    flags
        .iter()
        .enumerate()
        .for_each(|(i, &f)| p.set(RULES, i, u8::from(f)));
    let late = [
        LateKong::Full,
        LateKong::RootOnly,
        LateKong::KeptFourthForbidden,
        LateKong::Forbidden,
    ];
    one_hot(p, 8, late.iter().position(|&l| l == r.late_kong));
    let lock = [
        PassWinLock::None,
        PassWinLock::UntilDraw,
        PassWinLock::UntilDrawUnlessHigher,
    ];
    one_hot(p, 12, lock.iter().position(|&l| l == r.pass_win_lock));
    let four = [
        LastFour::None,
        LastFour::Forced,
        LastFour::SelfDrawForced,
        LastFour::RonForced,
    ];
    one_hot(p, 15, four.iter().position(|&l| l == r.last_four));
    let more = [
        r.kong_payments,
        r.self_draw_payers == crate::rules::SelfDrawPayers::AllOthers,
        r.kong_fan == crate::rules::KongFan::WinAndLoss,
        r.tax_refund,
        r.ready_difference,
        r.wilds,
        r.gen_counts_kongs,
        r.heavenly_stacks,
    ];
    more.iter()
        .enumerate()
        .for_each(|(i, &f)| p.set(RULES, 19 + i, u8::from(f)));
    rule_values(r, p);
}

fn one_hot(p: &mut impl Sink, at: usize, index: Option<usize>) {
    if let Some(i) = index {
        p.set(RULES, at + i, 1);
    }
}

/// Fan of each pattern plus one (0: the room lacks it), then the other fan options.
fn rule_values(r: &Rules, p: &mut impl Sink) {
    for (i, (_, fan)) in r.fan.iter().enumerate() {
        let fan = fan.map_or(0, |f| f.saturating_add(1));
        p.set(RULE_VALUES, i, fan.min(255) as u8);
    }
    let scoring = match r.scoring {
        Scoring::Linear => 0,
        Scoring::Exponential => 1,
        Scoring::MultiplierTable => 2,
    };
    let values = [
        r.gen_fan,
        r.exposed_kong_fan,
        r.concealed_kong_fan,
        r.kong_flower_fan,
        r.kong_shot_fan,
        r.rob_kong_fan,
        r.flower_pig_fan,
        r.cap_fan.map_or(0, |c| c.saturating_add(1)),
        r.fan_offset,
        r.no_wild_fan,
        scoring,
    ];
    for (i, &v) in values.iter().enumerate() {
        p.set(RULE_VALUES, PATTERNS + i, v.min(255) as u8);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::ActionList;
    use crate::rng::Rng;
    use crate::tile::Suit;
    use std::sync::Arc;

    const _: () = assert!(PATTERNS + 11 == KINDS);

    #[test]
    fn layout_adds_up() {
        assert_eq!(CHANNELS, 71);
        assert_eq!(first("rule_values"), CHANNELS - 1);
        assert_eq!(
            Suit::ALL.len() * 9,
            KINDS,
            "a void suit covers nine columns"
        );
    }

    #[test]
    fn cached_rule_planes_are_the_rules() {
        for preset in ["chengdu", "sanxia", "yaoji"] {
            let Ok(rules) = Rules::preset(preset) else {
                continue;
            };
            let mut fresh = vec![0u8; OBS_SIZE];
            rules_fn(&rules, &mut Planes(&mut fresh));
            assert_eq!(&fresh[RULES * KINDS..], &RulePlanes::new(&rules).bytes[..]);
            assert!(fresh[RULES * KINDS..].iter().any(|&b| b != 0));
        }
    }

    use super::rules as rules_fn;

    #[test]
    fn words_compare_and_gather_eight_columns_at_once() {
        let mut rng = Rng::new(9);
        for _ in 0..500 {
            let row: [u8; KINDS] = std::array::from_fn(|_| rng.below(8) as u8);
            let words = Words::of(&row);
            for k in 0..8u8 {
                let above = row.map(|v| u8::from(v > k));
                assert_eq!(words.above(k).bytes()[..KINDS], above);
                let bits = (0..KINDS).fold(0u32, |acc, t| acc | u32::from(above[t]) << t);
                assert_eq!(words.above(k).mask(), bits);
                let bit = row.map(|v| v >> k & 1);
                assert_eq!(words.bit(k as usize).bytes()[..KINDS], bit);
            }
        }
    }

    #[test]
    fn score_bars_grow_by_doubling() {
        let bar = |score: i64| {
            let mut out = vec![0u8; OBS_SIZE];
            score_bar(score, 6, 0, &mut Planes(&mut out));
            out[..KINDS].to_vec()
        };
        assert_eq!(bar(0)[13], 1);
        assert_eq!(bar(0).iter().sum::<u8>(), 1);
        assert_eq!(bar(5)[14..17], [1, 0, 0]);
        assert_eq!(bar(12)[14..17], [1, 1, 0]);
        assert_eq!(bar(-24)[10..13], [1, 1, 1]);
        assert_eq!(bar(i64::MIN).iter().sum::<u8>(), 13);
    }

    /// The unseen tiles are exactly those in other seats' hands (wilds as `1s`) and in the wall; the hand
    /// planes are the observer's hand.
    #[test]
    fn unseen_tiles_are_the_hidden_ones() {
        let mut rng = Rng::new(3);
        let mut buf = ActionList::new();
        let mut out = vec![0u8; OBS_SIZE];
        let at = |out: &[u8], c: usize, t: usize| out[c * KINDS + t];
        for (seed, preset) in (0..40).zip(["chengdu_xueliu", "yaoji"].iter().cycle()) {
            let rules = Arc::new(Rules::preset(preset).unwrap());
            let mut game = Game::new(rules, seed, false).unwrap();
            loop {
                for seat in 0..4u8 {
                    observe(&game, seat, &Picks::NONE, &mut out);
                    let mut hidden = [0u8; KINDS];
                    game.wall()
                        .live()
                        .iter()
                        .for_each(|t| hidden[t.index()] += 1);
                    for other in (0..4).filter(|&o| o != seat) {
                        game.seat(other)
                            .hand()
                            .tiles_with_wilds()
                            .for_each(|t| hidden[t.index()] += 1);
                    }
                    let own = hand_counts(&game.view(seat).unwrap());
                    for (t, &h) in hidden.iter().enumerate() {
                        assert_eq!(at(&out, UNSEEN, t), h, "{preset} seed {seed} tile {t}");
                        let thermometer: u8 = (0..4).map(|k| at(&out, HAND + k, t)).sum();
                        assert_eq!(thermometer, own[t]);
                    }
                }
                if !game.step_random(&mut rng, &mut buf) {
                    break;
                }
            }
        }
    }
}
