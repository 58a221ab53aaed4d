//! Random winning hands, for dealing a winner's hidden tiles in [`Game::determinize`]
//! (super::Game::determinize): sets and a pair (or seven pairs) built one at a time from the
//! tiles still unseen, in the shape the win's public pattern names.
//!
//! Not uniform over every hand that fits: each step picks uniformly among the sets still
//! possible, with runs three times as likely as triplets (as in real hands). The caller checks
//! the result against everything public about the win.

use crate::pattern::Pattern;
use crate::rng::Rng;
use crate::tile::{Suit, Tile, KINDS};

/// What a win's pattern says about the shape of the hand.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Shape {
    pub seven_pairs: bool,
    pub triplets_only: bool,
    /// Every set and the pair of ranks 2, 5 and 8 (将对).
    pub ranks_258: bool,
    /// Every set and the pair holds a 1 or a 9 (带幺九).
    pub terminals: bool,
    pub one_suit: bool,
}

impl Shape {
    /// The shape a recorded pattern implies. Situational patterns (天胡, 地胡) say nothing;
    /// `maybe_seven` lets such a hand be seven pairs (on one try in four).
    pub fn of(pattern: Pattern, maybe_seven: bool, rng: &mut Rng) -> Shape {
        use Pattern::*;
        let seven = matches!(
            pattern,
            SevenPairs | DragonSevenPairs | FlushSevenPairs | FlushDragonSevenPairs
        );
        let vague = matches!(pattern, Heavenly | Earthly);
        Shape {
            seven_pairs: seven || (vague && maybe_seven && rng.below(4) == 0),
            triplets_only: matches!(pattern, AllTriplets | FlushTriplets | Triplets258),
            ranks_258: pattern == Triplets258,
            terminals: matches!(pattern, Terminals | FlushTerminals),
            one_suit: matches!(
                pattern,
                FullFlush
                    | FlushTriplets
                    | FlushSevenPairs
                    | FlushDragonSevenPairs
                    | FlushTerminals
            ),
        }
    }

    fn rank_ok(self, t: Tile) -> bool {
        !self.ranks_258 || matches!(t.rank(), 2 | 5 | 8)
    }

    fn pair_ok(self, t: Tile) -> bool {
        self.rank_ok(t) && (!self.terminals || t.is_terminal())
    }

    fn triplet_ok(self, t: Tile) -> bool {
        self.pair_ok(t)
    }

    /// A run starting at `t`.
    fn run_ok(self, t: Tile) -> bool {
        !self.triplets_only && t.rank() <= 7 && (!self.terminals || matches!(t.rank(), 1 | 7))
    }
}

/// One set or the pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Block {
    Pair(Tile),
    Triplet(Tile),
    Run(Tile),
}

impl Block {
    fn tiles(self) -> impl Iterator<Item = Tile> {
        let (first, n, step) = match self {
            Block::Pair(t) => (t, 2, 0),
            Block::Triplet(t) => (t, 3, 0),
            Block::Run(t) => (t, 3, 1),
        };
        (0..n).map(move |i| Tile::new(first.index() as u8 + i * step).expect("within a suit"))
    }

    fn holds(self, t: Tile) -> bool {
        self.tiles().any(|x| x == t)
    }

    fn fits(self, avail: &[u8; KINDS]) -> bool {
        let mut need = [0u8; KINDS];
        self.tiles().all(|t| {
            need[t.index()] += 1;
            need[t.index()] <= avail[t.index()]
        })
    }
}

/// A random concealed hand of `3 * sets + 1` tiles that `win_tile` completes, from `avail`
/// (the unseen tiles, not counting `win_tile` itself), using only `suits` (a suit mask holding
/// `win_tile`'s suit) and at most two suits together with `meld_suits`. `None` on a dead end.
pub(super) fn random_waiting_hand(
    rng: &mut Rng,
    avail: &[u8; KINDS],
    win_tile: Tile,
    sets: usize,
    suits: u8,
    meld_suits: u8,
    shape: Shape,
) -> Option<[u8; KINDS]> {
    let suits = pick_suits(rng, suits, meld_suits | win_tile.suit().bit(), shape)?;
    let mut left = *avail;
    left[win_tile.index()] += 1;
    let blocks = if shape.seven_pairs {
        (sets == 4).then_some(())?;
        seven_pairs(rng, &mut left, win_tile, suits)?
    } else {
        sets_and_pair(rng, &mut left, win_tile, sets, suits, shape)?
    };
    let mut hand = [0u8; KINDS];
    blocks
        .iter()
        .flat_map(|b| b.tiles())
        .for_each(|t| hand[t.index()] += 1);
    hand[win_tile.index()] -= 1;
    Some(hand)
}

/// The suits the hand may use: `needed` (the winning tile's and the melds'), plus a random
/// second suit from `allowed` unless the hand is one suit.
fn pick_suits(rng: &mut Rng, allowed: u8, needed: u8, shape: Shape) -> Option<u8> {
    if needed & !allowed != 0 || needed.count_ones() > 2 {
        return None;
    }
    if shape.one_suit || needed.count_ones() == 2 {
        return (needed.is_power_of_two() || !shape.one_suit).then_some(needed);
    }
    let others: Vec<u8> = Suit::ALL
        .iter()
        .map(|s| s.bit())
        .filter(|&b| allowed & b != 0 && needed & b == 0)
        .collect();
    match others.len() {
        0 => Some(needed),
        n => Some(needed | others[rng.below(n as u64) as usize]),
    }
}

