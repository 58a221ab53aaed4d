//! [`Game::replayed_prefix`] against its definition: the largest `k` for which
//! [`Game::from_events`] takes the first `k` events, asked of every prefix.

use super::*;
use serde_json::Value;

/// The events of a hand of `preset` played by [`eager_step`].
fn eager_log(preset: &str, seed: u64) -> Vec<Value> {
    let mut game = Game::new(Arc::new(rules(preset)), seed, true).unwrap();
    let (mut rng, mut buf) = (Rng::new(seed ^ 3), ActionList::new());
    while eager_step(&mut game, &mut rng, &mut buf) {}
    serde_json::from_str(&game.events_json(None)).unwrap()
}

fn text(events: &[Value]) -> String {
    serde_json::to_string(events).unwrap()
}

/// Checks `replayed_prefix` on every prefix of `events` against `from_events` on each.
fn assert_prefixes_match(events: &[Value]) {
    let mut longest = 0;
    for k in 0..=events.len() {
        if k > 0 && Game::from_events(&text(&events[..k])).is_ok() {
            longest = k;
        }
        let found = Game::replayed_prefix(&text(&events[..k])).unwrap();
        assert_eq!(found, longest, "the first {k} of {} events", events.len());
    }
}

#[test]
fn the_replayed_prefix_is_the_longest_that_replays() {
    for (preset, seed) in [
        ("chengdu", 1),
        ("chengdu_xueliu", 2),
        ("yaoji", 3),
        ("xuezhan", 4),
    ] {
        assert_prefixes_match(&eager_log(preset, seed));
    }
}

#[test]
fn a_tampered_event_ends_the_replayed_prefix_before_it() {
    let mut events = eager_log("chengdu", 5);
    let at = events.iter().rposition(|e| e["type"] == "discard").unwrap();
    let tile = events[at]["tile"].as_str().unwrap().to_owned();
    events[at]["tile"] = Value::from(if tile == "5p" { "6p" } else { "5p" });
    assert_prefixes_match(&events);
    let found = Game::replayed_prefix(&text(&events)).unwrap();
    assert!(found <= at, "{found} > {at}");
    events[at + 1] = serde_json::json!({"type": "no such event"});
    assert_prefixes_match(&events);
}

#[test]
fn a_log_without_a_start_replays_nothing_and_a_non_array_is_refused() {
    let events = eager_log("chengdu", 6);
    assert_eq!(Game::replayed_prefix(&text(&events[1..])).unwrap(), 0);
    assert_eq!(Game::replayed_prefix("[]").unwrap(), 0);
    assert!(Game::replayed_prefix("{}").is_err());
}
