//! The event log (docs/game-protocol.md §9): compact events in memory; on the wire, one type per
//! event `type` with its fields in the contract's order, written in full or as one seat may see
//! them (RULES.md §12), and read back with the checks a log's order implies.

use super::log::Log;
use super::wire::{hand, tiles_of, to_text, Int, SeatNo};
use super::Game;
use crate::choice::choice;
use crate::hand::Counts;
use crate::pattern::Pattern;
use crate::score::{Bonus, Score};
use crate::tile::{Suit, Tile};
use crate::Choice;
use claim::Claim;
use serde::de::{self, value::MapAccessDeserializer, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};

type R<T> = Result<T, String>;

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

/// Whether `viewer` sees `event` at all: another seat's `pass` reveals a claim it could have
/// made, i.e. concealed tiles, so it is left out of that seat's view *(c)*.
pub fn visible(event: &Event, viewer: u8) -> bool {
    !matches!(event, Event::Pass { seat, .. } if *seat != viewer)
}

/// Declares the event types once: the [`EventType`] names, and [`Wire`], whose variant of each
/// name holds that event's fields. On the wire an event is an object whose first key is `type`;
/// reading it first lets every error name its field (`events[3].tiles`).
macro_rules! wire_events {
    ($($variant:ident = $name:literal ($body:ident),)*) => {
        choice! {
            /// The `type` of an event as the log writes it.
            pub enum EventType { $($variant = $name,)* }
        }

        /// An event as the log writes and reads it.
        #[derive(Serialize)]
        #[serde(tag = "type")]
        pub(super) enum Wire { $(#[serde(rename = $name)] $variant($body),)* }

        impl<'de> Deserialize<'de> for Wire {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                d.deserialize_map(TypeFirst)
            }
        }

        struct TypeFirst;

        impl<'de> Visitor<'de> for TypeFirst {
            type Value = Wire;

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("an event object")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Wire, A::Error> {
                if map.next_key::<String>()?.as_deref() != Some("type") {
                    return Err(de::Error::custom("an event's first key is its \"type\""));
                }
                let kind: EventType = map.next_value()?;
                let body = MapAccessDeserializer::new(map);
                Ok(match kind {
                    $(EventType::$variant => Wire::$variant($body::deserialize(body)?),)*
                })
            }
        }
    };
}

wire_events! {
    Start = "start" (StartWire),
    Dice = "dice" (DiceWire),
    Deal = "deal" (DealWire),
    Exchange = "exchange" (ExchangeWire),
    Redeal = "redeal" (RedealWire),
    Void = "void" (VoidWire),
    Draw = "draw" (DrawWire),
    Discard = "discard" (SeatTile),
    Pass = "pass" (PassWire),
    Pong = "pong" (PongWire),
    Kong = "kong" (KongWire),
    Swap = "swap" (SeatTile),
    Beaten = "beaten" (BeatenWire),
    Robbed = "robbed" (SeatTile),
    Win = "win" (WinWire),
    Payment = "payment" (PaymentWire),
    Abandon = "abandon" (AbandonWire),
    End = "end" (EndWire),
}

/// What a seat's view hides is `null` (a deal's tiles give their `count` instead).
#[derive(Serialize, Deserialize)]
pub(super) struct StartWire {
    /// Required though it may be null (serde would take a missing `Option` for `None`).
    #[serde(deserialize_with = "Option::deserialize")]
    seed: Option<u64>,
    pub(super) rules: super::rules_json::RulesWire,
    dealer: SeatNo,
    /// Written only when true, so logs of single hands read as before.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    dealer_given: bool,
}

choice! {
    /// What a `dice` event's roll decides.
    enum Purpose {
        Dealer = "dealer",
        Wall = "wall",
        Exchange = "exchange",
    }
}

type Die = Int<1, 6>;

#[derive(Serialize, Deserialize)]
#[serde(
    untagged,
    expecting = "one die [n], or the dealer draw's four lists of rolls"
)]
enum Rolls {
    One([Die; 1]),
    Seats([Vec<Die>; 4]),
}

#[derive(Serialize, Deserialize)]
pub(super) struct DiceWire {
    purpose: Purpose,
    seat: Option<SeatNo>,
    rolls: Rolls,
}

