//! Hand analysis (RULES.md §5, §8): complete hands, waits, shanten, splits and the facts scoring
//! needs. Every function reads one table entry per suit; none allocates except [`decompositions`].

use crate::hand::{Counts, HandError, POW5};
use crate::meld::{Meld, Melds};
use crate::tables::{best_split, capped_overlaps, suit_table, SuitEntry, SuitTable, SHAPES};
use crate::tile::{Suit, Tile, COPIES, KINDS};
pub mod wilds;

/// Shanten of a hand that no complete hand can be reached from, because its melds already use
/// three suits or the void suit.
pub const UNREACHABLE: i8 = 99;

/// What a hand is judged against: its melds, the declared void suit (定缺) and whether seven pairs
/// (七对) count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Context {
    pub melds: Melds,
    pub void: Option<Suit>,
    pub seven_pairs: bool,
}

impl Default for Context {
    fn default() -> Context {
        Context::PLAIN
    }
}

impl Context {
    /// No melds, no void suit, seven pairs allowed.
    pub const PLAIN: Context = Context {
        melds: Melds::NONE,
        void: None,
        seven_pairs: true,
    };

    pub fn new(
        melds: &[Meld],
        void: Option<Suit>,
        seven_pairs: bool,
    ) -> Result<Context, HandError> {
        Ok(Context {
            melds: Melds::new(melds)?,
            void,
            seven_pairs,
        })
    }

    /// Checks that `hand` is a real set of tiles with these melds and has `size` tiles (inlined:
    /// every batch row and single call passes here).
    #[inline]
    pub fn check(&self, hand: &Counts, size: HandSize) -> Result<(), HandError> {
        self.melds.check_copies(hand)?;
        let complete = self.melds.concealed_size();
        let ok = match size {
            HandSize::Complete => hand.len() == complete,
            HandSize::Waiting => hand.len() == complete - 1,
            HandSize::Either => hand.len() == complete || hand.len() == complete - 1,
        };
        if ok {
            return Ok(());
        }
        let expected = match (size, self.melds.sets) {
            (HandSize::Complete, 0) => "a complete hand has 14 tiles",
            (HandSize::Complete, _) => "a complete hand has 14 tiles counting each meld as 3",
            (HandSize::Waiting, 0) => "a waiting hand has 13 tiles",
            (HandSize::Waiting, _) => "a waiting hand has 13 tiles counting each meld as 3",
            (HandSize::Either, 0) => "a hand has 13 or 14 tiles",
            (HandSize::Either, _) => "a hand has 13 or 14 tiles counting each meld as 3",
        };
        Err(HandError::WrongSize {
            len: hand.len(),
            wilds: hand.wilds(),
            expected,
        })
    }

    /// The suits the natural tiles of hand and melds use.
    #[inline]
    pub(crate) fn suit_mask(&self, hand: &Counts) -> u8 {
        hand.suit_mask() | self.melds.suit_mask
    }

    /// False when the hand's suits already break 缺一门 or hold the void suit.
    #[inline]
    pub(crate) fn suits_allowed(&self, used: u8) -> bool {
        used.count_ones() <= 2 && self.void.is_none_or(|v| used & v.bit() == 0)
    }
}

/// The hand sizes a function accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HandSize {
    /// 14 tiles counting each meld as three.
    Complete,
    /// 13 tiles counting each meld as three.
    Waiting,
    Either,
}

#[inline]
pub(crate) fn entries(hand: &Counts) -> [SuitEntry; 3] {
    let table = suit_table();
    Suit::ALL.map(|s| table.get(hand.key(s)))
}

/// A mask of the 27 tile bits of the suits in `suits` (a suit mask, bit 0 for `m`): one read
/// of a table of the eight masks, as the hot paths ask it on every call.
#[inline]
pub(crate) const fn tile_bits(suits: u8) -> u32 {
    const SUIT: u32 = 0x1FF;
    const BITS: [u32; 8] = {
        let mut bits = [0; 8];
        let mut suits = 0;
        while suits < 8 {
            let mut s = 0;
            while s < 3 {
                if suits & 1 << s != 0 {
                    bits[suits] |= SUIT << (9 * s);
                }
                s += 1;
            }
            suits += 1;
        }
        bits
    };
    BITS[(suits & 7) as usize]
}

