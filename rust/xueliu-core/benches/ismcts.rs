//! Search costs on one core: `cargo bench -p xueliu-core --bench ismcts`.
//! On positions where a seat must decide mid-hand with a real choice, more than one legal
//! action (greedy play of the `chengdu` preset; a third of turns offer one, and ISMCTS answers
//! those at no cost): `determinize`, a greedy playout to the end, a whole greedy hand, and
//! ISMCTS decisions per second at fixed budgets, every case over every position listed. Each case reports the fastest of several rounds: on a machine
//! shared with other jobs, the fastest round is the one least disturbed.

use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;
use xueliu_core::bots::{play, Bot, GreedyBot, IsmctsBot};
use xueliu_core::game::{Game, Pending};
use xueliu_core::rules::Rules;

const ROUNDS: usize = 7;

/// Microseconds per call of `f` over `items`, fastest of the rounds.
fn micros<T>(items: &[T], mut f: impl FnMut(&T)) -> f64 {
    let rates = (0..ROUNDS).map(|_| {
        let start = Instant::now();
        items.iter().for_each(&mut f);
        start.elapsed().as_secs_f64() * 1e6 / items.len() as f64
    });
    rates.fold(f64::INFINITY, f64::min)
}

/// Plays to the end with greedy bots in every seat.
fn play_out(game: &mut Game, bot: &mut GreedyBot) {
    while let Some(seat) = (0..4u8).find(|&s| game.must_act(s)) {
        play(bot, game, seat).unwrap();
    }
}

/// Every third turn of greedy hands where the seat on the move has more than one legal action:
/// (game, seat).
fn positions(rules: &Arc<Rules>, hands: u64) -> Vec<(Game, u8)> {
    let mut bot = GreedyBot::default();
    let mut out = Vec::new();
    let mut step = 0;
    for seed in 0..hands {
        let mut game = Game::new(rules.clone(), seed, false).unwrap();
        while let Some(seat) = (0..4u8).find(|&s| game.must_act(s)) {
            let mut choices = 0;
            game.visit_legal(seat, &mut |_| choices += 1);
            if matches!(game.pending(), Pending::Turn(_)) && choices > 1 {
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

fn main() {
    let rules = Arc::new(Rules::preset("chengdu").unwrap());
    let pos = positions(&rules, 10);
    // Warm-up: tables built at first use are not part of any case.
    pos.iter()
        .for_each(|(g, s)| drop(black_box(g.determinize(*s, 1).unwrap())));
    let (no_win, won): (Vec<_>, Vec<_>) =
        pos.iter().cloned().partition(|(g, _)| g.wins().is_empty());
    let det_no_win = micros(&no_win, |(g, s)| {
        black_box(g.determinize(*s, 7).unwrap());
    });
    let det_won = micros(&won, |(g, s)| {
        black_box(g.determinize(*s, 7).unwrap());
    });
    let det = micros(&pos, |(g, s)| {
        black_box(g.determinize(*s, 7).unwrap());
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
    println!("chengdu, {} positions, 1 core", pos.len());
    println!("determinize           {det:>10.1} µs");
    println!(
        "  before any win      {det_no_win:>10.1} µs  ({} positions)",
        no_win.len()
    );
    println!(
        "  after a win         {det_won:>10.1} µs  ({} positions: winners' hands rebuilt)",
        won.len()
    );
    println!("greedy playout        {playout:>10.1} µs  (from a mid-hand position)");
    println!("greedy whole hand     {hand:>10.1} µs");
    for budget in [25, 100] {
        let us = micros(&pos, |(g, s)| {
            black_box(IsmctsBot::new(budget, 1).choose(&g.view(*s).unwrap()));
        });
        println!(
            "ismcts:{budget:<4} decision {us:>10.1} µs  = {:.1} decisions/s",
            1e6 / us
        );
    }
}
