//! Scoring a win (RULES.md §8–§9): the highest pattern, the bonuses beside it, the cap and the
//! points one payer pays; and the best score of each wait of a ready hand, for 查叫.
//!
//! A hand that splits several ways (a standard split and seven pairs, or several standard
//! splits) is scored by the split worth most (seed 004 §四.8). Splits differ only in which
//! patterns they have, and the bonuses do not depend on the split except the root a dragon
//! seven pairs takes, so the best split is the pattern with the most fan net of that root.

use crate::analysis::{self, Context, HandFacts};
use crate::choice::{choice, Choice};
use crate::hand::{Counts, HandError, MAX_WILDS};
use crate::meld::{Meld, Melds};
use crate::pattern::Pattern;
use crate::points::Curve;
use crate::rules::{KongFan, ReadyWaitCopies, RobKongScoring, Rules, SelfDrawBonus};
use crate::tile::{Suit, Tile};
use std::fmt;

/// How a win came about: what the hand alone does not tell.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct Situation {
    /// 自摸: the winner drew the tile. Set it with `kong_flower` (杠上花 is self-drawn, seed 002
    /// 計分規則 6) and with `heavenly` (天胡算自摸, seed 000 胡牌規則 4).
    pub self_draw: bool,
    /// 杠上花: won on a kong's replacement tile; also set `self_draw`.
    pub kong_flower: bool,
    /// 杠上炮: won on the discard the discarder made right after their kong; under
    /// `kong_shot_on_rob` also on robbing an add kong declared right after a kong.
    pub kong_shot: bool,
    /// 抢杠: won on another player's add kong.
    pub robbed_kong: bool,
    /// 天胡: the dealer won on the dealt fourteen (settled as a self-draw).
    pub heavenly: bool,
    /// 地胡: a non-dealer won on their first draw.
    pub earthly: bool,
    /// 海底: won on the wall's last tile (with `self_draw`, 海底捞月) or on a discard made with
    /// the wall empty (海底炮). Written only when true, so snapshots from before it still read.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub last_tile: bool,
}

impl Situation {
    /// A plain win on a discard.
    pub const DISCARD: Situation = Situation {
        self_draw: false,
        kong_flower: false,
        kong_shot: false,
        robbed_kong: false,
        heavenly: false,
        earthly: false,
        last_tile: false,
    };

    /// A plain self-drawn win.
    pub const SELF_DRAW: Situation = Situation {
        self_draw: true,
        ..Situation::DISCARD
    };

    /// Rejects flags no real win has together under `rules`.
    fn check(&self, melds: &Melds, rules: &Rules) -> Result<(), ScoreError> {
        let reject = |why| Err(ScoreError::Situation(why));
        if self.kong_flower && !self.self_draw {
            return reject("kong_flower (杠上花) is a self-drawn win: pass self_draw too");
        }
        if self.self_draw && (self.kong_shot || self.robbed_kong) {
            return reject("a self-drawn win cannot be kong_shot or robbed_kong, which are wins on another player's tile");
        }
        if self.kong_shot && self.robbed_kong && !rules.kong_shot_on_rob {
            return reject("kong_shot and robbed_kong cannot both hold without kong_shot_on_rob: one is a discard, the other a kong's tile");
        }
        if self.heavenly && self.earthly {
            return reject("heavenly (the dealer) and earthly (a non-dealer) cannot both hold");
        }
        if (self.heavenly || self.earthly) && melds.sets > 0 {
            return reject("heavenly and earthly wins come before any pong or kong");
        }
        if self.kong_flower && melds.kongs() == 0 {
            return reject(
                "kong_flower is a win on a kong's replacement tile: the melds need a kong",
            );
        }
        Ok(())
    }
}

