//! Random winning hands, for dealing a winner's hidden tiles in
//! [`determinize`](super::determinize()): sets and a pair (or seven pairs) built one at a time from the
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

    /// Any winning shape, for a winner whose pattern is hidden (`win_reveal = "hand_end"`):
    /// now and then seven pairs where they may be, else sets and a pair.
    pub fn any(maybe_seven: bool, rng: &mut Rng) -> Shape {
        Shape {
            seven_pairs: maybe_seven && rng.below(4) == 0,
            triplets_only: false,
            ranks_258: false,
            terminals: false,
            one_suit: false,
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

/// The hand to make: a concealed hand of `3 * sets + 1` tiles that `win_tile` completes, using
/// only `suits` (a suit mask holding `win_tile`'s suit) and at most two suits together with
/// `meld_suits`, in `shape`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Wanted {
    pub win_tile: Tile,
    pub sets: usize,
    pub suits: u8,
    pub meld_suits: u8,
    pub shape: Shape,
}

/// A random hand as `wanted` from `avail` (the unseen tiles, not counting the winning tile
/// itself); `None` on a dead end.
pub(super) fn random_waiting_hand(
    wanted: &Wanted,
    avail: &[u8; KINDS],
    rng: &mut Rng,
) -> Option<[u8; KINDS]> {
    let &Wanted {
        win_tile,
        sets,
        suits,
        meld_suits,
        shape,
    } = wanted;
    let suits = pick_suits(rng, suits, meld_suits | win_tile.suit().bit(), shape)?;
    let mut left = *avail;
    left[win_tile.index()] += 1;
    if shape.seven_pairs {
        (sets == 4).then_some(())?;
        seven_pairs(rng, &mut left, win_tile, suits)?;
    } else {
        sets_and_pair(rng, &mut left, win_tile, sets, suits, shape)?;
    }
    // The blocks' tiles are those taken from `left`, the winning tile among them.
    let mut hand = *avail;
    hand.iter_mut()
        .zip(&left)
        .for_each(|(h, l)| *h = h.saturating_sub(*l));
    Some(hand)
}

/// The suits the hand may use: `needed` (the winning tile's and the melds'), plus a random
/// second suit from `allowed` unless the hand is one suit.
fn pick_suits(rng: &mut Rng, allowed: u8, needed: u8, shape: Shape) -> Option<u8> {
    let choices = suit_choices(allowed, needed, shape);
    match choices[..] {
        [] => None,
        [only] if only == needed => Some(only),
        _ => Some(choices[rng.below(choices.len() as u64) as usize]),
    }
}

/// Takes a random block from `options` that fits `left`, removing its tiles.
fn take(rng: &mut Rng, left: &mut [u8; KINDS], options: &[Block]) -> Option<Block> {
    let fitting = options.iter().filter(|b| b.fits(left)).count();
    if fitting == 0 {
        return None;
    }
    let k = rng.below(fitting as u64) as usize;
    let block = options.iter().copied().filter(|b| b.fits(left)).nth(k)?;
    block.tiles().for_each(|t| left[t.index()] -= 1);
    Some(block)
}

/// Up to one block per tile kind, without allocating: the blocks a random hand picks from.
struct Blocks {
    list: [Block; KINDS],
    len: usize,
}

impl Blocks {
    fn of(blocks: impl Iterator<Item = Block>) -> Blocks {
        let mut list = Blocks {
            list: [Block::Pair(Tile::YAOJI); KINDS],
            len: 0,
        };
        blocks.for_each(|b| list.push(b));
        list
    }

    /// Adds `block`; a list already full (one block per kind) keeps what it has.
    fn push(&mut self, block: Block) {
        if let Some(slot) = self.list.get_mut(self.len) {
            *slot = block;
            self.len += 1;
        }
    }

    fn as_slice(&self) -> &[Block] {
        &self.list[..self.len]
    }
}

fn tiles_of(suits: u8) -> impl Iterator<Item = Tile> {
    Tile::all().filter(move |t| suits & t.suit().bit() != 0)
}

/// Takes seven pairs, the winning tile's first, from `left`; `None` on a dead end.
fn seven_pairs(rng: &mut Rng, left: &mut [u8; KINDS], win_tile: Tile, suits: u8) -> Option<()> {
    take(rng, left, &[Block::Pair(win_tile)])?;
    let pairs = Blocks::of(tiles_of(suits).map(Block::Pair));
    for _ in 0..6 {
        take(rng, left, pairs.as_slice())?;
    }
    Some(())
}

/// Takes `sets` sets and a pair, the block holding the winning tile first, from `left`;
/// `None` on a dead end.
fn sets_and_pair(
    rng: &mut Rng,
    left: &mut [u8; KINDS],
    win_tile: Tile,
    sets: usize,
    suits: u8,
    shape: Shape,
) -> Option<()> {
    let runs = Blocks::of(tiles_of(suits).filter(|&t| shape.run_ok(t)).map(Block::Run));
    let triplets = Blocks::of(
        tiles_of(suits)
            .filter(|&t| shape.triplet_ok(t))
            .map(Block::Triplet),
    );
    let pairs = Blocks::of(
        tiles_of(suits)
            .filter(|&t| shape.pair_ok(t))
            .map(Block::Pair),
    );
    // The block holding the winning tile comes first, so that every hand holds it.
    let holding = |b: &&Block| b.holds(win_tile);
    let sets_too = if sets > 0 { KINDS } else { 0 };
    let first = Blocks::of(
        (pairs.as_slice().iter().filter(holding))
            .chain(
                (runs.as_slice().iter().chain(triplets.as_slice()))
                    .filter(holding)
                    .take(sets_too),
            )
            .copied(),
    );
    let first = take(rng, left, first.as_slice())?;
    let mut paired = matches!(first, Block::Pair(_));
    let mut sets_left = sets - usize::from(!paired);
    while sets_left > 0 {
        let prefer_runs = rng.below(4) != 0;
        let (a, b) = if prefer_runs {
            (&runs, &triplets)
        } else {
            (&triplets, &runs)
        };
        let block = take(rng, left, a.as_slice()).or_else(|| take(rng, left, b.as_slice()))?;
        paired |= matches!(block, Block::Pair(_));
        sets_left -= 1;
    }
    if !paired {
        take(rng, left, pairs.as_slice())?;
    }
    Some(())
}

/// Offered each hand found: the kept hand; the generator and the budget, for the caller's own
/// search. Returns whether the hand is taken.
pub(super) type Visit<'a> = dyn FnMut(&[u8; KINDS], &mut Rng, &mut u32) -> bool + 'a;

/// Every hand [`random_waiting_hand`] could build, in a random order, offered to `visit` until
/// it takes one or `budget` (blocks tried) runs out: for positions where random building keeps
/// failing. Each split into blocks is made once, so only a hand that splits two ways
/// (`111222333m`) comes twice. Whether `visit` took one.
pub(super) fn search_waiting_hands(
    wanted: &Wanted,
    avail: &[u8; KINDS],
    rng: &mut Rng,
    budget: &mut u32,
    visit: &mut Visit<'_>,
) -> bool {
    let needed = wanted.meld_suits | wanted.win_tile.suit().bit();
    let mut choices = suit_choices(wanted.suits, needed, wanted.shape);
    rng.shuffle(&mut choices);
    let shape = wanted.shape;
    for suits in choices {
        let mut left = *avail;
        left[wanted.win_tile.index()] += 1;
        let mut search = Search {
            avail,
            left,
            win_tile: wanted.win_tile,
            visit: &mut *visit,
        };
        let mut pairs: Vec<Block> = (tiles_of(suits).filter(|&t| shape.pair_ok(t)))
            .map(Block::Pair)
            .collect();
        rng.shuffle(&mut pairs);
        if shape.seven_pairs {
            if wanted.sets == 4 && search.pick(&pairs, 0, 7, rng, budget) {
                return true;
            }
            continue;
        }
        let mut sets: Vec<Block> = (tiles_of(suits).filter(|&t| shape.run_ok(t)))
            .map(Block::Run)
            .chain((tiles_of(suits).filter(|&t| shape.triplet_ok(t))).map(Block::Triplet))
            .collect();
        rng.shuffle(&mut sets);
        for &pair in &pairs {
            if pair.fits(&search.left) {
                search.place(pair, true);
                let found = search.pick(&sets, 0, wanted.sets, rng, budget);
                search.place(pair, false);
                if found {
                    return true;
                }
            }
        }
    }
    false
}

/// The suit sets a hand may use: `needed` alone, or with one more suit from `allowed` unless
/// the hand is one suit; none if `needed` is not allowed.
fn suit_choices(allowed: u8, needed: u8, shape: Shape) -> Vec<u8> {
    if needed & !allowed != 0 || needed.count_ones() > 2 {
        return Vec::new();
    }
    if shape.one_suit || needed.count_ones() == 2 {
        return if needed.is_power_of_two() || !shape.one_suit {
            vec![needed]
        } else {
            Vec::new()
        };
    }
    let others: Vec<u8> = (Suit::ALL.iter().map(|s| s.bit()))
        .filter(|&b| allowed & b != 0 && needed & b == 0)
        .map(|b| needed | b)
        .collect();
    if others.is_empty() {
        vec![needed]
    } else {
        others
    }
}

/// A depth-first search over blocks, taken in the order of their list and never before the
/// last one taken, so that each hand is made once.
struct Search<'a, 'v> {
    avail: &'a [u8; KINDS],
    /// What `avail` and the winning tile leave: the hand so far is the rest.
    left: [u8; KINDS],
    win_tile: Tile,
    visit: &'a mut Visit<'v>,
}

impl Search<'_, '_> {
    fn place(&mut self, block: Block, take: bool) {
        for t in block.tiles() {
            if take {
                self.left[t.index()] -= 1;
            } else {
                self.left[t.index()] += 1;
            }
        }
    }

    /// Takes `n` more blocks of `list` from `start` on; whether a finished hand was taken.
    fn pick(
        &mut self,
        list: &[Block],
        start: usize,
        n: usize,
        rng: &mut Rng,
        budget: &mut u32,
    ) -> bool {
        if n == 0 {
            // The hand must hold the winning tile; kept, it is the rest less that tile.
            if self.left[self.win_tile.index()] > self.avail[self.win_tile.index()] {
                return false;
            }
            let kept = std::array::from_fn(|i| self.avail[i] - self.left[i]);
            return (self.visit)(&kept, rng, budget);
        }
        for (j, &block) in list.iter().enumerate().skip(start) {
            if *budget == 0 {
                return false;
            }
            *budget -= 1;
            if block.fits(&self.left) {
                self.place(block, true);
                let found = self.pick(list, j, n - 1, rng, budget);
                self.place(block, false);
                if found {
                    return true;
                }
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{waits, Context};
    use crate::hand::Counts;

    fn wanted(win_tile: Tile, sets: usize, suits: u8, meld_suits: u8, shape: Shape) -> Wanted {
        Wanted {
            win_tile,
            sets,
            suits,
            meld_suits,
            shape,
        }
    }

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
                let Some(hand) =
                    random_waiting_hand(&wanted(five_m, 4, 0b011, 0, shape), &avail, &mut rng)
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

    /// The search finds every hand random building makes, and no hand twice where none splits
    /// two ways.
    #[test]
    fn the_search_finds_every_hand_random_building_makes_and_each_once() {
        let mut rng = Rng::new(5);
        let three_p = Tile::from_suit_rank(Suit::P, 3).unwrap();
        // A few unseen tiles of two suits, so that the hands can be counted; no three kinds in a
        // row of three copies each, so no hand splits two ways.
        let mut avail = [0u8; KINDS];
        let counts = [2, 3, 3, 1, 0, 0, 0, 0, 0, 0, 2, 3, 1, 2, 2];
        avail[..counts.len()].copy_from_slice(&counts);
        let cases = [
            (Pattern::Basic, 2),
            (Pattern::AllTriplets, 2),
            (Pattern::SevenPairs, 4),
        ];
        for (pattern, sets) in cases {
            let shape = Shape::of(pattern, false, &mut rng);
            let wanted = wanted(three_p, sets, 0b011, 0, shape);
            let (mut found, mut budget) = (Vec::new(), u32::MAX);
            search_waiting_hands(&wanted, &avail, &mut rng, &mut budget, &mut |h, _, _| {
                found.push(*h);
                false
            });
            let mut unique = found.clone();
            unique.sort_unstable();
            unique.dedup();
            assert_eq!(unique.len(), found.len(), "{pattern:?}");
            let mut built = 0;
            for _ in 0..300 {
                let hand = random_waiting_hand(&wanted, &avail, &mut rng);
                if let Some(hand) = hand {
                    assert!(found.contains(&hand), "{pattern:?}: {hand:?}");
                    built += 1;
                }
            }
            assert!(built > 0 && found.len() > 1, "{pattern:?}: {found:?}");
        }
    }

    #[test]
    fn a_single_wait_after_four_melds_is_the_tile_itself() {
        let mut rng = Rng::new(4);
        let t = Tile::from_suit_rank(Suit::P, 9).unwrap();
        let wanted = wanted(t, 0, 0b111, 0b010, Shape::default());
        let hand = random_waiting_hand(&wanted, &[4; KINDS], &mut rng);
        let mut expected = [0u8; KINDS];
        expected[t.index()] = 1;
        assert_eq!(hand, Some(expected));
    }
}
