//! Self-play throughput: `cargo bench -p xueliu-core --bench bots`.
//! Whole hands played by four bots through `simulate` on one thread (hands/s per core), and on
//! every core, beside the game's own uniformly random stepping as the floor. Median of several
//! rounds; read the ratios side by side. `BOTS_BENCH_ONLY=greedy` runs only the one-core greedy
//! rows and `BOTS_BENCH_HANDS=N` plays N hands a round (for callgrind:
//! `valgrind --tool=callgrind --toggle-collect=bots::simulated target/profiling/deps/bots-*`).

use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;
use xueliu_core::bots::{build_tables, simulate, BotKind, Simulation};
use xueliu_core::game::{ActionList, Game};
use xueliu_core::rng::Rng;
use xueliu_core::rules::Rules;

const ROUNDS: usize = 3;
/// Hands per round, unless `BOTS_BENCH_HANDS` says otherwise.
const HANDS: u64 = 5_000;

fn hands() -> u64 {
    std::env::var("BOTS_BENCH_HANDS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(HANDS)
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

/// Hands per second of `simulate` with `bots`, and mean draws per hand.
fn simulated(rules: &Arc<Rules>, bots: [BotKind; 4], threads: usize) -> (f64, f64) {
    let mut rates = Vec::new();
    let mut draws = 0.0;
    for round in 0..ROUNDS {
        let sim = Simulation {
            rules: rules.clone(),
            bots,
            seed: round as u64,
            first_game: 0,
            logs: false,
        };
        let (tally, seconds) = simulate(&sim, hands(), threads).unwrap();
        draws = tally.mean_draws();
        rates.push(hands() as f64 / seconds);
    }
    (median(rates), draws)
}

/// Hands per second of `Game::step_random`, no bot objects.
fn stepped(rules: &Arc<Rules>) -> f64 {
    let mut rng = Rng::new(1);
    let mut buf = ActionList::new();
    let mut rates = Vec::new();
    for round in 0..ROUNDS {
        let start = Instant::now();
        for seed in 0..hands() {
            let mut game = Game::new(rules.clone(), seed + round as u64 * hands(), false).unwrap();
            while game.step_random(&mut rng, &mut buf) {}
            black_box(game.scores());
        }
        rates.push(hands() as f64 / start.elapsed().as_secs_f64());
    }
    median(rates)
}

fn main() {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    println!(
        "{} hands per round, median of {ROUNDS} rounds; {cores} cores",
        hands()
    );
    println!(
        "{:<16} {:<28} {:>14} {:>10}",
        "preset", "players", "hands/s", "draws"
    );
    // BOTS_BENCH_ONLY=greedy runs only the one-core greedy rows (for profiling).
    let only_greedy = std::env::var("BOTS_BENCH_ONLY").is_ok_and(|v| v == "greedy");
    for name in ["chengdu", "chengdu_xueliu"] {
        let rules = Arc::new(Rules::preset(name).unwrap());
        // Tables built at first use are not part of any row.
        build_tables(&rules);
        let row = |who: &str, rate: f64, draws: Option<f64>| {
            let draws = draws.map_or(String::from("-"), |d| format!("{d:.1}"));
            println!("{name:<16} {who:<28} {rate:>14.0} {draws:>10}");
        };
        if only_greedy {
            let (rate, draws) = simulated(&rules, [BotKind::Greedy; 4], 1);
            row("4 greedy bots (1 core)", rate, Some(draws));
            continue;
        }
        row("step_random (1 core)", stepped(&rules), None);
        let (rate, draws) = simulated(&rules, [BotKind::Random; 4], 1);
        row("4 random bots (1 core)", rate, Some(draws));
        let (rate, draws) = simulated(&rules, [BotKind::Greedy; 4], 1);
        row("4 greedy bots (1 core)", rate, Some(draws));
        let (rate, draws) = simulated(&rules, [BotKind::Greedy; 4], 0);
        row(&format!("4 greedy bots ({cores} cores)"), rate, Some(draws));
    }
}