choice! {
    /// A bonus added to the pattern's fan (§8, §11, §13), in the order a breakdown lists them.
    pub enum Bonus {
        /// 天胡 added to the hand's pattern (`heavenly_stacks`).
        Heavenly = "heavenly",
        /// 地胡 added to the hand's pattern (`heavenly_stacks`).
        Earthly = "earthly",
        /// 根: four of a kind that is not a declared kong.
        Root = "root",
        /// 明杠: the winner's direct or added kong.
        ExposedKong = "exposed_kong",
        /// 暗杠: the winner's concealed kong.
        ConcealedKong = "concealed_kong",
        /// 杠上花.
        KongFlower = "kong_flower",
        /// 杠上炮.
        KongShot = "kong_shot",
        /// 抢杠.
        RobKong = "rob_kong",
        /// 自摸加番.
        SelfDraw = "self_draw",
        /// 无鸡加番: no wild in the winning concealed hand.
        NoWild = "no_wild",
        /// 四幺鸡: four wilds win at the room's cap (docs/game-protocol.md §11).
        FourWilds = "four_wilds",
        /// 金钩钓: four melds (concealed kongs among them), the last tile a single wait.
        GoldenHook = "golden_hook",
        /// 海底捞月: a self-draw on the wall's last tile.
        LastTileSelfDraw = "last_tile_self_draw",
        /// 海底炮: a win on a discard made with the wall empty.
        LastDiscardWin = "last_discard_win",
    }
}

const BONUSES: usize = 14;

impl Bonus {
    pub const fn chinese(self) -> &'static str {
        match self {
            Bonus::Root => "根",
            Bonus::ExposedKong => "明杠",
            Bonus::ConcealedKong => "暗杠",
            Bonus::KongFlower => "杠上花",
            Bonus::KongShot => "杠上炮",
            Bonus::RobKong => "抢杠",
            Bonus::SelfDraw => "自摸加番",
            Bonus::NoWild => "无鸡加番",
            Bonus::FourWilds => "四幺鸡",
            Bonus::Heavenly => "天胡",
            Bonus::Earthly => "地胡",
            Bonus::GoldenHook => "金钩钓",
            Bonus::LastTileSelfDraw => "海底捞月",
            Bonus::LastDiscardWin => "海底炮",
        }
    }
}

/// The bonuses of a win: how many of each and the fan of each. Kept small (fan options are at
/// most [`crate::rules::MAX_FAN`]) so a [`Score`] copies cheaply.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bonuses {
    counts: [u8; BONUSES],
    fan_each: [u8; BONUSES],
    fan: u16,
}

impl Bonuses {
    /// Adds `count` of `bonus`, each worth `fan_each`. Bonuses worth no fan are left out.
    fn add(&mut self, bonus: Bonus, count: u8, fan_each: u32) {
        if count > 0 && fan_each > 0 {
            let fan_each = u8::try_from(fan_each).unwrap_or(u8::MAX);
            self.counts[bonus as usize] += count;
            self.fan_each[bonus as usize] = fan_each;
            self.fan += u16::from(count) * u16::from(fan_each);
        }
    }

    /// Takes away up to `count` of `bonus`.
    fn remove(&mut self, bonus: Bonus, count: u8) {
        let held = &mut self.counts[bonus as usize];
        let taken = count.min(*held);
        *held -= taken;
        self.fan -= u16::from(taken) * u16::from(self.fan_each[bonus as usize]);
    }

    /// Each bonus present: the bonus, how many, and their fan together.
    pub fn iter(&self) -> impl Iterator<Item = (Bonus, u8, u32)> + '_ {
        Bonus::ALL.iter().filter_map(|&b| {
            let (count, each) = (self.counts[b as usize], self.fan_each[b as usize]);
            (count > 0).then_some((b, count, u32::from(count) * u32::from(each)))
        })
    }

    /// Whether the win has `bonus`.
    pub fn has(&self, bonus: Bonus) -> bool {
        self.counts[bonus as usize] > 0
    }

    /// The fan of every bonus together.
    pub fn fan(&self) -> u32 {
        u32::from(self.fan)
    }
}

