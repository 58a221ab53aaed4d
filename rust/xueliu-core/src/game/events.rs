//! The event log (docs/game-protocol.md §9): compact events in memory, written as JSON objects
//! with fields in the contract's order, in full or as one seat may see them (RULES.md §12).

use super::json_out::{Object, Raw, ToJson};
use crate::choice::choice;
use crate::hand::Counts;
use crate::tile::{Suit, Tile};
use crate::Choice;

choice! {
    /// Why points moved.
    pub enum Reason {
        Win = "win",
        SelfDraw = "self_draw",
        KongFlowerFeeder = "kong_flower_feeder",
        Kong = "kong",
        KongTransfer = "kong_transfer",
        FlowerPig = "flower_pig",
        NotReady = "not_ready",
        ReadyDifference = "ready_difference",
        TaxRefund = "tax_refund",
        /// 逃跑: a leaver's penalty (RULES.md §2).
        Escape = "escape",
    }
}

choice! {
    /// A kong's kind.
    pub enum KongKind {
        /// 直杠: on a discard, with three in hand.
        Direct = "direct",
        /// 补杠: the fourth onto an own pong.
        Added = "added",
        /// 暗杠: four from the hand.
        Concealed = "concealed",
    }
}

choice! {
    /// How a win was made.
    pub enum WinKind {
        Discard = "discard",
        SelfDraw = "self_draw",
        RobbedKong = "robbed_kong",
    }
}

/// The claim bits of a response: what a seat may do with a discard or a kong.
pub mod claim {
    use crate::choice::choice;
    use crate::Choice;

    choice! {
        /// A claim, in the order `pass` events list them; its bit is `1 << index`.
        pub enum Claim {
            Win = "win",
            Kong = "kong",
            Pong = "pong",
        }
    }

    impl Claim {
        pub const fn bit(self) -> u8 {
            1 << self as u8
        }
    }

    pub const WIN: u8 = Claim::Win.bit();
    pub const KONG: u8 = Claim::Kong.bit();
    pub const PONG: u8 = Claim::Pong.bit();

    /// The claims in `bits`, in the order `pass` events list them.
    pub fn names(bits: u8) -> impl Iterator<Item = &'static str> {
        Claim::ALL
            .iter()
            .filter(move |c| bits & c.bit() != 0)
            .map(|c| c.name())
    }
}

/// Why the hand ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    ThreeWon,
    WallEmpty,
    /// 逃跑: this seat left mid-hand (RULES.md §2).
    Abandoned(u8),
}

choice! {
    /// An [`EndReason`] without its seat, as the log and snapshots name it.
    pub enum EndKind {
        ThreeWon = "three_won",
        WallEmpty = "wall_empty",
        Abandoned = "abandoned",
    }
}

impl EndReason {
    pub const fn kind(self) -> EndKind {
        match self {
            EndReason::ThreeWon => EndKind::ThreeWon,
            EndReason::WallEmpty => EndKind::WallEmpty,
            EndReason::Abandoned(_) => EndKind::Abandoned,
        }
    }

    pub fn name(self) -> &'static str {
        self.kind().name()
    }

    /// The reason of `kind`; an abandoned hand names its leaver, if known.
    pub fn of(kind: EndKind, leaver: Option<u8>) -> Option<EndReason> {
        Some(match kind {
            EndKind::ThreeWon => EndReason::ThreeWon,
            EndKind::WallEmpty => EndReason::WallEmpty,
            EndKind::Abandoned => EndReason::Abandoned(leaver?),
        })
    }
}

choice! {
    /// Exchange directions as the protocol names them.
    pub enum Direction {
        /// Give to 下家 (i + 1).
        Counterclockwise = "counterclockwise",
        /// Give to 上家 (i + 3).
        Clockwise = "clockwise",
        /// Swap with 对家 (i + 2).
        Opposite = "opposite",
    }
}

impl Direction {
    /// Steps from a giver to its receiver.
    pub const fn steps(self) -> u8 {
        match self {
            Direction::Counterclockwise => 1,
            Direction::Clockwise => 3,
            Direction::Opposite => 2,
        }
    }
}

