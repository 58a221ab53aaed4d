//! Replaying a game from its event log: the decisions the log records, played again from its
//! `start` event, must write the same log.

use super::events::claim::{self, Claim};
use super::events::{Direction, EndReason, Event, EventType};
use super::json_in::*;
use super::log::Log;
use super::{Action, Game};
use crate::error::Error;
use crate::tile::Tile;
use serde_json::Value;
use std::sync::Arc;

/// Reads a log back into events; win events refer to the win list in order.
pub(super) fn events_from(v: &Value, path: &str, game: &Game) -> R<Log<Event>> {
    let mut log = Log::default();
    let mut read = Reading::default();
    for (i, e) in array(v, path)?.iter().enumerate() {
        let ep = format!("{path}[{i}]");
        let event = match event_from(e, &ep, &mut read)? {
            // Under wilds a dealt 1s is a wild, as in the hand.
            Event::Deal { seat, .. } if game.rules.wilds => {
                let (x, p) = At {
                    value: e,
                    path: &ep,
                }
                .field("tiles")?;
                Event::Deal {
                    seat,
                    tiles: hand(x, &p, true)?,
                }
            }
            event => event,
        };
        log.push(event);
    }
    if read.wins as usize != game.wins.len() {
        return Err(format!(
            "{path}: {} win events for {} wins",
            read.wins,
            game.wins.len()
        ));
    }
    Ok(log)
}

/// What reading a log so far tells the events that follow: win events refer to the win list
/// in order; an `abandoned` end names the seat of the `abandon` event before it.
#[derive(Default)]
pub(super) struct Reading {
    wins: u16,
    leaver: Option<u8>,
}