/// Written as `Score.to_dict()` writes them: each bonus present, with its count and fan.
impl serde::Serialize for Bonuses {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(serde::Serialize)]
        struct Entry {
            name: Bonus,
            count: u8,
            fan: u32,
        }
        s.collect_seq(
            self.iter()
                .map(|(name, count, fan)| Entry { name, count, fan }),
        )
    }
}

/// A scored win. `points` is what one payer pays before per-payer adjustments
/// ([`Score::payment`]). Written as `Score.to_dict()`: pattern, its fan, each bonus, total and
/// capped fan, multiplier, points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Score {
    /// The highest pattern (only it counts).
    pub pattern: Pattern,
    pub pattern_fan: u32,
    pub bonuses: Bonuses,
    /// Pattern and bonuses.
    pub fan: u32,
    /// `fan` limited by `cap_fan` (封顶).
    pub capped_fan: u32,
    /// Points per base point for `capped_fan`.
    pub multiplier: u64,
    /// 自摸加底: points each payer adds on a self-drawn win.
    pub extra_points: u64,
    /// base × multiplier + extra.
    pub points: u64,
    #[serde(skip)]
    curve: Curve,
    /// Under 杠进杠出, the fan a payer's exposed and concealed kong each add.
    #[serde(skip)]
    payer_kong_fan: Option<(u32, u32)>,
}

impl Score {
    /// A placeholder for a win read back before it is scored again (a snapshot's wins).
    pub(crate) fn unscored() -> Score {
        let rules = crate::rules::Preset::Chengdu.rules();
        Score::new((Pattern::Basic, 0), Bonuses::default(), 0, &rules)
    }

    /// The score of a pattern and bonuses. Rules that pass [`Rules::validate`] bound every
    /// payment below 2^64, so the saturating arithmetic never saturates for them.
    #[inline]
    fn new(
        (pattern, pattern_fan): (Pattern, u32),
        bonuses: Bonuses,
        extra_points: u64,
        rules: &Rules,
    ) -> Score {
        let curve = rules.curve();
        let fan = pattern_fan.saturating_add(bonuses.fan());
        let capped_fan = curve.cap(fan);
        let multiplier = curve.multiplier(capped_fan).unwrap_or(u64::MAX);
        let points = curve.points(capped_fan).unwrap_or(u64::MAX);
        let payer_kong_fan = (rules.kong_fan == KongFan::WinAndLoss)
            .then_some((rules.exposed_kong_fan, rules.concealed_kong_fan));
        Score {
            pattern,
            pattern_fan,
            bonuses,
            fan,
            capped_fan,
            multiplier,
            extra_points,
            points: points.saturating_add(extra_points),
            curve,
            payer_kong_fan,
        }
    }

    /// Four wilds (四幺鸡, seed 004: 番数按照…最大番): `basic` and the bonus `four_wilds` worth
    /// `cap_fan`, nothing else, so the win is worth exactly the cap (docs/game-protocol.md §11).
    /// Rules without a cap (which the game refuses) get a bonus of 0.
    pub fn four_wilds(rules: &Rules) -> Score {
        let basic = rules.fan.get(Pattern::Basic).unwrap_or(0);
        let mut bonuses = Bonuses::default();
        bonuses.add(Bonus::FourWilds, 1, rules.cap_fan.unwrap_or(0));
        Score::new((Pattern::Basic, basic), bonuses, 0, rules)
    }

    /// This score with some of the winner's kongs scored as roots instead (`late_kong =
    /// "root_only"`, seed 002 計分規則 12: a late kong 只算根, wilds or not). The kong bonus goes; a
    /// root comes unless `gen_counts_kongs` counts the kong as one already (the `natural` ones, of
    /// four natural copies). The change is the same for every pattern the hand could take, so
    /// the pattern stays the best.
    pub fn with_root_only_kongs(
        &self,
        rules: &Rules,
        exposed: u8,
        concealed: u8,
        natural: u8,
    ) -> Score {
        let mut bonuses = self.bonuses;
        bonuses.remove(Bonus::ExposedKong, exposed);
        bonuses.remove(Bonus::ConcealedKong, concealed);
        let counted = if rules.gen_counts_kongs { natural } else { 0 };
        bonuses.add(Bonus::Root, exposed + concealed - counted, rules.gen_fan);
        Score::new(
            (self.pattern, self.pattern_fan),
            bonuses,
            self.extra_points,
            rules,
        )
    }

