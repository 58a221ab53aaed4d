//! A room's rules (RULES.md §2–§11, §13): every option by its schema name (docs/rules-schema.md),
//! the seven presets of §10, and the checks that keep a `Rules` value scorable.
//!
//! String options are enums ([`Choice`]); [`Rules::get`] and [`Rules::set`] read and write any
//! option by name as a [`Value`], which is how the Python binding builds dicts.

mod fields;
pub(crate) mod json;
mod presets;

pub use fields::Value;
pub use json::rules_json;
pub use presets::Preset;

use fields::options;

use crate::choice::{choice, Choice};
use crate::excerpt::{quote, EXCERPT_CHARS};
use crate::pattern::{FanTable, Pattern};
use crate::points::{Curve, Scoring, MAX_PAYMENT};
use std::fmt;

choice! {
    /// Who keeps playing after a win (§7).
    pub enum Mode {
        /// 血战到底: a winner leaves the hand.
        Xuezhan = "xuezhan",
        /// 血流成河: a winner stays, hand locked.
        Xueliu = "xueliu",
    }
}

choice! {
    /// How the first dealer is chosen (§2).
    pub enum FirstDealer {
        East = "east",
        Random = "random",
        Dice = "dice",
    }
}

choice! {
    /// Who deals the next hand (§2).
    pub enum DealerRotation {
        /// 轮庄: the next seat.
        Rotate = "rotate",
        /// The first winner of this hand (the discarder on a multiple first win).
        FirstWinner = "first_winner",
    }
}

choice! {
    /// Where a kong's replacement tile comes from (§3).
    pub enum KongDrawFrom {
        Front = "front",
        Back = "back",
    }
}

choice! {
    /// 换三张 direction (§4); the option itself may be null for no exchange.
    pub enum Exchange {
        /// Seed 000's die decides.
        Dice = "dice",
        Clockwise = "clockwise",
        Counterclockwise = "counterclockwise",
        Opposite = "opposite",
        /// Uniform among the three directions.
        Random = "random",
    }
}

choice! {
    /// Whether a kong declared later than it first could have been is allowed (§6).
    pub enum LateKong {
        Full = "full",
        RootOnly = "root_only",
        KeptFourthForbidden = "kept_fourth_forbidden",
        Forbidden = "forbidden",
        /// MIL SBR 2025 Art.10-1(2)1: a late added kong stands as a kong but is not paid; a late
        /// concealed kong is paid in full.
        AddKongUnpaid = "add_kong_unpaid",
        /// T/TFMJ 01—2024: an added kong only with the tile just drawn; a concealed kong any time.
        AddKongDrawnOnly = "add_kong_drawn_only",
    }
}

choice! {
    /// 过胡: what declining a winning discard costs (§6).
    pub enum PassWinLock {
        None = "none",
        UntilDraw = "until_draw",
        UntilDrawUnlessHigher = "until_draw_unless_higher",
    }
}

choice! {
    /// 过胡: which fan a declined win and a later win are compared by under
    /// `pass_win_lock = "until_draw_unless_higher"` (§6).
    pub enum PassWinCompare {
        /// The capped fan: two wins both at the cap are equal (every seed; T/TFMJ ES §5 compares
        /// payment tiers).
        CappedFan = "capped_fan",
        /// The fan before the cap (MIL SBR 2025 Art.4-27: 「和牌张番数小于等于未报和的牌张所对应的番数」).
        Fan = "fan",
    }
}

choice! {
    /// When the table learns a win's details and its points move (§12, §8).
    pub enum WinReveal {
        /// At once: the win's tile and score are public, its points paid (RULES.md §12).
        Immediate = "immediate",
        /// At the hand's end (MIL SBR 2025 Art.9-1(3),(5), Art.10-2): the others see that the
        /// seat won and a discard win's tile, nothing more, until a `reveal` event before `end`
        /// shows every win and its payments follow.
        HandEnd = "hand_end",
    }
}