/// A complete hand: sets and a pair over hand and melds, or seven pairs from a concealed hand; at
/// most two suits; none of the void suit. `hand` holds 14 tiles counting each meld as three.
/// With wilds, see [`wilds::is_win`].
#[inline]
pub fn is_win(hand: &Counts, ctx: &Context) -> bool {
    if hand.wilds() > 0 {
        return wilds::is_win(hand, ctx);
    }
    if !ctx.suits_allowed(ctx.suit_mask(hand)) {
        return false;
    }
    let e = entries(hand);
    e.iter().all(|e| e.complete())
        || (ctx.seven_pairs && ctx.melds.sets == 0 && e.iter().all(|e| e.even()))
}

/// The tiles that complete a hand of 13 (counting melds as three), one bit per tile index. A tile
/// whose four copies all sit in the player's hand and melds is left out. With wilds, see
/// [`wilds::waits`].
#[inline]
pub fn waits(hand: &Counts, ctx: &Context) -> u32 {
    waits_within(hand, ctx, Copies::HandAndMelds)
}

/// Where the four copies of a tile are counted when deciding that it cannot be waited on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Copies {
    /// In hand and melds together: no "fifth copy" wait (every seed; T/TFMJ).
    HandAndMelds,
    /// In the concealed hand only: a fifth copy against the player's own pong or kong is a wait
    /// (MIL SBR 2025 Art.10-3(2), for 查叫). A hand holding wilds keeps `HandAndMelds`.
    HandOnly,
}

/// [`waits`] with the copies counted as `copies` says.
#[inline(always)]
pub fn waits_within(hand: &Counts, ctx: &Context, copies: Copies) -> u32 {
    if hand.wilds() > 0 {
        return wilds::waits(hand, ctx);
    }
    let used = ctx.suit_mask(hand);
    if !ctx.suits_allowed(used) {
        return 0;
    }
    let e = entries(hand);
    let mut mask = standard_waits(&e);
    if ctx.seven_pairs && ctx.melds.sets == 0 {
        mask |= seven_pairs_wait(hand);
    }
    if used.count_ones() == 2 {
        mask &= tile_bits(used);
    }
    if let Some(v) = ctx.void {
        mask &= !tile_bits(v.bit());
    }
    let mut left = mask;
    while left != 0 {
        let t = left.trailing_zeros() as usize;
        left &= left - 1;
        // Wilds in melds are 1s: with them, the 1s the wall still holds are fewer.
        let wild_ones = if t == Tile::YAOJI.index() {
            ctx.melds.wilds
        } else {
            0
        };
        let melded = match copies {
            Copies::HandAndMelds => ctx.melds.held[t] + wild_ones,
            Copies::HandOnly => 0,
        };
        if hand.array()[t] + melded >= COPIES {
            mask &= !(1 << t);
        }
    }
    mask
}

/// The tiles that complete sets and a pair: a suit's waits count when the other two suits are
/// complete already. No suit or copy rule applied.
#[inline]
fn standard_waits(e: &[SuitEntry; 3]) -> u32 {
    let mut mask = 0u32;
    for s in 0..3 {
        if e[(s + 1) % 3].complete() && e[(s + 2) % 3].complete() {
            mask |= e[s].waits() << (9 * s);
        }
    }
    mask
}

/// The tile that completes seven pairs: the only tile held an odd number of times.
#[inline]
fn seven_pairs_wait(hand: &Counts) -> u32 {
    let odd = hand.odd();
    if odd.is_power_of_two() {
        odd
    } else {
        0
    }
}

/// Tiles away from ready: −1 complete, 0 ready (听牌). For a concealed part that a complete hand
/// fills with N tiles, shanten is N − 1 − the most tiles the hand shares with any complete hand
/// the rules allow (at most two suits, none of the void suit, at most four of a tile counting the
/// melds). [`UNREACHABLE`] when the melds rule out every complete hand. With wilds, see
/// [`wilds::shanten`].
#[inline]
pub fn shanten(hand: &Counts, ctx: &Context) -> i8 {
    table_shanten(hand, ctx, true)
}

/// [`shanten`] except that melded copies do not cap how many of a tile the complete hand may
/// use: the exact cap runs a dynamic programme per call (two orders of magnitude slower), and a
/// bot that only ranks its choices can do without it. Exact for a hand without melds (or with
/// wilds); never above the exact value.
#[inline]
pub fn uncapped_shanten(hand: &Counts, ctx: &Context) -> i8 {
    table_shanten(hand, ctx, false)
}

