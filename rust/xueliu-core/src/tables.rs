//! Per-suit tables over all 5^9 suit keys, generated at first use (about a third of a second).
//!
//! A hand is complete when each suit is, so one look-up per suit answers most questions. For a suit
//! vector `h` of at most 14 tiles (its key is `Σ h[r] · 5^r`) a 32-bit entry holds:
//!
//! - `shape`: an id for the suit's ten *overlaps* — for `s` sets (0–4) and `p` pairs (0–1), the
//!   most tiles `h` shares with any complete suit vector of that shape, at most four of a tile.
//!   Only 126 distinct overlap lists exist, so [`SuitTable::best_split`] can precompute, for every
//!   two shapes and every number of sets, the most tiles two suits keep together: shanten's core.
//! - `complete`: `h` splits into sets, plus one pair if its size is 2 mod 3.
//! - `waits`: the ranks whose addition makes `h` complete.
//! - `terminal_complete`: `h` splits so that every set and the pair holds a 1 or a 9 (带幺九).
//! - `even`: every count is even (seven pairs).
//! - `pair_slots`: for seven pairs, how many pair slots keep two of the suit's tiles and how many
//!   keep one (a rank offers two slots: the first keeps min(count, 2), the second min(count, 4) − 2).
//! - `wilds_for_sets`, `wilds_for_pair` (bits 26–28, 29–31; the 幺鸡 variant, RULES.md §11): the
//!   fewest wilds that complete `h` as sets only, or as sets and one pair. A wild stands for any
//!   tile, a fifth copy included, so a hand with `w` wilds is complete when the suits' needs, one
//!   of them with the pair, add up to at most `w`: three look-ups.
//!
//! Keys of more than 14 tiles never occur in a hand and hold meaningless entries.
//!
//! How overlaps are built: mark every complete vector, close the marks downwards (every `g ≤ c`
//! of a complete `c` can be kept), then take, for each `h`, the largest marked `g ≤ h`. Both steps
//! are one sweep per rank over the key space. Complete vectors with more than four of a rank (wilds
//! as fifth copies) are marked at their capped key, with one bit per number of copies above four;
//! the wilds-needed counts and the [`WildTable`] (overlaps when wilds may supply such copies, for
//! shanten with wilds, built on first use) read those bits.

use crate::hand::{MAX_WILDS, POW5, SUIT_KEYS};
use crate::tile::COPIES;
use std::collections::HashMap;
use std::sync::OnceLock;

const SHAPE_BITS: u32 = 7;
const COMPLETE: u32 = 1 << 7;
const WAITS_SHIFT: u32 = 8;
const TERMINAL_COMPLETE: u32 = 1 << 17;
const EVEN: u32 = 1 << 18;
const SLOTS_SHIFT: u32 = 19;
const NEED_SETS_SHIFT: u32 = 26;
const NEED_PAIR_SHIFT: u32 = 29;
/// What the wilds-needed counts hold when more than four wilds would be needed.
pub const NEED_CAP: u8 = MAX_WILDS + 1;
/// Seven-pairs slot combinations: (slots keeping two, 0–7) × 10 + (slots keeping one, 0–9).
const SLOT_IDS: usize = 80;

/// Most sets one suit of a hand can hold.
pub const MAX_SETS: usize = 4;
/// Number of `(sets, pairs)` shapes: sets 0–4 × pairs 0–1, indexed `2 * sets + pairs`.
pub const SHAPES: usize = (MAX_SETS + 1) * 2;
/// Room for shape ids.
const MAX_SHAPE_IDS: usize = 1 << SHAPE_BITS;

/// One suit's facts, as a table entry.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct SuitEntry(u32);

impl SuitEntry {
    /// The id of the suit's overlap list; [`SuitTable::overlaps`] reads it.
    #[inline]
    pub fn shape(self) -> usize {
        (self.0 & (MAX_SHAPE_IDS as u32 - 1)) as usize
    }

    #[inline]
    pub fn complete(self) -> bool {
        self.0 & COMPLETE != 0
    }

    /// Bit `r` is set when adding rank `r + 1` makes the suit complete.
    #[inline]
    pub fn waits(self) -> u32 {
        (self.0 >> WAITS_SHIFT) & 0x1FF
    }

