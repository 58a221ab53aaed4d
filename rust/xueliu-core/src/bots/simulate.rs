//! Self-play: whole hands played by four bots with logging off, split over threads.
//!
//! Game `i` (counting from `first_game`) is dealt from [`game_seed`]`(seed, i)` and its seat `s`
//! bot is seeded with [`bot_seed`]`(game_seed, s)`, so every game is fixed by `(seed, i)` alone:
//! results never depend on the thread count, and runs of `first_game = 0, k, 2k, …` merge to
//! exactly one run of them all.

use super::parallel::run_ranges;
use super::{play, AnyBot, BotKind};
use crate::error::Error;
use crate::game::{Game, WinKind, WinRecord};
use crate::rng::Rng;
use crate::rules::Rules;
use std::ops::Range;
use std::sync::Arc;
use std::time::Instant;

/// SplitMix64's increment.
const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;
/// Keeps bot seeds apart from the game's own stream.
const BOT_SALT: u64 = 0xB075_B075_B075_B075;
/// Tiles dealt before play: 13 a seat and the dealer's 14th.
const DEALT: usize = 53;

/// Game `i`'s seed: output `i` (from 0) of SplitMix64 seeded with `seed`, that is
/// `Rng::new(seed + i·0x9E3779B97F4A7C15).next_u64()`.
pub fn game_seed(seed: u64, game: u64) -> u64 {
    Rng::new(seed.wrapping_add(game.wrapping_mul(GAMMA))).next_u64()
}

/// Seat `seat`'s bot seed in a game: output `seat` of SplitMix64 seeded with
/// `game_seed ^ 0xB075B075B075B075`.
pub fn bot_seed(game_seed: u64, seat: usize) -> u64 {
    Rng::new((game_seed ^ BOT_SALT).wrapping_add((seat as u64).wrapping_mul(GAMMA))).next_u64()
}

/// What a simulation plays.
#[derive(Clone, Debug)]
pub struct Simulation {
    pub rules: Arc<Rules>,
    /// The bot in each seat.
    pub bots: [BotKind; 4],
    pub seed: u64,
    /// The index of the first game, for running a long simulation in chunks.
    pub first_game: u64,
    /// Keep each game's event log as JSON lines.
    pub logs: bool,
}

/// How wins came about, the names [`Tally::win_kinds`] counts under.
pub const WIN_KIND_NAMES: [&str; 5] = [
    "self_draw",
    "kong_flower",
    "discard",
    "kong_shot",
    "robbed_kong",
];

/// The index into [`WIN_KIND_NAMES`] of a win: 杠上花 and 杠上炮 apart from plain ones. A robbing
/// win that is 杠上炮 too (`kong_shot_on_rob`) counts as `robbed_kong`: one kind a win.
fn win_kind(w: &WinRecord) -> usize {
    match w.kind {
        WinKind::SelfDraw if w.flags.kong_flower => 1,
        WinKind::SelfDraw => 0,
        WinKind::Discard if w.flags.kong_shot => 3,
        WinKind::Discard => 2,
        WinKind::RobbedKong => 4,
    }
}

/// The results of a run of games, in game order; [`Tally::merge`] joins consecutive runs.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    pub games: u64,
    /// Each game's final points per seat.
    pub points: Vec<[i64; 4]>,
    pub wins: [u64; 4],
    /// Counts by [`WIN_KIND_NAMES`].
    pub win_kinds: [u64; 5],
    /// `fan_histogram[f]`: wins of `f` fan (before the cap).
    pub fan_histogram: Vec<u64>,
    /// Tiles drawn from the wall after the deal, summed over games.
    pub draws: u64,
    /// Each game's event log as JSON lines, when asked for.
    pub logs: Vec<String>,
}

impl Tally {
    /// Adds a finished game.
    fn add(&mut self, game: &Game, logs: bool) {
        self.games += 1;
        self.points.push(game.scores());
        for w in game.wins() {
            self.wins[w.seat as usize & 3] += 1;
            self.win_kinds[win_kind(w)] += 1;
            let fan = w.score.fan as usize;
            if self.fan_histogram.len() <= fan {
                self.fan_histogram.resize(fan + 1, 0);
            }
            self.fan_histogram[fan] += 1;
        }
        self.draws += (crate::game::WALL_SIZE - DEALT - game.wall_remaining()) as u64;
        if logs {
            self.logs.push(game.events_jsonl());
        }
    }

