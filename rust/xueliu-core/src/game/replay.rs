//! Replaying a game from its event log: the decisions the log records, played again from its
//! `start` event, must write the same log.

use super::events::claim;
use super::events::{events_from, Event};
use super::log::Log;
use super::wire::read_value;
use super::{Action, Game};
use crate::error::Error;
use serde_json::Value;

impl Game {
    /// Replays an event log: its `start` event gives seed and rules, its decisions the actions;
    /// the replay must write the same log again.
    pub fn from_events(text: &str) -> Result<Game, Error> {
        let bad = |e: String| Error::Snapshot(format!("bad event log: {e}"));
        let value: Value = serde_json::from_str(text).map_err(|e| bad(e.to_string()))?;
        let mut events: Vec<Event> = read_value(&value, "events").map_err(bad)?;
        let Some(Event::Start {
            seed,
            rules,
            dealer,
            given,
        }) = events.first().cloned()
        else {
            let why = if events.is_empty() {
                "the log is empty"
            } else {
                "events[0] is not a start event"
            };
            return Err(bad(why.into()));
        };
        events_from(&mut events, "events", rules.wilds).map_err(bad)?;
        let winner =
            |i: usize, seat: Option<u8>, _| seat.ok_or(format!("events[{i}].seat is missing"));
        let steps = decisions(&events, winner).map_err(bad)?;
        let mut game = Game::with_dealer(rules, seed, given.then_some(dealer), true)?;
        game.play_steps(&steps)
            .map_err(|(i, step, e)| e.context(format_args!("action {i} ({step})")))?;
        let written = game.events_json(None);
        if written != text && serde_json::from_str::<Value>(&written).ok() != Some(value) {
            return Err(bad(
                "replaying its decisions writes a different log (edited or from another version)"
                    .into(),
            ));
        }
        Ok(game)
    }
}

/// The events of a snapshot's log at `path`, read as a full log; win events refer to the game's
/// win list in order.
pub(super) fn snapshot_events(
    mut events: Vec<Event>,
    path: &str,
    game: &Game,
) -> Result<Log<Event>, String> {
    let wins = events_from(&mut events, path, game.rules.wilds)?;
    if wins != game.wins.len() {
        return Err(format!(
            "{path}: {wins} win events for {} wins",
            game.wins.len()
        ));
    }
    let mut log = Log::default();
    events.into_iter().for_each(|e| log.push(e));
    Ok(log)
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
/// the seat of the win event at an index, from the seat it names and the win's number.
pub(super) fn decisions(
    events: &[Event],
    winner: impl Fn(usize, Option<u8>, u16) -> Result<u8, String>,
) -> Result<Vec<(usize, Step)>, String> {
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
            Event::Win { seat, index } => out.push(step(winner(i, seat, index)?, Action::Win)),
            Event::Abandon { seat } => out.push((i, Step::Abandon(seat))),
            _ => {}
        }
    }
    Ok(out)
}