choice! {
    /// 过胡 after the locked seat pongs (§6): a pong draws no tile, so the lock stands.
    pub enum PassWinLockAfterPong {
        /// The lock lasts until the seat's next draw (every seed; T/TFMJ 「到自己下一次摸牌前」).
        Kept = "kept",
        /// The lock ends if the hand is not ready after the pong's discard (MIL SBR 2025
        /// Art.4-27: 「若 A 在碰牌后手牌未处于可和牌状态…不视为 A 顺和」).
        KeptIfReady = "kept_if_ready",
    }
}

choice! {
    /// Forced wins among the wall's last four tiles (§6).
    pub enum LastFour {
        None = "none",
        Forced = "forced",
        SelfDrawForced = "self_draw_forced",
        RonForced = "ron_forced",
    }
}

choice! {
    /// How a robbed kong (抢杠) win is scored (§8).
    pub enum RobKongScoring {
        /// With the `basic` pattern, whatever the hand; roots and kongs still count.
        AsBasic = "as_basic",
        Normal = "normal",
    }
}

choice! {
    /// What a self-drawn win adds (§13).
    pub enum SelfDrawBonus {
        None = "none",
        /// 自摸加底: each payer pays one more base.
        AddBase = "add_base",
        /// 自摸加番: one more fan.
        AddFan = "add_fan",
    }
}

choice! {
    /// Who pays a self-drawn win (§9).
    pub enum SelfDrawPayers {
        NotWon = "not_won",
        AllOthers = "all_others",
    }
}

choice! {
    /// Whether a payer's own kongs raise what they pay (§9).
    pub enum KongFan {
        /// 杠进杠出: each payer pays for the winner's fan plus their own kong fan.
        WinAndLoss = "win_and_loss",
        WinOnly = "win_only",
    }
}

choice! {
    /// Who pays 点杠花: a kong-replacement win after a direct kong (§9).
    pub enum KongFlowerAfterDirectKong {
        /// 承包制: the feeder pays what every payer would.
        FeederPaysAll = "feeder_pays_all",
        /// 家家有: every payer pays.
        AllPay = "all_pay",
        AsDiscardWin = "as_discard_win",
    }
}

choice! {
    /// 呼叫转移: where kong income goes on a 杠上炮 (§9).
    pub enum KongIncomeTransfer {
        None = "none",
        LastKong = "last_kong",
        AllKongs = "all_kongs",
        RefundToPayers = "refund_to_payers",
        /// T/TFMJ 01—2024 (ES §9): the income of the discarder's kong chain (the kong just before
        /// the discard and each kong declared on the replacement of the one before it) goes to
        /// the winners, ⌈income / winners⌉ each; its payers are not refunded.
        KongChain = "kong_chain",
    }
}

choice! {
    /// What a flower pig (花猪) pays (§9, §13).
    pub enum FlowerPigPenalty {
        DoubleReadyValue = "double_ready_value",
        FixedFan = "fixed_fan",
        Cap = "cap",
        /// The competition rulebooks: no penalty; the pig pays 查叫 as a player not ready.
        AsNotReady = "as_not_ready",
    }
}

choice! {
    /// Who is a flower pig (花猪, §9.1).
    pub enum FlowerPigRule {
        /// A hand still holding all three suits (every seed).
        ThreeSuits = "three_suits",
        /// With `declare_void`, also any hand holding a tile of its void suit (a platform variant).
        VoidHeld = "void_held",
    }
}

choice! {
    /// Which copies rule a tile out as a wait for 查叫 and readiness at 流局 (§9).
    pub enum ReadyWaitCopies {
        /// No wait on a tile whose four copies the player holds in hand and melds together
        /// (every seed; T/TFMJ: 「不会把物理上不存在的第五张牌当成等待」).
        HandAndMelds = "hand_and_melds",
        /// MIL SBR 2025 Art.10-3(2): only four copies in the concealed hand rule a tile out, so a
        /// "fifth copy" against the player's own pong or kong is a wait.
        HandOnly = "hand_only",
    }
}

