//! The presets of RULES.md §10, one function per table column. Options the tables leave out take
//! the defaults RULES.md states (`Rules::DEFAULTS`, declared with each option in `options!`).
//! docs/rules-implemented.md gives each value's source.

use super::*;
use crate::pattern::Pattern::*;

choice! {
    /// A room preset, named after its source document (§10).
    pub enum Preset {
        /// Seed 000, 大师游血流成河 (Yichang).
        Dashiyou = "dashiyou",
        /// Seed 001, 三峡血流成河换三张.
        Sanxia = "sanxia",
        /// Seed 001's 带漂 room: sanxia with higher pattern fan.
        SanxiaPiao = "sanxia_piao",
        /// Seed 002, QQ 四川麻将 血战 (血流麻将 rules).
        Chengdu = "chengdu",
        /// Seed 003, 血流成河换三张 on seed 002's lists.
        ChengduXueliu = "chengdu_xueliu",
        /// Seed 004, 血战到底.
        Xuezhan = "xuezhan",
        /// Seed 004, 血战幺鸡: xuezhan with the four 1s wild.
        Yaoji = "yaoji",
        /// 四川麻将（SBR）竞赛规则 2025 of the 国际麻将联盟 (MIL), read in
        /// research/competition-presets.md §2.
        MilSbr2025 = "mil_sbr_2025",
        /// T/TFMJ 01—2024《四川麻将竞赛规则》, second-hand (research note §3).
        Tfmj2024 = "tfmj_2024",
    }
}

impl Preset {
    /// The preset's rules.
    pub fn rules(self) -> Rules {
        let rules = match self {
            Preset::Dashiyou => dashiyou(),
            Preset::Sanxia => sanxia(),
            Preset::SanxiaPiao => sanxia_piao(),
            Preset::Chengdu => chengdu(),
            Preset::ChengduXueliu => chengdu_xueliu(),
            Preset::Xuezhan => xuezhan(),
            Preset::Yaoji => yaoji(),
            Preset::MilSbr2025 => mil_sbr_2025(),
            Preset::Tfmj2024 => tfmj_2024(),
        };
        Rules {
            preset: Some(self),
            ..rules
        }
    }
}

/// The pattern fan of §10's first table, one row per column.
const DASHIYOU_FAN: [(Pattern, u32); 5] = [
    (Basic, 3),
    (Concealed, 4),
    (AllTriplets, 6),
    (FullFlush, 8),
    (FlushTriplets, 12),
];
const SANXIA_FAN: [(Pattern, u32); 4] = [
    (Basic, 1),
    (AllTriplets, 4),
    (FullFlush, 6),
    (FlushTriplets, 10),
];
/// 带漂房间规则: basic 3, all triplets 6, full flush 8, 清碰 12.
const SANXIA_PIAO_FAN: [(Pattern, u32); 4] = [
    (Basic, 3),
    (AllTriplets, 6),
    (FullFlush, 8),
    (FlushTriplets, 12),
];
const CHENGDU_FAN: [(Pattern, u32); 13] = [
    (Basic, 1),
    (AllTriplets, 2),
    (FullFlush, 3),
    (FlushTriplets, 4),
    (Terminals, 3),
    (SevenPairs, 3),
    (Triplets258, 4),
    (DragonSevenPairs, 5),
    (FlushSevenPairs, 5),
    (FlushTerminals, 5),
    (FlushDragonSevenPairs, 6),
    (Heavenly, 6),
    (Earthly, 6),
];
const XUEZHAN_FAN: [(Pattern, u32); 13] = [
    (Basic, 0),
    (AllTriplets, 1),
    (FullFlush, 2),
    (FlushTriplets, 3),
    (Terminals, 2),
    (SevenPairs, 2),
    (Triplets258, 3),
    (DragonSevenPairs, 4),
    (FlushSevenPairs, 4),
    (FlushTerminals, 4),
    (FlushDragonSevenPairs, 5),
    (Heavenly, 5),
    (Earthly, 5),
];

