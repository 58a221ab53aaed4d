//! `win_reveal = "hand_end"` (MIL SBR 2025 Art.9-1(3),(5), Art.10-2): the others learn a win's
//! score, and a self-draw's tile, only when the hand ends; its points move then too.

use super::*;
use crate::rules::{Preset, WinReveal};
use serde_json::Value;

/// The preset's rules with `win_reveal` set.
fn revealing(preset: Preset, reveal: WinReveal) -> Arc<Rules> {
    Arc::new(Rules {
        win_reveal: reveal,
        ..preset.rules()
    })
}

/// A win's own payment: what `hand_end` defers.
fn pays_a_win(e: &Event) -> bool {
    matches!(e, Event::Payment { reason, .. }
        if matches!(reason, Reason::Win | Reason::SelfDraw | Reason::KongFlowerFeeder))
}

/// The events but the reveal and the wins' own payments.
fn without_win_payments(game: &Game) -> Vec<Event> {
    let kept = game.events().skip(1); // the start event names the rules
    let kept = kept.filter(|e| !pays_a_win(e) && !matches!(e, Event::Reveal));
    kept.cloned().collect()
}

/// `viewer`'s view as JSON values, less the reveal and the wins' own payments.
fn seen_without_win_payments(game: &Game, viewer: Viewer) -> Vec<Value> {
    let Value::Array(events) = serde_json::from_str(&game.events_json(Some(viewer))).unwrap()
    else {
        panic!("a view is an array")
    };
    let paid_for_win = |e: &Value| {
        e["type"] == "payment"
            && ["win", "self_draw", "kong_flower_feeder"].contains(&e["reason"].as_str().unwrap())
    };
    (events.into_iter().skip(1)) // the start event names the rules
        .filter(|e| e["type"] != "reveal" && !paid_for_win(e))
        .collect()
}

/// The presets' hands played by [`eager_step`] under both values, side by side: the same
/// decisions, so the same game but for when the wins are paid.
fn side_by_side(preset: Preset, seeds: u64, mut each_step: impl FnMut(&Game, &Game)) {
    let (mut buf_a, mut buf_b) = (ActionList::new(), ActionList::new());
    for seed in 0..seeds {
        let mut now = Game::new(revealing(preset, WinReveal::Immediate), seed, true).unwrap();
        let mut later = Game::new(revealing(preset, WinReveal::HandEnd), seed, true).unwrap();
        let (mut rng_a, mut rng_b) = (Rng::new(seed), Rng::new(seed));
        loop {
            let (a, b) = (
                eager_step(&mut now, &mut rng_a, &mut buf_a),
                eager_step(&mut later, &mut rng_b, &mut buf_b),
            );
            assert_eq!(a, b, "{preset:?} seed {seed}: the two games part");
            if !a {
                break;
            }
            later.check_invariants().unwrap();
            each_step(&now, &later);
        }
    }
}

const PRESETS: [Preset; 3] = [Preset::MilSbr2025, Preset::ChengduXueliu, Preset::Sanxia];

#[test]
fn hand_end_pays_the_same_totals_after_a_reveal() {
    for preset in PRESETS {
        let mut ended = 0;
        side_by_side(preset, 40, |now, later| {
            assert_eq!(without_win_payments(now), without_win_payments(later));
            let events: Vec<&Event> = later.events().collect();
            let reveal = events.iter().position(|e| matches!(e, Event::Reveal));
            if !later.is_over() {
                assert!(reveal.is_none() && !events.iter().any(|e| pays_a_win(e)));
                return;
            }
            ended += 1;
            assert_eq!(
                now.scores(),
                later.scores(),
                "{preset:?}: the totals differ"
            );
            let Some(reveal) = reveal else {
                assert!(later.wins().is_empty(), "{preset:?}: wins without a reveal");
                return;
            };
            // The reveal comes after every win and before every win's payment, once.
            let last_win = events.iter().rposition(|e| matches!(e, Event::Win { .. }));
            assert!(last_win < Some(reveal));
            assert!(events[..reveal].iter().all(|e| !pays_a_win(e)));
            assert_eq!(
                events.iter().filter(|e| matches!(e, Event::Reveal)).count(),
                1
            );
            let won: i64 = (events.iter())
                .filter(|e| pays_a_win(e))
                .map(|e| match e {
                    Event::Payment { amount, .. } => *amount,
                    _ => 0,
                })
                .sum();
            let won_now: i64 = (now.events().filter(|e| pays_a_win(e)))
                .map(|e| match e {
                    Event::Payment { amount, .. } => *amount,
                    _ => 0,
                })
                .sum();
            assert_eq!(won, won_now);
            assert!(later.wins().iter().all(|w| w.owed == [0; 4]));
        });
        assert!(ended > 0);
    }
}

