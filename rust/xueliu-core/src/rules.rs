//! PROVISIONAL: the rule options the game reads, named as in docs/rules-schema.md. The real
//! `Rules` (every option, presets, validation) arrives with issue 3's `scoring` branch; this file
//! is replaced by it at the merge.

/// 血战到底 or 血流成河 (RULES.md §7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Xuezhan,
    Xueliu,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FirstDealer {
    East,
    Random,
    Dice,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KongDrawFrom {
    Front,
    Back,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exchange {
    Dice,
    Clockwise,
    Counterclockwise,
    Opposite,
    Random,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LateKong {
    Full,
    RootOnly,
    KeptFourthForbidden,
    Forbidden,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PassWinLock {
    None,
    UntilDraw,
    UntilDrawUnlessHigher,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LastFour {
    None,
    Forced,
    SelfDrawForced,
    RonForced,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SelfDrawPayers {
    NotWon,
    AllOthers,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KongFan {
    WinAndLoss,
    WinOnly,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KongFlowerAfterDirectKong {
    FeederPaysAll,
    AllPay,
    AsDiscardWin,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KongIncomeTransfer {
    None,
    LastKong,
    AllKongs,
    RefundToPayers,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlowerPigPenalty {
    DoubleReadyValue,
    FixedFan,
    Cap,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlowerPigPayees {
    Ready,
    ReadyOrWon,
    NonPigs,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scoring {
    Linear,
    Exponential,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    pub preset: Option<&'static str>,
    pub mode: Mode,
    pub first_dealer: FirstDealer,
    pub kong_draw_from: KongDrawFrom,
    pub pong_last_discard: bool,
    pub exchange: Option<Exchange>,
    pub exchange_redeal_if_unchanged: bool,
    pub exchange_same_suit: bool,
    pub declare_void: bool,
    pub allow_seven_pairs: bool,
    pub rob_concealed_kong: bool,
    pub late_kong: LateKong,
    pub pass_win_lock: PassWinLock,
    pub last_four: LastFour,
    pub basic_fan: i32,
    pub gen_fan: i32,
    pub exposed_kong_fan: i32,
    pub concealed_kong_fan: i32,
    pub kong_flower_fan: i32,
    pub kong_shot_fan: i32,
    pub rob_kong_fan: i32,
    pub scoring: Scoring,
    pub base_points: i64,
    pub fan_offset: i32,
    pub cap_fan: Option<i32>,
    pub self_draw_payers: SelfDrawPayers,
    pub kong_fan: KongFan,
    pub kong_payments: bool,
    pub kong_flower_after_direct_kong: KongFlowerAfterDirectKong,
    pub kong_income_transfer: KongIncomeTransfer,
    pub flower_pig_penalty: FlowerPigPenalty,
    pub flower_pig_fan: i32,
    pub flower_pig_payees: FlowerPigPayees,
    pub tax_refund: bool,
    pub ready_difference: bool,
    pub wilds: bool,
}

impl Rules {
    /// The `chengdu` preset (seed 002).
    pub fn chengdu() -> Rules {
        Rules {
            preset: Some("chengdu"),
            mode: Mode::Xuezhan,
            first_dealer: FirstDealer::Random,
            kong_draw_from: KongDrawFrom::Front,
            pong_last_discard: false,
            exchange: None,
            exchange_redeal_if_unchanged: false,
            exchange_same_suit: true,
            declare_void: true,
            allow_seven_pairs: true,
            rob_concealed_kong: false,
            late_kong: LateKong::RootOnly,
            pass_win_lock: PassWinLock::UntilDrawUnlessHigher,
            last_four: LastFour::RonForced,
            basic_fan: 1,
            gen_fan: 1,
            exposed_kong_fan: 1,
            concealed_kong_fan: 1,
            kong_flower_fan: 1,
            kong_shot_fan: 1,
            rob_kong_fan: 1,
            scoring: Scoring::Exponential,
            base_points: 6,
            fan_offset: 1,
            cap_fan: None,
            self_draw_payers: SelfDrawPayers::NotWon,
            kong_fan: KongFan::WinOnly,
            kong_payments: true,
            kong_flower_after_direct_kong: KongFlowerAfterDirectKong::FeederPaysAll,
            kong_income_transfer: KongIncomeTransfer::LastKong,
            flower_pig_penalty: FlowerPigPenalty::FixedFan,
            flower_pig_fan: 5,
            flower_pig_payees: FlowerPigPayees::ReadyOrWon,
            tax_refund: true,
            ready_difference: false,
            wilds: false,
        }
    }

    /// The `dashiyou` preset (seed 000).
    pub fn dashiyou() -> Rules {
        Rules {
            preset: Some("dashiyou"),
            mode: Mode::Xueliu,
            first_dealer: FirstDealer::East,
            exchange: Some(Exchange::Dice),
            exchange_redeal_if_unchanged: true,
            allow_seven_pairs: false,
            rob_concealed_kong: true,
            late_kong: LateKong::Full,
            pass_win_lock: PassWinLock::None,
            last_four: LastFour::Forced,
            basic_fan: 3,
            gen_fan: 0,
            concealed_kong_fan: 2,
            kong_flower_fan: 0,
            kong_shot_fan: 0,
            rob_kong_fan: 0,
            scoring: Scoring::Linear,
            base_points: 1,
            fan_offset: 0,
            kong_fan: KongFan::WinAndLoss,
            kong_payments: false,
            kong_flower_after_direct_kong: KongFlowerAfterDirectKong::AllPay,
            kong_income_transfer: KongIncomeTransfer::None,
            flower_pig_penalty: FlowerPigPenalty::DoubleReadyValue,
            flower_pig_payees: FlowerPigPayees::Ready,
            tax_refund: false,
            ..Rules::chengdu()
        }
    }

    /// The `xuezhan` preset (seed 004).
    pub fn xuezhan() -> Rules {
        Rules {
            preset: Some("xuezhan"),
            first_dealer: FirstDealer::Dice,
            exchange: Some(Exchange::Dice),
            late_kong: LateKong::Full,
            pass_win_lock: PassWinLock::None,
            last_four: LastFour::SelfDrawForced,
            basic_fan: 0,
            concealed_kong_fan: 2,
            base_points: 1,
            fan_offset: 0,
            kong_flower_after_direct_kong: KongFlowerAfterDirectKong::AllPay,
            kong_income_transfer: KongIncomeTransfer::None,
            flower_pig_fan: 4,
            flower_pig_payees: FlowerPigPayees::NonPigs,
            ready_difference: true,
            ..Rules::chengdu()
        }
    }

    /// The `chengdu_xueliu` preset (seed 003).
    pub fn chengdu_xueliu() -> Rules {
        Rules {
            preset: Some("chengdu_xueliu"),
            mode: Mode::Xueliu,
            exchange: Some(Exchange::Dice),
            late_kong: LateKong::KeptFourthForbidden,
            ..Rules::chengdu()
        }
    }

    pub fn preset(name: &str) -> Option<Rules> {
        match name {
            "chengdu" => Some(Rules::chengdu()),
            "dashiyou" => Some(Rules::dashiyou()),
            "xuezhan" => Some(Rules::xuezhan()),
            "chengdu_xueliu" => Some(Rules::chengdu_xueliu()),
            _ => None,
        }
    }
}
