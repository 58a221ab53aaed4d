//! What a table server asks the engine (asked.rs): whom it asks at a step, what it offers each
//! seat, and a ready seat's waits as that seat may see them.

use super::*;
use crate::score::best_waits;

/// `f` at every position of `seeds` hands of `preset` played by [`eager_step`].
fn each_position(preset: &str, seeds: u64, mut f: impl FnMut(&Game)) {
    for seed in 0..seeds {
        let mut game = Game::new(Arc::new(rules(preset)), seed, true).unwrap();
        let (mut rng, mut buf) = (Rng::new(seed ^ 7), ActionList::new());
        f(&game);
        while eager_step(&mut game, &mut rng, &mut buf) {
            f(&game);
        }
    }
}

/// The tile open to claims, and the seat whose discard or kong opened it.
fn window(game: &Game) -> Option<u8> {
    game.view(0).unwrap().open_tile().map(|t| t.from)
}

#[test]
fn a_claim_window_asks_every_other_seat_still_in_the_hand() {
    let (mut windows, mut out_of_hand) = (0, 0);
    for preset in ["xuezhan", "chengdu_xueliu"] {
        each_position(preset, 30, |game| {
            let Some(from) = window(game) else { return };
            windows += 1;
            let asked: Vec<u8> = game.window_seats(from).collect();
            let want: Vec<u8> = (0..4).filter(|&s| s != from && game.in_hand(s)).collect();
            assert_eq!(asked, want);
            assert!(
                game.to_act().iter().all(|s| asked.contains(s)),
                "a claimant is asked"
            );
            out_of_hand += usize::from(asked.len() + 1 < 4);
        });
    }
    assert!(windows > 500 && out_of_hand > 50, "{windows} {out_of_hand}");
}

#[test]
fn a_step_asks_the_engines_seats_and_offers_the_others_only_pass() {
    let mut buf = ActionList::new();
    let mut offered = ActionList::new();
    each_position("xuezhan", 20, |game| {
        let table = window(game);
        for (window, waiting) in [(None, false), (table, true), (table, false)] {
            let seats: Vec<(u8, bool)> = game.step_seats(window, waiting).collect();
            let want: Vec<(u8, bool)> = match window {
                None => game.to_act().into_iter().map(|s| (s, true)).collect(),
                Some(from) => game
                    .window_seats(from)
                    .map(|s| (s, waiting && game.must_act(s)))
                    .collect(),
            };
            assert_eq!(seats, want);
            for (seat, engine) in seats {
                let default = game.step_offer(seat, engine, &mut offered);
                if engine {
                    game.legal_actions(seat, &mut buf);
                    assert_eq!(&offered[..], &buf[..]);
                    assert_eq!(Some(default), game.default_action(seat));
                } else {
                    assert_eq!((&offered[..], default), (&[Action::Pass][..], Action::Pass));
                }
            }
        }
    });
}

#[test]
fn ready_waits_are_the_best_waits_with_the_copies_the_seat_has_not_seen() {
    let mut ready = 0;
    for preset in ["xuezhan", "yaoji", "mil_sbr_2025"] {
        each_position(preset, 12, |game| {
            for seat in 0..4 {
                let view = game.view(seat).unwrap();
                let waits = view.ready_waits();
                if view.hand().len() % 3 != 1 {
                    assert!(waits.is_empty());
                    continue;
                }
                let melds: Vec<Meld> = view.melds(seat).collect();
                let best = best_waits(view.hand(), &melds, view.void(seat), game.rules()).unwrap();
                let found: Vec<(Tile, Score)> = waits.iter().map(|w| (w.tile, w.score)).collect();
                assert_eq!(found, best);
                assert!(waits.iter().all(|w| w.unseen == view.unseen(w.tile)));
                ready += usize::from(!waits.is_empty());
            }
        });
    }
    assert!(ready > 100, "{ready}");
}