    /// What a payer holding these kongs pays. Under 杠进杠出 (`kong_fan = "win_and_loss"`) the
    /// payer's own kong fan adds to the winner's fan, and the cap limits the sum (as a win's
    /// total); otherwise every payer pays `points`. Exact for rules that pass
    /// [`Rules::validate`], which bounds every payment.
    pub fn payment(&self, payer_exposed_kongs: u8, payer_concealed_kongs: u8) -> u64 {
        let Some((exposed, concealed)) = self.payer_kong_fan else {
            return self.points;
        };
        let own = u32::from(payer_exposed_kongs)
            .saturating_mul(exposed)
            .saturating_add(u32::from(payer_concealed_kongs).saturating_mul(concealed));
        let fan = self.curve.cap(self.fan.saturating_add(own));
        let points = self.curve.points(fan).unwrap_or(u64::MAX);
        points.saturating_add(self.extra_points)
    }
}

impl fmt::Display for Score {
    /// A breakdown a player can check by hand, one line per item.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let line = |f: &mut fmt::Formatter<'_>, name: &str, fan: u32, note: &str| {
            writeln!(
                f,
                "{}",
                format!("{name:<24}{fan:>3} fan  {note}").trim_end()
            )
        };
        line(
            f,
            self.pattern.name(),
            self.pattern_fan,
            self.pattern.chinese(),
        )?;
        for (bonus, count, fan) in self.bonuses.iter() {
            let name = match count {
                1 => bonus.name().to_owned(),
                n => format!("{} ×{n}", bonus.name()),
            };
            line(f, &name, fan, bonus.chinese())?;
        }
        line(f, "total", self.fan, "")?;
        if self.capped_fan < self.fan {
            line(f, "capped", self.capped_fan, "封顶")?;
        }
        write!(
            f,
            "points per payer        {}",
            self.curve.explain(self.capped_fan)
        )?;
        if self.extra_points > 0 {
            write!(f, " + {} (自摸加底) = {}", self.extra_points, self.points)?;
        }
        if self.payer_kong_fan.is_some() {
            write!(
                f,
                "\n(杠进杠出: each payer adds the fan of their own kongs)"
            )?;
        }
        Ok(())
    }
}