#[derive(Serialize, Deserialize)]
pub(super) struct DealWire {
    seat: SeatNo,
    tiles: Option<Vec<Tile>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    count: Option<usize>,
}

#[derive(Serialize, Deserialize)]
pub(super) struct ExchangeWire {
    direction: Direction,
    given: [Option<[Tile; 3]>; 4],
    received: [Option<[Tile; 3]>; 4],
}

#[derive(Serialize, Deserialize)]
pub(super) struct RedealWire {}

#[derive(Serialize, Deserialize)]
pub(super) struct VoidWire {
    seat: SeatNo,
    suit: Suit,
}

#[derive(Serialize, Deserialize)]
pub(super) struct DrawWire {
    seat: SeatNo,
    tile: Option<Tile>,
    replacement: bool,
}

#[derive(Serialize, Deserialize)]
pub(super) struct SeatTile {
    seat: SeatNo,
    tile: Tile,
}

choice! {
    /// What a `pass` passes on.
    enum On {
        Discard = "discard",
        Kong = "kong",
    }
}

#[derive(Serialize, Deserialize)]
pub(super) struct PassWire {
    seat: SeatNo,
    on: On,
    could: Vec<Claim>,
}

/// The wilds a meld holds: written in the 幺鸡 variant only.
type Wilds = Option<Int<0, 3>>;

#[derive(Serialize, Deserialize)]
pub(super) struct PongWire {
    seat: SeatNo,
    tile: Tile,
    from: SeatNo,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    wilds: Wilds,
}

#[derive(Serialize, Deserialize)]
pub(super) struct KongWire {
    seat: SeatNo,
    tile: Tile,
    kind: KongKind,
    from: Option<SeatNo>,
    late: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    wilds: Wilds,
}

#[derive(Serialize, Deserialize)]
pub(super) struct BeatenWire {
    seat: SeatNo,
    claim: Claim,
}

/// A win's details are the win list's: read back, only the winner's seat counts (a crafted
/// position may leave even that out).
/// The details are `None` only when read; written, `Some(None)` is a `null`.
#[derive(Serialize, Deserialize)]
#[allow(clippy::option_option)]
pub(super) struct WinWire {
    #[serde(default)]
    seat: Option<SeatNo>,
    #[serde(skip_deserializing)]
    tile: Option<Tile>,
    #[serde(skip_deserializing)]
    from: Option<Option<SeatNo>>,
    #[serde(skip_deserializing)]
    kind: Option<WinKind>,
    #[serde(skip_deserializing)]
    hand: Option<Option<Vec<Tile>>>,
    #[serde(skip_deserializing)]
    score: Option<ScoreWire>,
}

/// `Score.to_dict()`: pattern, its fan, each bonus, total and capped fan, multiplier, points.
#[derive(Serialize)]
pub struct ScoreWire {
    pattern: Pattern,
    pattern_fan: u32,
    bonuses: Vec<BonusWire>,
    fan: u32,
    capped_fan: u32,
    multiplier: u64,
    extra_points: u64,
    points: u64,
}

#[derive(Serialize)]
struct BonusWire {
    name: Bonus,
    count: u8,
    fan: u32,
}

impl From<&Score> for ScoreWire {
    fn from(s: &Score) -> ScoreWire {
        let bonuses = s.bonuses.iter();
        ScoreWire {
            pattern: s.pattern,
            pattern_fan: s.pattern_fan,
            bonuses: (bonuses.map(|(name, count, fan)| BonusWire { name, count, fan })).collect(),
            fan: s.fan,
            capped_fan: s.capped_fan,
            multiplier: s.multiplier,
            extra_points: s.extra_points,
            points: s.points,
        }
    }
}

#[derive(Serialize, Deserialize)]
pub(super) struct PaymentWire {
    payer: SeatNo,
    payee: SeatNo,
    amount: i64,
    reason: Reason,
}

#[derive(Serialize, Deserialize)]
pub(super) struct AbandonWire {
    seat: SeatNo,
}

#[derive(Serialize, Deserialize)]
pub(super) struct EndWire {
    reason: EndKind,
    scores: [i64; 4],
}