/// One event of the full (unfiltered) log.
pub(super) fn event_from(v: &Value, path: &str, read: &mut Reading) -> R<Event> {
    let at = At { value: v, path };
    let get = |key: &str| at.field(key);
    let seat = || -> R<u8> {
        let (x, p) = get("seat")?;
        seat_num(x, &p)
    };
    let tile_f = |key: &str| -> R<Tile> {
        let (x, p) = get(key)?;
        tile(x, &p)
    };
    let (x, p) = get("type")?;
    // `pong` and `kong` name their wilds in the 幺鸡 variant only.
    let wilds = || -> R<u8> {
        let p = format!("{path}.wilds");
        opt_field(v, "wilds").map_or(Ok(0), |w| uint(w, &p, 3).map(|n| n as u8))
    };
    Ok(match choice(x, &p)? {
        EventType::Start => {
            let (x, p) = get("seed")?;
            let (d, dp) = get("dealer")?;
            let gp = format!("{path}.dealer_given");
            Event::Start {
                seed: uint(x, &p, u64::MAX)?,
                dealer: seat_num(d, &dp)?,
                given: opt_field(v, "dealer_given").map_or(Ok(false), |g| boolean(g, &gp))?,
            }
        }
        EventType::Dice => {
            let (x, p) = get("purpose")?;
            let purpose = name(x, &p, &["dealer", "wall", "exchange"])?;
            let (r, rp) = get("rolls")?;
            let rolls = array(r, &rp)?;
            let die = |v: &Value, p: &str| -> R<u8> {
                match v.as_u64() {
                    Some(n @ 1..=6) => Ok(n as u8),
                    _ => err(p, "a die 1-6", v),
                }
            };
            if purpose == "dealer" {
                if rolls.len() != 4 {
                    return Err(format!("{rp}: one list of rolls per seat"));
                }
                let mut out: [Vec<u8>; 4] = Default::default();
                for (s, list) in rolls.iter().enumerate() {
                    for (j, d) in array(list, &rp)?.iter().enumerate() {
                        out[s].push(die(d, &format!("{rp}[{s}][{j}]"))?);
                    }
                }
                Event::DealerDice { rolls: out }
            } else {
                match rolls.as_slice() {
                    [d] => Event::Dice {
                        exchange: purpose == "exchange",
                        seat: seat()?,
                        roll: die(d, &rp)?,
                    },
                    _ => return Err(format!("{rp}: one die")),
                }
            }
        }
        EventType::Deal => {
            let (x, p) = get("tiles")?;
            Event::Deal {
                seat: seat()?,
                tiles: counts(x, &p)?,
            }
        }
        EventType::Exchange => {
            let (x, p) = get("direction")?;
            let direction: Direction = choice(x, &p)?;
            let lists = |key: &str| -> R<[[Tile; 3]; 4]> {
                let (x, p) = get(key)?;
                let list = array(x, &p)?;
                let mut out = [[Tile::new(0).expect("1m"); 3]; 4];
                if list.len() != 4 {
                    return Err(format!("{p}: four lists"));
                }
                for (s, l) in list.iter().enumerate() {
                    let lp = format!("{p}[{s}]");
                    match tiles(l, &lp)?.as_slice() {
                        [a, b, c] => out[s] = [*a, *b, *c],
                        _ => return Err(format!("{lp}: three tiles")),
                    }
                }
                Ok(out)
            };
            Event::Exchange {
                direction,
                given: lists("given")?,
                received: lists("received")?,
            }
        }
        EventType::Redeal => Event::Redeal,
        EventType::Void => {
            let (x, p) = get("suit")?;
            Event::Void {
                seat: seat()?,
                suit: suit(x, &p)?,
            }
        }
        EventType::Draw => {
            let (x, p) = get("replacement")?;
            Event::Draw {
                seat: seat()?,
                tile: tile_f("tile")?,
                replacement: boolean(x, &p)?,
            }
        }
        EventType::Discard => Event::Discard {
            seat: seat()?,
            tile: tile_f("tile")?,
        },
        EventType::Pass => {
            let (x, p) = get("on")?;
            let on_kong = name(x, &p, &["discard", "kong"])? == "kong";
            let (c, cp) = get("could")?;
            let mut could = 0;
            for (j, n) in array(c, &cp)?.iter().enumerate() {
                could |= choice::<Claim>(n, &format!("{cp}[{j}]"))?.bit();
            }
            Event::Pass {
                seat: seat()?,
                on_kong,
                could,
            }
        }
        EventType::Pong => {
            let (x, p) = get("from")?;
            Event::Pong {
                seat: seat()?,
                tile: tile_f("tile")?,
                from: seat_num(x, &p)?,
                wilds: wilds()?,
            }
        }
        EventType::Kong => {
            let (k, kp) = get("kind")?;
            let (x, p) = get("from")?;
            let (l, lp) = get("late")?;
            Event::Kong {
                seat: seat()?,
                tile: tile_f("tile")?,
                kind: choice(k, &kp)?,
                from: opt(x, |x| seat_num(x, &p))?,
                late: boolean(l, &lp)?,
                wilds: wilds()?,
            }
        }
        EventType::Swap => Event::Swap {
            seat: seat()?,
            tile: tile_f("tile")?,
        },
        EventType::Beaten => {
            let (x, p) = get("claim")?;
            let claim = match choice(x, &p)? {
                Claim::Win => return err(&p, "\"pong\" or \"kong\"", x),
                claim => claim.bit(),
            };
            Event::Beaten {
                seat: seat()?,
                claim,
            }
        }
        EventType::Robbed => Event::Robbed {
            seat: seat()?,
            tile: tile_f("tile")?,
        },
        EventType::Win => {
            let index = read.wins;
            read.wins = read.wins.saturating_add(1);
            Event::Win { index }
        }
        EventType::Abandon => {
            let seat = seat()?;
            read.leaver = Some(seat);
            Event::Abandon { seat }
        }
        EventType::Payment => {
            let (x, p) = get("payer")?;
            let (y, q) = get("payee")?;
            let (a, ap) = get("amount")?;
            let (r, rp) = get("reason")?;
            Event::Payment {
                payer: seat_num(x, &p)?,
                payee: seat_num(y, &q)?,
                amount: int(a, &ap)?,
                reason: choice(r, &rp)?,
            }
        }
        EventType::End => {
            let (x, p) = get("reason")?;
            let reason = EndReason::of(choice(x, &p)?, read.leaver)
                .ok_or(format!("{p}: an abandoned hand follows an abandon event"))?;
            let (s, sp) = get("scores")?;
            let list = array(s, &sp)?;
            if list.len() != 4 {
                return Err(format!("{sp}: four scores"));
            }
            let mut scores = [0i64; 4];
            for (i, x) in list.iter().enumerate() {
                scores[i] = int(x, &sp)?;
            }
            Event::End { reason, scores }
        }
    })
}

