//! Scoring throughput on one core: `cargo bench -p xueliu-core --bench score`.
//! Same method as `benches/analysis.rs`: fixed hands, several rounds, the median rate; the best
//! round too, which other work on a shared machine disturbs least.

use std::hint::black_box;
use std::time::Instant;
use xueliu_core::hand::Counts;
use xueliu_core::rng::Rng;
use xueliu_core::rules::Rules;
use xueliu_core::score::{best_waits, score, Situation};
use xueliu_core::tile::Tile;

const HANDS: usize = 200_000;
const ROUNDS: usize = 7;

/// Random complete hands, no melds: four sets and a pair in at most two suits, or (one in eight)
/// seven pairs.
fn complete_hands(rng: &mut Rng) -> Vec<Counts> {
    let mut out = Vec::with_capacity(HANDS);
    while out.len() < HANDS {
        let suits = [rng.below(3) as usize, rng.below(3) as usize];
        let mut counts = [0u8; 27];
        let pick = |rng: &mut Rng| suits[rng.below(2) as usize] * 9 + rng.below(9) as usize;
        if rng.below(8) == 0 {
            (0..7).for_each(|_| counts[pick(rng)] += 2);
        } else {
            counts[pick(rng)] += 2;
            for _ in 0..4 {
                let t = pick(rng);
                if rng.below(2) == 0 || t % 9 > 6 {
                    counts[t] += 3;
                } else {
                    (t..t + 3).for_each(|x| counts[x] += 1);
                }
            }
        }
        if let Ok(hand) = Counts::from_array(&counts) {
            out.push(hand);
        }
    }
    out
}

fn rate<T>(name: &str, items: &[T], f: impl Fn(&T) -> u64) {
    let mut rates: Vec<f64> = (0..ROUNDS)
        .map(|_| {
            let start = Instant::now();
            let mut sum = 0u64;
            for item in items {
                sum = sum.wrapping_add(f(black_box(item)));
            }
            black_box(sum);
            items.len() as f64 / start.elapsed().as_secs_f64()
        })
        .collect();
    rates.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let (median, best) = (rates[ROUNDS / 2] / 1e6, rates[ROUNDS - 1] / 1e6);
    println!("{name:<40} {median:>8.1} M/s median {best:>8.1} M/s best");
}

fn main() {
    let mut rng = Rng::new(2024);
    let chengdu = Rules::preset("chengdu").unwrap();
    let _ =
        xueliu_core::analysis::is_win(&Counts::new(), &xueliu_core::analysis::Context::default());
    let wins: Vec<(Counts, Tile)> = complete_hands(&mut rng)
        .into_iter()
        .map(|hand| {
            let tiles: Vec<Tile> = hand.tiles().collect();
            (hand, tiles[rng.below(14) as usize])
        })
        .collect();
    let ready: Vec<Counts> = wins
        .iter()
        .map(|(hand, tile)| {
            let mut ready = *hand;
            ready.remove(*tile);
            ready
        })
        .collect();
    let situations = [Situation::DISCARD, Situation::SELF_DRAW];
    rate("score a win (chengdu)", &wins, |(hand, tile)| {
        let s = &situations[tile.index() & 1];
        score(hand, *tile, &[], None, &chengdu, s).map_or(0, |s| s.points)
    });
    for name in ["xuezhan", "dashiyou"] {
        let rules = Rules::preset(name).unwrap();
        // dashiyou has no seven pairs: score only its wins.
        let wins: Vec<(Counts, Tile)> = wins
            .iter()
            .filter(|(hand, tile)| {
                score(hand, *tile, &[], None, &rules, &Situation::DISCARD).is_ok()
            })
            .copied()
            .collect();
        rate(&format!("score a win ({name})"), &wins, |(hand, tile)| {
            score(hand, *tile, &[], None, &rules, &Situation::DISCARD).map_or(0, |s| s.points)
        });
    }
    rate("best_waits, ready hands (chengdu)", &ready, |hand| {
        best_waits(hand, &[], None, &chengdu).map_or(0, |waits| {
            waits.iter().map(|(_, s)| s.points).max().unwrap_or(0)
        })
    });
    let few: Vec<Counts> = ready[..1000].iter().cycle().take(HANDS).copied().collect();
    rate("best_waits, 1,000 ready repeated", &few, |hand| {
        best_waits(hand, &[], None, &chengdu).map_or(0, |waits| {
            waits.iter().map(|(_, s)| s.points).max().unwrap_or(0)
        })
    });
    let few_wins: Vec<(Counts, Tile)> = wins[..1000].iter().cycle().take(HANDS).copied().collect();
    rate("score a win, 1,000 repeated", &few_wins, |(hand, tile)| {
        score(hand, *tile, &[], None, &chengdu, &Situation::DISCARD).map_or(0, |s| s.points)
    });
    let average = ready
        .iter()
        .map(|h| best_waits(h, &[], None, &chengdu).unwrap().len())
        .sum::<usize>() as f64
        / ready.len() as f64;
    println!("{:<40} {average:>8.2}", "  waits per ready hand");
}