/// MIL Art.10-2(6): 10 fan types that add up; as patterns, 清一色 2 + 大对子 1 is `flush_triplets`
/// 3 (Ex.7) and 清一色 2 + 七对 2 is `flush_seven_pairs` 4 (Ex.8). 根, 杠, 金钩钓 and 海底 are bonuses.
const MIL_FAN: [(Pattern, u32); 6] = [
    (Basic, 0),
    (AllTriplets, 1),
    (FullFlush, 2),
    (SevenPairs, 2),
    (FlushTriplets, 3),
    (FlushSevenPairs, 4),
];
/// T/TFMJ 表 1 as EllanServer reads it: only the highest basic pattern counts, so a flush with
/// triplets or seven pairs is 2.
const TFMJ_FAN: [(Pattern, u32); 6] = [
    (Basic, 0),
    (AllTriplets, 1),
    (FullFlush, 2),
    (SevenPairs, 2),
    (FlushTriplets, 2),
    (FlushSevenPairs, 2),
];

fn dashiyou() -> Rules {
    Rules {
        mode: Mode::Xueliu,
        first_dealer: FirstDealer::East,
        dealer_rotation: DealerRotation::Rotate,
        exchange: Some(Exchange::Dice),
        exchange_redeal_if_unchanged: true,
        declare_void: true,
        allow_seven_pairs: false,
        scoring: Scoring::Linear,
        base_points: 1,
        fan_offset: 0,
        cap_fan: None,
        fan: FanTable::of(&DASHIYOU_FAN),
        gen_fan: 0,
        exposed_kong_fan: 1,
        concealed_kong_fan: 2,
        kong_flower_fan: 0,
        kong_shot_fan: 0,
        rob_kong_fan: 0,
        rob_kong_scoring: RobKongScoring::AsBasic,
        rob_concealed_kong: true,
        late_kong: LateKong::Full,
        pass_win_lock: PassWinLock::None,
        last_four: LastFour::Forced,
        kong_fan: KongFan::WinAndLoss,
        kong_payments: false,
        kong_flower_after_direct_kong: KongFlowerAfterDirectKong::AllPay,
        kong_income_transfer: KongIncomeTransfer::None,
        flower_pig_penalty: FlowerPigPenalty::DoubleReadyValue,
        flower_pig_fan: 0,
        flower_pig_payees: FlowerPigPayees::Ready,
        tax_refund: false,
        ready_difference: false,
        ..Rules::DEFAULTS
    }
}

fn sanxia() -> Rules {
    Rules {
        mode: Mode::Xueliu,
        first_dealer: FirstDealer::East,
        dealer_rotation: DealerRotation::Rotate,
        exchange: Some(Exchange::Dice),
        exchange_redeal_if_unchanged: false,
        declare_void: true,
        allow_seven_pairs: false,
        scoring: Scoring::Linear,
        base_points: 1,
        fan_offset: 0,
        cap_fan: None,
        fan: FanTable::of(&SANXIA_FAN),
        gen_fan: 0,
        exposed_kong_fan: 1,
        concealed_kong_fan: 2,
        kong_flower_fan: 0,
        kong_shot_fan: 0,
        rob_kong_fan: 0,
        rob_kong_scoring: RobKongScoring::AsBasic,
        rob_concealed_kong: false,
        late_kong: LateKong::KeptFourthForbidden,
        pass_win_lock: PassWinLock::None,
        last_four: LastFour::None,
        kong_fan: KongFan::WinAndLoss,
        kong_payments: false,
        kong_flower_after_direct_kong: KongFlowerAfterDirectKong::AllPay,
        kong_income_transfer: KongIncomeTransfer::None,
        flower_pig_penalty: FlowerPigPenalty::DoubleReadyValue,
        flower_pig_fan: 0,
        flower_pig_payees: FlowerPigPayees::ReadyOrWon,
        tax_refund: false,
        ready_difference: false,
        ..Rules::DEFAULTS
    }
}

fn sanxia_piao() -> Rules {
    Rules {
        fan: FanTable::of(&SANXIA_PIAO_FAN),
        ..sanxia()
    }
}

