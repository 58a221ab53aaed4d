//! The bot protocol's lines for a seat's decision (docs/bot-protocol.md, v1): its new events and
//! its request, written as the bytes a bot is sent. The host's side of the protocol lives in
//! Python (`xueliu.bot_protocol`, `xueliu.players`); these are the lines it sends at every
//! decision, written here so that a decision costs one call and no Python objects.
//!
//! What a bot learns is [`Game::seat_event_lines`], the seat's view of the log (RULES.md §12);
//! its request is [`request_line`]: what it is asked ([`RequestKind`]), its legal actions as
//! text and their ids.

use crate::encode::{legal_ids, IdSet, Picks};
use crate::game::{ActionList, Event, Game, Phase};
use crate::tile::Tile;
use serde::ser::{Serialize, SerializeMap, Serializer};
use std::fmt::Display;

/// What a request asks the seat, as its `kind` field names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RequestKind {
    /// Three tiles to pass on (换三张), all seats at once.
    Exchange,
    /// The suit to give up (定缺), all seats at once.
    Void,
    /// Another seat's discard, which the seat may win on, pong, kong or pass.
    Claim { tile: Tile, from: u8 },
    /// Another seat's added (or concealed) kong, which the seat may win on (抢杠) or pass.
    Rob { tile: Tile, from: u8 },
    /// The seat's own turn.
    Turn,
}

impl RequestKind {
    /// What `seat` is asked now: the phase's question, or the last event it saw when that is
    /// another seat's discard or kong.
    pub fn of(game: &Game, seat: u8) -> RequestKind {
        match game.phase() {
            Phase::Exchange => return RequestKind::Exchange,
            Phase::Void => return RequestKind::Void,
            Phase::Play | Phase::Over => {}
        }
        match game.last_seen(seat) {
            Some(&Event::Discard { seat: from, tile }) if from != seat => {
                RequestKind::Claim { tile, from }
            }
            Some(&Event::Kong {
                seat: from, tile, ..
            }) if from != seat => RequestKind::Rob { tile, from },
            _ => RequestKind::Turn,
        }
    }

    /// The request's `kind` field.
    pub fn name(self) -> &'static str {
        match self {
            RequestKind::Exchange => "exchange",
            RequestKind::Void => "void",
            RequestKind::Claim { .. } => "claim",
            RequestKind::Rob { .. } => "rob",
            RequestKind::Turn => "turn",
        }
    }
}

/// Appends the request for `seat`'s decision now, one line of compact JSON: `id`, `seat`, what
/// it is asked, its legal actions as text (`actions`, as `Game::legal_actions` lists them) and
/// their ids (`mask`: the action mask's set ids; in an exchange, the tiles that may be picked),
/// and `deadline_ms`. `actions` is left holding the legal actions, to read the answer against.
pub fn request_line(
    game: &Game,
    seat: u8,
    id: u64,
    deadline_ms: u64,
    actions: &mut ActionList,
    out: &mut Vec<u8>,
) {
    game.legal_actions(seat, actions);
    let request = Request {
        id,
        seat,
        kind: RequestKind::of(game, seat),
        actions,
        ids: legal_ids(game, seat, &Picks::NONE),
        deadline_ms,
    };
    // Only string keys and plain values: writing them to a Vec cannot fail.
    serde_json::to_writer(&mut *out, &request).expect("a request serializes");
    out.push(b'\n');
}

struct Request<'a> {
    id: u64,
    seat: u8,
    kind: RequestKind,
    actions: &'a ActionList,
    ids: IdSet,
    deadline_ms: u64,
}

impl Serialize for Request<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("type", "request")?;
        map.serialize_entry("id", &self.id)?;
        map.serialize_entry("seat", &self.seat)?;
        map.serialize_entry("kind", self.kind.name())?;
        if let RequestKind::Claim { tile, from } | RequestKind::Rob { tile, from } = self.kind {
            map.serialize_entry("tile", &Text(tile))?;
            map.serialize_entry("from", &from)?;
        }
        let texts = self.actions.as_slice().iter().map(Text);
        map.serialize_entry("actions", &Seq(texts))?;
        map.serialize_entry("mask", &Ids(self.ids))?;
        map.serialize_entry("deadline_ms", &self.deadline_ms)?;
        map.end()
    }
}

/// A value written as its text.
struct Text<T>(T);

impl<T: Display> Serialize for Text<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&self.0)
    }
}

/// Ids written as a list, smallest first.
struct Ids(IdSet);

impl Serialize for Ids {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter())
    }
}

/// Items written as a list.
struct Seq<I>(I);

impl<I: Iterator<Item: Serialize> + Clone> Serialize for Seq<I> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.clone())
    }
}