/// Takes a random block from `options` that fits `left`, removing its tiles.
fn take(rng: &mut Rng, left: &mut [u8; KINDS], options: &[Block]) -> Option<Block> {
    let fitting: Vec<Block> = options.iter().copied().filter(|b| b.fits(left)).collect();
    if fitting.is_empty() {
        return None;
    }
    let block = fitting[rng.below(fitting.len() as u64) as usize];
    block.tiles().for_each(|t| left[t.index()] -= 1);
    Some(block)
}

fn tiles_of(suits: u8) -> impl Iterator<Item = Tile> {
    Tile::all().filter(move |t| suits & t.suit().bit() != 0)
}

fn seven_pairs(
    rng: &mut Rng,
    left: &mut [u8; KINDS],
    win_tile: Tile,
    suits: u8,
) -> Option<Vec<Block>> {
    let mut blocks = vec![take(rng, left, &[Block::Pair(win_tile)])?];
    let pairs: Vec<Block> = tiles_of(suits).map(Block::Pair).collect();
    for _ in 0..6 {
        blocks.push(take(rng, left, &pairs)?);
    }
    Some(blocks)
}

fn sets_and_pair(
    rng: &mut Rng,
    left: &mut [u8; KINDS],
    win_tile: Tile,
    sets: usize,
    suits: u8,
    shape: Shape,
) -> Option<Vec<Block>> {
    let runs: Vec<Block> = tiles_of(suits)
        .filter(|&t| shape.run_ok(t))
        .map(Block::Run)
        .collect();
    let triplets: Vec<Block> = tiles_of(suits)
        .filter(|&t| shape.triplet_ok(t))
        .map(Block::Triplet)
        .collect();
    let pairs: Vec<Block> = tiles_of(suits)
        .filter(|&t| shape.pair_ok(t))
        .map(Block::Pair)
        .collect();
    // The block holding the winning tile comes first, so that every hand holds it.
    let holding = |b: &Block| b.holds(win_tile);
    let mut first: Vec<Block> = pairs.iter().copied().filter(holding).collect();
    if sets > 0 {
        first.extend(runs.iter().chain(&triplets).copied().filter(holding));
    }
    let mut blocks = vec![take(rng, left, &first)?];
    let mut sets_left = sets - usize::from(matches!(blocks[0], Block::Run(_) | Block::Triplet(_)));
    while sets_left > 0 {
        let prefer_runs = rng.below(4) != 0;
        let (a, b) = if prefer_runs {
            (&runs, &triplets)
        } else {
            (&triplets, &runs)
        };
        let block = take(rng, left, a).or_else(|| take(rng, left, b))?;
        blocks.push(block);
        sets_left -= 1;
    }
    if !blocks.iter().any(|b| matches!(b, Block::Pair(_))) {
        blocks.push(take(rng, left, &pairs)?);
    }
    Some(blocks)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{waits, Context};
    use crate::hand::Counts;

    #[test]
    fn hands_wait_on_their_tile_in_the_shape_asked() {
        let mut rng = Rng::new(3);
        let five_m = Tile::from_suit_rank(Suit::M, 5).unwrap();
        // The unseen tiles, not counting the winning tile itself.
        let mut avail = [4u8; KINDS];
        avail[five_m.index()] = 3;
        let shapes = [
            (Pattern::Basic, false),
            (Pattern::SevenPairs, true),
            (Pattern::FlushTriplets, false),
            (Pattern::Triplets258, false),
        ];
        for (pattern, seven) in shapes {
            let shape = Shape::of(pattern, false, &mut rng);
            let mut found = 0;
            for _ in 0..200 {
                let Some(hand) = random_waiting_hand(&mut rng, &avail, five_m, 4, 0b011, 0, shape)
                else {
                    continue;
                };
                found += 1;
                let hand = Counts::from_array(&hand).unwrap();
                assert_eq!(hand.len(), 13);
                let ctx = Context {
                    seven_pairs: seven,
                    ..Context::PLAIN
                };
                assert!(waits(&hand, &ctx) & 1 << five_m.index() != 0, "{hand}");
                if shape.one_suit {
                    assert_eq!(hand.suit_mask(), Suit::M.bit());
                }
                if shape.triplets_only {
                    // Triplets and a pair, less the winning tile: no runs, one single at most.
                    assert!(
                        hand.array().iter().filter(|&&n| n == 1).count() <= 1,
                        "{hand}"
                    );
                }
            }
            assert!(found > 150, "{pattern:?}: {found} of 200");
        }
    }

    #[test]
    fn a_single_wait_after_four_melds_is_the_tile_itself() {
        let mut rng = Rng::new(4);
        let t = Tile::from_suit_rank(Suit::P, 9).unwrap();
        let hand = random_waiting_hand(&mut rng, &[4; KINDS], t, 0, 0b111, 0b010, Shape::default());
        let mut expected = [0u8; KINDS];
        expected[t.index()] = 1;
        assert_eq!(hand, Some(expected));
    }
}