#[inline(always)]
fn table_shanten(hand: &Counts, ctx: &Context, cap: bool) -> i8 {
    if hand.wilds() > 0 {
        return wilds::shanten(hand, ctx);
    }
    let melded = ctx.melds.suit_mask;
    if !ctx.suits_allowed(melded) {
        return UNREACHABLE;
    }
    let sets = 4 - ctx.melds.sets as usize;
    let size = (3 * sets + 2) as i8;
    let table = suit_table();
    let e = entries(hand);
    let seven = ctx.seven_pairs && ctx.melds.sets == 0;
    let mut best = 0u8;
    for (a, b) in suit_pairs(ctx, hand) {
        let pair_suits = (1u8 << a) | (1 << b);
        let kept = if !cap || melded & pair_suits == 0 {
            table.best_split(e[a], e[b], sets)
        } else {
            let capped = |s| capped_suit_overlaps(table, hand, ctx, e[s], s);
            best_split(&capped(a), &capped(b), sets)
        };
        best = best.max(kept);
        if seven {
            best = best.max(table.seven_pairs_overlap(e[a], e[b]));
        }
    }
    size - 1 - best as i8
}

/// The two suits a complete hand may use, as suit indices, each pair holding every melded suit.
/// A void suit leaves one pair. Otherwise, with a suit left empty, the other two suits keep at
/// least as much as any pair using the empty one.
pub(crate) fn suit_pairs(ctx: &Context, hand: &Counts) -> impl Iterator<Item = (usize, usize)> {
    let melded = ctx.melds.suit_mask;
    let pairs: &'static [(usize, usize)] = match (ctx.void, hand.suit_mask() | melded) {
        (Some(Suit::M), _) | (None, 0b110) => &[(1, 2)],
        (Some(Suit::P), _) | (None, 0b101) => &[(0, 2)],
        (Some(Suit::S), _) | (None, 0b011) => &[(0, 1)],
        (None, _) => &[(0, 1), (0, 2), (1, 2)],
    };
    let holds_melds = move |&(a, b): &(usize, usize)| melded & !(1 << a | 1 << b) == 0;
    pairs.iter().copied().filter(holds_melds)
}

/// A suit's overlaps when melds may cap it: from the table if no meld uses the suit, else by the
/// dynamic programme that respects the cap.
fn capped_suit_overlaps(
    table: &SuitTable,
    hand: &Counts,
    ctx: &Context,
    entry: SuitEntry,
    s: usize,
) -> [u8; SHAPES] {
    if ctx.melds.suit_mask & (1 << s) == 0 {
        return *table.overlaps(entry);
    }
    let base = 9 * s;
    let cap = std::array::from_fn(|r| COPIES - ctx.melds.held[base + r]);
    capped_overlaps(&hand.suit_counts(Suit::from_index(s)), &cap, 0)[0]
}

/// One set of a standard split.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Set {
    /// Three of a kind (刻子).
    Triplet(Tile),
    /// Three in a row (顺子), named by its lowest tile.
    Sequence(Tile),
}

impl Set {
    /// Whether the set holds a 1 or a 9 (带幺九).
    pub fn holds_terminal(self) -> bool {
        match self {
            Set::Triplet(t) => t.is_terminal(),
            Set::Sequence(t) => matches!(t.rank(), 1 | 7),
        }
    }

    fn tiles(self) -> [Tile; 3] {
        match self {
            Set::Triplet(t) => [t; 3],
            Set::Sequence(t) => {
                std::array::from_fn(|k| Tile::new(t.index() as u8 + k as u8).expect("a sequence"))
            }
        }
    }
}

/// One way a complete hand's concealed tiles split.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Decomposition {
    /// A pair and sets (the melds are the remaining sets).
    Standard { pair: Tile, sets: Vec<Set> },
    /// Seven pairs; a tile held four times appears twice.
    SevenPairs { pairs: Vec<Tile> },
}

impl Decomposition {
    /// The concealed tiles the split uses, wilds counted as the tiles they stand for (so a tile
    /// can appear more than four times).
    pub fn counts(&self) -> [u8; KINDS] {
        let mut counts = [0u8; KINDS];
        let tiles: Vec<Tile> = match self {
            Decomposition::Standard { pair, sets } => {
                let sets = sets.iter().flat_map(|s| s.tiles());
                [*pair, *pair].into_iter().chain(sets).collect()
            }
            Decomposition::SevenPairs { pairs } => pairs.iter().flat_map(|&t| [t, t]).collect(),
        };
        tiles.iter().for_each(|t| counts[t.index()] += 1);
        counts
    }

    /// The tiles the wilds of `hand` stand for in this split, in index order.
    pub fn wild_tiles(&self, hand: &Counts) -> Vec<Tile> {
        let counts = self.counts();
        Tile::all()
            .flat_map(|t| {
                let extra = counts[t.index()].saturating_sub(hand.count(t));
                std::iter::repeat_n(t, extra as usize)
            })
            .collect()
    }
}

