//! The event log (docs/game-protocol.md §9): each event as a full log writes it, an object whose
//! `type` names the variant and then its fields in the contract's order; written in full or as
//! one seat may see them (RULES.md §12), and read back event by event (the checks a whole log's
//! order implies are the record's: `crate::record`).

use super::log::Log;
use super::{Game, Viewer, WinRecord};
use crate::choice::choice;
use crate::hand::Counts;
use crate::rules::json as rules_json;
use crate::rules::Rules;
use crate::score::Score;
use crate::tile::{Suit, Tile};
use crate::wire::{seat, to_text, upto, write_text};
use crate::Choice;
use claim::Claim;
use serde::de::{self, value::MapAccessDeserializer, IntoDeserializer, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::sync::Arc;

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
    /// What a `dice` event's roll decides.
    pub enum Purpose {
        Dealer = "dealer",
        Wall = "wall",
        Exchange = "exchange",
    }
}

/// A `dice` event's rolls: the exchange direction takes one die, the wall break one or two
/// (`wall_break_dice`), the dealer draw every roll of each seat, rerolls appended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    untagged,
    expecting = "one die [n], two [a, b], or the dealer draw's four lists of rolls"
)]
pub enum Rolls {
    One(#[serde(deserialize_with = "die")] [u8; 1]),
    Two(#[serde(deserialize_with = "die")] [u8; 2]),
    Seats(#[serde(deserialize_with = "die")] [Vec<u8>; 4]),
}

fn die<'de, D: Deserializer<'de>, T: crate::wire::Bounded>(d: D) -> Result<T, D::Error> {
    T::within::<D, 1, 6>(d)
}

choice! {
    /// What a `pass` passes on.
    pub enum On {
        Discard = "discard",
        Kong = "kong",
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

/// Declares the events once: [`Event`], the [`EventType`] of each variant by the name the log
/// writes, and the reading of an event object whose first key is its `type`: reading it first
/// lets every error name its field (`events[3].tiles`), which serde's tagged enums cannot.
macro_rules! events {
    (
        $(#[$meta:meta])*
        pub enum Event {
            $(
                $(#[$vmeta:meta])*
                $variant:ident = $name:literal $({
                    $($(#[$fmeta:meta])* $field:ident: $ty:ty,)*
                })?,
            )*
        }
    ) => {
        choice! {
            /// The `type` of an event as the log writes it.
            pub enum EventType { $($variant = $name,)* }
        }

        $(#[$meta])*
        #[derive(Serialize)]
        #[serde(tag = "type")]
        pub enum Event {
            $(
                $(#[$vmeta])*
                #[serde(rename = $name)]
                $variant $({ $($(#[$fmeta])* $field: $ty,)* })?,
            )*
        }

        /// [`Event`] as serde reads an enum: the variant its `type` names, then its fields.
        #[derive(Deserialize)]
        enum Read {
            $(
                #[serde(rename = $name)]
                $variant $({ $($(#[$fmeta])* $field: $ty,)* })?,
            )*
        }

        impl From<Read> for Event {
            fn from(read: Read) -> Event {
                match read {
                    $(Read::$variant $({ $($field,)* })? => Event::$variant $({ $($field,)* })?,)*
                }
            }
        }
    };
}

events! {
    /// One entry of the log, as a full log writes it. A win's details live in the game's win list,
    /// at `index`; `Event::shown` writes them, and what a seat's view hides (RULES.md §12).
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub enum Event {
        /// `given`: a match named the dealer (`Game::with_dealer`); no first-dealer draw was made.
        /// Written only when true, so logs of single hands read as before.
        Start = "start" {
            #[serde(deserialize_with = "full")]
            seed: u64,
            #[serde(with = "rules_json::rules")]
            rules: Arc<Rules>,
            #[serde(deserialize_with = "seat")]
            dealer: u8,
            #[serde(
                rename = "dealer_given",
                default,
                skip_serializing_if = "std::ops::Not::not"
            )]
            given: bool,
        },
        /// The wall break's one or two dice or the exchange direction's die, rolled by `seat`, or
        /// every die each seat rolled to pick the dealer.
        Dice = "dice" {
            purpose: Purpose,
            #[serde(default, deserialize_with = "seat")]
            seat: Option<u8>,
            rolls: Rolls,
        },
        Deal = "deal" {
            #[serde(deserialize_with = "seat")]
            seat: u8,
            #[serde(deserialize_with = "full")]
            tiles: Counts,
        },
        Exchange = "exchange" {
            direction: Direction,
            #[serde(deserialize_with = "full_each")]
            given: [[Tile; 3]; 4],
            #[serde(deserialize_with = "full_each")]
            received: [[Tile; 3]; 4],
        },
        Redeal = "redeal",
        Void = "void" {
            #[serde(deserialize_with = "seat")]
            seat: u8,
            suit: Suit,
        },
        Draw = "draw" {
            #[serde(deserialize_with = "seat")]
            seat: u8,
            #[serde(deserialize_with = "full")]
            tile: Tile,
            replacement: bool,
        },
        Discard = "discard" {
            #[serde(deserialize_with = "seat")]
            seat: u8,
            tile: Tile,
        },
        /// `could`: the claim bits (`claim`) the seat passed up.
        Pass = "pass" {
            #[serde(deserialize_with = "seat")]
            seat: u8,
            on: On,
            #[serde(with = "claims")]
            could: u8,
        },
        /// `wilds`: the wilds the pong holds, in the 幺鸡 variant only.
        Pong = "pong" {
            #[serde(deserialize_with = "seat")]
            seat: u8,
            tile: Tile,
            #[serde(deserialize_with = "seat")]
            from: u8,
            #[serde(
                default,
                skip_serializing_if = "Option::is_none",
                deserialize_with = "upto::<3, _, _>"
            )]
            wilds: Option<u8>,
        },
        /// `wilds`: the wilds the kong holds once made, in the 幺鸡 variant only.
        Kong = "kong" {
            #[serde(deserialize_with = "seat")]
            seat: u8,
            tile: Tile,
            kind: KongKind,
            #[serde(default, deserialize_with = "seat")]
            from: Option<u8>,
            late: bool,
            #[serde(
                default,
                skip_serializing_if = "Option::is_none",
                deserialize_with = "upto::<3, _, _>"
            )]
            wilds: Option<u8>,
        },
        /// 幺鸡换: `tile` went into the seat's kong of it, one of its wilds to the hand.
        Swap = "swap" {
            #[serde(deserialize_with = "seat")]
            seat: u8,
            tile: Tile,
        },
        /// A pong or kong (its claim bit) the seat asked for, which another seat's claim beat.
        Beaten = "beaten" {
            #[serde(deserialize_with = "seat")]
            seat: u8,
            #[serde(with = "beaten")]
            claim: u8,
        },
        Robbed = "robbed" {
            #[serde(deserialize_with = "seat")]
            seat: u8,
            tile: Tile,
        },
        /// `seat`: the winner, `None` only in a crafted log read back (the win list names it).
        Win = "win" {
            #[serde(default, deserialize_with = "seat")]
            seat: Option<u8>,
            #[serde(skip)]
            index: u16,
        },
        Payment = "payment" {
            #[serde(deserialize_with = "seat")]
            payer: u8,
            #[serde(deserialize_with = "seat")]
            payee: u8,
            amount: i64,
            reason: Reason,
        },
        /// 逃跑: `seat` left the hand; its penalty follows as payments, then the end.
        Abandon = "abandon" {
            #[serde(deserialize_with = "seat")]
            seat: u8,
        },
        /// `win_reveal = "hand_end"`: the hand is ending; every win of it is shown in full (its
        /// `wins`, written from the game's win list), and the payments it is owed follow.
        Reveal = "reveal",
        End = "end" {
            reason: EndKind,
            scores: [i64; 4],
        },
    }
}

/// Whether `viewer` sees `event` at all: a seat's `pass` reveals a claim it could have made,
/// i.e. concealed tiles, so it is left out of every other viewer's view *(c)*.
pub fn visible(event: &Event, viewer: Viewer) -> bool {
    !matches!(event, Event::Pass { seat, .. } if viewer.is_not(*seat))
}

/// Reads a field a full log shows and a seat's view may hide (`null`).
fn full<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<T, D::Error> {
    Option::<T>::deserialize(d)?.ok_or_else(|| de::Error::custom(SEAT_VIEW))
}

/// Reads a list per seat, each of which a seat's view may hide.
fn full_each<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<[T; 4], D::Error> {
    let [a, b, c, e] = <[Option<T>; 4]>::deserialize(d)?;
    match (a, b, c, e) {
        (Some(a), Some(b), Some(c), Some(e)) => Ok([a, b, c, e]),
        _ => Err(de::Error::custom(SEAT_VIEW)),
    }
}

const SEAT_VIEW: &str = "a full log shows it (this is a seat's view)";

/// Claim bits as the list of their claims, in [`Claim`] order.
mod claims {
    use super::{Claim, Deserialize, Deserializer, Serializer};
    use crate::Choice;

    pub fn serialize<S: Serializer>(bits: &u8, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(Claim::ALL.iter().filter(|c| bits & c.bit() != 0))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u8, D::Error> {
        let list = Vec::<Claim>::deserialize(d)?;
        Ok(list.iter().fold(0, |bits, c| bits | c.bit()))
    }
}

/// A beaten claim's bit as its name: a pong or a kong.
mod beaten {
    use super::{de, Claim, Deserialize, Deserializer, Serialize, Serializer};
    use crate::Choice;

    pub fn serialize<S: Serializer>(bit: &u8, s: S) -> Result<S::Ok, S::Error> {
        let claim = Claim::ALL.iter().find(|c| bit & c.bit() != 0);
        claim.unwrap_or(&Claim::Pong).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u8, D::Error> {
        match Claim::deserialize(d)? {
            Claim::Win => Err(de::Error::custom("a claim beaten is \"pong\" or \"kong\"")),
            claim => Ok(claim.bit()),
        }
    }
}

impl<'de> Deserialize<'de> for Event {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(TypeFirst).map(Event::from)
    }
}

/// Reads an event object: its `type` first, then the fields of the variant it names.
struct TypeFirst;

impl<'de> Visitor<'de> for TypeFirst {
    type Value = Read;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an event object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Read, A::Error> {
        if map.next_key::<String>()?.as_deref() != Some("type") {
            return Err(de::Error::custom("an event's first key is its \"type\""));
        }
        let kind: EventType = map.next_value()?;
        Read::deserialize(Typed(kind, map))
    }
}

/// The rest of an event object, read as the enum variant its `type` named.
struct Typed<A>(EventType, A);

impl<'de, A: MapAccess<'de>> Deserializer<'de> for Typed<A> {
    type Error = A::Error;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, A::Error> {
        v.visit_enum(self)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum identifier
        ignored_any
    }
}

impl<'de, A: MapAccess<'de>> de::EnumAccess<'de> for Typed<A> {
    type Error = A::Error;
    type Variant = Self;

    fn variant_seed<V: de::DeserializeSeed<'de>>(
        self,
        seed: V,
    ) -> Result<(V::Value, Self), A::Error> {
        let name: de::value::StrDeserializer<'_, A::Error> = self.0.name().into_deserializer();
        Ok((seed.deserialize(name)?, self))
    }
}

impl<'de, A: MapAccess<'de>> de::VariantAccess<'de> for Typed<A> {
    type Error = A::Error;

    /// An event without fields: any others are ignored, as unknown fields are.
    fn unit_variant(mut self) -> Result<(), A::Error> {
        while self
            .1
            .next_entry::<de::IgnoredAny, de::IgnoredAny>()?
            .is_some()
        {}
        Ok(())
    }

    fn newtype_variant_seed<T: de::DeserializeSeed<'de>>(
        self,
        seed: T,
    ) -> Result<T::Value, A::Error> {
        seed.deserialize(MapAccessDeserializer::new(self.1))
    }

    fn tuple_variant<V: Visitor<'de>>(self, _: usize, _: V) -> Result<V::Value, A::Error> {
        Err(de::Error::custom("an event's fields are named"))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, A::Error> {
        v.visit_map(self.1)
    }
}

/// An event as written where it needs the game or the viewer: a win's details, and what a seat's
/// view hides (`null`; a deal's tiles give their `count` instead).
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Shown<'a> {
    Start {
        seed: (),
        #[serde(with = "rules_json::rules")]
        rules: &'a Arc<Rules>,
        dealer: u8,
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        dealer_given: bool,
    },
    Deal {
        seat: u8,
        tiles: (),
        count: usize,
    },
    Exchange {
        direction: Direction,
        given: [Option<[Tile; 3]>; 4],
        received: [Option<[Tile; 3]>; 4],
    },
    Draw {
        seat: u8,
        tile: (),
        replacement: bool,
    },
    /// The details are `None` only for a win the game does not list; written as `null`.
    #[allow(clippy::option_option)]
    Win {
        seat: Option<u8>,
        tile: Option<Tile>,
        from: Option<Option<u8>>,
        kind: Option<WinKind>,
        hand: Option<Option<&'a Counts>>,
        score: Option<&'a Score>,
    },
    Reveal {
        wins: Revealed<'a>,
    },
    #[serde(untagged)]
    Plain(&'a Event),
}

/// The wins a `reveal` event shows: each as a full log's win event writes it, without `type`.
struct Revealed<'a>(&'a [WinRecord]);

impl Serialize for Revealed<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(|w| RevealedWin {
            seat: w.seat,
            tile: w.tile,
            from: w.from,
            kind: w.kind,
            hand: &w.hand,
            score: &w.score,
        }))
    }
}

#[derive(Serialize)]
struct RevealedWin<'a> {
    seat: u8,
    tile: Tile,
    from: Option<u8>,
    kind: WinKind,
    hand: &'a Counts,
    score: &'a Score,
}

impl Event {
    /// The event as written, in full (`viewer = None`) or as `viewer` sees it.
    fn shown<'a>(&'a self, viewer: Option<Viewer>, game: &'a Game) -> Shown<'a> {
        let hidden = move |seat: u8| viewer.is_some_and(|v| v.is_not(seat));
        match *self {
            Event::Win { index, .. } => {
                let w = game.wins.get(index as usize);
                // Under `win_reveal = "hand_end"` the others see only that the seat won (and a
                // discard win's tile) until the hand is over.
                let secret = |w: &WinRecord| viewer.is_some_and(|v| game.win_hidden(v, w));
                let tile_secret = |w: &WinRecord| viewer.is_some_and(|v| game.tile_hidden(v, w));
                Shown::Win {
                    seat: w.map(|w| w.seat),
                    tile: w.and_then(|w| (!tile_secret(w)).then_some(w.tile)),
                    from: w.map(|w| w.from),
                    kind: w.map(|w| w.kind),
                    hand: w.map(|w| (!hidden(w.seat)).then_some(&w.hand)),
                    score: w.and_then(|w| (!secret(w)).then_some(&w.score)),
                }
            }
            Event::Reveal => Shown::Reveal {
                wins: Revealed(&game.wins),
            },
            _ if viewer.is_some() => self.seen(hidden),
            _ => Shown::Plain(self),
        }
    }

    /// The event as a seat's view shows it, without the seed and the tiles of `hidden` seats.
    fn seen(&self, hidden: impl Fn(u8) -> bool) -> Shown<'_> {
        match *self {
            Event::Start {
                ref rules,
                dealer,
                given,
                ..
            } => Shown::Start {
                seed: (),
                rules,
                dealer,
                dealer_given: given,
            },
            Event::Deal { seat, ref tiles } if hidden(seat) => Shown::Deal {
                seat,
                tiles: (),
                count: tiles.len(),
            },
            Event::Exchange {
                direction,
                given,
                received,
            } => {
                let lists =
                    |l: [[Tile; 3]; 4]| std::array::from_fn(|s| (!hidden(s as u8)).then_some(l[s]));
                Shown::Exchange {
                    direction,
                    given: lists(given),
                    received: lists(received),
                }
            }
            Event::Draw {
                seat, replacement, ..
            } if hidden(seat) => Shown::Draw {
                seat,
                tile: (),
                replacement,
            },
            _ => Shown::Plain(self),
        }
    }
}

/// What [`Game::to_window`] gives a table server to send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToWindow {
    /// Each viewer's new events as a JSON array (as [`Game::events_json_from`] writes them), with
    /// their count, in [`Viewer::ALL`]'s order.
    pub views: [(String, usize); 5],
    /// The event that opened a claim window, as the public sees it, if one did.
    pub window: Option<String>,
    /// Whether public events follow that window in the log: the engine has moved past it (no
    /// seat could claim), and what followed is held until the window's claims are settled.
    pub held: bool,
    /// Where the next reading starts: past the window's event, or at the log's end.
    pub read: usize,
}

/// One viewer's part of [`Game::to_window`]: a JSON array, open until [`Cut::into_view`] closes it.
#[derive(Default)]
struct Cut {
    text: Vec<u8>,
    count: usize,
    /// Where the last event begins in `text`.
    last: usize,
}

impl Cut {
    fn push(&mut self, shown: &Shown<'_>) {
        self.text
            .extend_from_slice(if self.count == 0 { b"[" } else { b", " });
        self.last = self.text.len();
        write_text(shown, &mut self.text);
        self.count += 1;
    }

    fn last_text(&self) -> String {
        String::from_utf8(self.text[self.last..].to_vec()).expect("serde_json writes UTF-8")
    }

    fn into_view(mut self) -> (String, usize) {
        self.text
            .extend_from_slice(if self.count == 0 { b"[]" } else { b"]" });
        let text = String::from_utf8(self.text).expect("serde_json writes UTF-8");
        (text, self.count)
    }
}

/// The events of the log as `viewer` sees them (in full with `None`), less the first `start`.
struct Seen<'a> {
    game: &'a Game,
    viewer: Option<Viewer>,
    start: usize,
}

impl<'a> Seen<'a> {
    fn from(game: &'a Game, viewer: Option<Viewer>, start: usize) -> Seen<'a> {
        Seen {
            game,
            viewer,
            start,
        }
    }

    fn events(&self) -> impl Iterator<Item = &'a Event> + 'a {
        let viewer = self.viewer;
        let seen = (self.game.events()).filter(move |e| viewer.is_none_or(|v| visible(e, v)));
        seen.skip(self.start)
    }
}

impl Serialize for Seen<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.events().map(|e| e.shown(self.viewer, self.game)))
    }
}