    /// Appends the games of `other`, which must follow this run's.
    pub fn merge(&mut self, other: Tally) {
        self.games += other.games;
        self.points.extend(other.points);
        self.wins
            .iter_mut()
            .zip(other.wins)
            .for_each(|(a, b)| *a += b);
        let kinds = self.win_kinds.iter_mut().zip(other.win_kinds);
        kinds.for_each(|(a, b)| *a += b);
        if self.fan_histogram.len() < other.fan_histogram.len() {
            self.fan_histogram.resize(other.fan_histogram.len(), 0);
        }
        let fans = self.fan_histogram.iter_mut().zip(other.fan_histogram);
        fans.for_each(|(a, b)| *a += b);
        self.draws += other.draws;
        self.logs.extend(other.logs);
    }

    /// Each game's points as little-endian `i64`s, four a game: the form a pickled result
    /// carries them in.
    pub fn points_bytes(&self) -> Vec<u8> {
        let points = self.points.iter().flatten();
        points.flat_map(|p| p.to_le_bytes()).collect()
    }

    /// The points of [`Tally::points_bytes`]; `None` unless the bytes are whole games.
    pub fn points_from_bytes(bytes: &[u8]) -> Option<Vec<[i64; 4]>> {
        if bytes.len() % 32 != 0 {
            return None;
        }
        let word = |b: &[u8]| i64::from_le_bytes(std::array::from_fn(|k| b[k]));
        let games = bytes.chunks_exact(32);
        Some(
            games
                .map(|game| std::array::from_fn(|s| word(&game[s * 8..])))
                .collect(),
        )
    }

    /// The bytes a result's digest hashes: a tag, then as little-endian `u64`s every game's
    /// points, the wins, win kinds, fan histogram (its length first), draws and the number of
    /// logs, then each log and a NUL. Equal games give equal bytes however they were split.
    pub fn digest_bytes(&self) -> Vec<u8> {
        let mut bytes = b"xueliu.simulate\0".to_vec();
        let words = self.points.iter().flatten().map(|&p| p as u64);
        let counts = self.wins.iter().chain(&self.win_kinds).copied();
        words
            .chain(counts)
            .chain([self.fan_histogram.len() as u64])
            .chain(self.fan_histogram.iter().copied())
            .chain([self.draws, self.logs.len() as u64])
            .for_each(|w| bytes.extend(w.to_le_bytes()));
        self.logs
            .iter()
            .for_each(|log| bytes.extend(log.bytes().chain([0])));
        bytes
    }

    /// Average tiles drawn per game (0 for no games).
    pub fn mean_draws(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.draws as f64 / self.games as f64
        }
    }
}

/// A simulation and what came of it: one run, or a chunk of a long one.
#[derive(Clone, Debug)]
pub struct SimulationResult {
    pub simulation: Simulation,
    pub tally: Tally,
    /// Wall-clock seconds the games took (summed over merged chunks).
    pub seconds: f64,
    /// Seconds spent building the analysis tables first (summed over merged chunks).
    pub table_seconds: f64,
}

impl SimulationResult {
    /// This result without its logs: a caller that writes each chunk's logs as it comes keeps
    /// the rest to merge without holding every log.
    pub fn without_logs(&self) -> SimulationResult {
        let t = &self.tally;
        let tally = Tally {
            games: t.games,
            points: t.points.clone(),
            wins: t.wins,
            win_kinds: t.win_kinds,
            fan_histogram: t.fan_histogram.clone(),
            draws: t.draws,
            logs: Vec::new(),
        };
        SimulationResult {
            simulation: self.simulation.clone(),
            tally,
            seconds: self.seconds,
            table_seconds: self.table_seconds,
        }
    }