/// Every way a complete hand splits, standard splits first; empty when it is not complete. With
/// wilds, see [`wilds::decompositions`].
pub fn decompositions(hand: &Counts, ctx: &Context) -> Vec<Decomposition> {
    if hand.wilds() > 0 {
        return wilds::decompositions(hand, ctx);
    }
    let mut found = Vec::new();
    if !is_win(hand, ctx) {
        return found;
    }
    let mut counts = *hand.array();
    let mut sets = Vec::with_capacity(4);
    split(&mut counts, None, &mut sets, &mut found);
    found.sort();
    found.dedup();
    let pairs_only = hand.array().iter().all(|c| c % 2 == 0);
    if ctx.seven_pairs && ctx.melds.sets == 0 && pairs_only {
        let pairs = hand.tiles().step_by(2).collect();
        found.push(Decomposition::SevenPairs { pairs });
    }
    found
}

fn split(
    counts: &mut [u8; KINDS],
    pair: Option<Tile>,
    sets: &mut Vec<Set>,
    found: &mut Vec<Decomposition>,
) {
    let Some(i) = counts.iter().position(|&c| c > 0) else {
        if let Some(pair) = pair {
            let mut sets = sets.clone();
            sets.sort();
            found.push(Decomposition::Standard { pair, sets });
        }
        return;
    };
    let t = Tile::new(i as u8).expect("index below 27");
    if pair.is_none() && counts[i] >= 2 {
        counts[i] -= 2;
        split(counts, Some(t), sets, found);
        counts[i] += 2;
    }
    if counts[i] >= 3 {
        counts[i] -= 3;
        sets.push(Set::Triplet(t));
        split(counts, pair, sets, found);
        sets.pop();
        counts[i] += 3;
    }
    if t.rank() <= 7 && counts[i + 1] > 0 && counts[i + 2] > 0 {
        (i..i + 3).for_each(|x| counts[x] -= 1);
        sets.push(Set::Sequence(t));
        split(counts, pair, sets, found);
        sets.pop();
        (i..i + 3).for_each(|x| counts[x] += 1);
    }
}

/// What scoring needs to know of a complete hand (RULES.md §8). Each flag says whether *some*
/// split has the property; scoring picks the split worth most.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct HandFacts {
    /// Splits into sets and a pair with the melds.
    pub standard: bool,
    /// Seven pairs: concealed, every count even.
    pub seven_pairs: bool,
    /// A standard split of triplets only (对对胡).
    pub all_triplets: bool,
    /// A standard split where every set and the pair holds a 1 or 9 (带幺九).
    pub terminals: bool,
    /// One suit only, melds included (清一色).
    pub one_suit: bool,
    /// Every tile, melds included, is a 2, 5 or 8 (将).
    pub only_258: bool,
    /// Kinds held four times across hand and pongs, kongs excluded (根); natural copies only.
    pub roots: u8,
    /// Kongs among the melds.
    pub kongs: u8,
}

/// Tiles of rank 1 or 9 (幺九), one bit per tile index.
const TERMINAL_TILES: u32 = 0x101 | 0x101 << 9 | 0x101 << 18;
/// Tiles of rank 2, 5 or 8 (将).
const TILES_258: u32 = 0x92 | 0x92 << 9 | 0x92 << 18;
/// Tiles of rank 4, 5 or 6: no set holding one also holds a 1 or a 9, so a 带幺九 hand has none.
const MIDDLE_TILES: u32 = 0x38 | 0x38 << 9 | 0x38 << 18;

/// The facts of a hand that [`is_win`]; meaningless otherwise. Works on bit masks of tiles by
/// count, without branches, so it costs the same for every hand. With wilds, the flags about
/// splits hold when some split does, each wild standing for whatever that split needs;
/// `one_suit`, `only_258` and `roots` read the natural tiles and melds only.
#[inline]
pub fn facts(hand: &Counts, ctx: &Context) -> HandFacts {
    if hand.wilds() > 0 {
        return wild_facts(hand, ctx);
    }
    let e = entries(hand);
    let standard = e.iter().all(|e| e.complete());
    facts_from(ctx, &hand.count_masks(), standard, || {
        e.iter().all(|e| e.terminal_complete())
    })
}