fn chengdu() -> Rules {
    Rules {
        mode: Mode::Xuezhan,
        first_dealer: FirstDealer::Random,
        dealer_rotation: DealerRotation::FirstWinner,
        exchange: None,
        exchange_redeal_if_unchanged: false,
        declare_void: true,
        allow_seven_pairs: true,
        scoring: Scoring::Exponential,
        base_points: 6,
        fan_offset: 1,
        cap_fan: None,
        fan: FanTable::of(&CHENGDU_FAN),
        gen_fan: 1,
        exposed_kong_fan: 1,
        concealed_kong_fan: 1,
        kong_flower_fan: 1,
        kong_shot_fan: 1,
        rob_kong_fan: 1,
        rob_kong_scoring: RobKongScoring::Normal,
        rob_concealed_kong: false,
        late_kong: LateKong::RootOnly,
        pass_win_lock: PassWinLock::UntilDrawUnlessHigher,
        last_four: LastFour::RonForced,
        kong_fan: KongFan::WinOnly,
        kong_payments: true,
        kong_flower_after_direct_kong: KongFlowerAfterDirectKong::FeederPaysAll,
        kong_income_transfer: KongIncomeTransfer::LastKong,
        flower_pig_penalty: FlowerPigPenalty::FixedFan,
        flower_pig_fan: 5,
        flower_pig_payees: FlowerPigPayees::ReadyOrWon,
        tax_refund: true,
        ready_difference: false,
        ..Rules::DEFAULTS
    }
}

fn chengdu_xueliu() -> Rules {
    Rules {
        mode: Mode::Xueliu,
        exchange: Some(Exchange::Dice),
        exchange_redeal_if_unchanged: false,
        late_kong: LateKong::KeptFourthForbidden,
        ..chengdu()
    }
}

fn xuezhan() -> Rules {
    Rules {
        mode: Mode::Xuezhan,
        first_dealer: FirstDealer::Dice,
        dealer_rotation: DealerRotation::FirstWinner,
        exchange: Some(Exchange::Dice),
        exchange_redeal_if_unchanged: false,
        declare_void: true,
        allow_seven_pairs: true,
        scoring: Scoring::Exponential,
        base_points: 1,
        fan_offset: 0,
        cap_fan: None,
        fan: FanTable::of(&XUEZHAN_FAN),
        gen_fan: 1,
        exposed_kong_fan: 1,
        concealed_kong_fan: 2,
        kong_flower_fan: 1,
        kong_shot_fan: 1,
        rob_kong_fan: 1,
        rob_kong_scoring: RobKongScoring::Normal,
        rob_concealed_kong: false,
        late_kong: LateKong::Full,
        pass_win_lock: PassWinLock::None,
        last_four: LastFour::SelfDrawForced,
        kong_fan: KongFan::WinOnly,
        kong_payments: true,
        kong_flower_after_direct_kong: KongFlowerAfterDirectKong::AllPay,
        kong_income_transfer: KongIncomeTransfer::None,
        flower_pig_penalty: FlowerPigPenalty::FixedFan,
        flower_pig_fan: 4,
        flower_pig_payees: FlowerPigPayees::NonPigs,
        tax_refund: true,
        ready_difference: true,
        ..Rules::DEFAULTS
    }
}

fn yaoji() -> Rules {
    Rules {
        cap_fan: Some(5),
        // 血战幺鸡 另加番 1: 被杠上开花胡牌后，需要包掉另外两家所输的分.
        kong_flower_after_direct_kong: KongFlowerAfterDirectKong::FeederPaysAll,
        wilds: true,
        no_wild_fan: 1,
        heavenly_stacks: true,
        ..xuezhan()
    }
}

