//! The full snapshot: `to_json` / `from_json`, restoring exactly (RNG state, hidden decisions
//! and the log included). `from_json` trusts nothing: serde reads every field of today's form
//! into the game's own types, an error naming its path; an older snapshot is first brought to
//! that form by [`super::migrate`]; the game's one door for parts
//! ([`Game::from_parts`]) then checks and rebuilds the game, recomputing derived values (claims,
//! forced wins, cached waits, scores of wins), and the result must pass every invariant and have
//! someone to act.

use super::log::events_from;
use super::migrate;
use super::verify::MAX_SNAPSHOT_BYTES;
use crate::error::Error;
use crate::game::{
    Action, EndKind, EndReason, Event, ExchangeRecord, Exchanged, Game, History, KongKind,
    KongRecord, Parts, Pending, Responses, Seat, Turn, WinRecord,
};
use crate::rules::json as rules_json;
use crate::rules::Rules;
use crate::tile::{Suit, Tile};
use crate::wire::{read, read_value, seat, to_text, SeatNo, Within};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::sync::Arc;

type R<T> = Result<T, String>;

/// Snapshot format version; `from_json` rejects others.
const VERSION: u64 = 1;

/// A snapshot as written today; an older one is brought to this form by [`migrate`] (`history`
/// stays optional: its default is computed from the typed fields). Its log is written from the
/// game's (`E`) and read as events.
#[derive(Serialize, Deserialize)]
struct Snapshot<'a, E> {
    version: u64,
    #[serde(with = "rules_json::rules")]
    rules: Arc<Rules>,
    seed: u64,
    rng: u64,
    #[serde(deserialize_with = "seat")]
    dealer: u8,
    wall: Vec<Tile>,
    seats: Cow<'a, [Seat; 4]>,
    river: Vec<(SeatNo, Tile)>,
    pending: PendingWire,
    claimed: bool,
    wins: Cow<'a, [WinRecord]>,
    kongs: Cow<'a, [KongRecord]>,
    /// The resolved exchange; checked, and kept only for snapshots without `history`.
    exchange: Option<ExchangeRecord>,
    scores: [i64; 4],
    end: Option<EndKind>,
    #[serde(deserialize_with = "seat")]
    leaver: Option<u8>,
    history: Option<History>,
    logging: bool,
    events: E,
}

/// The pending decision: a turn as the game keeps it; picks written as actions; responses
/// without the claims and forced wins, which a restore recomputes.
#[derive(Serialize, Deserialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
enum PendingWire {
    Exchange {
        picks: [Option<Action>; 4],
    },
    Void {
        picks: [Option<Suit>; 4],
    },
    Turn(Turn),
    Respond {
        #[serde(deserialize_with = "seat")]
        from: u8,
        tile: Tile,
        kong: Option<KongKind>,
        late: bool,
        decisions: [Option<Action>; 4],
        after_kong: Option<u16>,
    },
    Over,
}

impl Game {
    /// A full snapshot as JSON text.
    pub fn to_json(&self) -> String {
        let parts = self.parts();
        to_text(&Snapshot {
            version: VERSION,
            rules: parts.rules,
            seed: parts.seed,
            rng: parts.rng,
            dealer: parts.dealer,
            wall: parts.wall.to_vec(),
            seats: parts.seats,
            river: parts.river.iter().map(|&(s, t)| (Within(s), t)).collect(),
            pending: PendingWire::of(parts.pending),
            claimed: parts.claimed,
            wins: parts.wins,
            kongs: parts.kongs,
            exchange: self.exchanged(),
            scores: parts.scores,
            end: parts.end.map(EndReason::kind),
            leaver: self.leaver(),
            history: Some(parts.history),
            logging: self.is_logging(),
            events: self.log_wire(),
        })
    }
}

impl PendingWire {
    fn of(pending: Pending) -> PendingWire {
        match pending {
            Pending::Exchange(picks) => PendingWire::Exchange {
                picks: picks.map(|p| p.map(Action::Exchange)),
            },
            Pending::Void(picks) => PendingWire::Void { picks },
            Pending::Turn(t) => PendingWire::Turn(t),
            Pending::Respond(r) => PendingWire::Respond {
                from: r.from,
                tile: r.tile,
                kong: r.kong.map(|(k, _)| k),
                late: r.kong.is_some_and(|(_, late)| late),
                decisions: r.decisions,
                after_kong: r.after_kong,
            },
            Pending::Over => PendingWire::Over,
        }
    }

    /// The pending decision as the game keeps it; a `Respond`'s claims and forced wins are left
    /// for [`Game::from_parts`] to recompute.
    fn pending(&self) -> R<Pending> {
        Ok(match *self {
            PendingWire::Exchange { picks } => {
                let mut out = [None; 4];
                for (i, p) in picks.iter().enumerate() {
                    out[i] = match p {
                        Some(Action::Exchange(t)) => Some(*t),
                        Some(a) => return Err(format!("snapshot.pending.picks[{i}]: expected an exchange like \"exchange 123m\", got \"{a}\"")),
                        None => None,
                    };
                }
                Pending::Exchange(out)
            }
            PendingWire::Void { picks } => Pending::Void(picks),
            PendingWire::Turn(t) => Pending::Turn(t),
            PendingWire::Respond {
                from,
                tile,
                kong,
                late,
                decisions,
                after_kong,
            } => Pending::Respond(Responses {
                from,
                tile,
                kong: kong.map(|k| (k, late)),
                claims: [0; 4],
                forced: 0,
                decisions,
                after_kong,
            }),
            PendingWire::Over => Pending::Over,
        })
    }
}