    #[inline]
    pub fn terminal_complete(self) -> bool {
        self.0 & TERMINAL_COMPLETE != 0
    }

    #[inline]
    pub fn even(self) -> bool {
        self.0 & EVEN != 0
    }

    /// Seven-pairs slots that keep two tiles (at most 7) and that keep one (at most 9).
    #[inline]
    pub fn pair_slots(self) -> (u8, u8) {
        let id = self.slots_id() as u8;
        (id / 10, id % 10)
    }

    /// Fewest wilds that complete the suit as at most four sets; [`NEED_CAP`] for more than four.
    #[inline]
    pub fn wilds_for_sets(self) -> u8 {
        (self.0 >> NEED_SETS_SHIFT & 7) as u8
    }

    /// Fewest wilds that complete the suit as at most four sets and one pair; [`NEED_CAP`] for
    /// more than four.
    #[inline]
    pub fn wilds_for_pair(self) -> u8 {
        (self.0 >> NEED_PAIR_SHIFT) as u8
    }

    #[inline]
    fn slots_id(self) -> usize {
        ((self.0 >> SLOTS_SHIFT) & 0x7F) as usize
    }
}

pub struct SuitTable {
    entries: Box<[u32]>,
    /// Overlap lists by shape id.
    shapes: Vec<[u8; SHAPES]>,
    /// `best_split` for every number of sets and two shape ids.
    splits: Box<[u8]>,
    /// `seven_pairs_overlap` for every two slot ids.
    sevens: Box<[u8]>,
}

impl SuitTable {
    #[inline]
    pub fn get(&self, key: u32) -> SuitEntry {
        SuitEntry(self.entries[key as usize])
    }

    /// The suit's overlaps, indexed `2 * sets + pairs`.
    #[inline]
    pub fn overlaps(&self, entry: SuitEntry) -> &[u8; SHAPES] {
        &self.shapes[entry.shape()]
    }

    /// The most tiles two suits keep together when they share `sets` sets and one pair.
    #[inline]
    pub fn best_split(&self, a: SuitEntry, b: SuitEntry, sets: usize) -> u8 {
        self.splits[(sets * MAX_SHAPE_IDS + a.shape()) * MAX_SHAPE_IDS + b.shape()]
    }

    /// The most tiles two suits keep together as seven pairs (four of a kind = two pairs).
    #[inline]
    pub fn seven_pairs_overlap(&self, a: SuitEntry, b: SuitEntry) -> u8 {
        self.sevens[a.slots_id() * SLOT_IDS + b.slots_id()]
    }
}

/// The most tiles two suits keep as seven pairs, from their pair slots: the seven best slots.
pub fn seven_pairs_overlap((twos_a, ones_a): (u8, u8), (twos_b, ones_b): (u8, u8)) -> u8 {
    let pairs = (twos_a + twos_b).min(7);
    2 * pairs + (ones_a + ones_b).min(7 - pairs)
}

/// The most tiles two suits with overlaps `a` and `b` keep together when they share `sets` sets
/// and one pair: the best way to divide the sets and the pair between them.
pub fn best_split(a: &[u8; SHAPES], b: &[u8; SHAPES], sets: usize) -> u8 {
    (0..=sets)
        .flat_map(|s| [(s, 0), (s, 1)])
        .map(|(s, p)| a[2 * s + p] + b[2 * (sets - s) + 1 - p])
        .max()
        .unwrap_or(0)
}

/// The shared table, built on first use.
#[inline]
pub fn suit_table() -> &'static SuitTable {
    static TABLE: OnceLock<SuitTable> = OnceLock::new();
    TABLE.get_or_init(build)
}

/// The digits of a key, rank 1 first.
pub fn digits(mut key: u32) -> [u8; 9] {
    std::array::from_fn(|_| {
        let d = (key % 5) as u8;
        key /= 5;
        d
    })
}

/// The kinds of set one suit can hold: triplets of ranks 1–9, then sequences from ranks 1–7.
fn set_tiles(kind: usize) -> [usize; 3] {
    if kind < 9 {
        [kind; 3]
    } else {
        let r = kind - 9;
        [r, r + 1, r + 2]
    }
}

const SET_KINDS: usize = 16;

fn holds_terminal(ranks: &[usize]) -> bool {
    ranks.iter().any(|&r| r == 0 || r == 8)
}

