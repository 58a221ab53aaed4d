//! VecEnv throughput on this machine: `cargo bench -p xueliu-core --bench env [-- WORD...]` (only
//! the rows whose line holds every WORD, e.g. `-- packed`). Random legal ids are chosen in Rust
//! here, so this is the ceiling the Python benchmark (benches/test_bench_env.py, ids chosen in
//! numpy) approaches. Steps per second of wall clock and per second of CPU time (all the
//! process's threads, so a second thread that only waits shows as a lower CPU rate), median of
//! rounds, and the load average. The `opponents` column: `-` the caller decides every seat;
//! `random` or `greedy` play seats 1–3 inside each step, so a step there is one seat-0 decision
//! plus the opponents' replies. `obs`: `plain` bytes or `packed` bits (`encode::packed`).

use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;
use xueliu_core::bots::BotKind;
use xueliu_core::encode::{ACTION_COUNT, OBS_SIZE, PACKED_PLANES};
use xueliu_core::env::{Obs, Outputs, Policy, VecEnv};
use xueliu_core::rng::Rng;
use xueliu_core::rules::Rules;

const STEPS: usize = 100;

/// Rounds per row: 5, or `XUELIU_BENCH_ROUNDS` (1 under a profiler or valgrind). Hands per row:
/// 4,096, or `XUELIU_BENCH_HANDS`.
fn rounds() -> usize {
    std::env::var("XUELIU_BENCH_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(5)
}

/// CPU time of every thread of this process so far, in seconds (Linux; 0 elsewhere).
fn cpu_seconds() -> f64 {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return 0.0;
    };
    let ns: u64 = tasks
        .flatten()
        .filter_map(|t| std::fs::read_to_string(t.path().join("schedstat")).ok())
        .filter_map(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .sum();
    ns as f64 / 1e9
}

fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next().map(str::to_owned))
        .unwrap_or_else(|| "-".into())
}

/// Median steps per second of wall clock and of CPU time.
fn steps_per_second(
    preset: &str,
    opponents: Option<Policy>,
    packed: bool,
    n: usize,
    threads: usize,
) -> (f64, f64) {
    let rules = Arc::new(Rules::preset(preset).unwrap());
    let policies = match opponents {
        None => [Policy::Caller; 4],
        Some(p) => [Policy::Caller, p, p, p],
    };
    let mut env = VecEnv::new(n, rules, 1, policies, threads).unwrap();
    let mut obs = vec![0u8; if packed { 0 } else { n * OBS_SIZE }];
    let mut words = vec![0u32; if packed { n * PACKED_PLANES } else { 0 }];
    let mut mask = vec![false; n * ACTION_COUNT];
    let mut rewards = vec![0.0; n * 4];
    let mut terminated = vec![false; n];
    let mut seat = vec![0i32; n];
    let mut actions = vec![0i32; n];
    let mut rng = Rng::new(2);
    let (mut wall, mut cpu) = (Vec::new(), Vec::new());
    let rounds = rounds();
    for _ in 0..rounds {
        let (start, cpu_start) = (Instant::now(), cpu_seconds());
        for _ in 0..STEPS {
            for (i, a) in actions.iter_mut().enumerate() {
                let legal = env.table(i).legal();
                *a = i32::from(legal.nth(rng.below(legal.len() as u64) as usize).unwrap());
            }
            let out = Outputs {
                obs: if packed {
                    Obs::Packed(&mut words)
                } else {
                    Obs::Plain(&mut obs)
                },
                mask: &mut mask,
                rewards: &mut rewards,
                terminated: &mut terminated,
                seat: &mut seat,
            };
            env.step(&actions, out).unwrap();
            black_box((&obs, &words));
        }
        let steps = (n * STEPS) as f64;
        wall.push(steps / start.elapsed().as_secs_f64());
        cpu.push(steps / (cpu_seconds() - cpu_start));
    }
    wall.sort_by(f64::total_cmp);
    cpu.sort_by(f64::total_cmp);
    (wall[rounds / 2], cpu[rounds / 2])
}

fn main() {
    let words: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    // Memory per hand: the table itself, plus the boxed bots when a seat has one.
    let bots = std::mem::size_of::<[Option<xueliu_core::bots::AnyBot>; 4]>();
    println!(
        "memory per hand: table {} bytes, + {bots} bytes of bots when a seat is a bot's; \
         observation {OBS_SIZE} bytes ({} packed), mask {ACTION_COUNT}",
        std::mem::size_of::<xueliu_core::env::Table>(),
        PACKED_PLANES * 4
    );
    println!(
        "{:<16} {:>9} {:>6} {:>6} {:>7} {:>11} {:>12} {:>5}",
        "preset", "opponents", "obs", "hands", "threads", "steps/s", "steps/cpu-s", "load"
    );
    let n = std::env::var("XUELIU_BENCH_HANDS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(4096);
    let mut rows = Vec::new();
    for preset in ["chengdu", "chengdu_xueliu"] {
        for packed in [false, true] {
            for threads in [1, 2] {
                rows.push((preset, "-", None, packed, threads));
            }
        }
    }
    // Random against greedy opponents, side by side: the price of greedy replies per step.
    for threads in [1, 2] {
        rows.push(("chengdu", "random", Some(Policy::Random), false, threads));
        let greedy = Policy::Bot(BotKind::Greedy);
        rows.push(("chengdu", "greedy", Some(greedy), false, threads));
    }
    for (preset, name, policy, packed, threads) in rows {
        let obs = if packed { "packed" } else { "plain" };
        let label = format!("{preset:<16} {name:>9} {obs:>6} {n:>6} {threads:>7}");
        if !words.iter().all(|w| label.contains(w.as_str())) {
            continue;
        }
        let (wall, cpu) = steps_per_second(preset, policy, packed, n, threads);
        println!("{label} {wall:>11.0} {cpu:>12.0} {:>5}", load());
    }
}