impl Event {
    /// The event as written, in full (`viewer = None`) or as `viewer` sees it.
    pub(super) fn wire(&self, viewer: Option<u8>, game: &Game) -> Wire {
        let shown = |seat: u8| viewer.is_none_or(|v| v == seat);
        let seat = SeatNo::from;
        match *self {
            Event::Start { .. }
            | Event::Deal { .. }
            | Event::Exchange { .. }
            | Event::Win { .. } => self.hidden_wire(viewer, game),
            Event::DealerDice { .. } | Event::Dice { .. } => self.dice_wire(),
            Event::Redeal => Wire::Redeal(RedealWire {}),
            Event::Void { seat: s, suit } => Wire::Void(VoidWire {
                seat: seat(s),
                suit,
            }),
            Event::Draw {
                seat: s,
                tile,
                replacement,
            } => {
                let tile = shown(s).then_some(tile);
                Wire::Draw(DrawWire {
                    seat: seat(s),
                    tile,
                    replacement,
                })
            }
            Event::Payment {
                payer,
                payee,
                amount,
                reason,
            } => Wire::Payment(PaymentWire {
                payer: seat(payer),
                payee: seat(payee),
                amount,
                reason,
            }),
            Event::Abandon { seat: s } => Wire::Abandon(AbandonWire { seat: seat(s) }),
            Event::End { reason, scores } => Wire::End(EndWire {
                reason: reason.kind(),
                scores,
            }),
            _ => self.play_wire(game),
        }
    }

    /// The dice: the dealer draw's rolls, or one die.
    fn dice_wire(&self) -> Wire {
        let seat = SeatNo::from;
        match *self {
            Event::DealerDice { ref rolls } => Wire::Dice(DiceWire {
                purpose: Purpose::Dealer,
                seat: None,
                rolls: Rolls::Seats(
                    rolls
                        .clone()
                        .map(|r| r.into_iter().map(Int::from).collect()),
                ),
            }),
            Event::Dice {
                exchange,
                seat: s,
                roll,
            } => Wire::Dice(DiceWire {
                purpose: if exchange {
                    Purpose::Exchange
                } else {
                    Purpose::Wall
                },
                seat: Some(seat(s)),
                rolls: Rolls::One([roll.into()]),
            }),
            _ => unreachable!("wire() sends only dice here"),
        }
    }

    /// The events of play, which every seat sees whole.
    fn play_wire(&self, game: &Game) -> Wire {
        let seat = SeatNo::from;
        let at = |s: u8, tile: Tile| SeatTile {
            seat: seat(s),
            tile,
        };
        let wilds = |n: u8| game.rules.wilds.then_some(Int::from(n));
        match *self {
            Event::Discard { seat, tile } => Wire::Discard(at(seat, tile)),
            Event::Pass {
                seat: s,
                on_kong,
                could,
            } => Wire::Pass(PassWire {
                seat: seat(s),
                on: if on_kong { On::Kong } else { On::Discard },
                could: Claim::ALL
                    .iter()
                    .copied()
                    .filter(|c| could & c.bit() != 0)
                    .collect(),
            }),
            Event::Pong {
                seat: s,
                tile,
                from,
                wilds: w,
            } => Wire::Pong(PongWire {
                seat: seat(s),
                tile,
                from: seat(from),
                wilds: wilds(w),
            }),
            Event::Kong {
                seat: s,
                tile,
                kind,
                from,
                late,
                wilds: w,
            } => Wire::Kong(KongWire {
                seat: seat(s),
                tile,
                kind,
                from: from.map(seat),
                late,
                wilds: wilds(w),
            }),
            Event::Swap { seat, tile } => Wire::Swap(at(seat, tile)),
            Event::Beaten { seat: s, claim } => {
                let claim = (Claim::ALL.iter().copied()).find(|c| claim & c.bit() != 0);
                Wire::Beaten(BeatenWire {
                    seat: seat(s),
                    claim: claim.unwrap_or(Claim::Pong),
                })
            }
            Event::Robbed { seat, tile } => Wire::Robbed(at(seat, tile)),
            _ => unreachable!("wire() sends only events of play here"),
        }
    }