/// Copies above four of a rank: in a complete vector, the copies only wilds can supply.
pub fn excess(counts: &[u8; 9]) -> u8 {
    counts.iter().map(|&c| c.saturating_sub(COPIES)).sum()
}

/// The key of a suit vector with each count capped at four: the natural tiles it can hold.
pub fn capped_key(counts: &[u8; 9]) -> u32 {
    counts
        .iter()
        .zip(POW5)
        .map(|(&c, w)| u32::from(c.min(COPIES)) * w)
        .sum()
}

/// Calls `visit(counts, sets, pairs, terminal)` for every complete suit vector of at most four
/// sets and one pair whose copies above four of a rank number at most `max_excess` in all (0: real
/// tiles only); `terminal` tells whether every set and the pair hold a 1 or 9. A vector reached by
/// several splits is visited once per split.
pub fn for_each_complete(max_excess: u8, mut visit: impl FnMut(&[u8; 9], usize, usize, bool)) {
    fn sets(
        counts: &mut [u8; 9],
        first_kind: usize,
        sets_left: usize,
        made: usize,
        terminal: bool,
        max_excess: u8,
        visit: &mut dyn FnMut(&[u8; 9], usize, bool),
    ) {
        visit(counts, made, terminal);
        if sets_left == 0 {
            return;
        }
        for kind in first_kind..SET_KINDS {
            let ranks = set_tiles(kind);
            ranks.iter().for_each(|&r| counts[r] += 1);
            if excess(counts) <= max_excess {
                let terminal = terminal && holds_terminal(&ranks);
                sets(
                    counts,
                    kind,
                    sets_left - 1,
                    made + 1,
                    terminal,
                    max_excess,
                    visit,
                );
            }
            ranks.iter().for_each(|&r| counts[r] -= 1);
        }
    }
    let mut counts = [0u8; 9];
    sets(
        &mut counts,
        0,
        MAX_SETS,
        0,
        true,
        max_excess,
        &mut |c, made, terminal| {
            visit(c, made, 0, terminal);
            for pair in 0..9 {
                let mut with_pair = *c;
                with_pair[pair] += 2;
                if excess(&with_pair) <= max_excess {
                    let terminal = terminal && holds_terminal(&[pair]);
                    visit(&with_pair, made, 1, terminal);
                }
            }
        },
    );
}

/// Runs `f(key, lower)` for every key whose rank-`r` digit is at least 1, with `lower` the key one
/// copy of that rank below, walking each line of the rank in the order `upwards` asks for.
fn sweep_rank(r: usize, upwards: bool, mut f: impl FnMut(usize, usize)) {
    let stride = POW5[r] as usize;
    let block = stride * 5;
    for base in (0..SUIT_KEYS).step_by(block) {
        for lo in 0..stride {
            for d in 1..5 {
                let d = if upwards { d } else { 5 - d };
                let key = base + d * stride + lo;
                f(key, key - stride);
            }
        }
    }
}

/// Every level of excess a mark can carry: bit `e` stands for "at most `e` copies above four".
const ALL_LEVELS: u8 = (1 << (MAX_WILDS + 1)) - 1;

/// Marks per shape, closed downwards: bit `e` of `marks[shape][key]` is set when the key lies
/// below (counts capped at four) some complete vector of that shape with at most `e` copies above
/// four of a rank, copies that only wilds can supply. `on_real(key, terminal)` sees each complete
/// vector of real tiles.
fn closed_marks(mut on_real: impl FnMut(usize, bool)) -> Vec<Vec<u8>> {
    let mut marks = vec![vec![0u8; SUIT_KEYS]; SHAPES];
    for_each_complete(MAX_WILDS, |counts, sets, pairs, terminal| {
        let over = excess(counts);
        let key = capped_key(counts) as usize;
        if over == 0 {
            on_real(key, terminal);
        }
        marks[2 * sets + pairs][key] |= (ALL_LEVELS << over) & ALL_LEVELS;
    });
    for shape in &mut marks {
        for r in 0..9 {
            sweep_rank(r, false, |key, lower| shape[lower] |= shape[key]);
        }
    }
    marks
}

/// Tiles in each key.
fn key_sizes() -> Vec<u8> {
    let mut sizes = vec![0u8; SUIT_KEYS];
    for key in 1..SUIT_KEYS {
        sizes[key] = sizes[key / 5] + (key % 5) as u8;
    }
    sizes
}