#[test]
fn hand_end_hides_a_wins_score_and_a_self_draws_tile_until_the_end() {
    let mut checked = [0usize; 2];
    for preset in PRESETS {
        side_by_side(preset, 30, |now, later| {
            for viewer in Viewer::ALL {
                let seen: Value = serde_json::from_str(&later.events_json(Some(viewer))).unwrap();
                let wins = (seen.as_array().unwrap().iter()).filter(|e| e["type"] == "win");
                for (w, record) in wins.zip(later.wins()) {
                    let own = w["seat"].as_u64().map(|s| Viewer::Seat(s as u8)) == Some(viewer);
                    let hidden = !own && !later.is_over();
                    let self_drawn = record.kind == WinKind::SelfDraw;
                    assert_eq!(w["score"].is_null(), hidden, "{w}");
                    assert_eq!(w["tile"].is_null(), hidden && self_drawn, "{w}");
                    assert_eq!(w["hand"].is_null(), viewer.is_not(record.seat), "{w}");
                    checked[usize::from(hidden)] += 1;
                }
                let Viewer::Seat(seat) = viewer else {
                    continue;
                };
                for (w, record) in later.view(seat).unwrap().wins().zip(later.wins()) {
                    let hidden = w.seat != seat && !later.is_over();
                    assert_eq!(w.score.is_none(), hidden);
                    assert_eq!(w.tile.is_none(), hidden && record.kind == WinKind::SelfDraw);
                }
            }
            if later.is_over() {
                for viewer in Viewer::ALL {
                    // After the end each viewer's view is the immediate game's, less when the
                    // wins were paid.
                    assert_eq!(
                        seen_without_win_payments(now, viewer),
                        seen_without_win_payments(later, viewer)
                    );
                }
            }
        });
    }
    assert!(checked[0] > 0 && checked[1] > 0, "{checked:?}");
}

#[test]
fn a_pending_win_restores_replays_and_verifies() {
    let mut pending = 0;
    side_by_side(Preset::MilSbr2025, 12, |_, later| {
        let owed = later.wins().iter().any(|w| w.owed != [0; 4]);
        if !owed {
            return;
        }
        pending += 1;
        let text = later.to_json();
        let restored = Game::from_json(&text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(restored.to_json(), text);
        assert_eq!(restored.wins(), later.wins());
        let replayed = Game::from_events(&later.events_json(None)).unwrap();
        assert_eq!(replayed.to_json(), text);
        // What a win is owed is state: the replay restores it, and refuses another amount.
        let dropped = text.replacen("\"owed\": ", "\"owed_was\": ", 1);
        assert_eq!(Game::from_json(&dropped).unwrap().to_json(), text);
        let at = text.find("\"owed\": [").unwrap() + "\"owed\": [".len();
        let more = format!("{}9{}", &text[..at], &text[at..]);
        let e = Game::from_json(&more).err().unwrap().to_string();
        assert!(e.contains(".owed"), "{e}");
    });
    assert!(pending > 0);
}

#[test]
fn a_restore_refuses_what_no_win_is_owed() {
    let (mut rng, mut buf) = (Rng::new(3), ActionList::new());
    let mut game = Game::new(revealing(Preset::MilSbr2025, WinReveal::HandEnd), 1, false).unwrap();
    while game.wins().is_empty() && eager_step(&mut game, &mut rng, &mut buf) {}
    let w = &game.wins()[0];
    let text = game.to_json();
    let own = format!("\"owed\": {:?}", w.owed);
    let mut to_self = w.owed;
    to_self[w.seat as usize] = 1;
    let to_self = text.replace(&own, &format!("\"owed\": {to_self:?}"));
    assert_ne!(to_self, text, "{text}");
    let e = Game::from_json_trusted(&to_self).err().unwrap().to_string();
    assert!(e.contains("wins[0].owed"), "{e}");
    let immediate = text.replace(
        "\"win_reveal\": \"hand_end\"",
        "\"win_reveal\": \"immediate\"",
    );
    let e = Game::from_json_trusted(&immediate)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("owed") && e.contains("hand_end"), "{e}");
}