    /// The events whose fields a seat's view may hide: the seed, others' tiles, others' wins.
    fn hidden_wire(&self, viewer: Option<u8>, game: &Game) -> Wire {
        let shown = |seat: u8| viewer.is_none_or(|v| v == seat);
        match *self {
            Event::Start {
                seed,
                dealer,
                given,
            } => Wire::Start(StartWire {
                seed: viewer.is_none().then_some(seed),
                rules: super::rules_json::RulesWire::Given(game.rules.clone()),
                dealer: dealer.into(),
                dealer_given: given,
            }),
            Event::Deal { seat, ref tiles } => Wire::Deal(DealWire {
                seat: seat.into(),
                tiles: shown(seat).then(|| tiles_of(tiles)),
                count: (!shown(seat)).then_some(tiles.len()),
            }),
            Event::Exchange {
                direction,
                given,
                received,
            } => {
                let lists =
                    |l: [[Tile; 3]; 4]| std::array::from_fn(|s| shown(s as u8).then_some(l[s]));
                Wire::Exchange(ExchangeWire {
                    direction,
                    given: lists(given),
                    received: lists(received),
                })
            }
            Event::Win { index } => {
                let w = game.wins.get(index as usize);
                Wire::Win(WinWire {
                    seat: w.map(|w| w.seat.into()),
                    tile: w.map(|w| w.tile),
                    from: w.map(|w| w.from.map(SeatNo::from)),
                    kind: w.map(|w| w.kind),
                    hand: w.map(|w| shown(w.seat).then(|| tiles_of(&w.hand))),
                    score: w.map(|w| (&w.score).into()),
                })
            }
            _ => unreachable!("only these events hide fields"),
        }
    }
}

/// What reading a log so far tells the events that follow: win events refer to the win list
/// in order, their winners kept; an `abandoned` end names the seat of the `abandon` before it.
#[derive(Default)]
pub(super) struct Reading {
    pub(super) winners: Vec<Option<u8>>,
    leaver: Option<u8>,
}

impl Wire {
    /// The event of a full log at `path`; under `wilds` a dealt 1s is a wild, as in the hand.
    pub(super) fn event(self, path: &str, read: &mut Reading, wilds: bool) -> R<Event> {
        let full = |key: &str| format!("{path}.{key}: a full log shows it (this is a seat's view)");
        Ok(match self {
            Wire::Start(w) => Event::Start {
                seed: w.seed.ok_or_else(|| full("seed"))?,
                dealer: w.dealer.u8(),
                given: w.dealer_given,
            },
            Wire::Dice(w) => w.event(path)?,
            Wire::Deal(w) => {
                let tiles = w.tiles.ok_or_else(|| full("tiles"))?;
                let tiles = hand(&tiles, &format!("{path}.tiles"), wilds)?;
                Event::Deal {
                    seat: w.seat.u8(),
                    tiles,
                }
            }
            Wire::Exchange(w) => {
                let list = |lists: [Option<[Tile; 3]>; 4], key: &str| -> R<[[Tile; 3]; 4]> {
                    let mut out = [[Tile::YAOJI; 3]; 4];
                    for (o, l) in out.iter_mut().zip(lists) {
                        *o = l.ok_or_else(|| full(key))?;
                    }
                    Ok(out)
                };
                Event::Exchange {
                    direction: w.direction,
                    given: list(w.given, "given")?,
                    received: list(w.received, "received")?,
                }
            }
            Wire::Redeal(_) => Event::Redeal,
            Wire::Void(w) => Event::Void {
                seat: w.seat.u8(),
                suit: w.suit,
            },
            Wire::Draw(w) => Event::Draw {
                seat: w.seat.u8(),
                tile: w.tile.ok_or_else(|| full("tile"))?,
                replacement: w.replacement,
            },
            Wire::Win(w) => {
                read.winners.push(w.seat.map(SeatNo::u8));
                Event::Win {
                    index: (read.winners.len() - 1).min(u16::MAX as usize) as u16,
                }
            }
            Wire::Abandon(w) => {
                read.leaver = Some(w.seat.u8());
                Event::Abandon { seat: w.seat.u8() }
            }
            Wire::End(w) => Event::End {
                reason: EndReason::of(w.reason, read.leaver).ok_or(format!(
                    "{path}.reason: an abandoned hand follows an abandon event"
                ))?,
                scores: w.scores,
            },
            w => w.play_event(path)?,
        })
    }