choice! {
    /// Whom a flower pig pays (§9).
    pub enum FlowerPigPayees {
        Ready = "ready",
        ReadyOrWon = "ready_or_won",
        NonPigs = "non_pigs",
    }
}

/// Largest value of a fan option or of `fan_offset` and `cap_fan`.
pub const MAX_FAN: u32 = 64;
/// Largest `base_points`.
pub const MAX_BASE_POINTS: u32 = 1_000_000;
/// Largest `escape_penalty`.
pub const MAX_ESCAPE_PENALTY: u32 = 1_000_000_000;
/// Most roots a win can hold: 18 tiles (four kongs and a pair) hold at most four fours.
pub const MAX_ROOTS: u32 = 4;
/// Most kongs a hand can hold.
pub const MAX_KONGS: u32 = 4;

options! {
    /// Every option of a room. Build one with [`Rules::preset`]; change options with
    /// [`Rules::set`] (checked one by one) and call [`Rules::validate`] after.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct Rules {
        /// The preset it was built from; informational.
        preset: Choice(Option<Preset>) = None,
        mode: Choice(Mode) = Mode::Xuezhan,
        first_dealer: Choice(FirstDealer) = FirstDealer::East,
        dealer_rotation: Choice(DealerRotation) = DealerRotation::Rotate,
        kong_draw_from: Choice(KongDrawFrom) = KongDrawFrom::Front,
        pong_last_discard: Bool = false,
        exchange: Choice(Option<Exchange>) = None,
        exchange_redeal_if_unchanged: Bool = false,
        exchange_same_suit: Bool = true,
        declare_void: Bool = true,
        allow_seven_pairs: Bool = false,
        gen_counts_kongs: Bool = false,
        rob_concealed_kong: Bool = false,
        late_kong: Choice(LateKong) = LateKong::Full,
        pass_win_lock: Choice(PassWinLock) = PassWinLock::None,
        last_four: Choice(LastFour) = LastFour::None,
        fan: Fan = FanTable::EMPTY,
        gen_fan: Int(0..=MAX_FAN) = 0,
        exposed_kong_fan: Int(0..=MAX_FAN) = 0,
        concealed_kong_fan: Int(0..=MAX_FAN) = 0,
        kong_flower_fan: Int(0..=MAX_FAN) = 0,
        kong_shot_fan: Int(0..=MAX_FAN) = 0,
        rob_kong_fan: Int(0..=MAX_FAN) = 0,
        rob_kong_scoring: Choice(RobKongScoring) = RobKongScoring::Normal,
        self_draw_bonus: Choice(SelfDrawBonus) = SelfDrawBonus::None,
        scoring: Choice(Scoring) = Scoring::Linear,
        base_points: Int(1..=MAX_BASE_POINTS) = 1,
        fan_offset: Int(0..=MAX_FAN) = 0,
        cap_fan: OptionalInt(1..=MAX_FAN) = None,
        self_draw_payers: Choice(SelfDrawPayers) = SelfDrawPayers::NotWon,
        kong_fan: Choice(KongFan) = KongFan::WinOnly,
        kong_payments: Bool = false,
        kong_flower_after_direct_kong: Choice(KongFlowerAfterDirectKong) =
            KongFlowerAfterDirectKong::AllPay,
        kong_income_transfer: Choice(KongIncomeTransfer) = KongIncomeTransfer::None,
        flower_pig_penalty: Choice(FlowerPigPenalty) = FlowerPigPenalty::DoubleReadyValue,
        flower_pig_fan: Int(0..=MAX_FAN) = 0,
        flower_pig_payees: Choice(FlowerPigPayees) = FlowerPigPayees::Ready,
        flower_pig_rule: Choice(FlowerPigRule) = FlowerPigRule::ThreeSuits,
            [since 1: FlowerPigRule::VoidHeld],
        tax_refund: Bool = false,
        ready_difference: Bool = false,
        wilds: Bool = false,
        no_wild_fan: Int(0..=MAX_FAN) = 0,
        heavenly_stacks: Bool = false,
        /// 逃跑: the points a leaver pays each seat that has not won (§2). 96 is seed 002's
        /// 計分規則 11; the other seeds are silent *(c)*.
        escape_penalty: Int(0..=MAX_ESCAPE_PENALTY) = 96, [since 1: 96],
        /// 金钩钓 as a bonus: a win with four melds, the last tile a single wait on its pair.
        golden_hook_fan: Int(0..=MAX_FAN) = 0, [since 2: 0],
        /// 海底捞月: a self-draw on the wall's last tile.
        last_tile_self_draw_fan: Int(0..=MAX_FAN) = 0, [since 2: 0],
        /// 海底炮: a win on a discard made with the wall empty.
        last_discard_win_fan: Int(0..=MAX_FAN) = 0, [since 2: 0],
        /// Which waits count for 查叫 and readiness at 流局.
        ready_wait_copies: Choice(ReadyWaitCopies) = ReadyWaitCopies::HandAndMelds,
            [since 3: ReadyWaitCopies::HandAndMelds],
        /// 过胡 also starts when the seat declines a self-drawn win (MIL SBR 2025 Art.4-27).
        pass_win_lock_self_draw: Bool = false, [since 4: false],
        /// Whether 过胡 survives a pong that leaves the hand not ready.
        pass_win_lock_after_pong: Choice(PassWinLockAfterPong) = PassWinLockAfterPong::Kept,
            [since 4: PassWinLockAfterPong::Kept],
        /// The fan 过胡 compares: capped or not.
        pass_win_compare: Choice(PassWinCompare) = PassWinCompare::CappedFan,
            [since 4: PassWinCompare::CappedFan],
        /// Dice the dealer throws to break the wall (§3): 1 (seed 000) or 2 (MIL SBR 2025 Art.5-8);
        /// logged only, as the wall is shuffled.
        wall_break_dice: Int(1..=2) = 1, [since 5: 1],
        /// 杠上炮 also covers robbing an add kong declared on a kong's replacement (MIL SBR 2025 ⑧
        /// 「再次加杠的牌」): it stacks with 抢杠 and the kong before it pays back as on a discard.
        kong_shot_on_rob: Bool = false, [since 6: false],
        /// When a win's score, a self-draw's tile and the win's payments reach the other seats.
        win_reveal: Choice(WinReveal) = WinReveal::Immediate, [since 7: WinReveal::Immediate],
    }
}