/// One entry of the log. A win's details live in the game's win list, at `index`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// `given`: a match named the dealer (`Game::with_dealer`); no first-dealer draw was made.
    Start {
        seed: u64,
        dealer: u8,
        given: bool,
    },
    /// Every die each seat rolled to pick the dealer, rerolls appended.
    DealerDice {
        rolls: [Vec<u8>; 4],
    },
    /// One die: the wall break or the exchange direction.
    Dice {
        exchange: bool,
        seat: u8,
        roll: u8,
    },
    Deal {
        seat: u8,
        tiles: Counts,
    },
    Exchange {
        direction: Direction,
        given: [[Tile; 3]; 4],
        received: [[Tile; 3]; 4],
    },
    Redeal,
    Void {
        seat: u8,
        suit: Suit,
    },
    Draw {
        seat: u8,
        tile: Tile,
        replacement: bool,
    },
    Discard {
        seat: u8,
        tile: Tile,
    },
    Pass {
        seat: u8,
        on_kong: bool,
        could: u8,
    },
    /// `wilds`: the wilds the pong holds (幺鸡).
    Pong {
        seat: u8,
        tile: Tile,
        from: u8,
        wilds: u8,
    },
    /// `wilds`: the wilds the kong holds once made.
    Kong {
        seat: u8,
        tile: Tile,
        kind: KongKind,
        from: Option<u8>,
        late: bool,
        wilds: u8,
    },
    /// 幺鸡换: `tile` went into the seat's kong of it, one of its wilds to the hand.
    Swap {
        seat: u8,
        tile: Tile,
    },
    Beaten {
        seat: u8,
        claim: u8,
    },
    Robbed {
        seat: u8,
        tile: Tile,
    },
    Win {
        index: u16,
    },
    Payment {
        payer: u8,
        payee: u8,
        amount: i64,
        reason: Reason,
    },
    /// 逃跑: `seat` left the hand; its penalty follows as payments, then the end.
    Abandon {
        seat: u8,
    },
    End {
        reason: EndReason,
        scores: [i64; 4],
    },
}

choice! {
    /// The `type` of an event as the log writes it.
    pub enum EventType {
        Start = "start",
        Dice = "dice",
        Deal = "deal",
        Exchange = "exchange",
        Redeal = "redeal",
        Void = "void",
        Draw = "draw",
        Discard = "discard",
        Pass = "pass",
        Pong = "pong",
        Kong = "kong",
        Swap = "swap",
        Beaten = "beaten",
        Robbed = "robbed",
        Win = "win",
        Payment = "payment",
        Abandon = "abandon",
        End = "end",
    }
}

impl Event {
    /// The event's `type`.
    pub const fn kind(&self) -> EventType {
        match self {
            Event::Start { .. } => EventType::Start,
            Event::DealerDice { .. } | Event::Dice { .. } => EventType::Dice,
            Event::Deal { .. } => EventType::Deal,
            Event::Exchange { .. } => EventType::Exchange,
            Event::Redeal => EventType::Redeal,
            Event::Void { .. } => EventType::Void,
            Event::Draw { .. } => EventType::Draw,
            Event::Discard { .. } => EventType::Discard,
            Event::Pass { .. } => EventType::Pass,
            Event::Pong { .. } => EventType::Pong,
            Event::Kong { .. } => EventType::Kong,
            Event::Swap { .. } => EventType::Swap,
            Event::Beaten { .. } => EventType::Beaten,
            Event::Robbed { .. } => EventType::Robbed,
            Event::Win { .. } => EventType::Win,
            Event::Payment { .. } => EventType::Payment,
            Event::Abandon { .. } => EventType::Abandon,
            Event::End { .. } => EventType::End,
        }
    }
}