    /// The events of play, which need nothing from the events before them.
    fn play_event(self, path: &str) -> R<Event> {
        Ok(match self {
            Wire::Discard(w) => Event::Discard {
                seat: w.seat.u8(),
                tile: w.tile,
            },
            Wire::Pass(w) => Event::Pass {
                seat: w.seat.u8(),
                on_kong: w.on == On::Kong,
                could: w.could.iter().fold(0, |bits, c| bits | c.bit()),
            },
            Wire::Pong(w) => Event::Pong {
                seat: w.seat.u8(),
                tile: w.tile,
                from: w.from.u8(),
                wilds: w.wilds.unwrap_or_default().u8(),
            },
            Wire::Kong(w) => Event::Kong {
                seat: w.seat.u8(),
                tile: w.tile,
                kind: w.kind,
                from: w.from.map(SeatNo::u8),
                late: w.late,
                wilds: w.wilds.unwrap_or_default().u8(),
            },
            Wire::Swap(w) => Event::Swap {
                seat: w.seat.u8(),
                tile: w.tile,
            },
            Wire::Beaten(BeatenWire {
                claim: Claim::Win, ..
            }) => {
                return Err(format!(
                    "{path}.claim: a claim beaten is \"pong\" or \"kong\""
                ));
            }
            Wire::Beaten(w) => Event::Beaten {
                seat: w.seat.u8(),
                claim: w.claim.bit(),
            },
            Wire::Robbed(w) => Event::Robbed {
                seat: w.seat.u8(),
                tile: w.tile,
            },
            Wire::Payment(w) => Event::Payment {
                payer: w.payer.u8(),
                payee: w.payee.u8(),
                amount: w.amount,
                reason: w.reason,
            },
            _ => return Err(format!("{path}: not an event of play")),
        })
    }
}

impl DiceWire {
    fn event(self, path: &str) -> R<Event> {
        let one = "one die, e.g. [4]";
        Ok(match (self.purpose, self.rolls, self.seat) {
            (Purpose::Dealer, Rolls::Seats(rolls), _) => Event::DealerDice {
                rolls: rolls.map(|r| r.iter().map(|d| d.u8()).collect()),
            },
            (Purpose::Dealer, Rolls::One(_), _) => {
                return Err(format!("{path}.rolls: one list of rolls per seat"));
            }
            (purpose, Rolls::One([roll]), Some(seat)) => Event::Dice {
                exchange: purpose == Purpose::Exchange,
                seat: seat.u8(),
                roll: roll.u8(),
            },
            (_, Rolls::One(_), None) => return Err(format!("{path}.seat: the seat that rolled")),
            (_, Rolls::Seats(_), _) => return Err(format!("{path}.rolls: {one}")),
        })
    }
}

/// Reads a full log at `path` into events.
pub(super) fn events_from(
    wires: Vec<Wire>,
    path: &str,
    read: &mut Reading,
    wilds: bool,
) -> R<Log<Event>> {
    let mut log = Log::default();
    for (i, w) in wires.into_iter().enumerate() {
        log.push(w.event(&format!("{path}[{i}]"), read, wilds)?);
    }
    Ok(log)
}

impl Game {
    /// The log as a JSON array, in full or as `viewer` sees it.
    pub fn events_json(&self, viewer: Option<u8>) -> String {
        self.events_json_from(viewer, 0)
    }

    /// The log as `viewer` sees it (in full with `None`) less its first `start` events: a server
    /// sends each viewer only what is new, at a cost that grows with what is new.
    pub fn events_json_from(&self, viewer: Option<u8>, start: usize) -> String {
        let seen = self
            .events()
            .filter(|e| viewer.is_none_or(|v| visible(e, v)));
        let wires: Vec<Wire> = seen.skip(start).map(|e| e.wire(viewer, self)).collect();
        to_text(&wires)
    }

    /// The log as a spectator sees it: what every seat may see (RULES.md §12), so each seat's
    /// hidden fields are hidden and no `pass` is shown, less its first `start` events.
    pub fn public_events_json(&self, start: usize) -> String {
        const NO_SEAT: u8 = 4;
        self.events_json_from(Some(NO_SEAT), start)
    }

    /// The full log as JSON lines: one event object per line (for self-play logs).
    pub fn events_jsonl(&self) -> String {
        let mut out = String::new();
        for e in self.events() {
            out.push_str(&to_text(&e.wire(None, self)));
            out.push('\n');
        }
        out
    }
}
