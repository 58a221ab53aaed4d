//! Rule tests on the Rust side; the Python tests cover each rule by name as well.

use super::*;
use crate::rules::Rules;

fn presets() -> Vec<Rules> {
    [
        "dashiyou",
        "sanxia",
        "sanxia_piao",
        "chengdu",
        "chengdu_xueliu",
        "xuezhan",
    ]
    .iter()
    .map(|n| Rules::preset(n).unwrap())
    .collect()
}

#[test]
fn random_hands_keep_every_invariant() {
    let mut rng = Rng::new(99);
    let mut buf = ActionList::new();
    for rules in presets() {
        let rules = Arc::new(rules);
        for seed in 0..200 {
            let mut game = Game::new(rules.clone(), seed, true).unwrap();
            game.check_invariants().unwrap();
            let mut steps = 0;
            while game.step_random(&mut rng, &mut buf) {
                if let Err(e) = game.check_invariants() {
                    panic!("{:?} seed {seed} step {steps}: {e}", rules.preset);
                }
                steps += 1;
                assert!(steps < 2000, "hand does not end");
            }
            assert!(game.is_over());
        }
    }
}

/// A player that wins when it can (mostly), often claims, and discards to lower shanten: it
/// reaches wins, kongs, robbing and every settlement far more often than random play.
pub(super) fn eager_step(game: &mut Game, rng: &mut Rng, buf: &mut ActionList) -> bool {
    let Some(seat) = (0..4).find(|&s| game.must_act(s)) else {
        return false;
    };
    game.legal_actions(seat, buf);
    let pick = |a: Action| buf.contains(a).then_some(a);
    let roll = rng.below(10);
    let choice = match game.phase() {
        Phase::Exchange | Phase::Void => game.default_action(seat),
        _ => None,
    }
    .or_else(|| pick(Action::Win).filter(|_| roll < 9))
    .or_else(|| {
        buf.iter()
            .copied()
            .find(|a| matches!(a, Action::Kong(_)))
            .filter(|_| roll < 6)
    })
    .or_else(|| pick(Action::Pong).filter(|_| roll < 6))
    .or_else(|| best_discard(game, seat, buf, rng))
    .or_else(|| pick(Action::Pass))
    .unwrap_or(buf[0]);
    game.act(seat, choice).unwrap();
    true
}

fn best_discard(game: &Game, seat: u8, buf: &ActionList, rng: &mut Rng) -> Option<Action> {
    let s = game.seat(seat);
    let ctx = s.context(game.rules().allow_seven_pairs);
    let scored: Vec<(i8, Action)> = buf
        .iter()
        .filter_map(|&a| match a {
            Action::Discard(t) => {
                let mut h = s.hand;
                h.remove(t);
                Some((crate::analysis::shanten(&h, &ctx), a))
            }
            _ => None,
        })
        .collect();
    let best = scored.iter().map(|x| x.0).min()?;
    let ties: Vec<Action> = scored.iter().filter(|x| x.0 == best).map(|x| x.1).collect();
    Some(ties[rng.below(ties.len() as u64) as usize])
}

#[test]
fn eager_hands_keep_every_invariant_and_reach_every_event() {
    let mut rng = Rng::new(5);
    let mut buf = ActionList::new();
    let mut seen = std::collections::BTreeMap::new();
    for rules in presets() {
        let rules = Arc::new(rules);
        for seed in 0..300 {
            let mut game = Game::new(rules.clone(), seed, true).unwrap();
            let mut steps = 0;
            while eager_step(&mut game, &mut rng, &mut buf) {
                if let Err(e) = game.check_invariants() {
                    let tail: Vec<String> = game.events().map(|e| format!("{e:?}")).collect();
                    let n = tail.len();
                    panic!(
                        "{:?} seed {seed} step {steps}: {e}\n{}",
                        rules.preset,
                        tail[n.saturating_sub(12)..].join("\n")
                    );
                }
                steps += 1;
            }
            for e in game.events() {
                let key = match e {
                    Event::Kong { kind, .. } => format!("kong {}", kind.name()),
                    Event::Payment { reason, .. } => format!("pay {}", reason.name()),
                    Event::End { reason, .. } => format!("end {}", reason.name()),
                    other => format!("{other:?}")
                        .split([' ', '{'])
                        .next()
                        .unwrap()
                        .to_string(),
                };
                *seen.entry(key).or_insert(0) += 1;
            }
            for w in game.wins() {
                *seen.entry(format!("win {}", w.kind.name())).or_insert(0) += 1;
            }
        }
    }
    eprintln!("{seen:#?}");
    for key in [
        "kong direct",
        "kong added",
        "kong concealed",
        "Robbed",
        "Beaten",
        "win discard",
        "win self_draw",
        "win robbed_kong",
        "end three_won",
        "end wall_empty",
        "pay win",
        "pay self_draw",
        "pay kong",
        "pay kong_transfer",
        "pay flower_pig",
        "pay not_ready",
        "pay ready_difference",
        "pay tax_refund",
    ] {
        assert!(seen.contains_key(key), "never saw {key}");
    }
}

#[test]
fn snapshots_restore_exactly_and_logs_replay() {
    let mut rng = Rng::new(11);
    let mut buf = ActionList::new();
    for rules in presets() {
        let rules = Arc::new(rules);
        for seed in 0..12 {
            let mut game = Game::new(rules.clone(), seed, true).unwrap();
            loop {
                let text = game.to_json();
                let restored = Game::from_json(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
                assert_eq!(restored.to_json(), text);
                let mut a = game.clone();
                let mut b = restored;
                let mut r1 = rng;
                let mut r2 = rng;
                for i in 0..3 {
                    eager_step(&mut a, &mut r1, &mut buf);
                    eager_step(&mut b, &mut r2, &mut buf);
                    if a.to_json() != b.to_json() {
                        panic!(
                            "diverged after {i} steps from {:?}\n{:?}\n{:?}",
                            game.pending, a.seats[0], b.seats[0]
                        );
                    }
                }
                if !eager_step(&mut game, &mut rng, &mut buf) {
                    break;
                }
            }
            let log = game.events_json(None);
            let again = Game::from_events(&log).unwrap();
            assert_eq!(again.events_json(None), log);
            assert_eq!(again.scores(), game.scores());
        }
    }
}
