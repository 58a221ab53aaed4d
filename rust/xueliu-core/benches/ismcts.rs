//! Search costs on one core: `cargo bench -p xueliu-core --bench ismcts`.
//! On positions where a seat must decide mid-hand with a real choice, more than one legal
//! action (greedy play of the `chengdu` preset; a third of turns offer one, and ISMCTS answers
//! those at no cost): `determinize`, a greedy playout to the end, a whole greedy hand, and
//! ISMCTS decisions per second at fixed budgets on discard turns and on claims (a discard others
//! may pong, kong or win on) apart, every case over every position listed. Each case reports the
//! median of its rounds and their spread (slowest–fastest), not the best round alone. Beside
//! them, the greedy and policy bots' decisions on the same positions and whole hands of each,
//! and `ismcts+policy:N` beside `ismcts:N` (rounds alternating between the two: read the ratio).
//! `ISMCTS_BENCH_ONLY=search` runs only the `ismcts:100` rows, `ISMCTS_BENCH_ONLY=prior` only
//! the `ismcts+policy:N` ones, `ISMCTS_BENCH_ROUNDS=1` one round of each (for callgrind:
//! `valgrind --tool=callgrind target/profiling/deps/ismcts-*`).

use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;
use xueliu_core::bots::{play, policy, Bot, BotKind, GreedyBot, IsmctsBot, PolicyBot};
use xueliu_core::game::{Game, Pending, TrueHands};
use xueliu_core::rules::Rules;
use xueliu_core::search;

/// Rounds of each case, unless `ISMCTS_BENCH_ROUNDS` says otherwise.
const ROUNDS: usize = 7;

fn rounds() -> usize {
    std::env::var("ISMCTS_BENCH_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(ROUNDS)
}

/// Microseconds per call of `f` over `items` in each round, sorted: the median is the middle
/// one, the spread the ends.
struct Micros(Vec<f64>);

impl Micros {
    fn median(&self) -> f64 {
        self.0[self.0.len() / 2]
    }

    fn spread(&self) -> String {
        format!("{:.1}–{:.1}", self.0[0], self.0[self.0.len() - 1])
    }
}

impl std::fmt::Display for Micros {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:>10.1} µs ({})", self.median(), self.spread())
    }
}

fn micros<T>(items: &[T], mut f: impl FnMut(&T)) -> Micros {
    let mut rounds: Vec<f64> = (0..rounds())
        .map(|_| {
            let start = Instant::now();
            items.iter().for_each(&mut f);
            start.elapsed().as_secs_f64() * 1e6 / items.len() as f64
        })
        .collect();
    rounds.sort_by(f64::total_cmp);
    Micros(rounds)
}

/// Plays to the end with `bot` in every seat.
fn play_out(game: &mut Game, bot: &mut impl Bot) {
    while let Some(seat) = (0..4u8).find(|&s| game.must_act(s)) {
        play(bot, game, seat).unwrap();
    }
}

/// Every third decision of greedy hands where the seat on the move has more than one legal
/// action, on its turn (`claims` false) or on another's discard (`claims` true): (game, seat).
fn positions(rules: &Arc<Rules>, hands: u64, claims: bool) -> Vec<(Game, u8)> {
    let mut bot = GreedyBot::default();
    let mut out = Vec::new();
    let mut step = 0;
    for seed in 0..hands {
        let mut game = Game::new(rules.clone(), seed, false).unwrap();
        while let Some(seat) = (0..4u8).find(|&s| game.must_act(s)) {
            let mut choices = 0;
            game.visit_legal(seat, &mut |_| choices += 1);
            let kind = match game.pending() {
                Pending::Turn(_) => Some(false),
                Pending::Respond(_) => Some(true),
                _ => None,
            };
            if kind == Some(claims) && choices > 1 {
                if step % 3 == 0 {
                    out.push((game.clone(), seat));
                }
                step += 1;
            }
            play(&mut bot, &mut game, seat).unwrap();
        }
    }
    out
}

/// A determinisation for `seat`, as the ISMCTS bot makes one.
fn determinize(game: &Game, seat: u8, seed: u64) -> Game {
    let view = game.view(seat).unwrap();
    search::determinize(&view, seed, Some(TrueHands::of(game))).unwrap()
}

