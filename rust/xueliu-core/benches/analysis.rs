//! Hand-analysis throughput on one core: `cargo bench -p xueliu-core --bench analysis`.
//! No framework: each case runs over a fixed set of hands several times and reports the median
//! rate, so the ratios between cases are what to read.

use std::hint::black_box;
use std::time::Instant;
use xueliu_core::analysis::{is_win, shanten, waits, Context};
use xueliu_core::hand::Counts;
use xueliu_core::rng::Rng;
use xueliu_core::tile::Tile;

const HANDS: usize = 200_000;
const ROUNDS: usize = 7;

/// Hands of `size` tiles drawn from freshly shuffled walls.
fn random_hands(rng: &mut Rng, size: usize) -> Vec<Counts> {
    let mut wall: Vec<Tile> = Tile::all().flat_map(|t| [t; 4]).collect();
    (0..HANDS)
        .map(|_| {
            rng.shuffle(&mut wall);
            Counts::from_tiles(&wall[..size]).unwrap()
        })
        .collect()
}

/// Random complete hands: four sets and a pair in at most two suits.
fn complete_hands(rng: &mut Rng) -> Vec<Counts> {
    let mut out = Vec::with_capacity(HANDS);
    while out.len() < HANDS {
        let suits = [rng.below(3) as u8, rng.below(3) as u8];
        let mut counts = [0u8; 27];
        let pick = |rng: &mut Rng| suits[rng.below(2) as usize] as usize * 9;
        let base = pick(rng);
        counts[base + rng.below(9) as usize] += 2;
        for _ in 0..4 {
            let base = pick(rng);
            if rng.below(2) == 0 {
                counts[base + rng.below(9) as usize] += 3;
            } else {
                let r = rng.below(7) as usize;
                (r..r + 3).for_each(|x| counts[base + x] += 1);
            }
        }
        if let Ok(hand) = Counts::from_array(&counts) {
            out.push(hand);
        }
    }
    out
}

/// Complete hands less one random tile: ready hands.
fn ready_hands(rng: &mut Rng, complete: &[Counts]) -> Vec<Counts> {
    complete
        .iter()
        .map(|hand| {
            let tiles: Vec<Tile> = hand.tiles().collect();
            let mut ready = *hand;
            ready.remove(tiles[rng.below(14) as usize]);
            ready
        })
        .collect()
}

/// The same hands with `wilds` of their natural tiles, picked at random, turned into wilds (幺鸡).
fn with_wilds(rng: &mut Rng, hands: &[Counts], wilds: u8) -> Vec<Counts> {
    hands
        .iter()
        .map(|hand| {
            let mut tiles: Vec<Tile> = hand.tiles().collect();
            rng.shuffle(&mut tiles);
            let mut out = *hand;
            tiles[..wilds as usize].iter().for_each(|&t| out.remove(t));
            out.with_wilds(wilds).unwrap()
        })
        .collect()
}

fn rate(name: &str, hands: &[Counts], f: impl Fn(&Counts) -> u32) {
    let mut rates: Vec<f64> = (0..ROUNDS)
        .map(|_| {
            let start = Instant::now();
            let mut sum = 0u32;
            for h in hands {
                sum = sum.wrapping_add(f(black_box(h)));
            }
            black_box(sum);
            hands.len() as f64 / start.elapsed().as_secs_f64()
        })
        .collect();
    rates.sort_by(|a, b| a.partial_cmp(b).unwrap());
    println!("{name:<34} {:>8.1} M hands/s", rates[ROUNDS / 2] / 1e6);
}

