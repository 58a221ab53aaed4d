//! VecEnv throughput on this machine: `cargo bench -p xueliu-core --bench env`. Random legal ids
//! are chosen in Rust here, so this is the ceiling the Python benchmark (benches/
//! test_bench_env.py, ids chosen in numpy) approaches. Steps per second, median of rounds. The
//! `opponents` column: `-` the caller decides every seat; `random` or `greedy` play seats 1–3
//! inside each step, so a step there is one seat-0 decision plus the opponents' replies.

use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;
use xueliu_core::bots::BotKind;
use xueliu_core::encode::{ACTION_COUNT, OBS_SIZE};
use xueliu_core::env::{Outputs, Policy, VecEnv};
use xueliu_core::rng::Rng;
use xueliu_core::rules::Rules;

const ROUNDS: usize = 5;
const STEPS: usize = 100;

fn steps_per_second(preset: &str, opponents: Option<Policy>, n: usize, threads: usize) -> f64 {
    let rules = Arc::new(Rules::preset(preset).unwrap());
    let policies = match opponents {
        None => [Policy::Caller; 4],
        Some(p) => [Policy::Caller, p, p, p],
    };
    let mut env = VecEnv::new(n, rules, 1, policies, threads).unwrap();
    let mut obs = vec![0u8; n * OBS_SIZE];
    let mut mask = vec![false; n * ACTION_COUNT];
    let mut rewards = vec![0.0; n * 4];
    let mut terminated = vec![false; n];
    let mut seat = vec![0i32; n];
    let mut actions = vec![0i32; n];
    let mut rng = Rng::new(2);
    let mut rates = Vec::new();
    for _ in 0..ROUNDS {
        let start = Instant::now();
        for _ in 0..STEPS {
            for (i, a) in actions.iter_mut().enumerate() {
                let legal = env.table(i).legal();
                *a = i32::from(legal.nth(rng.below(legal.len() as u64) as usize).unwrap());
            }
            let out = Outputs {
                obs: &mut obs,
                mask: &mut mask,
                rewards: &mut rewards,
                terminated: &mut terminated,
                seat: &mut seat,
            };
            env.step(&actions, out).unwrap();
            black_box(&obs);
        }
        rates.push((n * STEPS) as f64 / start.elapsed().as_secs_f64());
    }
    rates.sort_by(f64::total_cmp);
    rates[ROUNDS / 2]
}

fn main() {
    // Memory per hand: the table itself, plus the boxed bots when a seat has one.
    let bots = std::mem::size_of::<[Option<xueliu_core::bots::AnyBot>; 4]>();
    println!(
        "memory per hand: table {} bytes, + {bots} bytes of bots when a seat is a bot's; \
         observation {OBS_SIZE} bytes, mask {ACTION_COUNT}",
        std::mem::size_of::<xueliu_core::env::Table>()
    );
    println!(
        "{:<16} {:>9} {:>8} {:>8} {:>14}",
        "preset", "opponents", "hands", "threads", "steps/s"
    );
    let n = 4096;
    for preset in ["chengdu", "chengdu_xueliu"] {
        for threads in [1, 2] {
            let rate = steps_per_second(preset, None, n, threads);
            println!("{preset:<16} {:>9} {n:>8} {threads:>8} {rate:>14.0}", "-");
        }
    }
    // Random against greedy opponents, side by side: the price of greedy replies per step.
    let opponents = [
        ("random", Policy::Random),
        ("greedy", Policy::Bot(BotKind::Greedy)),
    ];
    for threads in [1, 2] {
        for (name, policy) in opponents {
            let rate = steps_per_second("chengdu", Some(policy), n, threads);
            println!(
                "{:<16} {name:>9} {n:>8} {threads:>8} {rate:>14.0}",
                "chengdu"
            );
        }
    }
}