/// Why a win could not be scored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScoreError {
    Hand(HandError),
    WinTileNotInHand {
        tile: Tile,
    },
    NotAWin {
        hand: String,
        reason: &'static str,
    },
    /// Situation flags no real win has together.
    Situation(&'static str),
    /// Wilds where the rules have none, or a `1s` the rules make a wild written as a natural
    /// tile; the text says which.
    Wilds(&'static str),
}

impl fmt::Display for ScoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScoreError::Hand(e) => write!(f, "{e}"),
            ScoreError::WinTileNotInHand { tile } => {
                write!(f, "the winning tile {tile} is not in the hand")
            }
            ScoreError::NotAWin { hand, reason } => {
                write!(f, "{hand} does not win under these rules: {reason}")
            }
            ScoreError::Situation(why) | ScoreError::Wilds(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for ScoreError {}

impl From<HandError> for ScoreError {
    fn from(e: HandError) -> ScoreError {
        ScoreError::Hand(e)
    }
}

/// Scores a win. `hand` is the concealed tiles including `win_tile` (14 less 3 per meld);
/// `melds` are the winner's pongs and kongs. Under `wilds` the hand's wilds are its
/// [`Counts::wilds`] (a `1s` among its natural tiles is refused), `win_tile` is `1s` when the
/// winning tile is a wild, and melds may hold wilds. Checks the hand and the situation first;
/// nothing after that can fail. `rules` must pass [`Rules::validate`] (presets and every `Rules`
/// the Python API builds do): scoring is exact only for them, and never panics for others.
pub fn score(
    hand: &Counts,
    win_tile: Tile,
    melds: &[Meld],
    void: Option<Suit>,
    rules: &Rules,
    situation: &Situation,
) -> Result<Score, ScoreError> {
    debug_assert_eq!(rules.validate(), Ok(()));
    let ctx = Context::new(melds, void, rules.allow_seven_pairs)?;
    ctx.check(hand, analysis::HandSize::Complete)?;
    check_wilds(hand, &ctx, rules)?;
    let wild_win = rules.is_wild(win_tile);
    let held = if wild_win {
        hand.wilds()
    } else {
        hand.count(win_tile)
    };
    if held == 0 {
        return Err(ScoreError::WinTileNotInHand { tile: win_tile });
    }
    situation.check(&ctx.melds, rules)?;
    if hand.wilds() >= MAX_WILDS {
        if rules.cap_fan.is_none() {
            return Err(ScoreError::Wilds(
                "four wilds win at the room's cap_fan, and these rules have none",
            ));
        }
        return Ok(Score::four_wilds(rules));
    }
    if !analysis::is_win(hand, &ctx) {
        return Err(ScoreError::NotAWin {
            hand: describe_hand(hand, melds),
            reason: why_not_a_win(hand, &ctx),
        });
    }
    Ok(score_known_win(hand, &ctx, rules, situation))
}

/// [`score`] of `hand` without its winning tile (13 tiles less 3 per meld) and `win_tile`,
/// which under the 幺鸡 rules is a wild when it is `1s`.
pub fn score_on(
    hand: &Counts,
    win_tile: Tile,
    melds: &[Meld],
    void: Option<Suit>,
    rules: &Rules,
    situation: &Situation,
) -> Result<Score, ScoreError> {
    let summary = Melds::new(melds)?;
    if hand.len() + 1 != summary.concealed_size() {
        let expected = match summary.sets {
            0 => "score takes the hand without its winning tile: 13 tiles",
            _ => "score takes the hand without its winning tile: 13 tiles counting each meld as 3",
        };
        let (len, wilds) = (hand.len(), hand.wilds());
        return Err(HandError::WrongSize {
            len,
            wilds,
            expected,
        }
        .into());
    }
    let mut full = *hand;
    if rules.is_wild(win_tile) {
        if hand.wilds() >= MAX_WILDS {
            return Err(HandError::TooManyWilds {
                wilds: MAX_WILDS + 1,
            }
            .into());
        }
        full.add_wild();
    } else if hand.count(win_tile) >= 4 {
        return Err(HandError::TooManyCopies {
            tile: win_tile,
            count: 5,
        }
        .into());
    } else {
        full.add(win_tile);
    }
    score(&full, win_tile, melds, void, rules, situation)
}

/// [`score`] without its checks, for a caller that already knows the hand wins (the game
/// does): `hand` includes the winning tile. Never fails and never panics; the result is
/// meaningful only for a winning hand (and, for four wilds, rules with a `cap_fan`).
#[inline]
pub fn score_known_win(
    hand: &Counts,
    ctx: &Context,
    rules: &Rules,
    situation: &Situation,
) -> Score {
    if hand.wilds() >= MAX_WILDS {
        return Score::four_wilds(rules);
    }
    let facts = analysis::facts(hand, ctx);
    let (pattern, mut bonuses) = hand_value(&facts, &ctx.melds, rules, situation);
    let extra = situational(&mut bonuses, rules, situation, hand.wilds() == 0);
    Score::new(pattern, bonuses, extra, rules)
}

/// [`best_waits`] without its checks, calling `f` with each wait and its score.
#[inline]
pub fn best_waits_known(
    hand: &Counts,
    ctx: &Context,
    rules: &Rules,
    mut f: impl FnMut(Tile, Score),
) {
    let copies = match rules.ready_wait_copies {
        ReadyWaitCopies::HandAndMelds => analysis::Copies::HandAndMelds,
        ReadyWaitCopies::HandOnly => analysis::Copies::HandOnly,
    };
    analysis::waits_with_facts(hand, ctx, copies, |tile, facts| {
        // Under 幺鸡 a drawn 1s is a wild, never the natural tile waited on; and 查叫 values
        // natural waits only (docs/game-protocol.md §11).
        if rules.is_wild(tile) {
            return;
        }
        // Four wilds win at the cap whatever the rest, as in `score` (§11).
        if hand.wilds() >= MAX_WILDS {
            return f(tile, Score::four_wilds(rules));
        }
        let (pattern, bonuses) = hand_value(&facts, &ctx.melds, rules, &Situation::DISCARD);
        f(tile, Score::new(pattern, bonuses, 0, rules));
    });
}

/// Every wait of a ready hand (13 tiles less 3 per meld) with its best score under 查叫 (RULES.md
/// §9): the pattern, roots and the player's own kongs, capped; no situational bonus. A wait
/// counts even if every other copy is visible; a tile whose four copies the player holds is not
/// a wait (in hand and melds, or in hand alone under `ready_wait_copies = "hand_only"`). Empty when the hand is not ready. `rules` as for [`score`].
pub fn best_waits(
    hand: &Counts,
    melds: &[Meld],
    void: Option<Suit>,
    rules: &Rules,
) -> Result<Vec<(Tile, Score)>, ScoreError> {
    debug_assert_eq!(rules.validate(), Ok(()));
    let ctx = Context::new(melds, void, rules.allow_seven_pairs)?;
    ctx.check(hand, analysis::HandSize::Waiting)?;
    check_wilds(hand, &ctx, rules)?;
    if hand.wilds() >= MAX_WILDS && rules.cap_fan.is_none() {
        return Err(ScoreError::Wilds(
            "four wilds win at the room's cap_fan, and these rules have none",
        ));
    }
    let mut scores = Vec::new();
    best_waits_known(hand, &ctx, rules, |tile, score| scores.push((tile, score)));
    Ok(scores)
}

/// The best pattern and the bonuses of the hand itself: roots and the winner's kongs.
#[inline]
fn hand_value(
    facts: &HandFacts,
    melds: &Melds,
    rules: &Rules,
    situation: &Situation,
) -> ((Pattern, u32), Bonuses) {
    // Valid rules always have a pattern for a winning hand: `basic`, or `seven_pairs` when
    // seven pairs win.
    let (pattern, fan) =
        best_pattern(facts, melds, rules, situation).unwrap_or((Pattern::Basic, 0));
    let kong_roots = if rules.gen_counts_kongs {
        melds.natural_kongs()
    } else {
        0
    };
    let roots = facts.roots + kong_roots - u8::from(pattern.takes_a_root());
    let mut bonuses = Bonuses::default();
    bonuses.add(Bonus::Root, roots, rules.gen_fan);
    bonuses.add(
        Bonus::ExposedKong,
        melds.exposed_kongs,
        rules.exposed_kong_fan,
    );
    bonuses.add(
        Bonus::ConcealedKong,
        melds.concealed_kongs,
        rules.concealed_kong_fan,
    );
    bonuses.add(
        Bonus::GoldenHook,
        u8::from(melds.sets == 4),
        rules.golden_hook_fan,
    );
    ((pattern, fan), bonuses)
}

/// The pattern a win counts (RULES.md §8). Each way the hand splits — sets and a pair, or seven
/// pairs — counts only its highest-fan patterns (seeds 002/004: 只按最大番算); the split worth
/// most then wins (seed 004 §四.8). Bonuses differ between splits only by the root a dragon seven
/// pairs takes, so "worth most" is the most fan net of that root; then the most pattern fan; then
/// the pattern listed first in the schema. A robbing win under `rob_kong_scoring = "as_basic"`
/// is always `basic`.
#[inline]
fn best_pattern(
    facts: &HandFacts,
    melds: &Melds,
    rules: &Rules,
    situation: &Situation,
) -> Option<(Pattern, u32)> {
    if situation.robbed_kong && rules.rob_kong_scoring == RobKongScoring::AsBasic {
        return rules
            .fan
            .get(Pattern::Basic)
            .map(|fan| (Pattern::Basic, fan));
    }
    let (standard, seven_pairs) = patterns_held(facts, melds, rules, situation);
    let mut candidates = highest(standard, rules) | highest(seven_pairs, rules);
    let mut best: Option<(Pattern, u32, i64)> = None;
    while candidates != 0 {
        let pattern = Pattern::ALL[candidates.trailing_zeros() as usize];
        candidates &= candidates - 1;
        let fan = rules.fan.get(pattern).unwrap_or(0);
        let net = i64::from(fan) - i64::from(pattern.takes_a_root()) * i64::from(rules.gen_fan);
        if best.is_none_or(|(_, best_fan, best_net)| (net, fan) > (best_net, best_fan)) {
            best = Some((pattern, fan, net));
        }
    }
    best.map(|(pattern, fan, _)| (pattern, fan))
}

/// The patterns of `held` the room has that have the most fan among them.
#[inline]
fn highest(held: u32, rules: &Rules) -> u32 {
    let mut available = held & rules.fan.available();
    let mut top = 0;
    let mut most = None;
    while available != 0 {
        let bit = available & available.wrapping_neg();
        available &= available - 1;
        let fan = rules.fan.get(Pattern::ALL[bit.trailing_zeros() as usize]);
        match fan.cmp(&most) {
            std::cmp::Ordering::Greater => (top, most) = (bit, fan),
            std::cmp::Ordering::Equal => top |= bit,
            std::cmp::Ordering::Less => {}
        }
    }
    top
}

/// The patterns the hand's standard splits have together, and those of its seven-pairs split
/// (RULES.md §8, §13), bit `p` for pattern `p`; 0 for a shape the hand does not have. A
/// standard split's patterns depend on the split only through triplets and terminals, which
/// [`HandFacts`] reports for some split each, so their union is exact. Seven pairs are a win
/// shape too: they have `basic`, `concealed` and `full_flush` as any hand would.
#[inline]
fn patterns_held(f: &HandFacts, melds: &Melds, rules: &Rules, situation: &Situation) -> (u32, u32) {
    let first_draw = !rules.heavenly_stacks;
    let any_shape = [
        (Pattern::Basic, true),
        // (r) 门清: no pong and no exposed kong; the winning tile may come from a discard.
        (Pattern::Concealed, melds.claimed() == 0),
        (Pattern::FullFlush, f.one_suit),
        (Pattern::Heavenly, situation.heavenly && first_draw),
        (Pattern::Earthly, situation.earthly && first_draw),
    ];
    let standard = [
        (Pattern::AllTriplets, f.all_triplets),
        (Pattern::Terminals, f.terminals),
        (Pattern::FlushTriplets, f.all_triplets && f.one_suit),
        (Pattern::Triplets258, f.all_triplets && f.only_258),
        (Pattern::FlushTerminals, f.terminals && f.one_suit),
        (Pattern::GoldenHook, melds.sets == 4),
        (Pattern::EighteenArhats, melds.kongs() == 4),
    ];
    let four = f.roots > 0;
    let seven_pairs = [
        (Pattern::SevenPairs, true),
        (Pattern::DragonSevenPairs, four),
        (Pattern::FlushSevenPairs, f.one_suit),
        (Pattern::FlushDragonSevenPairs, f.one_suit && four),
    ];
    let mask = |held: &[(Pattern, bool)]| {
        held.iter().fold(0, |mask, &(pattern, yes)| {
            mask | u32::from(yes) << pattern as usize
        })
    };
    let any = mask(&any_shape);
    (
        if f.standard { any | mask(&standard) } else { 0 },
        if f.seven_pairs {
            any | mask(&seven_pairs)
        } else {
            0
        },
    )
}

/// Adds the bonuses of how the win came about and, under `wilds`, 无鸡加番 when the concealed
/// hand holds no wild (`no_wild`); returns the 自摸加底 points.
#[inline]
fn situational(bonuses: &mut Bonuses, rules: &Rules, s: &Situation, no_wild: bool) -> u64 {
    bonuses.add(
        Bonus::KongFlower,
        u8::from(s.kong_flower),
        rules.kong_flower_fan,
    );
    bonuses.add(Bonus::KongShot, u8::from(s.kong_shot), rules.kong_shot_fan);
    bonuses.add(Bonus::RobKong, u8::from(s.robbed_kong), rules.rob_kong_fan);
    if rules.wilds && no_wild {
        bonuses.add(Bonus::NoWild, 1, rules.no_wild_fan);
    }
    let (last_drawn, last_discard) = (s.last_tile && s.self_draw, s.last_tile && !s.self_draw);
    bonuses.add(
        Bonus::LastTileSelfDraw,
        u8::from(last_drawn),
        rules.last_tile_self_draw_fan,
    );
    bonuses.add(
        Bonus::LastDiscardWin,
        u8::from(last_discard),
        rules.last_discard_win_fan,
    );
    if rules.heavenly_stacks {
        let fan = |p| rules.fan.get(p).unwrap_or(0);
        bonuses.add(
            Bonus::Heavenly,
            u8::from(s.heavenly),
            fan(Pattern::Heavenly),
        );
        bonuses.add(Bonus::Earthly, u8::from(s.earthly), fan(Pattern::Earthly));
    }
    match rules.self_draw_bonus {
        SelfDrawBonus::AddFan => bonuses.add(Bonus::SelfDraw, u8::from(s.self_draw), 1),
        SelfDrawBonus::AddBase if s.self_draw => return u64::from(rules.base_points),
        _ => {}
    }
    0
}

/// Wilds only under `wilds`, where a `1s` is always a wild: never a natural tile of the hand
/// (the caller counts it in [`Counts::wilds`]) nor the tile of a meld.
fn check_wilds(hand: &Counts, ctx: &Context, rules: &Rules) -> Result<(), ScoreError> {
    let melded_yaoji = (ctx.melds.pong_mask | ctx.melds.kong_mask) >> Tile::YAOJI.index() & 1;
    match rules.wilds {
        false if hand.wilds() + ctx.melds.wilds > 0 => Err(ScoreError::Wilds(
            "wilds (幺鸡) are held, but these rules have none (wilds = false)",
        )),
        true if hand.count(Tile::YAOJI) > 0 => Err(ScoreError::Wilds(
            "the hand names 1s, a wild (幺鸡) under these rules: give the hand's natural tiles and count its wilds apart",
        )),
        true if melded_yaoji != 0 => Err(ScoreError::Wilds(
            "a meld of 1s: under these rules every 1s is a wild (幺鸡), and a meld needs a natural tile",
        )),
        _ => Ok(()),
    }
}

fn describe_hand(hand: &Counts, melds: &[Meld]) -> String {
    let mut text = hand.to_string();
    for m in melds {
        text.push_str(&format!(" {m}"));
    }
    text
}

/// The first rule of a complete hand (§5, §8) that `hand` breaks.
fn why_not_a_win(hand: &Counts, ctx: &Context) -> &'static str {
    let used = hand.suit_mask() | ctx.melds.suit_mask;
    if ctx.void.is_some_and(|v| used & v.bit() != 0) {
        "it holds its void suit (定缺)"
    } else if used.count_ones() > 2 {
        "it uses three suits; a win uses at most two (缺一门)"
    } else if ctx.melds.sets == 0 && hand.array().iter().all(|c| c % 2 == 0) {
        "seven pairs are not allowed in these rules"
    } else {
        "it is not four sets and a pair"
    }
}

#[cfg(test)]
mod tests;
