//! Duplicate evaluation: bot `a` against bot `b` on the same deals. Each deal is played four
//! times, `a` in seat 0, 1, 2, 3 in turn and `b` in the other three, so the luck of the tiles
//! falls on both bots alike and far fewer games separate them than independent play needs.

use super::parallel::run_ranges;
use super::simulate::{game_seed, play_game};
use super::BotKind;
use crate::error::Error;
use crate::rules::Rules;
use std::sync::Arc;

/// The normal quantile for a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

/// How much better `a` does than `b`, in points per game.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    pub rules: Arc<Rules>,
    pub a: BotKind,
    pub b: BotKind,
    /// The comparison's seed: deal `i` is dealt from `game_seed(seed, i)`.
    pub seed: u64,
    /// The index of the first deal, for running a long comparison in shards.
    pub first_game: u64,
    /// Deals compared; each was played four times.
    pub games: u64,
    /// Each deal's difference in deal order: `a`'s points per game minus `b`'s per seat and game.
    pub differences: Vec<f64>,
    /// Mean over deals of: `a`'s points per game minus `b`'s points per seat and game.
    pub mean: f64,
    /// The standard error of `mean` (the deals are independent).
    pub std_error: f64,
    /// The 95% confidence interval of `mean` (normal approximation).
    pub ci_low: f64,
    pub ci_high: f64,
}

impl Comparison {
    /// The statistics of `differences`, deals `first_game..`; computed from the differences in
    /// order, so shards merged with [`Comparison::merge`] give the one-run figures bit for bit.
    pub fn of(
        rules: Arc<Rules>,
        [a, b]: [BotKind; 2],
        seed: u64,
        first_game: u64,
        differences: Vec<f64>,
    ) -> Comparison {
        let n = differences.len() as f64;
        let mean = differences.iter().sum::<f64>() / n;
        let squares = differences.iter().map(|d| (d - mean).powi(2));
        let std_error = (squares.sum::<f64>() / (n - 1.0) / n).sqrt();
        Comparison {
            rules,
            a,
            b,
            seed,
            first_game,
            games: differences.len() as u64,
            differences,
            mean,
            std_error,
            ci_low: mean - Z95 * std_error,
            ci_high: mean + Z95 * std_error,
        }
    }

    /// This shard followed by `next`, the next deals of the same comparison: same rules, bots
    /// and seed, its first deal the one after this shard's last.
    pub fn merge(&self, next: &Comparison) -> Result<Comparison, Error> {
        let first = self.first_game.wrapping_add(self.games);
        let same =
            (self.a, self.b, self.seed, &self.rules) == (next.a, next.b, next.seed, &next.rules);
        if !same || next.first_game != first {
            return Err(Error::Bot(format!(
                "merge takes the next deals of the same comparison: same rules, bots and seed, \
                 first_game={first}; got {} vs {}, seed={}, first_game={}",
                next.a, next.b, next.seed, next.first_game
            )));
        }
        let mut differences = self.differences.clone();
        differences.extend_from_slice(&next.differences);
        let pair = [self.a, self.b];
        Ok(Comparison::of(
            self.rules.clone(),
            pair,
            self.seed,
            self.first_game,
            differences,
        ))
    }

    /// The bytes a comparison's digest hashes: a tag, the bots' names, each NUL-ended, then
    /// every deal's difference as the little-endian bits of its `f64`.
    pub fn digest_bytes(&self) -> Vec<u8> {
        let mut bytes = format!("xueliu.compare_bots\0{}\0{}\0", self.a, self.b).into_bytes();
        self.differences
            .iter()
            .for_each(|d| bytes.extend(d.to_bits().to_le_bytes()));
        bytes
    }
}

/// One deal's difference: over the four seatings, `a`'s points minus the mean of `b`'s.
fn deal_difference(rules: &Arc<Rules>, a: BotKind, b: BotKind, seed: u64) -> Result<f64, Error> {
    let mut total = 0.0;
    for seat in 0..4 {
        let mut bots = [b; 4];
        bots[seat] = a;
        let points = play_game(rules, bots, seed, false)?.scores();
        let others: i64 = points.iter().sum::<i64>() - points[seat];
        total += points[seat] as f64 - others as f64 / 3.0;
    }
    Ok(total / 4.0)
}

/// Compares `a` with `b` on `games` deals (at least 2), deal `i` dealt from
/// [`game_seed`]`(seed, i)`, over `threads` threads (0: every core). The result does not
/// depend on the thread count.
pub fn compare(
    rules: &Arc<Rules>,
    a: BotKind,
    b: BotKind,
    games: u64,
    seed: u64,
    threads: usize,
) -> Result<Comparison, Error> {
    compare_range(rules, [a, b], seed, 0, games, threads)
}

/// [`compare`] on deals `first_game .. first_game + games` only (a shard): every seating of
/// each deal is played here, and shards merge to the whole run.
pub fn compare_range(
    rules: &Arc<Rules>,
    [a, b]: [BotKind; 2],
    seed: u64,
    first_game: u64,
    games: u64,
    threads: usize,
) -> Result<Comparison, Error> {
    crate::game::playable(rules).map_err(Error::Rules)?;
    if games < 2 {
        return Err(Error::Bot(format!(
            "comparing bots needs at least 2 games for a confidence interval, got {games}"
        )));
    }
    let parts = run_ranges(games, threads, |range| {
        range
            .map(|i| deal_difference(rules, a, b, game_seed(seed, first_game.wrapping_add(i))))
            .collect::<Result<Vec<f64>, _>>()
    })
    .ok_or_else(|| Error::Internal("a comparison thread panicked".into()))?;
    let mut differences = Vec::with_capacity(games.min(1 << 20) as usize);
    for part in parts {
        differences.extend(part?);
    }
    Ok(Comparison::of(
        rules.clone(),
        [a, b],
        seed,
        first_game,
        differences,
    ))
}
