//! Verifying a snapshot (issue 12 item 9): its state must be what its seed, rules and decisions
//! produce. The decisions are those its event log records, and the hidden ones still pending
//! (exchange and void picks, responses); they are played again from the log's `start` and the
//! snapshot that replay writes must be the one given, field by field. The first field that
//! disagrees is named.

use super::replay::decisions;
use crate::game::{Action, Event, Game, Pending};
use serde_json::Value;
use std::fmt::Write;

/// The longest snapshot a hand can write, with room to spare (a long 血流 hand writes under
/// 100 kB): a longer text is refused before it is parsed.
pub(super) const MAX_SNAPSHOT_BYTES: usize = 4 << 20;

impl Game {
    /// The game that `given`'s seed, rules and decisions produce, which must write `given`
    /// again; `self` is `given` as read and checked.
    pub(super) fn verified(&self, text: &str) -> Result<Game, String> {
        let Some(Event::Start {
            seed,
            dealer,
            given: named,
            ..
        }) = self.events().next().cloned()
        else {
            return Err(if self.is_logging() {
                "snapshot.events[0]: the log of a snapshot begins with its start event".into()
            } else {
                "snapshot.logging: a game without its event log records no decisions, so its \
                 snapshot cannot be verified; restore it as trusted only if you wrote it"
                    .into()
            });
        };
        let events: Vec<Event> = self.events().cloned().collect();
        let winner = |i: usize, _, index: u16| {
            (self.wins().get(index as usize).map(|w| w.seat))
                .ok_or(format!("snapshot.events[{i}]: a win event for no win"))
        };
        let steps = decisions(&events, winner).map_err(|e| format!("snapshot.{e}"))?;
        let mut game = Game::with_dealer(self.parts().rules, seed, named.then_some(dealer), true)
            .map_err(|e| format!("snapshot.events[0]: {e}"))?;
        game.play_steps(&steps, &mut |_| {})
            .map_err(|(n, step, e)| {
                let i = steps[n].0;
                format!("snapshot.events[{i}]: its decision ({step}) cannot be made: {e}")
            })?;
        for (seat, action) in self.pending_decisions() {
            game.act(seat, action).map_err(|e| {
                format!("snapshot.pending: seat {seat}'s decision {action} cannot be made: {e}")
            })?;
        }
        let written = game.to_json();
        if written == text {
            return Ok(game);
        }
        let json = |text: &str| serde_json::from_str::<Value>(text).map_err(|e| e.to_string());
        match first_difference(
            &json(text)?,
            &json(&written)?,
            &mut String::from("snapshot"),
        ) {
            None => Ok(game),
            Some(why) => Err(why),
        }
    }

    /// The decisions already made but hidden in the pending state, in seat order.
    fn pending_decisions(&self) -> Vec<(u8, Action)> {
        let picks: [Option<Action>; 4] = match self.pending() {
            Pending::Exchange(p) => p.map(|p| p.map(Action::Exchange)),
            Pending::Void(p) => p.map(|p| p.map(Action::Void)),
            Pending::Respond(r) => r.decisions,
            Pending::Turn(_) | Pending::Over => [None; 4],
        };
        (0..4u8)
            .zip(picks)
            .filter_map(|(s, a)| Some((s, a?)))
            .collect()
    }
}

/// Where `given` first differs from `written` (what the replay wrote), in the replay's field
/// order, as a message naming the field; a field of today's form that an older `given` lacks is
/// not compared (the replay writes today's form; `record::migrate`).
fn first_difference(given: &Value, written: &Value, path: &mut String) -> Option<String> {
    let at = path.len();
    match (given, written) {
        (Value::Object(g), Value::Object(w)) => w.iter().find_map(|(key, w)| {
            let _ = write!(path, ".{key}");
            let found = g.get(key).and_then(|g| first_difference(g, w, path));
            path.truncate(at);
            found
        }),
        (Value::Array(g), Value::Array(w)) => {
            let found = g.iter().zip(w).enumerate().find_map(|(i, (g, w))| {
                let _ = write!(path, "[{i}]");
                let found = first_difference(g, w, path);
                path.truncate(at);
                found
            });
            found.or_else(|| {
                (g.len() != w.len()).then(|| {
                    format!(
                        "{path}: {} entries, but its seed and decisions give {}",
                        g.len(),
                        w.len()
                    )
                })
            })
        }
        (g, w) if g != w => Some(format!(
            "{path} is {}, but its seed and decisions give {}",
            excerpt(g),
            excerpt(w)
        )),
        _ => None,
    }
}

/// A value as JSON, cut to a short excerpt.
fn excerpt(v: &Value) -> String {
    let text = v.to_string();
    match text.char_indices().nth(40) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}