/// What the writer needs from the game besides the event itself.
pub trait EventContext {
    /// `Rules.to_dict()` as JSON.
    fn rules_json(&self) -> String;
    /// The 幺鸡 variant: `pong` and `kong` events name the wilds of their meld.
    fn wilds(&self) -> bool;
    /// The JSON fields of win `index` (seat, tile, from, kind, hand, score), the hand hidden
    /// from a viewer other than the winner.
    fn win_json(&self, index: usize, viewer: Option<u8>, out: &mut Object<'_>);
}

/// Writes `event` as a JSON object, in full (`viewer = None`) or as seen by `viewer`.
pub fn write_event(event: &Event, viewer: Option<u8>, ctx: &dyn EventContext, out: &mut String) {
    let hidden = |seat: u8| viewer.is_some_and(|v| v != seat);
    let mut o = Object::new(out);
    o.field("type", event.kind().name());
    match event {
        Event::Start {
            seed,
            dealer,
            given,
        } => {
            let rules = ctx.rules_json();
            match viewer {
                None => o.field("seed", seed),
                Some(_) => o.field("seed", &None::<u64>),
            };
            o.field("rules", &Raw(&rules)).field("dealer", dealer);
            // Written only when true, so logs of single hands read as before.
            if *given {
                o.field("dealer_given", given);
            }
        }
        Event::DealerDice { rolls } => {
            o.field("purpose", "dealer")
                .field("seat", &None::<u8>)
                .field("rolls", rolls);
        }
        Event::Dice {
            exchange,
            seat,
            roll,
        } => {
            let purpose = if *exchange { "exchange" } else { "wall" };
            o.field("purpose", purpose)
                .field("seat", seat)
                .field("rolls", &[*roll]);
        }
        Event::Deal { seat, tiles } => {
            o.field("seat", seat);
            if hidden(*seat) {
                o.field("tiles", &None::<u8>).field("count", &tiles.len());
            } else {
                o.field("tiles", tiles);
            }
        }
        Event::Exchange {
            direction,
            given,
            received,
        } => {
            let shown = |lists: &[[Tile; 3]; 4]| -> Vec<Option<[Tile; 3]>> {
                (0..4u8)
                    .map(|s| (!hidden(s)).then_some(lists[s as usize]))
                    .collect()
            };
            o.field("direction", direction.name())
                .field("given", &shown(given))
                .field("received", &shown(received));
        }
        Event::Redeal => {}
        Event::Void { seat, suit } => {
            o.field("seat", seat).field("suit", suit);
        }
        Event::Draw {
            seat,
            tile,
            replacement,
        } => {
            o.field("seat", seat);
            if hidden(*seat) {
                o.field("tile", &None::<u8>);
            } else {
                o.field("tile", tile);
            }
            o.field("replacement", replacement);
        }
        Event::Discard { seat, tile } => {
            o.field("seat", seat).field("tile", tile);
        }
        Event::Pass {
            seat,
            on_kong,
            could,
        } => {
            let on = if *on_kong { "kong" } else { "discard" };
            let could: Vec<&str> = claim::names(*could).collect();
            o.field("seat", seat).field("on", on).field("could", &could);
        }
        Event::Pong {
            seat,
            tile,
            from,
            wilds,
        } => {
            o.field("seat", seat)
                .field("tile", tile)
                .field("from", from);
            if ctx.wilds() {
                o.field("wilds", wilds);
            }
        }
        Event::Kong {
            seat,
            tile,
            kind,
            from,
            late,
            wilds,
        } => {
            o.field("seat", seat)
                .field("tile", tile)
                .field("kind", kind.name())
                .field("from", from)
                .field("late", late);
            if ctx.wilds() {
                o.field("wilds", wilds);
            }
        }
        Event::Swap { seat, tile } => {
            o.field("seat", seat).field("tile", tile);
        }
        Event::Beaten { seat, claim } => {
            let name = claim::names(*claim).next().unwrap_or("pong");
            o.field("seat", seat).field("claim", name);
        }
        Event::Robbed { seat, tile } => {
            o.field("seat", seat).field("tile", tile);
        }
        Event::Win { index } => {
            ctx.win_json(*index as usize, viewer, &mut o);
        }
        Event::Payment {
            payer,
            payee,
            amount,
            reason,
        } => {
            o.field("payer", payer)
                .field("payee", payee)
                .field("amount", amount)
                .field("reason", reason.name());
        }
        Event::Abandon { seat } => {
            o.field("seat", seat);
        }
        Event::End { reason, scores } => {
            o.field("reason", reason.name()).field("scores", scores);
        }
    }
    o.end();
}

/// Whether `viewer` sees `event` at all: another seat's `pass` reveals a claim it could have
/// made, i.e. concealed tiles, so it is left out of that seat's view *(c)*.
pub fn visible(event: &Event, viewer: u8) -> bool {
    !matches!(event, Event::Pass { seat, .. } if *seat != viewer)
}

impl ToJson for Direction {
    fn write_json(&self, out: &mut String) {
        self.name().write_json(out);
    }
}