/// A preset, option, pattern or value that does not exist, or rules that cannot score a win.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RulesError {
    UnknownPreset(String),
    UnknownOption(String),
    UnknownPattern(String),
    BadValue {
        option: String,
        value: String,
        expected: String,
    },
    /// Options that are each valid but cannot be used together.
    Inconsistent(String),
    /// A full set of options or patterns was needed; these were not given.
    Missing {
        within: &'static str,
        names: Vec<String>,
    },
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesError::UnknownPreset(name) => {
                write!(f, "unknown preset {}; presets: {}", quote(name), Preset::names())
            }
            RulesError::UnknownOption(name) => {
                write!(f, "unknown option {}", quote(name))?;
                // A name longer than any option is no typo: the list would only make the
                // message long (the schema grows), so point to it instead.
                if name.chars().count() > EXCERPT_CHARS {
                    return f.write_str("; no option has so long a name (docs/rules-schema.md)");
                }
                let names: Vec<String> = Rules::KEYS.iter().map(|k| format!("{k:?}")).collect();
                write!(f, "; options: {}", names.join(", "))
            }
            RulesError::UnknownPattern(name) => {
                write!(
                    f,
                    "unknown pattern {} in fan; patterns: {}",
                    quote(name),
                    Pattern::names()
                )
            }
            RulesError::BadValue {
                option,
                value,
                expected,
            } => write!(f, "option {option:?} cannot be {value}; valid: {expected}"),
            RulesError::Inconsistent(why) => f.write_str(why),
            RulesError::Missing { within, names } => write!(
                f,
                "missing {within}: {}; a rules dict names every option and every fan pattern (docs/rules-schema.md)",
                names.join(", ")
            ),
        }
    }
}