impl Game {
    /// The full log, as a snapshot writes it.
    pub(crate) fn log_wire(&self) -> impl Serialize + '_ {
        Seen::from(self, None, 0)
    }

    /// The log as a JSON array, in full or as `viewer` sees it.
    pub fn events_json(&self, viewer: Option<Viewer>) -> String {
        self.events_json_from(viewer, 0)
    }

    /// The log as `viewer` sees it (in full with `None`) less its first `start` events: a server
    /// sends each viewer only what is new, at a cost that grows with what is new.
    pub fn events_json_from(&self, viewer: Option<Viewer>, start: usize) -> String {
        to_text(&Seen::from(self, viewer, start))
    }

    /// How many events the log holds: where a reader keeping its place in the log reads next.
    pub fn log_len(&self) -> usize {
        self.log.as_ref().map_or(0, Log::len)
    }

    /// Appends the events `seat` may see from the log's `start`-th on (a place in the full log,
    /// as [`Game::log_len`] gave it, so nothing before it is read again) as JSON lines, and
    /// returns how many. The lines are [`Game::events_json_from`]'s array cut at its items, so
    /// each but the first keeps the space that followed the array's comma: the bot protocol's
    /// bytes since v1 (docs/bot-protocol.md).
    pub fn seat_event_lines(&self, seat: u8, start: usize, out: &mut Vec<u8>) -> usize {
        let events = self.log.iter().flat_map(|log| log.iter_from(start));
        let mut count = 0;
        let viewer = Viewer::Seat(seat);
        for event in events.filter(|e| visible(e, viewer)) {
            if count > 0 {
                out.push(b' ');
            }
            write_text(&event.shown(Some(viewer), self), out);
            out.push(b'\n');
            count += 1;
        }
        count
    }

    /// The last event `seat` may see, if any.
    pub fn last_seen(&self, seat: u8) -> Option<&Event> {
        let mut newest_first = self.log.iter().flat_map(Log::iter_rev);
        newest_first.find(|e| visible(e, Viewer::Seat(seat)))
    }

    /// What a table server sends at once (docs/server.md, "Information"), read from the full
    /// log's `read`-th event on, where the server's last reading ended: each viewer's events (in
    /// [`Viewer::ALL`]'s order) up to and including the first that opens a claim window. Nothing
    /// that follows a window may go out before its claims are settled.
    pub fn to_window(&self, read: usize) -> ToWindow {
        let mut cuts: [Cut; 5] = Default::default();
        let (mut end, mut window, mut held) = (read, None, false);
        for event in self.log.iter().flat_map(|log| log.iter_from(read)) {
            if window.is_some() {
                held = visible(event, Viewer::Public);
                if held {
                    break;
                }
                continue;
            }
            end += 1;
            for (viewer, cut) in Viewer::ALL.into_iter().zip(cuts.iter_mut()) {
                if visible(event, viewer) {
                    cut.push(&event.shown(Some(viewer), self));
                }
            }
            if self.opens_window(event) {
                window = Some(cuts[Viewer::Public.index()].last_text());
            }
        }
        ToWindow {
            views: cuts.map(Cut::into_view),
            window,
            held,
            read: end,
        }
    }

    /// Where [`Game::to_window`] reads next once each viewer was sent its first
    /// `sent[viewer.index()]` events: the place in the full log just past the last of them (every event is seen by
    /// some viewer). For a server that kept the counts but not the place, e.g. after a restart.
    pub fn read_place(&self, sent: [usize; 5]) -> usize {
        let mut seen = [0; 5];
        let mut place = 0;
        for (at, event) in self.events().enumerate() {
            if seen == sent {
                break;
            }
            for (viewer, n) in Viewer::ALL.into_iter().zip(seen.iter_mut()) {
                if visible(event, viewer) && *n < sent[viewer.index()] {
                    *n += 1;
                    place = at + 1;
                }
            }
        }
        place
    }

    /// Whether the others may claim on `event`: a discard, an added kong, or a concealed one when
    /// the rules let it be robbed. (An added wild opens a window that no one can claim.)
    fn opens_window(&self, event: &Event) -> bool {
        match event {
            Event::Discard { .. } => true,
            Event::Kong { kind, .. } => {
                *kind == KongKind::Added
                    || (*kind == KongKind::Concealed && self.rules.rob_concealed_kong)
            }
            _ => false,
        }
    }

    /// The log as a spectator sees it: what every seat may see (RULES.md §12), so each seat's
    /// hidden fields are hidden and no `pass` is shown, less its first `start` events.
    pub fn public_events_json(&self, start: usize) -> String {
        self.events_json_from(Some(Viewer::Public), start)
    }

    /// The full log as JSON lines: one event object per line (for self-play logs).
    pub fn events_jsonl(&self) -> String {
        let mut out = String::new();
        for e in self.events() {
            out.push_str(&to_text(&e.shown(None, self)));
            out.push('\n');
        }
        out
    }
}