    /// This chunk followed by `next`, the next chunk of the same simulation: same rules, bots
    /// and seed, its first game the one after this chunk's last.
    pub fn merge(&self, next: &SimulationResult) -> Result<SimulationResult, Error> {
        let (me, them) = (&self.simulation, &next.simulation);
        let first = me.first_game.wrapping_add(self.tally.games);
        let same = (me.bots, me.seed, &me.rules) == (them.bots, them.seed, &them.rules);
        if !same || them.first_game != first {
            return Err(Error::Bot(format!(
                "merge takes the next chunk of the same simulation: same rules, bots and seed, \
                 first_game={first}; got bots={:?}, seed={}, first_game={}",
                them.bots.map(|k| k.to_string()),
                them.seed,
                them.first_game
            )));
        }
        let mut tally = self.tally.clone();
        tally.merge(next.tally.clone());
        Ok(SimulationResult {
            simulation: me.clone(),
            tally,
            seconds: self.seconds + next.seconds,
            table_seconds: self.table_seconds + next.table_seconds,
        })
    }
}

/// Plays the hand dealt from `seed` to the end, seat `s` by a fresh bot seeded
/// [`bot_seed`]`(seed, s)`.
pub fn play_game(
    rules: &Arc<Rules>,
    bots: [BotKind; 4],
    seed: u64,
    logging: bool,
) -> Result<Game, Error> {
    let mut players = bots.map(|kind| AnyBot::new(kind, 0));
    play_hand(rules, &mut players, seed, logging)
}

/// [`play_game`] with the `players` given, reseeded first so that they play as fresh ones: a
/// run of hands keeps its four bots instead of building (and copying) four a hand.
pub fn play_hand(
    rules: &Arc<Rules>,
    players: &mut [AnyBot; 4],
    seed: u64,
    logging: bool,
) -> Result<Game, Error> {
    for (s, player) in players.iter_mut().enumerate() {
        player.reseed(bot_seed(seed, s));
    }
    let mut game = Game::new(rules.clone(), seed, logging)?;
    while let Some(seat) = (0..4u8).find(|&s| game.must_act(s)) {
        let player = &mut players[seat as usize];
        play(player, &mut game, seat).map_err(|e| {
            Error::Bot(format!(
                "bot {} chose an illegal action: {e}",
                player.name()
            ))
        })?;
    }
    Ok(game)
}

/// Plays one range of games.
fn play_range(sim: &Simulation, range: Range<u64>) -> Result<Tally, Error> {
    let mut tally = Tally {
        // Reserve for the usual run; a huge one grows as it goes rather than failing up front.
        points: Vec::with_capacity((range.end - range.start).min(1 << 20) as usize),
        ..Tally::default()
    };
    let mut players = sim.bots.map(|kind| AnyBot::new(kind, 0));
    for i in range {
        let seed = game_seed(sim.seed, sim.first_game.wrapping_add(i));
        let game = play_hand(&sim.rules, &mut players, seed, sim.logs)?;
        tally.add(&game, sim.logs);
    }
    Ok(tally)
}

/// Builds the analysis tables `rules` need (once per process) and returns the seconds it took:
/// timed runs call it first, so that their games/s is the engine's, not the one-time build's.
pub fn build_tables(rules: &Rules) -> f64 {
    let start = Instant::now();
    std::hint::black_box(crate::tables::suit_table());
    if rules.wilds {
        std::hint::black_box(crate::tables::wild_table());
    }
    start.elapsed().as_secs_f64()
}

/// Plays `games` games over `threads` threads (0: every core); returns the tally and the
/// seconds the games took, after [`build_tables`]. Fails before playing if the rules cannot
/// be played.
pub fn simulate(sim: &Simulation, games: u64, threads: usize) -> Result<(Tally, f64), Error> {
    crate::game::playable(&sim.rules).map_err(Error::Rules)?;
    build_tables(&sim.rules);
    let start = Instant::now();
    let parts = run_ranges(games, threads, |r| play_range(sim, r))
        .ok_or_else(|| Error::Internal("a simulation thread panicked".into()))?;
    let mut tally = Tally::default();
    for part in parts {
        tally.merge(part?);
    }
    Ok((tally, start.elapsed().as_secs_f64()))
}