/// MIL 四川麻将（SBR）竞赛规则 2025 (research/competition-presets.md §2 cites each article).
fn mil_sbr_2025() -> Rules {
    Rules {
        mode: Mode::Xuezhan,
        first_dealer: FirstDealer::East,
        dealer_rotation: DealerRotation::FirstWinner,
        kong_draw_from: KongDrawFrom::Front,
        pong_last_discard: true,
        exchange: None,
        exchange_redeal_if_unchanged: false,
        declare_void: true,
        allow_seven_pairs: true,
        gen_counts_kongs: false,
        rob_concealed_kong: false,
        late_kong: LateKong::AddKongUnpaid,
        pass_win_lock: PassWinLock::UntilDrawUnlessHigher,
        last_four: LastFour::None,
        fan: FanTable::of(&MIL_FAN),
        gen_fan: 1,
        exposed_kong_fan: 1,
        concealed_kong_fan: 1,
        kong_flower_fan: 1,
        kong_shot_fan: 1,
        rob_kong_fan: 1,
        rob_kong_scoring: RobKongScoring::Normal,
        self_draw_bonus: SelfDrawBonus::AddBase,
        scoring: Scoring::Exponential,
        base_points: 1,
        fan_offset: 0,
        cap_fan: Some(3),
        self_draw_payers: SelfDrawPayers::NotWon,
        kong_fan: KongFan::WinOnly,
        kong_payments: true,
        kong_flower_after_direct_kong: KongFlowerAfterDirectKong::AllPay,
        kong_income_transfer: KongIncomeTransfer::RefundToPayers,
        flower_pig_penalty: FlowerPigPenalty::AsNotReady,
        flower_pig_fan: 0,
        flower_pig_payees: FlowerPigPayees::Ready,
        flower_pig_rule: FlowerPigRule::VoidHeld,
        tax_refund: true,
        ready_difference: false,
        golden_hook_fan: 1,
        last_tile_self_draw_fan: 1,
        last_discard_win_fan: 1,
        ready_wait_copies: ReadyWaitCopies::HandOnly,
        // Art.4-27 顺和: a passed self-draw locks too, the lock ends after a pong that leaves the
        // hand not ready, and fan is compared uncapped.
        pass_win_lock_self_draw: true,
        pass_win_lock_after_pong: PassWinLockAfterPong::KeptIfReady,
        pass_win_compare: PassWinCompare::Fan,
        // Art.5-8: the dealer throws two dice once to break the wall.
        wall_break_dice: 2,
        // ⑧: 杠上炮 covers 「再次加杠的牌」, an add kong robbed right after a kong.
        kong_shot_on_rob: true,
        // Art.9-1(3),(5): a winner's hand, and a self-draw's tile, stay hidden; Art.10-2:
        // 「牌局结束时，和牌者收取分数」.
        win_reveal: WinReveal::HandEnd,
        ..Rules::DEFAULTS
    }
}

/// T/TFMJ 01—2024 as EllanServer reads it (research note §3): MIL's game but for the fan table,
/// kongs scored as roots, replacements from the back, an added kong only with the tile just
/// drawn, no fifth-copy wait, and 呼叫转移 of the whole kong chain (ES §9).
fn tfmj_2024() -> Rules {
    Rules {
        kong_draw_from: KongDrawFrom::Back,
        pong_last_discard: false,
        gen_counts_kongs: true,
        late_kong: LateKong::AddKongDrawnOnly,
        fan: FanTable::of(&TFMJ_FAN),
        exposed_kong_fan: 0,
        concealed_kong_fan: 0,
        kong_income_transfer: KongIncomeTransfer::KongChain,
        ready_wait_copies: ReadyWaitCopies::HandAndMelds,
        // ES §5: 过胡 lasts 「到自己下一次摸牌前」, a pong included, compared by payment tier; a
        // passed self-draw is not named.
        pass_win_lock_self_draw: false,
        pass_win_lock_after_pong: PassWinLockAfterPong::Kept,
        pass_win_compare: PassWinCompare::CappedFan,
        // ES §7 names 杠上炮 on a discard only.
        kong_shot_on_rob: false,
        // The research note (§3) reads no deferred collection in T/TFMJ: RULES.md §12.
        win_reveal: WinReveal::Immediate,
        ..mil_sbr_2025()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn families_differ_only_where_the_table_says() {
        let differing = |a: Preset, b: Preset| -> Vec<&str> {
            let (a, b) = (a.rules(), b.rules());
            Rules::KEYS
                .into_iter()
                .filter(|k| a.get(k).unwrap() != b.get(k).unwrap())
                .collect()
        };
        assert_eq!(
            differing(Preset::Sanxia, Preset::SanxiaPiao),
            ["preset", "fan"]
        );
        assert_eq!(
            differing(Preset::Chengdu, Preset::ChengduXueliu),
            ["preset", "mode", "exchange", "late_kong"]
        );
        // research/competition-presets.md §3: T/TFMJ is MIL's game but for these.
        assert_eq!(
            differing(Preset::MilSbr2025, Preset::Tfmj2024),
            [
                "preset",
                "kong_draw_from",
                "pong_last_discard",
                "gen_counts_kongs",
                "late_kong",
                "fan",
                "exposed_kong_fan",
                "concealed_kong_fan",
                "kong_income_transfer",
                "ready_wait_copies",
                "pass_win_lock_self_draw",
                "pass_win_lock_after_pong",
                "pass_win_compare",
                "kong_shot_on_rob",
                "win_reveal"
            ]
        );
        assert_eq!(
            differing(Preset::Xuezhan, Preset::Yaoji),
            [
                "preset",
                "cap_fan",
                "kong_flower_after_direct_kong",
                "wilds",
                "no_wild_fan",
                "heavenly_stacks"
            ]
        );
    }
}