/// One shape's overlaps at one excess level: each marked key becomes its size, then the running
/// maximum upwards gives every key the largest marked key below it.
fn overlaps_at(marks: &[u8], level: usize, sizes: &[u8]) -> Vec<u8> {
    let mut shape: Vec<u8> = marks
        .iter()
        .zip(sizes)
        .map(|(&mark, &size)| (mark >> level & 1) * size)
        .collect();
    for r in 0..9 {
        sweep_rank(r, true, |key, lower| {
            shape[key] = shape[key].max(shape[lower]);
        });
    }
    shape
}

/// Wilds that complete a suit (sets only, then sets and a pair): a complete vector `K` of `s` sets
/// holds the key when its mark reaches the key, and then `3s (+ 2) − size` wilds fill the rest.
/// [`NEED_CAP`] when more than four wilds would be needed.
fn wilds_needed(marks: &[Vec<u8>], key: usize, size: u8) -> [u8; 2] {
    let reach = 1 << MAX_WILDS;
    std::array::from_fn(|pairs| {
        (0..=MAX_SETS)
            .filter(|&sets| marks[2 * sets + pairs][key] & reach != 0)
            .map(|sets| (3 * sets + 2 * pairs) as u8 - size)
            .min()
            .unwrap_or(NEED_CAP)
            .min(NEED_CAP)
    })
}

/// Numbers distinct values in order of first sight.
struct Interner<T> {
    ids: HashMap<T, usize>,
    items: Vec<T>,
}

impl<T: Copy + Eq + std::hash::Hash> Interner<T> {
    fn new() -> Self {
        Interner {
            ids: HashMap::new(),
            items: Vec::new(),
        }
    }

    fn id(&mut self, item: T) -> usize {
        *self.ids.entry(item).or_insert_with(|| {
            self.items.push(item);
            self.items.len() - 1
        })
    }
}

fn build() -> SuitTable {
    let mut complete = vec![false; SUIT_KEYS];
    let mut terminal = vec![false; SUIT_KEYS];
    let marks = closed_marks(|key, all_terminal| {
        complete[key] = true;
        terminal[key] |= all_terminal;
    });
    let sizes = key_sizes();
    let needs: Vec<[u8; 2]> = (0..SUIT_KEYS)
        .map(|key| wilds_needed(&marks, key, sizes[key]))
        .collect();
    let overlaps: Vec<Vec<u8>> = marks.iter().map(|m| overlaps_at(m, 0, &sizes)).collect();
    drop(marks);

    // Number the distinct overlap lists of real suits (at most 14 tiles).
    let mut shapes = Interner::new();
    let entries = (0..SUIT_KEYS)
        .map(|key| {
            let d = digits(key as u32);
            let mut entry = 0u32;
            if sizes[key] <= 14 {
                entry |= shapes.id(std::array::from_fn(|shape| overlaps[shape][key])) as u32;
            }
            let [sets, pair] = needs[key];
            entry |= u32::from(sets) << NEED_SETS_SHIFT | u32::from(pair) << NEED_PAIR_SHIFT;
            if complete[key] {
                entry |= COMPLETE;
            }
            if terminal[key] {
                entry |= TERMINAL_COMPLETE;
            }
            if d.iter().all(|c| c % 2 == 0) {
                entry |= EVEN;
            }
            let (twos, ones) = pair_slots(&d);
            entry |= (u32::from(twos.min(7)) * 10 + u32::from(ones.min(9))) << SLOTS_SHIFT;
            let waits = (0..9)
                .filter(|&r| d[r] < 4 && complete[key + POW5[r] as usize])
                .fold(0u32, |mask, r| mask | 1 << r);
            entry | waits << WAITS_SHIFT
        })
        .collect();
    let shapes = shapes.items;
    assert!(
        shapes.len() <= MAX_SHAPE_IDS,
        "{} overlap shapes do not fit in {SHAPE_BITS} bits",
        shapes.len()
    );
    let mut splits = vec![0u8; (MAX_SETS + 1) * MAX_SHAPE_IDS * MAX_SHAPE_IDS].into_boxed_slice();
    for sets in 0..=MAX_SETS {
        for (a, list_a) in shapes.iter().enumerate() {
            for (b, list_b) in shapes.iter().enumerate() {
                splits[(sets * MAX_SHAPE_IDS + a) * MAX_SHAPE_IDS + b] =
                    best_split(list_a, list_b, sets);
            }
        }
    }
    let sevens = (0..SLOT_IDS * SLOT_IDS)
        .map(|i| {
            let (a, b) = ((i / SLOT_IDS) as u8, (i % SLOT_IDS) as u8);
            seven_pairs_overlap((a / 10, a % 10), (b / 10, b % 10))
        })
        .collect();
    SuitTable {
        entries,
        shapes,
        splits,
        sevens,
    }
}