impl Game {
    /// Replays an event log: its `start` event gives seed and rules, its decisions the actions;
    /// the replay must write the same log again.
    pub fn from_events(text: &str) -> Result<Game, Error> {
        let bad = |e: String| Error::Snapshot(format!("bad event log: {e}"));
        let value: Value = serde_json::from_str(text).map_err(|e| bad(e.to_string()))?;
        let list = array(&value, "events").map_err(bad)?;
        let start = list.first().ok_or_else(|| bad("the log is empty".into()))?;
        let at = At {
            value: start,
            path: "events[0]",
        };
        let Event::Start {
            seed,
            dealer,
            given,
        } = event_from(start, "events[0]", &mut Reading::default()).map_err(bad)?
        else {
            return Err(bad("events[0] is not a start event".into()));
        };
        let (x, _) = at.field("rules").map_err(bad)?;
        let rules = Arc::new(rules_from(x).map_err(bad)?);
        let mut read = Reading::default();
        let events = (list.iter().enumerate())
            .map(|(i, e)| event_from(e, &format!("events[{i}]"), &mut read))
            .collect::<R<Vec<Event>>>()
            .map_err(bad)?;
        let winner = |i: usize, _| {
            let path = format!("events[{i}]");
            let (x, p) = At {
                value: &list[i],
                path: &path,
            }
            .field("seat")?;
            seat_num(x, &p)
        };
        let steps = decisions(&events, winner).map_err(bad)?;
        let mut game = Game::with_dealer(rules, seed, given.then_some(dealer), true)?;
        game.play_steps(&steps)
            .map_err(|(i, step, e)| e.context(format_args!("action {i} ({step})")))?;
        let written: Value =
            serde_json::from_str(&game.events_json(None)).map_err(|e| bad(e.to_string()))?;
        if written != value {
            return Err(bad(
                "replaying its decisions writes a different log (edited or from another version)"
                    .into(),
            ));
        }
        Ok(game)
    }
}

/// One decision a log records: an action, or a seat leaving (逃跑).
#[derive(Clone, Copy, Debug)]
pub(super) enum Step {
    Act(u8, Action),
    Abandon(u8),
}

impl std::fmt::Display for Step {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Step::Act(seat, action) => write!(f, "{seat}, {action}"),
            Step::Abandon(seat) => write!(f, "{seat} abandons"),
        }
    }
}

impl Game {
    /// Plays `steps` (each with the index of its event) in order; the first that fails, with
    /// its number among the steps.
    pub(super) fn play_steps(
        &mut self,
        steps: &[(usize, Step)],
    ) -> Result<(), (usize, Step, Error)> {
        for (n, &(_, step)) in steps.iter().enumerate() {
            match step {
                Step::Act(seat, action) => self.act(seat, action),
                Step::Abandon(seat) => self.abandon(seat),
            }
            .map_err(|e| (n, step, e))?;
        }
        Ok(())
    }
}

/// The decisions `events` record, in order, each with the index of its event; `winner` gives
/// the seat of the win event at an index, with the win's number.
pub(super) fn decisions(
    events: &[Event],
    winner: impl Fn(usize, u16) -> R<u8>,
) -> R<Vec<(usize, Step)>> {
    let mut out = Vec::new();
    let mut last_discard = None;
    for (i, e) in events.iter().enumerate() {
        let step = |seat, action| (i, Step::Act(seat, action));
        match *e {
            Event::Exchange { given, .. } => {
                (0..4u8).for_each(|s| out.push(step(s, Action::exchange(given[s as usize]))));
            }
            Event::Void { seat, suit } => out.push(step(seat, Action::Void(suit))),
            Event::Discard { seat, tile } => {
                last_discard = Some(tile);
                out.push(step(seat, Action::Discard(tile)));
            }
            Event::Pass { seat, .. } => out.push(step(seat, Action::Pass)),
            Event::Beaten { seat, claim } => {
                let action = if claim == claim::PONG {
                    Action::Pong
                } else {
                    Action::Kong(
                        last_discard.ok_or(format!("events[{i}]: a kong before any discard"))?,
                    )
                };
                out.push(step(seat, action));
            }
            Event::Pong { seat, .. } => out.push(step(seat, Action::Pong)),
            Event::Kong { seat, tile, .. } => out.push(step(seat, Action::Kong(tile))),
            Event::Swap { seat, tile } => out.push(step(seat, Action::Swap(tile))),
            Event::Win { index } => out.push(step(winner(i, index)?, Action::Win)),
            Event::Abandon { seat } => out.push((i, Step::Abandon(seat))),
            _ => {}
        }
    }
    Ok(out)
}