impl std::error::Error for RulesError {}

impl Rules {
    /// The preset called `name`.
    pub fn preset(name: &str) -> Result<Rules, RulesError> {
        Preset::parse(name)
            .map(Preset::rules)
            .ok_or_else(|| RulesError::UnknownPreset(name.to_owned()))
    }

    /// The fan-to-points curve of §9.
    pub fn curve(&self) -> Curve {
        Curve {
            scoring: self.scoring,
            base_points: self.base_points,
            fan_offset: self.fan_offset,
            cap_fan: self.cap_fan,
        }
    }

    /// Checks what no single option can: a pattern for every win (`basic`, which any winning
    /// shape has), and points that fit 64 bits for the largest win the options allow.
    pub fn validate(&self) -> Result<(), RulesError> {
        let inconsistent = |why: &str| Err(RulesError::Inconsistent(why.to_owned()));
        if self.fan.get(Pattern::Basic).is_none() {
            return inconsistent("fan.basic cannot be null: every standard hand needs a pattern");
        }
        if self.flower_pig_penalty == FlowerPigPenalty::Cap && self.cap_fan.is_none() {
            return inconsistent("flower_pig_penalty \"cap\" charges the cap, so cap_fan cannot be null; set cap_fan or choose another penalty");
        }
        let (largest, pig) = (self.largest_payment_fan(), self.flower_pig_fan);
        let extra = u64::from(self.base_points);
        let fits = |fan| {
            self.curve()
                .points(fan)
                .and_then(|p| p.checked_add(extra))
                .is_some_and(|p| p <= MAX_PAYMENT)
        };
        if !fits(largest) || !fits(pig) {
            return Err(RulesError::Inconsistent(format!(
                "these rules allow a payment of {} fan (largest pattern, bonuses and kongs together) at base_points {}, \
                 more than the {MAX_PAYMENT} points one payment may be (running totals stay within ±2**50); \
                 lower cap_fan, base_points or the largest fan values",
                largest.max(pig),
                self.base_points
            )));
        }
        Ok(())
    }

    /// An upper bound on the fan one payer can be charged for a win: the largest pattern and
    /// every bonus at its most, plus the payer's own kongs under 杠进杠出, capped. Saturates, so
    /// absurd values read as "too large" instead of wrapping.
    fn largest_payment_fan(&self) -> u32 {
        let kong = self.exposed_kong_fan.max(self.concealed_kong_fan);
        let first_draw = [Pattern::Heavenly, Pattern::Earthly]
            .map(|p| self.fan.get(p).unwrap_or(0))
            .into_iter()
            .max()
            .unwrap_or(0);
        let win = [
            self.fan.max(),
            if self.heavenly_stacks { first_draw } else { 0 },
            MAX_ROOTS.saturating_mul(self.gen_fan),
            MAX_KONGS.saturating_mul(kong),
            self.kong_flower_fan,
            self.kong_shot_fan,
            self.rob_kong_fan,
            self.golden_hook_fan,
            self.last_tile_self_draw_fan.max(self.last_discard_win_fan),
            u32::from(self.self_draw_bonus == SelfDrawBonus::AddFan),
            if self.wilds { self.no_wild_fan } else { 0 },
        ]
        .into_iter()
        .fold(0u32, u32::saturating_add);
        let payer = match self.kong_fan {
            KongFan::WinAndLoss => MAX_KONGS.saturating_mul(kong),
            KongFan::WinOnly => 0,
        };
        self.curve().cap(win.saturating_add(payer))
    }

