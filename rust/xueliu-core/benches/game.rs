//! Game throughput on one core: `cargo bench -p xueliu-core --bench game`.
//! Whole hands of uniformly random legal play (logging off and on), `clone()` of a game in
//! mid-play, and `legal_actions` + `act` decisions. Each case reports the median of several
//! rounds; read the ratios side by side.

use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;
use xueliu_core::game::{ActionList, Game};
use xueliu_core::rng::Rng;
use xueliu_core::rules::Rules;

const ROUNDS: usize = 5;

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

/// Hands per second and decisions per hand of random play.
fn random_hands(rules: &Arc<Rules>, logging: bool, hands: u64) -> (f64, f64) {
    let mut rng = Rng::new(1);
    let mut buf = ActionList::new();
    let mut rates = Vec::new();
    let mut decisions = 0u64;
    for round in 0..ROUNDS {
        decisions = 0;
        let start = Instant::now();
        for seed in 0..hands {
            let mut game = Game::new(rules.clone(), seed + round as u64 * hands, logging).unwrap();
            while game.step_random(&mut rng, &mut buf) {
                decisions += 1;
            }
            black_box(game.scores());
        }
        rates.push(hands as f64 / start.elapsed().as_secs_f64());
    }
    (median(rates), decisions as f64 / hands as f64)
}

/// Nanoseconds per `clone()` of games part-way through a hand.
fn clone_ns(rules: &Arc<Rules>, logging: bool) -> f64 {
    let mut rng = Rng::new(2);
    let mut buf = ActionList::new();
    let games: Vec<Game> = (0..1000)
        .map(|seed| {
            let mut g = Game::new(rules.clone(), seed, logging).unwrap();
            for _ in 0..40 {
                g.step_random(&mut rng, &mut buf);
            }
            g
        })
        .collect();
    let mut times = Vec::new();
    for _ in 0..ROUNDS {
        let start = Instant::now();
        for _ in 0..20 {
            for g in &games {
                black_box(g.clone());
            }
        }
        times.push(start.elapsed().as_nanos() as f64 / (20.0 * games.len() as f64));
    }
    median(times)
}

fn main() {
    println!(
        "{:<16} {:>14} {:>14} {:>12} {:>10} {:>10}",
        "preset", "hands/s (off)", "hands/s (log)", "decisions", "clone ns", "clone+log"
    );
    // GAME_BENCH_PRESETS=dashiyou,sanxia limits the run (for profiling one preset).
    let chosen = std::env::var("GAME_BENCH_PRESETS").unwrap_or_default();
    for name in [
        "chengdu",
        "xuezhan",
        "chengdu_xueliu",
        "dashiyou",
        "sanxia",
        "yaoji",
    ] {
        if !chosen.is_empty() && !chosen.split(',').any(|c| c == name) {
            continue;
        }
        let rules = Arc::new(Rules::preset(name).unwrap());
        let (off, per_hand) = random_hands(&rules, false, 20_000);
        let (on, _) = random_hands(&rules, true, 20_000);
        println!(
            "{name:<16} {off:>14.0} {on:>14.0} {per_hand:>12.1} {:>10.0} {:>10.0}",
            clone_ns(&rules, false),
            clone_ns(&rules, true)
        );
    }
}