/// Calls `visit` with each wait of a ready hand (as [`waits`]) and the [`facts`] of the complete
/// hand it makes. The completed hand's facts come from the ready hand's table entries and count
/// masks; only a possible 带幺九 needs the completed suit's entry, so most waits cost no table
/// read (a cache miss on random hands). Count masks see natural tiles only, so a hand holding
/// wilds takes [`facts`] of each completed hand, which searches its splits.
pub fn waits_with_facts(
    hand: &Counts,
    ctx: &Context,
    copies: Copies,
    mut visit: impl FnMut(Tile, HandFacts),
) {
    let mask = waits_within(hand, ctx, copies);
    if hand.wilds() > 0 {
        for t in tiles_of(mask) {
            let mut completed = *hand;
            completed.add(t);
            visit(t, facts(&completed, ctx));
        }
        return;
    }
    let e = entries(hand);
    let standard = standard_waits(&e);
    let masks = hand.count_masks();
    for t in tiles_of(mask) {
        // Adding `t` moves its bit from the mask of its count to the next.
        let (mut with_t, count, bit) = (masks, hand.count(t) as usize, 1 << t.index());
        with_t[count] &= !bit;
        with_t[count + 1] |= bit;
        let terminals = || {
            let suit = t.suit();
            let mut completed = e;
            completed[suit.index()] =
                suit_table().get(hand.key(suit) + POW5[t.rank() as usize - 1]);
            completed.iter().all(|e| e.terminal_complete())
        };
        visit(t, facts_from(ctx, &with_t, standard & bit != 0, terminals));
    }
}

/// The tiles of a mask of tile bits, in index order.
pub(crate) fn tiles_of(mut mask: u32) -> impl Iterator<Item = Tile> {
    std::iter::from_fn(move || {
        let t = Tile::new(mask.trailing_zeros() as u8)?;
        mask &= mask - 1;
        Some(t)
    })
}

/// Facts from the hand's [`Counts::count_masks`], whether it splits into sets and a pair, and
/// whether every suit splits so each set and the pair hold a 1 or a 9 (asked only when that is
/// still possible).
#[inline]
fn facts_from(
    ctx: &Context,
    masks: &[u32; 5],
    standard: bool,
    terminal_splits: impl FnOnce() -> bool,
) -> HandFacts {
    let melds = &ctx.melds;
    let [_, ones, twos, threes, fours] = *masks;
    let melded = melds.pong_mask | melds.kong_mask;
    let used = ones | twos | threes | fours | melded;
    let suits_used = (0..3).filter(|s| used & tile_bits(1 << s) != 0).count();
    // A root is four natural copies in hand, or a pong and the natural copies in hand that make
    // it four (one, or more when the pong holds wilds); never a declared kong. A "fifth copy"
    // (a wait under `Copies::HandOnly`) still makes one root: 「同一种牌的根或杠只计 1 番」
    // (MIL Art.10-3(4)).
    let [_, p1, p2, p3] = melds.pongs_by_naturals;
    let with_pong = p3 & (ones | twos | threes) | p2 & (twos | threes) | p1 & threes;
    let roots = fours.count_ones() + with_pong.count_ones();
    HandFacts {
        standard,
        seven_pairs: ctx.seven_pairs && melds.sets == 0 && ones | threes == 0,
        all_triplets: standard && ones | fours == 0 && twos.is_power_of_two(),
        terminals: standard
            && used & MIDDLE_TILES == 0
            && melded & !TERMINAL_TILES == 0
            && terminal_splits(),
        one_suit: suits_used == 1,
        only_258: used & !TILES_258 == 0,
        roots: roots as u8,
        kongs: melds.kong_mask.count_ones() as u8,
    }
}

