//! Replaying a game from its event log: the decisions the log records, played again from its
//! `start` event, must write the same log.

use super::log::events_from;
use super::migrate;
use crate::error::Error;
use crate::game::{claim, Action, Event, Game};
use crate::rules::Rules;
use crate::wire::read_value;
use serde_json::Value;
use std::sync::Arc;

impl Game {
    /// Replays an event log: its `start` event gives seed and rules, its decisions the actions;
    /// the replay must write the same log again (an older log: brought to today's form by
    /// `record::migrate`).
    pub fn from_events(text: &str) -> Result<Game, Error> {
        Game::replay_log(text, &mut |_| {})
    }

    /// [`Game::from_events`], with the game after each of the log's decisions (the first
    /// before any), its log dropped, and how many events were written by then: the state a
    /// replay viewer shows beside each event, from the engine rather than a fold of its own.
    pub fn replay_states(text: &str) -> Result<Vec<(usize, Game)>, Error> {
        let mut states = Vec::new();
        Game::replay_log(text, &mut |game| {
            let mut state = game.clone();
            state.stop_logging();
            states.push((game.log_len(), state));
        })?;
        Ok(states)
    }

    /// Replays the log `text`, calling `each` with the game before its first decision and after
    /// each one.
    fn replay_log(text: &str, each: &mut impl FnMut(&Game)) -> Result<Game, Error> {
        let bad = |e: String| Error::Snapshot(format!("bad event log: {e}"));
        let mut value: Value = serde_json::from_str(text).map_err(|e| bad(e.to_string()))?;
        if let Some(events) = value.as_array_mut() {
            migrate::log(events);
        }
        let mut events: Vec<Event> = read_value(&value, "events").map_err(bad)?;
        let Some((seed, rules, dealer)) = start_of(&events) else {
            let why = if events.is_empty() {
                "the log is empty"
            } else {
                "events[0] is not a start event"
            };
            return Err(bad(why.into()));
        };
        events_from(&mut events, "events", rules.wilds).map_err(bad)?;
        let steps = decisions(&events, winner).map_err(bad)?;
        let mut game = Game::with_dealer(rules, seed, dealer, true)?;
        each(&game);
        game.play_steps(&steps, each)
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
    /// Plays `steps` (each with the index of its event) in order, calling `after` after each;
    /// the first that fails, with its number among the steps.
    pub(super) fn play_steps(
        &mut self,
        steps: &[(usize, Step)],
        after: &mut impl FnMut(&Game),
    ) -> Result<(), (usize, Step, Error)> {
        for (n, &(_, step)) in steps.iter().enumerate() {
            self.play_step(step).map_err(|e| (n, step, e))?;
            after(self);
        }
        Ok(())
    }

    fn play_step(&mut self, step: Step) -> Result<(), Error> {
        match step {
            Step::Act(seat, action) => self.act(seat, action),
            Step::Abandon(seat) => self.abandon(seat),
        }
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

impl Game {
    /// How many of a log's first events replay as a log the engine writes, in one pass: the
    /// largest `k` for which [`Game::from_events`] takes the log's first `k` events (0 for none).
    /// A log cut mid-resolution or tampered with is confirmed this far; `text` must be a JSON
    /// array, whatever its elements.
    pub fn replayed_prefix(text: &str) -> Result<usize, Error> {
        let bad = |e: String| Error::Snapshot(format!("bad event log: {e}"));
        let mut values: Vec<Value> = serde_json::from_str(text).map_err(|e| bad(e.to_string()))?;
        migrate::log(&mut values);
        let mut events: Vec<Event> = values
            .iter()
            .map_while(|v| read_value(v, "events").ok())
            .collect();
        let Some((seed, rules, dealer)) = start_of(&events) else {
            return Ok(0);
        };
        events.truncate(longest_checked(&events, rules.wilds));
        let checked = events_from(&mut events, "events", rules.wilds);
        let steps = decisions(&events, winner);
        let game = Game::with_dealer(rules, seed, dealer, true);
        let (Ok(_), Ok(steps), Ok(mut game)) = (checked, steps, game) else {
            return Ok(0);
        };
        let mut prefix = Prefix::default();
        for played in 0..=steps.len() {
            if !prefix.follow(&game, &values[..events.len()]) {
                break;
            }
            let (before, after) = (steps[..played].last(), steps.get(played));
            let written = prefix.matched;
            if before.is_none_or(|s| s.0 < written) && after.is_none_or(|s| s.0 >= written) {
                prefix.replayed = written;
            }
            let Some(&(_, step)) = after else { break };
            if game.play_step(step).is_err() {
                break;
            }
        }
        Ok(prefix.replayed)
    }
}

/// How far a replay has written the log it is given.
#[derive(Default)]
struct Prefix {
    /// Events written so far, each equal to the given one.
    matched: usize,
    /// The longest prefix known to replay.
    replayed: usize,
}

impl Prefix {
    /// Compares the events `game` wrote since the last call with the given ones; false once
    /// one differs or the game wrote more than were given (no longer prefix can replay).
    fn follow(&mut self, game: &Game, given: &[Value]) -> bool {
        let text = game.events_json_from(None, self.matched);
        let Ok(new) = serde_json::from_str::<Vec<Value>>(&text) else {
            return false;
        };
        let end = self.matched + new.len();
        if end > given.len() || new[..] != given[self.matched..end] {
            return false;
        }
        self.matched = end;
        true
    }
}

/// The length of the longest prefix of `events` that [`events_from`] and [`decisions`] take;
/// both read left to right, so a prefix of one they take is taken too (a binary search).
fn longest_checked(events: &[Event], wilds: bool) -> usize {
    let takes = |n: usize| {
        let mut head = events[..n].to_vec();
        events_from(&mut head, "events", wilds).is_ok() && decisions(&head, winner).is_ok()
    };
    let (mut lo, mut hi) = (0, events.len());
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if takes(mid) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    lo
}

/// The seat of the win event `i`, which a full log names.
fn winner(i: usize, seat: Option<u8>, _: u16) -> Result<u8, String> {
    seat.ok_or(format!("events[{i}].seat is missing"))
}

/// The seed, rules and given dealer (if any) of a log's `start` event, its first.
fn start_of(events: &[Event]) -> Option<(u64, Arc<Rules>, Option<u8>)> {
    match events.first()? {
        Event::Start {
            seed,
            rules,
            dealer,
            given,
        } => Some((*seed, rules.clone(), given.then_some(*dealer))),
        _ => None,
    }
}