/// Seven-pairs slots of a suit: (slots keeping two tiles, slots keeping one).
pub fn pair_slots(counts: &[u8; 9]) -> (u8, u8) {
    counts.iter().fold((0, 0), |(twos, ones), &c| match c {
        1 => (twos, ones + 1),
        2 => (twos + 1, ones),
        3 => (twos + 1, ones + 1),
        4 => (twos + 2, ones),
        _ => (twos, ones),
    })
}

/// Excess levels the wild table covers: copies above four that at most three wilds supply (a
/// hand of four wilds wins outright).
pub const EXCESS_LEVELS: usize = MAX_WILDS as usize;
/// A suit's overlaps at each excess level, indexed `[excess][2 * sets + pairs]`.
pub type LevelOverlaps = [[u8; SHAPES]; EXCESS_LEVELS];

/// Overlaps for one suit when melds cap how many of a rank a complete hand may use (`cap[r]` is 4
/// minus the copies melded) and wilds may supply at most `max_excess` copies beyond the caps in
/// all; level `e` of the result allows `min(e, max_excess)`. A dynamic programme over ranks; the
/// tables cover the uncapped case, and tests check each against the other.
#[allow(clippy::needless_range_loop)] // indices are the programme's state
pub fn capped_overlaps(hand: &[u8; 9], cap: &[u8; 9], max_excess: usize) -> LevelOverlaps {
    // best[sets][pairs][open1][open2][excess]: most tiles kept so far, where open1 sequences still
    // need this rank and the next, open2 sequences need this rank only, and `excess` copies beyond
    // the caps are used. -1: unreachable.
    type States = [[[[[i8; EXCESS_LEVELS]; 5]; 5]; 2]; MAX_SETS + 1];
    const NONE: States = [[[[[-1; EXCESS_LEVELS]; 5]; 5]; 2]; MAX_SETS + 1];
    let mut best = NONE;
    best[0][0][0][0][0] = 0;
    for r in 0..9 {
        let mut next = NONE;
        let max_new = if r <= 6 { MAX_SETS } else { 0 };
        for s in 0..=MAX_SETS {
            for p in 0..2 {
                // Open sequences are among the sets made.
                for o1 in 0..=s {
                    for o2 in 0..=s - o1 {
                        for x in 0..=max_excess {
                            let value = best[s][p][o1][o2][x];
                            if value < 0 {
                                continue;
                            }
                            // New sequences from this rank, triplets of it, and the pair,
                            // using at most `room` copies of the rank.
                            let room = cap[r] as usize + max_excess - x;
                            for runs in 0..=max_new.min(MAX_SETS - s) {
                                for triplets in 0..=MAX_SETS - s - runs {
                                    for pair in 0..2 - p {
                                        let used = o1 + o2 + runs + 3 * triplets + 2 * pair;
                                        if used > room {
                                            break;
                                        }
                                        let x = x + used.saturating_sub(cap[r] as usize);
                                        let kept = value + hand[r].min(used as u8) as i8;
                                        let sets = s + runs + triplets;
                                        let slot = &mut next[sets][p + pair][runs][o1][x];
                                        *slot = (*slot).max(kept);
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        best = next;
    }
    std::array::from_fn(|level| {
        std::array::from_fn(|shape| {
            let finals = &best[shape / 2][shape % 2][0][0][..=level.min(max_excess)];
            finals.iter().max().map_or(0, |&v| v.max(0) as u8)
        })
    })
}

/// Overlaps when wilds may stand for copies beyond four (幺鸡, RULES.md §11): for shanten with
/// wilds. One id per key into the distinct [`LevelOverlaps`] lists.
pub struct WildTable {
    ids: Box<[u16]>,
    lists: Vec<LevelOverlaps>,
}

impl WildTable {
    /// A suit's overlaps at each excess level.
    #[inline]
    pub fn overlaps(&self, key: u32) -> &LevelOverlaps {
        &self.lists[self.ids[key as usize] as usize]
    }
}

/// The shared wild table, built on the first analysis of a hand with wilds.
#[inline]
pub fn wild_table() -> &'static WildTable {
    static TABLE: OnceLock<WildTable> = OnceLock::new();
    TABLE.get_or_init(build_wild)
}

/// One level at a time, to hold ten shapes' arrays at most: number each key's overlap list per
/// level, then number the keys' lists of level ids.
fn build_wild() -> WildTable {
    let marks = closed_marks(|_, _| {});
    let sizes = key_sizes();
    let real = |key: usize| sizes[key] <= 14;
    let mut level_lists = Vec::with_capacity(EXCESS_LEVELS);
    let level_ids: Vec<Vec<u16>> = (0..EXCESS_LEVELS)
        .map(|level| {
            let overlaps: Vec<Vec<u8>> = marks
                .iter()
                .map(|m| overlaps_at(m, level, &sizes))
                .collect();
            let mut lists = Interner::new();
            let ids = (0..SUIT_KEYS)
                .map(|key| {
                    if real(key) {
                        lists.id(std::array::from_fn(|shape| overlaps[shape][key]))
                    } else {
                        0
                    }
                })
                .map(|id| u16::try_from(id).expect("level lists fit in 16 bits"))
                .collect();
            level_lists.push(lists.items);
            ids
        })
        .collect();
    let mut combined = Interner::new();
    let ids = (0..SUIT_KEYS)
        .map(|key| combined.id(std::array::from_fn(|level| level_ids[level][key])))
        .map(|id| u16::try_from(id).expect("wild lists fit in 16 bits"))
        .collect();
    let lists = combined
        .items
        .iter()
        .map(|ids: &[u16; EXCESS_LEVELS]| {
            std::array::from_fn(|level| level_lists[level][ids[level] as usize])
        })
        .collect();
    WildTable { ids, lists }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(counts: [u8; 9]) -> u32 {
        counts
            .iter()
            .zip(POW5)
            .map(|(&c, w)| u32::from(c) * w)
            .sum()
    }

    /// A plain depth-first split into sets and at most one pair; `terminal` demands a 1 or 9 in each.
    fn splits(counts: &mut [u8; 9], pair_left: bool, terminal: bool) -> bool {
        let Some(r) = counts.iter().position(|&c| c > 0) else {
            return !pair_left;
        };
        let term_ok = |ranks: &[usize]| !terminal || holds_terminal(ranks);
        if counts[r] >= 3 && term_ok(&[r]) {
            counts[r] -= 3;
            let ok = splits(counts, pair_left, terminal);
            counts[r] += 3;
            if ok {
                return true;
            }
        }
        if pair_left && counts[r] >= 2 && term_ok(&[r]) {
            counts[r] -= 2;
            let ok = splits(counts, false, terminal);
            counts[r] += 2;
            if ok {
                return true;
            }
        }
        if r <= 6 && counts[r + 1] > 0 && counts[r + 2] > 0 && term_ok(&[r, r + 1, r + 2]) {
            (r..r + 3).for_each(|x| counts[x] -= 1);
            let ok = splits(counts, pair_left, terminal);
            (r..r + 3).for_each(|x| counts[x] += 1);
            return ok;
        }
        false
    }

    fn is_complete(counts: &[u8; 9], terminal: bool) -> bool {
        let size: u8 = counts.iter().sum();
        size % 3 != 1 && splits(&mut counts.clone(), size % 3 == 2, terminal)
    }

    /// Every suit vector of at most `max` tiles.
    fn all_vectors(max: u8, mut f: impl FnMut(&[u8; 9])) {
        fn go(counts: &mut [u8; 9], r: usize, left: u8, f: &mut dyn FnMut(&[u8; 9])) {
            if r == 9 {
                return f(counts);
            }
            for c in 0..=left.min(4) {
                counts[r] = c;
                go(counts, r + 1, left - c, f);
            }
            counts[r] = 0;
        }
        go(&mut [0; 9], 0, max, &mut f);
    }

    fn vectors_up_to(max: usize) -> usize {
        // Coefficients of (1 + x + x^2 + x^3 + x^4)^9, summed up to x^max.
        let mut poly = vec![1usize];
        for _ in 0..9 {
            let mut next = vec![0; poly.len() + 4];
            for (i, &c) in poly.iter().enumerate() {
                (0..5).for_each(|d| next[i + d] += c);
            }
            poly = next;
        }
        poly[..=max].iter().sum()
    }

    /// Fewest wilds that complete each suit vector of at most 14 tiles as exactly `sets` sets and
    /// `pairs` pairs (`[sets][pairs]`), by the plain recursion on the lowest rank held: one of its
    /// tiles lies in a pair, a triplet or a sequence through it, whose other tiles are the
    /// vector's own (when it holds them) or wilds. Keys in increasing order, since taking tiles
    /// away lowers the key.
    fn plain_wilds_needed() -> Vec<[[u8; 2]; MAX_SETS + 1]> {
        let mut needs = vec![[[u8::MAX; 2]; MAX_SETS + 1]; SUIT_KEYS];
        needs[0] = std::array::from_fn(|sets| std::array::from_fn(|p| (3 * sets + 2 * p) as u8));
        for k in 1..SUIT_KEYS {
            let counts = digits(k as u32);
            if counts.iter().sum::<u8>() > 14 {
                continue;
            }
            let r = counts.iter().position(|&c| c > 0).unwrap();
            let mut groups: Vec<(Vec<usize>, usize, usize)> = vec![(vec![r, r], 0, 1)];
            groups.push((vec![r, r, r], 1, 0));
            for start in r.saturating_sub(2)..=r.min(6) {
                let others = (start..start + 3).filter(|&x| x != r);
                groups.push((std::iter::once(r).chain(others).collect(), 1, 0));
            }
            for sets in 0..=MAX_SETS {
                for pairs in 0..2 {
                    let mut best = u8::MAX;
                    for (group, set, pair) in &groups {
                        if *set > sets || *pair > pairs {
                            continue;
                        }
                        // The first slot is the rank-r tile; each other slot is natural or wild.
                        for choice in 0..1u32 << (group.len() - 1) {
                            let mut rest = counts;
                            let mut wilds = 0;
                            let mut ok = true;
                            for (i, &rank) in group.iter().enumerate() {
                                if i == 0 || choice >> (i - 1) & 1 == 1 {
                                    ok &= rest[rank] > 0;
                                    rest[rank] = rest[rank].saturating_sub(1);
                                } else {
                                    wilds += 1;
                                }
                            }
                            let sub = needs[key(rest) as usize][sets - set][pairs - pair];
                            if ok && sub != u8::MAX {
                                best = best.min(sub + wilds);
                            }
                        }
                    }
                    needs[k][sets][pairs] = best;
                }
            }
        }
        needs
    }

    #[test]
    fn every_entry_matches_a_plain_search() {
        let table = suit_table();
        let needs = plain_wilds_needed();
        let mut checked = 0;
        all_vectors(14, |counts| {
            let entry = table.get(key(*counts));
            assert_eq!(entry.complete(), is_complete(counts, false), "{counts:?}");
            assert_eq!(
                entry.terminal_complete(),
                is_complete(counts, true),
                "{counts:?}"
            );
            assert_eq!(entry.even(), counts.iter().all(|c| c % 2 == 0));
            let (twos, ones) = pair_slots(counts);
            assert_eq!(entry.pair_slots(), (twos.min(7), ones.min(9)), "{counts:?}");
            // A suit of 14 tiles never waits: a waiting hand has 13.
            let size: u8 = counts.iter().sum();
            let waits = (0..9)
                .filter(|&r| {
                    size < 14 && counts[r] < 4 && {
                        let mut more = *counts;
                        more[r] += 1;
                        is_complete(&more, false)
                    }
                })
                .fold(0, |m, r| m | 1 << r);
            if size < 14 {
                assert_eq!(entry.waits(), waits, "{counts:?}");
            }
            assert_eq!(
                *table.overlaps(entry),
                capped_overlaps(counts, &[4; 9], 0)[0],
                "{counts:?}"
            );
            let plain = &needs[key(*counts) as usize];
            let fewest = |pairs: usize| plain.iter().map(|n| n[pairs]).min().unwrap();
            assert_eq!(
                entry.wilds_for_sets(),
                fewest(0).min(NEED_CAP),
                "{counts:?}"
            );
            assert_eq!(
                entry.wilds_for_pair(),
                fewest(1).min(NEED_CAP),
                "{counts:?}"
            );
            checked += 1;
        });
        // Vectors of 9 counts 0–4 summing to at most 14, counted by a generating function.
        assert_eq!(checked, vectors_up_to(14));
    }

    #[test]
    fn wild_table_matches_the_programme() {
        let wild = wild_table();
        all_vectors(14, |counts| {
            let levels = capped_overlaps(counts, &[4; 9], EXCESS_LEVELS - 1);
            assert_eq!(*wild.overlaps(key(*counts)), levels, "{counts:?}");
        });
    }

    #[test]
    fn overlap_of_complete_vectors_is_their_size() {
        let table = suit_table();
        for_each_complete(0, |counts, sets, pairs, _| {
            let k = key(*counts);
            let e = table.get(k);
            assert!(e.complete());
            assert_eq!(
                table.overlaps(e)[2 * sets + pairs] as usize,
                3 * sets + 2 * pairs
            );
        });
    }

    #[test]
    fn split_table_matches_the_plain_division() {
        let table = suit_table();
        let mut rng = crate::rng::Rng::new(5);
        for _ in 0..100_000 {
            let mut a = [0u8; 9];
            let mut b = [0u8; 9];
            for _ in 0..rng.below(15) {
                let side = if rng.below(2) == 0 { &mut a } else { &mut b };
                let r = rng.below(9) as usize;
                side[r] = (side[r] + 1).min(4);
            }
            let (ea, eb) = (table.get(key(a)), table.get(key(b)));
            for sets in 0..=MAX_SETS {
                let plain = best_split(table.overlaps(ea), table.overlaps(eb), sets);
                assert_eq!(table.best_split(ea, eb, sets), plain, "{a:?} {b:?} {sets}");
            }
        }
    }

    #[test]
    fn capped_overlaps_respect_the_cap() {
        // 11m with a pong of 1m melded: a complete part may hold only one more 1m.
        // Shapes: index 1 is a lone pair, index 2 a lone set.
        let hand = [2, 0, 0, 0, 0, 0, 0, 0, 0];
        let mut cap = [4; 9];
        assert_eq!(capped_overlaps(&hand, &cap, 0)[0][1..3], [2, 2]);
        cap[0] = 1; // pair and triplet of 1m are gone; 123m keeps one
        assert_eq!(capped_overlaps(&hand, &cap, 0)[0][1..3], [0, 1]);
        // A wild as a fifth 1m brings back the pair; the triplet needs two.
        let levels = capped_overlaps(&hand, &cap, 2);
        assert_eq!(
            (&levels[1][1..3], &levels[2][1..3]),
            (&[2, 1][..], &[2, 2][..])
        );
        cap[0] = 0;
        assert_eq!(capped_overlaps(&hand, &cap, 0)[0][1..3], [0, 0]);
    }

    #[test]
    fn wilds_needed_of_small_suits() {
        let table = suit_table();
        let needs = |counts: [u8; 9]| {
            let e = table.get(key(counts));
            (e.wilds_for_sets(), e.wilds_for_pair())
        };
        assert_eq!(needs([0; 9]), (0, 2)); // nothing, or a pair of two wilds
        assert_eq!(needs([1, 0, 0, 0, 0, 0, 0, 0, 0]), (2, 1)); // 1 + two wilds; 1 + a wild as 11
        assert_eq!(needs([1, 0, 1, 0, 0, 0, 0, 0, 0]), (1, 3)); // 1_3 + a 2; 13 + 1, then 3 + 33
                                                                // 5555: 555 + 5 and two wilds; as 555 + 55 a wild is a fifth 5.
        assert_eq!(needs([0, 0, 0, 0, 4, 0, 0, 0, 0]), (2, 1));
        // 1_3 5_7 9: 123 567 and 99 with three wilds; sets only need four (9 takes two).
        assert_eq!(needs([1, 0, 1, 0, 1, 0, 1, 0, 1]), (4, 3));
        // Fourteen tiles that are not complete have no room for a wild.
        assert_eq!(needs([4, 0, 4, 0, 4, 0, 2, 0, 0]).1, NEED_CAP);
    }
}