    /// A readable table of every option and its value, and the fan table.
    pub fn describe(&self) -> String {
        let mut out = match self.preset {
            Some(p) => format!("Rules (from preset {p})\n"),
            None => "Rules (no preset)\n".to_owned(),
        };
        for &key in Rules::KEYS.iter().filter(|&&k| k != "preset") {
            if key == "fan" {
                out.push_str("  fan (pattern fan; — where the room lacks the pattern)\n");
                for (pattern, fan) in self.fan.iter() {
                    let fan = fan.map_or("—".to_owned(), |f| f.to_string());
                    let chinese = pattern.chinese();
                    out.push_str(&format!("    {pattern:<34}{fan:<4}{chinese}\n"));
                }
                continue;
            }
            let value = self.get(key).expect("every key reads");
            out.push_str(&format!("  {key:<36}{}\n", value.plain()));
        }
        out
    }
}

/// An option as a caller gives it: a value, or, for `fan`, only the patterns to change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Override {
    Value(Value),
    /// `fan={"basic": 2}`: the named patterns' fan (an integer, or null to remove it).
    FanPatterns(Vec<(String, Value)>),
}

impl Rules {
    /// The preset of a `Game`, `VecEnv`, simulation or rules dict that names none.
    pub const DEFAULT_PRESET: Preset = Preset::Chengdu;

    /// Whether `tile` is a wild under these rules: a `1s` (幺鸡) in the 幺鸡 variant (§11).
    #[inline]
    pub fn is_wild(&self, tile: crate::tile::Tile) -> bool {
        self.wilds && tile == crate::tile::Tile::YAOJI
    }

    /// These rules with each option overridden, then validated. `fan` as patterns changes only
    /// those; `preset` names where the rules started and cannot be overridden.
    pub fn with_overrides(
        mut self,
        overrides: impl IntoIterator<Item = (String, Override)>,
    ) -> Result<Rules, RulesError> {
        for (key, value) in overrides {
            let value = match (key.as_str(), value) {
                ("preset", _) => return Err(RulesError::Inconsistent(
                    "\"preset\" names the preset the rules started from and cannot be overridden; \
                     use Rules.preset(name)"
                        .into(),
                )),
                ("fan", Override::FanPatterns(patterns)) => {
                    let mut table = self.fan;
                    for (name, fan) in patterns {
                        table.set_named(&name, fan)?;
                    }
                    Value::Fan(table)
                }
                (_, Override::Value(v)) => v,
                (_, Override::FanPatterns(_)) => Value::Unsupported("a dict of patterns".into()),
            };
            self.set(&key, value)?;
        }
        self.validate()?;
        Ok(self)
    }

    /// [`Rules::from_values`] with `fan` given pattern by pattern (every pattern named): a dict
    /// `to_dict` wrote, in this version or before some options existed (a pickled `Rules`, a
    /// stored dict), which plays by the values those options' absence meant.
    pub fn from_full(mut entries: Vec<(String, Override)>) -> Result<Rules, RulesError> {
        let lacked = Rules::lacked_later(|key| entries.iter().any(|(k, _)| k == key));
        for key in lacked {
            entries.push((key.into(), Override::Value(Rules::OLDER.get(key)?)));
        }
        let values = entries.into_iter().map(|(key, value)| {
            let value = match value {
                Override::Value(v) => Ok(v),
                Override::FanPatterns(p) => FanTable::from_named(p).map(Value::Fan),
            };
            value.map(|v| (key, v))
        });
        Rules::from_values(values.collect::<Result<Vec<_>, _>>()?)
    }