fn main() {
    let ctx = Context::PLAIN;
    let mut rng = Rng::new(2024);
    let start = Instant::now();
    let _ = is_win(&Counts::new(), &ctx);
    println!(
        "{:<34} {:>8.3} s",
        "table build (first use)",
        start.elapsed().as_secs_f64()
    );
    let fourteen = random_hands(&mut rng, 14);
    let thirteen = random_hands(&mut rng, 13);
    let complete = complete_hands(&mut rng);
    let ready = ready_hands(&mut rng, &complete);
    rate("is_win, random 14 tiles", &fourteen, |h| {
        u32::from(is_win(h, &ctx))
    });
    rate("is_win, complete hands", &complete, |h| {
        u32::from(is_win(h, &ctx))
    });
    rate("shanten, random 14 tiles", &fourteen, |h| {
        shanten(h, &ctx) as u32
    });
    rate("shanten, random 13 tiles", &thirteen, |h| {
        shanten(h, &ctx) as u32
    });
    rate("shanten, ready hands", &ready, |h| shanten(h, &ctx) as u32);
    let void_s = Context {
        void: Some(xueliu_core::tile::Suit::S),
        ..ctx
    };
    rate("shanten, random 14, void declared", &fourteen, |h| {
        shanten(h, &void_s) as u32
    });
    let no_sevens = Context {
        seven_pairs: false,
        ..ctx
    };
    rate("shanten, random 14, no seven pairs", &fourteen, |h| {
        shanten(h, &no_sevens) as u32
    });
    rate("waits, ready hands", &ready, |h| waits(h, &ctx));
    rate("waits, random 13 tiles", &thirteen, |h| waits(h, &ctx));
    // As the batch API does it: from a count array, checked, then analysed.
    let arrays: Vec<[u8; 27]> = fourteen.iter().map(|h| *h.array()).collect();
    let arrays_rate = |name: &str, f: &dyn Fn(&Counts) -> u32| {
        let start = Instant::now();
        let mut sum = 0u32;
        for a in &arrays {
            let h = Counts::from_array(black_box(a)).unwrap();
            ctx.check(&h, xueliu_core::analysis::HandSize::Either)
                .unwrap();
            sum = sum.wrapping_add(f(&h));
        }
        black_box(sum);
        println!(
            "{name:<34} {:>8.1} M hands/s",
            arrays.len() as f64 / start.elapsed().as_secs_f64() / 1e6
        );
    };
    arrays_rate("from_array + check + is_win", &|h| {
        u32::from(is_win(h, &ctx))
    });
    arrays_rate("from_array + check + shanten", &|h| shanten(h, &ctx) as u32);
    // The same work on 1,000 hands repeated: table entries stay in cache.
    let few: Vec<Counts> = fourteen[..1000]
        .iter()
        .cycle()
        .take(HANDS)
        .copied()
        .collect();
    rate("shanten, 1,000 random 14 repeated", &few, |h| {
        shanten(h, &ctx) as u32
    });
    let few_ready: Vec<Counts> = ready[..1000].iter().cycle().take(HANDS).copied().collect();
    rate("waits, 1,000 ready repeated", &few_ready, |h| {
        waits(h, &ctx)
    });
    wild_cases(&mut rng, &ctx, [&fourteen, &thirteen, &complete, &ready]);
}

/// The 幺鸡 variant: the same hands with some tiles turned into wilds.
fn wild_cases(rng: &mut Rng, ctx: &Context, hands: [&[Counts]; 4]) {
    let [fourteen, thirteen, complete, ready] = hands;
    let start = Instant::now();
    let one = with_wilds(rng, &fourteen[..1], 1);
    let _ = shanten(&one[0], ctx);
    println!(
        "{:<34} {:>8.3} s",
        "wild table build (first use)",
        start.elapsed().as_secs_f64()
    );
    for wilds in 1..=4 {
        let hands = with_wilds(rng, complete, wilds);
        rate(&format!("is_win, complete, {wilds} wilds"), &hands, |h| {
            u32::from(is_win(h, ctx))
        });
        let hands = with_wilds(rng, fourteen, wilds);
        rate(&format!("is_win, random 14, {wilds} wilds"), &hands, |h| {
            u32::from(is_win(h, ctx))
        });
    }
    for wilds in 1..=3 {
        let hands = with_wilds(rng, fourteen, wilds);
        rate(&format!("shanten, random 14, {wilds} wilds"), &hands, |h| {
            shanten(h, ctx) as u32
        });
    }
    for wilds in 1..=2 {
        let hands = with_wilds(rng, ready, wilds);
        rate(&format!("waits, ready, {wilds} wilds"), &hands, |h| {
            waits(h, ctx)
        });
        let hands = with_wilds(rng, thirteen, wilds);
        rate(&format!("waits, random 13, {wilds} wilds"), &hands, |h| {
            waits(h, ctx)
        });
    }
}
