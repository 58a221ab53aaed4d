//! Duplicate evaluation of two bots from the command line:
//! `cargo run --release -p xueliu-core --example compare_bots -- A B GAMES [PRESET] [SEED] [THREADS]`
//! e.g. `... -- ismcts:100 greedy 1000 chengdu 0 2`. Prints the mean difference in points per
//! game (A minus B) with its 95% confidence interval, and the time taken.

use std::sync::Arc;
use std::time::Instant;
use xueliu_core::bots::{compare, BotKind};
use xueliu_core::rules::Rules;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: &str| args.get(i).cloned().unwrap_or(default.to_string());
    let a = BotKind::parse(&arg(0, "ismcts"))?;
    let b = BotKind::parse(&arg(1, "greedy"))?;
    let games: u64 = arg(2, "200").parse()?;
    let rules = Arc::new(Rules::preset(&arg(3, "chengdu"))?);
    let seed: u64 = arg(4, "0").parse()?;
    let threads: usize = arg(5, "0").parse()?;
    let start = Instant::now();
    let c = compare(&rules, a, b, games, seed, threads)?;
    println!(
        "{a} vs {b}, {} deals x 4 seatings, {}: mean {:+.3} points/game, 95% CI [{:+.3}, {:+.3}], {:.1} s",
        c.games,
        arg(3, "chengdu"),
        c.mean,
        c.ci_low,
        c.ci_high,
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