    /// Rules from a dict: every option as `to_dict` writes it (see [`Rules::from_values`]), or
    /// a `preset` ([`Rules::DEFAULT_PRESET`] when absent) and the options that differ from it.
    pub fn from_entries(entries: Vec<(String, Override)>) -> Result<Rules, RulesError> {
        if entries.len() == Rules::KEYS.len() {
            return Rules::from_full(entries);
        }
        let (named, overrides): (Vec<_>, Vec<_>) =
            entries.into_iter().partition(|(key, _)| key == "preset");
        let base = match named.into_iter().next() {
            None => Rules::DEFAULT_PRESET.rules(),
            Some((_, Override::Value(Value::Text(name)))) => Rules::preset(&name)?,
            Some((_, other)) => {
                let value = match other {
                    Override::Value(v) => v.to_string(),
                    Override::FanPatterns(_) => "a dict".into(),
                };
                return Err(RulesError::BadValue {
                    option: "preset".into(),
                    value,
                    expected: format!("a preset name: {}", Preset::names()),
                });
            }
        };
        base.with_overrides(overrides)
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A dict `to_dict` wrote before an addition to the schema (a pickled `Rules`) reads with
    /// that addition's older values; one lacking only part of an addition is refused.
    #[test]
    fn a_whole_dict_written_before_an_addition_plays_by_its_older_values() {
        let given = Preset::MilSbr2025.rules();
        let whole = |drop: &dyn Fn(&str) -> bool| -> Vec<(String, Override)> {
            (Rules::KEYS.iter().filter(|k| !drop(k)))
                .map(|&k| (k.to_string(), Override::Value(given.get(k).unwrap())))
                .collect()
        };
        assert_eq!(Rules::from_full(whole(&|_| false)).unwrap(), given);
        for since in 1..=Rules::SINCE.into_iter().max().unwrap() {
            let added: Vec<&str> = (Rules::KEYS.iter().zip(Rules::SINCE))
                .filter(|&(_, s)| s == since)
                .map(|(&k, _)| k)
                .collect();
            let read = Rules::from_full(whole(&|k| added.contains(&k))).unwrap();
            for key in Rules::KEYS {
                let expected = if added.contains(&key) {
                    &Rules::OLDER
                } else {
                    &given
                };
                assert_eq!(read.get(key).unwrap(), expected.get(key).unwrap(), "{key}");
            }
            if added.len() > 1 {
                assert!(Rules::from_full(whole(&|k| k == added[0])).is_err());
            }
        }
    }

    #[test]
    fn every_preset_is_valid_and_named() {
        for &p in Preset::ALL {
            let rules = Rules::preset(p.name()).unwrap();
            assert_eq!(rules.preset, Some(p));
            rules.validate().unwrap();
        }
        assert_eq!(
            Rules::preset("chengdoo").unwrap_err().to_string(),
            "unknown preset \"chengdoo\"; presets: \"dashiyou\", \"sanxia\", \"sanxia_piao\", \
             \"chengdu\", \"chengdu_xueliu\", \"xuezhan\", \"yaoji\", \"mil_sbr_2025\", \"tfmj_2024\""
        );
    }

    #[test]
    fn validate_needs_a_basic_fan() {
        let mut r = Rules::preset("chengdu").unwrap();
        r.fan.set(Pattern::SevenPairs, None);
        r.validate().unwrap();
        r.fan.set(Pattern::Basic, None);
        assert!(r.validate().unwrap_err().to_string().contains("fan.basic"));
    }

    #[test]
    fn validate_needs_a_cap_for_the_cap_pig_penalty() {
        let mut r = Rules::preset("xuezhan").unwrap();
        r.flower_pig_penalty = FlowerPigPenalty::Cap;
        assert!(r.validate().unwrap_err().to_string().contains("cap_fan"));
        r.cap_fan = Some(5);
        r.validate().unwrap();
    }

    #[test]
    fn validate_rejects_payments_beyond_the_exact_range_unless_capped() {
        let mut r = Rules::preset("xuezhan").unwrap();
        r.fan.set(Pattern::Heavenly, Some(60));
        let e = r.validate().unwrap_err().to_string();
        assert!(
            e.contains("one payment may be") && e.contains("lower cap_fan"),
            "{e}"
        );
        r.cap_fan = Some(30);
        r.validate().unwrap();
    }

    #[test]
    fn describe_lists_every_option_and_pattern() {
        let text = Rules::preset("yaoji").unwrap().describe();
        for key in Rules::KEYS.iter().filter(|&&k| k != "preset") {
            assert!(text.contains(key), "{key}");
        }
        for &p in Pattern::ALL {
            assert!(text.contains(p.name()), "{p}");
        }
        assert!(text.contains("cap_fan                             5"));
    }
}