/// The seat that received `giver`'s tiles in `x`.
fn receiver(x: &ExchangeRecord, giver: u8) -> usize {
    let (direction, given) = (x.direction, x.given);
    Exchanged { direction, given }.receiver(giver) as usize
}

/// The resolved exchange, if each seat received what the seat before it in the direction gave.
fn exchange_checked(x: Option<ExchangeRecord>) -> R<Option<ExchangeRecord>> {
    match x {
        Some(x) if (0..4).any(|g| x.received[receiver(&x, g)] != x.given[g as usize]) => Err(
            "snapshot.exchange: each seat receives what the seat before it in the direction gave"
                .into(),
        ),
        x => Ok(x),
    }
}

impl Snapshot<'_, Vec<Event>> {
    /// The end reason; only an abandoned hand names a leaver, and it must.
    fn end(&self) -> R<Option<EndReason>> {
        let end = (self.end)
            .map(|kind| {
                EndReason::of(kind, self.leaver)
                    .ok_or("snapshot.leaver: an abandoned hand names its leaver")
            })
            .transpose()?;
        if self.leaver.is_some() && !matches!(end, Some(EndReason::Abandoned(_))) {
            return Err("snapshot.leaver: only an abandoned hand has a leaver".into());
        }
        Ok(end)
    }

    /// The game, checked whole: the written form's own fields here, what an older snapshot
    /// leaves out from [`migrate`], the rest by [`Game::from_parts`].
    fn game(self) -> R<Game> {
        if self.version != VERSION {
            return Err(format!(
                "snapshot.version: this engine reads version {VERSION}"
            ));
        }
        let end = self.end()?;
        let exchange = exchange_checked(self.exchange)?;
        let river: Vec<(u8, Tile)> = self.river.iter().map(|&(s, t)| (s.0, t)).collect();
        let history = (self.history).unwrap_or_else(|| migrate::history(&river, exchange));
        let log = if self.logging {
            let mut events = self.events;
            events_from(&mut events, "snapshot.events", self.rules.wilds)?;
            Some(events)
        } else if !self.events.is_empty() {
            return Err("snapshot.events: a game without logging has no events".into());
        } else {
            None
        };
        let parts = Parts {
            rules: self.rules,
            seed: self.seed,
            rng: self.rng,
            dealer: self.dealer,
            wall: Cow::Owned(self.wall),
            seats: self.seats,
            river: Cow::Owned(river),
            pending: self.pending.pending()?,
            claimed: self.claimed,
            wins: self.wins,
            kongs: self.kongs,
            scores: self.scores,
            end,
            history,
        };
        Game::from_parts(parts, log)
    }
}

impl Game {
    /// Restores a snapshot written by [`Game::to_json`], verified: it must be a consistent
    /// game, and the game its seed, rules and decisions (its event log, and the decisions still
    /// pending) produce; otherwise an error naming the first field that disagrees.
    pub fn from_json(text: &str) -> Result<Game, Error> {
        Game::restore(text, true)
    }

    /// Restores a snapshot trusting that it is what its seed and decisions produce: it is
    /// checked to be a consistent game (108 tiles, hand sizes, legal pending decisions, wins
    /// scored as their hands score), not replayed. For snapshots from a trusted store, and for
    /// those no seed produces: determinised copies, crafted positions, games without a log.
    pub fn from_json_trusted(text: &str) -> Result<Game, Error> {
        Game::restore(text, false)
    }

    fn restore(text: &str, verify: bool) -> Result<Game, Error> {
        let bad = |e: String| Error::Snapshot(format!("bad snapshot: {e}"));
        if text.len() > MAX_SNAPSHOT_BYTES {
            return Err(bad(format!(
                "{} bytes, more than any hand writes (at most {MAX_SNAPSHOT_BYTES})",
                text.len()
            )));
        }
        let game = read_snapshot(text).map_err(bad)?;
        if verify {
            game.verified(text).map_err(bad)
        } else {
            Ok(game)
        }
    }
}

/// The game `text` holds, read strictly in today's form; a snapshot that form refuses is read
/// again brought up to date by [`migrate::snapshot`], if it lacks what an older one may (else
/// the strict read's error stands).
fn read_snapshot(text: &str) -> R<Game> {
    let strict = match read::<Snapshot<Vec<Event>>>(text, "snapshot") {
        Ok(snapshot) => return snapshot.game(),
        Err(e) => e,
    };
    let Ok(mut value) = read::<serde_json::Value>(text, "snapshot") else {
        return Err(strict);
    };
    if !migrate::snapshot(&mut value) {
        return Err(strict);
    }
    read_value::<Snapshot<Vec<Event>>>(&value, "snapshot")?.game()
}