/// [`facts`] of a hand holding wilds: the natural tiles' facts, and the split facts found by
/// searching the splits.
fn wild_facts(hand: &Counts, ctx: &Context) -> HandFacts {
    let natural = facts_from(ctx, &hand.count_masks(), false, || false);
    let mut facts = HandFacts {
        seven_pairs: false,
        all_triplets: false,
        ..natural
    };
    let melded = ctx.melds.pong_mask | ctx.melds.kong_mask;
    wilds::split_facts(hand, ctx, &mut facts, melded & !TERMINAL_TILES == 0);
    facts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tile::parse_tiles;

    fn hand(text: &str) -> Counts {
        Counts::from_tiles(&parse_tiles(text).unwrap()).unwrap()
    }

    /// Waits, after checking the hand has the size a waiting hand needs.
    fn waits(h: &Counts, ctx: &Context) -> u32 {
        ctx.check(h, HandSize::Waiting).unwrap();
        super::waits(h, ctx)
    }

    fn tiles(mask: u32) -> String {
        let list: Vec<Tile> = Tile::all().filter(|t| mask & 1 << t.index() != 0).collect();
        crate::tile::format_tiles(&list)
    }

    #[test]
    fn tile_bits_holds_exactly_the_tiles_of_the_suits() {
        for suits in 0..8u8 {
            let tiles = Tile::all().filter(|t| suits & t.suit().bit() != 0);
            let expected = tiles.fold(0, |m, t| m | 1 << t.index());
            assert_eq!(tile_bits(suits), expected, "suits {suits:03b}");
        }
    }

    const SEED_WINS: [&str; 13] = [
        "23445677m345789p",
        "111333444m66677p",
        "11223345678999m",
        "11133344555666m",
        "22244455577799m",
        "222555888m55588p",
        "11334466m557799p",
        "11334466778899m",
        "11222244m557788p",
        "11224444557799m",
        "111222333m78999p",
        "11123777888999m",
        "123333m45566799s",
    ];

    #[test]
    fn seed_hands_win() {
        for text in SEED_WINS {
            assert!(is_win(&hand(text), &Context::PLAIN), "{text}");
            assert_eq!(shanten(&hand(text), &Context::PLAIN), -1, "{text}");
            assert!(
                !decompositions(&hand(text), &Context::PLAIN).is_empty(),
                "{text}"
            );
        }
    }

    #[test]
    fn seed_001_ready_hand_waits_on_1p_4p() {
        // 123m 345m 77m 345p + 23p, waiting on either end of 23p.
        assert_eq!(
            tiles(waits(&hand("12334577m23345p"), &Context::PLAIN)),
            "14p"
        );
        assert_eq!(shanten(&hand("12334577m23345p"), &Context::PLAIN), 0);
    }

    #[test]
    fn seven_pairs_need_a_concealed_hand_and_the_option() {
        let h = hand("11334466m557799p");
        let no_sevens = Context {
            seven_pairs: false,
            ..Context::PLAIN
        };
        assert!(!is_win(&h, &no_sevens));
        assert!(is_win(&hand("11222244m557788p"), &Context::PLAIN));
    }

    #[test]
    fn three_suits_or_a_void_suit_never_win() {
        assert!(!is_win(&hand("123m456p789s11m456p"), &Context::PLAIN));
        let void_p = Context {
            void: Some(Suit::P),
            ..Context::PLAIN
        };
        assert!(!is_win(&hand("23445677m345789p"), &void_p));
        assert_eq!(waits(&hand("2344567m345789p"), &void_p), 0);
    }

    #[test]
    fn waits_skip_a_tile_held_four_times() {
        // 1111m needs a fifth 1m to be 111m + 11m; only 23m-side waits remain.
        let h = hand("1111m234p567p888p");
        assert_eq!(h.len(), 13);
        assert_eq!(tiles(waits(&h, &Context::PLAIN)), "");
        let pong = Context::new(&[Meld::parse("111m", false).unwrap()], None, true).unwrap();
        let h = hand("1m234p567p888p");
        assert_eq!(tiles(waits(&h, &pong)), "");
        let h = hand("123m5p");
        let three = Context::new(
            &[
                Meld::parse("999m", false).unwrap(),
                Meld::parse("999p", false).unwrap(),
                Meld::parse("888p", false).unwrap(),
            ],
            None,
            true,
        )
        .unwrap();
        assert_eq!(tiles(waits(&h, &three)), "5p");
    }

    #[test]
    fn shanten_counts_tiles_to_replace() {
        assert_eq!(shanten(&hand("2344567m345789p"), &Context::PLAIN), 0);
        // 11447m 2258p: seven pairs keep 11m 44m 22p and one each of 7m 5p 8p: 9 tiles kept.
        let scattered = hand("147m258p369s1m2p3s4m");
        assert_eq!(shanten(&scattered, &Context::PLAIN), 4);
        // Standard form keeps 8: 11m 444m 789m + 222p and 5p or 8p.
        let no_sevens = Context {
            seven_pairs: false,
            ..Context::PLAIN
        };
        assert_eq!(shanten(&scattered, &no_sevens), 5);
        let three_suits = Context::new(
            &[
                Meld::parse("111m", false).unwrap(),
                Meld::parse("111p", false).unwrap(),
                Meld::parse("111s", false).unwrap(),
            ],
            None,
            true,
        )
        .unwrap();
        assert_eq!(shanten(&hand("2345m"), &three_suits), UNREACHABLE);
    }

    /// Shanten, after checking the hand has a size shanten accepts.
    fn shanten(h: &Counts, ctx: &Context) -> i8 {
        ctx.check(h, HandSize::Either).unwrap();
        super::shanten(h, ctx)
    }

    #[test]
    fn shanten_with_a_void_suit_uses_the_other_two() {
        // Thirteen 1-4m are all void: only the 1p can stay, in a hand of p and s.
        let void_m = Context {
            void: Some(Suit::M),
            seven_pairs: false,
            ..Context::PLAIN
        };
        assert_eq!(shanten(&hand("1111222233334m1p"), &void_m), 14 - 1 - 1);
    }

    #[test]
    fn shanten_respects_the_four_copy_cap_of_melds() {
        // With 111m melded the lone 1m cannot pair; 5s is a third suit: one tile short.
        let h = hand("1m234p567p888p5s");
        let pong = |t: &str| Context::new(&[Meld::parse(t, false).unwrap()], None, true).unwrap();
        assert_eq!(shanten(&h, &pong("111m")), 1);
        assert_eq!(shanten(&h, &pong("999m")), 0);
        // 2333m waits on 2m (333m + pair) and 1m/4m (33m pair + 23m); a kong of 1m takes all 1m.
        assert_eq!(
            tiles(waits(&hand("2333m567p888p123p"), &Context::PLAIN)),
            "124m"
        );
        let kong = Context::new(&[Meld::parse("1111m", false).unwrap()], None, true).unwrap();
        assert_eq!(tiles(waits(&hand("2333m567p888p"), &kong)), "24m");
    }

    /// Facts counted tile by tile, straight from their definitions, to check the mask version.
    fn facts_by_tile(hand: &Counts, ctx: &Context) -> (bool, bool, u8, u8) {
        let (counts, held) = (hand.array(), &ctx.melds.held);
        let tiles = || Tile::all().map(|t| (t, counts[t.index()], held[t.index()]));
        let pairs = tiles().filter(|&(_, c, _)| c == 2).count();
        let triplet_counts = tiles().all(|(_, c, _)| matches!(c, 0 | 2 | 3));
        let all_triplets = is_standard(hand) && triplet_counts && pairs == 1;
        let only_258 = tiles().all(|(t, c, h)| c + h == 0 || matches!(t.rank(), 2 | 5 | 8));
        let roots = tiles().filter(|&(_, c, h)| c + h == 4 && h < 4).count() as u8;
        let kongs = tiles().filter(|&(_, _, h)| h == 4).count() as u8;
        (all_triplets, only_258, roots, kongs)
    }

    fn is_standard(hand: &Counts) -> bool {
        entries(hand).iter().all(|e| e.complete())
    }

    /// A random complete hand in two suits whose triplets may be melded: one in three builds
    /// from ranks 1, 7 and 9 only (123, 789, 111, 999 and their pairs, so 带幺九 hands occur),
    /// one in six is seven pairs.
    fn random_win(rng: &mut crate::rng::Rng) -> Option<(Counts, Context)> {
        let suits = [rng.below(3) as usize, rng.below(3) as usize];
        let outer = rng.below(3) == 0;
        let pick = |rng: &mut crate::rng::Rng| {
            let rank = if outer {
                [0, 6, 8][rng.below(3) as usize]
            } else {
                rng.below(9) as usize
            };
            Tile::new((suits[rng.below(2) as usize] * 9 + rank) as u8).unwrap()
        };
        let mut counts = [0u8; KINDS];
        let mut melds = Vec::new();
        if rng.below(6) == 0 {
            (0..7).for_each(|_| counts[pick(rng).index()] += 2);
        } else {
            counts[pick(rng).index()] += 2;
            for _ in 0..4 {
                let t = pick(rng);
                match rng.below(5) {
                    0 if matches!(t.rank(), 1 | 7) || (!outer && t.rank() <= 7) => {
                        (0..3).for_each(|i| counts[t.index() + i] += 1);
                    }
                    0 | 1 => counts[t.index()] += 3,
                    2 => melds.push(Meld::pong(t)),
                    k => melds.push(Meld::kong(t, k == 4)),
                }
            }
        }
        let hand = Counts::from_array(&counts).ok()?;
        let ctx = Context::new(&melds, None, true).ok()?;
        ctx.check(&hand, HandSize::Complete).ok()?;
        Some((hand, ctx))
    }

    #[test]
    fn facts_agree_with_tile_by_tile_counts() {
        let mut rng = crate::rng::Rng::new(7);
        let mut checked = 0;
        // Hands seen with each fact, so the sample is known to exercise them all.
        let mut seen = [0; 5];
        while checked < 20_000 {
            let Some((hand, ctx)) = random_win(&mut rng) else {
                continue;
            };
            let f = facts(&hand, &ctx);
            let by_tile = facts_by_tile(&hand, &ctx);
            assert_eq!(
                (f.all_triplets, f.only_258, f.roots, f.kongs),
                by_tile,
                "{hand}"
            );
            let pong_root = ctx.melds.pong_mask & hand.count_masks()[1] != 0;
            for (i, fact) in [
                f.all_triplets,
                f.only_258,
                f.roots > 0,
                f.kongs > 0,
                pong_root,
            ]
            .into_iter()
            .enumerate()
            {
                seen[i] += u32::from(fact);
            }
            checked += 1;
        }
        assert!(seen.iter().all(|&n| n >= 5), "{seen:?}");
    }

    #[test]
    fn waits_with_facts_match_facts_of_each_completed_hand() {
        let mut rng = crate::rng::Rng::new(11);
        let (mut waits_seen, mut terminal_waits, mut seven_pairs_waits) = (0, 0, 0);
        for _ in 0..5_000 {
            let Some((complete, ctx)) = random_win(&mut rng) else {
                continue;
            };
            let tiles: Vec<Tile> = complete.tiles().collect();
            let mut ready = complete;
            ready.remove(tiles[rng.below(tiles.len() as u64) as usize]);
            let found = checked_waits_with_facts(&ready, &ctx);
            waits_seen += found.len();
            terminal_waits += found.iter().filter(|(_, f)| f.terminals).count();
            seven_pairs_waits += found.iter().filter(|(_, f)| f.seven_pairs).count();
        }
        assert!(waits_seen > 2_000, "{waits_seen}");
        assert!(
            terminal_waits > 5 && seven_pairs_waits > 20,
            "{terminal_waits} {seven_pairs_waits}"
        );
    }

    /// `waits_with_facts` of `ready`, checked against the facts of each wait's completed hand.
    fn checked_waits_with_facts(ready: &Counts, ctx: &Context) -> Vec<(Tile, HandFacts)> {
        let expected: Vec<(Tile, HandFacts)> = tiles_of(super::waits(ready, ctx))
            .map(|t| {
                let mut h = *ready;
                h.add(t);
                (t, facts(&h, ctx))
            })
            .collect();
        let mut found = Vec::new();
        waits_with_facts(ready, ctx, Copies::HandAndMelds, |t, f| found.push((t, f)));
        assert_eq!(found, expected, "{ready}");
        found
    }

    #[test]
    fn waits_with_facts_of_hands_holding_wilds() {
        // Natural tiles of a random win become one to three wilds, one more is taken out: each
        // wait's facts are the completed hand's (a pair made with a wild still makes 对对胡).
        let mut rng = crate::rng::Rng::new(12);
        let (mut waits_seen, mut triplet_waits) = (0, 0);
        for _ in 0..3_000 {
            let Some((complete, ctx)) = random_win(&mut rng) else {
                continue;
            };
            let mut tiles: Vec<Tile> = complete.tiles().collect();
            let wilds = 1 + rng.below(3) as u8;
            if tiles.len() < wilds as usize + 2 {
                continue;
            }
            let mut ready = complete;
            for _ in 0..=wilds {
                ready.remove(tiles.swap_remove(rng.below(tiles.len() as u64) as usize));
            }
            let ready = ready.with_wilds(wilds).unwrap();
            let found = checked_waits_with_facts(&ready, &ctx);
            waits_seen += found.len();
            triplet_waits += found.iter().filter(|(_, f)| f.all_triplets).count();
        }
        assert!(
            waits_seen > 5_000 && triplet_waits > 50,
            "{waits_seen} {triplet_waits}"
        );
    }

    #[test]
    fn facts_of_seed_patterns() {
        let f = facts(&hand("111333444m66677p"), &Context::PLAIN);
        assert!(f.all_triplets && !f.one_suit);
        let f = facts(&hand("111222333m78999p"), &Context::PLAIN);
        assert!(f.terminals);
        let f = facts(&hand("222555888m55588p"), &Context::PLAIN);
        assert!(f.all_triplets && f.only_258);
        let f = facts(&hand("123333m45566799s"), &Context::PLAIN);
        assert_eq!(f.roots, 1);
        let f = facts(&hand("11224444557799m"), &Context::PLAIN);
        assert!(f.seven_pairs && f.one_suit && f.roots == 1);
    }
}