fn main() {
    let rules = Arc::new(Rules::preset("chengdu").unwrap());
    let pos = positions(&rules, 10, false);
    let claims = positions(&rules, 10, true);
    // Warm-up: tables built at first use are not part of any case.
    pos.iter()
        .for_each(|(g, s)| drop(black_box(determinize(g, *s, 1))));
    match std::env::var("ISMCTS_BENCH_ONLY").as_deref() {
        Ok("search") => return search_rows(&pos, &claims, &[100]),
        Ok("prior") => return prior_rows(&pos, &claims, &[25, 100]),
        _ => {}
    }
    let (no_win, won): (Vec<_>, Vec<_>) =
        pos.iter().cloned().partition(|(g, _)| g.wins().is_empty());
    let det_no_win = micros(&no_win, |(g, s)| {
        black_box(determinize(g, *s, 7));
    });
    let det_won = micros(&won, |(g, s)| {
        black_box(determinize(g, *s, 7));
    });
    let det = micros(&pos, |(g, s)| {
        black_box(determinize(g, *s, 7));
    });
    let mut bot = GreedyBot::default();
    let playout = micros(&pos, |(g, _)| {
        let mut c = g.clone();
        play_out(&mut c, &mut bot);
        black_box(c.scores());
    });
    let seeds: Vec<u64> = (0..200).collect();
    let hand = micros(&seeds, |&seed| {
        let mut g = Game::new(rules.clone(), seed, false).unwrap();
        play_out(&mut g, &mut bot);
        black_box(g.scores());
    });
    println!(
        "chengdu, {} discard turns and {} claims, 1 core; median of {} rounds (slowest–fastest)",
        pos.len(),
        claims.len(),
        rounds()
    );
    println!("determinize           {det}");
    println!(
        "  before any win      {det_no_win}  ({} positions)",
        no_win.len()
    );
    println!(
        "  after a win         {det_won}  ({} positions: winners' hands rebuilt)",
        won.len()
    );
    println!("greedy playout        {playout}  (from a mid-hand position)");
    println!("greedy whole hand     {hand}");
    let mut net = PolicyBot::new(policy::LATEST, 1).unwrap();
    let net_hand = micros(&seeds, |&seed| {
        let mut g = Game::new(rules.clone(), seed, false).unwrap();
        play_out(&mut g, &mut net);
        black_box(g.scores());
    });
    println!("policy whole hand     {net_hand}");
    for (what, set) in [("turn ", &pos), ("claim", &claims)] {
        let greedy = micros(set, |(g, s)| {
            black_box(bot.choose(&g.view(*s).unwrap()));
        });
        let learned = micros(set, |(g, s)| {
            black_box(net.choose(&g.view(*s).unwrap()));
        });
        for (name, us) in [("greedy     ", greedy), ("policy     ", learned)] {
            println!(
                "{name} {what}  {us}  = {:.1} decisions/s",
                1e6 / us.median()
            );
        }
    }
    search_rows(&pos, &claims, &[25, 100]);
    prior_rows(&pos, &claims, &[25, 100]);
}

/// `ismcts+policy:N` beside `ismcts:N` at each budget, on turns and on claims apart: each round
/// times one then the other, so that the machine's load weighs on both alike.
fn prior_rows(pos: &[(Game, u8)], claims: &[(Game, u8)], budgets: &[u32]) {
    for &budget in budgets {
        for (what, set) in [("turn ", pos), ("claim", claims)] {
            let kinds = [BotKind::Ismcts(budget), BotKind::IsmctsPolicy(budget)];
            let mut times = [Vec::new(), Vec::new()];
            for _ in 0..rounds() {
                for (kind, times) in kinds.iter().zip(&mut times) {
                    let start = Instant::now();
                    for (g, s) in set {
                        black_box(kind.build(1).choose(&g.view(*s).unwrap()));
                    }
                    times.push(start.elapsed().as_secs_f64() * 1e6 / set.len() as f64);
                }
            }
            let [plain, prior] = times.map(|mut r| {
                r.sort_by(f64::total_cmp);
                Micros(r)
            });
            for (kind, us) in kinds.iter().zip([&plain, &prior]) {
                println!(
                    "{:<18} {what}  {us}  = {:.1} decisions/s",
                    kind.to_string(),
                    1e6 / us.median()
                );
            }
            println!(
                "  ismcts+policy:{budget} ÷ ismcts:{budget} {what}  {:.3}",
                prior.median() / plain.median()
            );
        }
    }
}

/// ISMCTS decisions per second at each budget, on turns and on claims apart.
fn search_rows(pos: &[(Game, u8)], claims: &[(Game, u8)], budgets: &[u32]) {
    for &budget in budgets {
        for (what, set) in [("turn ", pos), ("claim", claims)] {
            let us = micros(set, |(g, s)| {
                black_box(IsmctsBot::new(budget, 1).choose(&g.view(*s).unwrap()));
            });
            println!(
                "ismcts:{budget:<4} {what}  {us}  = {:.1} decisions/s",
                1e6 / us.median()
            );
        }
    }
}
