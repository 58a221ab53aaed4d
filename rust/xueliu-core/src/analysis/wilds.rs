//! Hand analysis with wilds (幺鸡, RULES.md §11; docs/wilds.md). [`crate::analysis`] sends every
//! hand holding a wild here.
//!
//! A wild stands for any tile, a fifth copy included; it counts for no suit, so only the natural
//! tiles (hand and melds) are held to 缺一门 and the void suit, and the tiles the wilds stand for
//! keep to the suits the natural tiles allow. Four wilds win at once, whatever the shape.

use super::{entries, suit_pairs, Context, Decomposition, HandFacts, Set, UNREACHABLE};
use crate::hand::{Counts, MAX_WILDS, POW5};
use crate::tables::{
    best_split, capped_overlaps, suit_table, wild_table, LevelOverlaps, SuitEntry, MAX_SETS,
};
use crate::tile::{Suit, Tile, COPIES, KINDS};

/// Every tile index.
const ALL_TILES: u32 = (1 << KINDS) - 1;

/// Whether a hand holding wilds is complete: four wilds; or natural tiles within the suit rules
/// whose suits need, one of them holding the pair, at most the wilds held; or, as seven pairs,
/// at most as many kinds held an odd number of times as there are wilds.
#[inline]
pub fn is_win(hand: &Counts, ctx: &Context) -> bool {
    let wilds = hand.wilds();
    if wilds >= MAX_WILDS {
        return true;
    }
    if !ctx.suits_allowed(ctx.suit_mask(hand)) {
        return false;
    }
    let e = entries(hand);
    standard_fits(&e, wilds) || (seven_pairs_allowed(ctx) && odd_kinds(&e) <= wilds)
}

/// Sets and a pair fit: the suits' wilds needed as sets, with one suit's replaced by its need as
/// sets and a pair, add up to at most `wilds`. Wilds left over make whole sets of their own.
#[inline]
fn standard_fits(e: &[SuitEntry; 3], wilds: u8) -> bool {
    let sets = e.map(super::super::tables::SuitEntry::wilds_for_sets);
    let total: u8 = sets.iter().sum();
    (0..3).any(|p| total - sets[p] + e[p].wilds_for_pair() <= wilds)
}

/// Kinds held an odd number of times: each needs a wild to make seven pairs.
#[inline]
fn odd_kinds(e: &[SuitEntry; 3]) -> u8 {
    e.iter().map(|e| e.pair_slots().1).sum()
}

#[inline]
fn seven_pairs_allowed(ctx: &Context) -> bool {
    ctx.seven_pairs && ctx.melds.sets == 0
}

/// The natural tiles that complete a hand of 13 holding wilds, one bit per tile index, leaving
/// out a tile whose four copies are all in the hand and melds. A drawn wild completes any hand
/// that waits on something; the mask lists natural tiles only.
pub fn waits(hand: &Counts, ctx: &Context) -> u32 {
    let wilds = hand.wilds();
    let mask = if wilds >= MAX_WILDS {
        ALL_TILES
    } else {
        natural_waits(hand, ctx, wilds)
    };
    // The wilds are 1s: with them, the 1s the wall still holds are fewer.
    let ones = wilds + ctx.melds.wilds;
    let held = |t: usize| {
        hand.array()[t] + ctx.melds.held[t] + if t == Tile::YAOJI.index() { ones } else { 0 }
    };
    (0..KINDS)
        .filter(|&t| mask >> t & 1 == 1 && held(t) < COPIES)
        .fold(0, |m, t| m | 1 << t)
}

/// Tiles whose addition completes the hand: one look-up per tile of a suit the hand may still
/// use, skipping a suit whose needs, one lower (the most a tile can save: it could have been a
/// wild), still do not fit.
fn natural_waits(hand: &Counts, ctx: &Context, wilds: u8) -> u32 {
    let used = ctx.suit_mask(hand);
    if !ctx.suits_allowed(used) {
        return 0;
    }
    let table = suit_table();
    let e = entries(hand);
    let needs = e.map(|e| (e.wilds_for_sets(), e.wilds_for_pair()));
    let odd = odd_kinds(&e);
    let sevens = seven_pairs_allowed(ctx) && odd <= wilds + 1;
    let mut mask = 0;
    for suit in Suit::ALL
        .into_iter()
        .filter(|s| ctx.suits_allowed(used | s.bit()))
    {
        let s = suit.index();
        // With the other suits' needs fixed: does suit `s`, needing (sets, pair), fit?
        let others = (0..3).filter(|&x| x != s);
        let others_sets: u8 = others.clone().map(|x| needs[x].0).sum();
        let others_pair = others
            .map(|x| others_sets - needs[x].0 + needs[x].1)
            .min()
            .unwrap();
        let fits =
            |(sets, pair): (u8, u8)| sets + others_pair <= wilds || pair + others_sets <= wilds;
        let may_fit = fits((needs[s].0.saturating_sub(1), needs[s].1.saturating_sub(1)));
        if !may_fit && !sevens {
            continue;
        }
        for (r, &count) in hand.suit_counts(suit).iter().enumerate() {
            if count + ctx.melds.held[9 * s + r] >= COPIES {
                continue;
            }
            let standard = may_fit && {
                let after = table.get(hand.key(suit) + POW5[r]);
                fits((after.wilds_for_sets(), after.wilds_for_pair()))
            };
            let odd_after = if count % 2 == 1 { odd - 1 } else { odd + 1 };
            if standard || (sevens && odd_after <= wilds) {
                mask |= 1 << (9 * s + r);
            }
        }
    }
    mask
}

/// Shanten of a hand holding wilds: N − 1 − (the wilds + the most natural tiles the hand shares
/// with a complete hand it can reach by drawing natural tiles). That complete hand may hold more
/// than four of a tile (counting melds) when the hand's wilds stand for the copies beyond four.
/// Four wilds: −1, or 0 for a hand one tile short.
pub fn shanten(hand: &Counts, ctx: &Context) -> i8 {
    let wilds = hand.wilds();
    let size = ctx.melds.concealed_size();
    if wilds >= MAX_WILDS {
        return if hand.len() == size { -1 } else { 0 };
    }
    if !ctx.suits_allowed(ctx.melds.suit_mask) {
        return UNREACHABLE;
    }
    let sets = MAX_SETS - ctx.melds.sets as usize;
    let table = suit_table();
    let e = entries(hand);
    let levels: [LevelOverlaps; 3] = std::array::from_fn(|s| suit_levels(hand, ctx, s, wilds));
    let w = wilds as usize;
    let mut best = 0u8;
    for (a, b) in suit_pairs(ctx, hand) {
        for excess_a in 0..=w {
            let (la, lb) = (&levels[a][excess_a], &levels[b][w - excess_a]);
            best = best.max(best_split(la, lb, sets));
        }
        // Copies beyond four never help seven pairs: a third pair of a kind keeps nothing.
        if seven_pairs_allowed(ctx) {
            best = best.max(table.seven_pairs_overlap(e[a], e[b]));
        }
    }
    size as i8 - 1 - wilds as i8 - best as i8
}

/// A suit's overlaps per number of copies the wilds supply beyond four (or beyond the melds' cap).
fn suit_levels(hand: &Counts, ctx: &Context, s: usize, wilds: u8) -> LevelOverlaps {
    let suit = Suit::from_index(s);
    if ctx.melds.suit_mask & suit.bit() == 0 {
        return *wild_table().overlaps(hand.key(suit));
    }
    let cap = std::array::from_fn(|r| COPIES - ctx.melds.held[9 * s + r]);
    capped_overlaps(&hand.suit_counts(suit), &cap, wilds as usize)
}

/// Every way a hand holding wilds splits, each wild standing for a tile: standard splits, then
/// seven pairs. A wild may stand for a fifth copy, never for a tile outside the suits the natural
/// tiles allow. Four wilds win without a split; this lists the splits they also make.
pub fn decompositions(hand: &Counts, ctx: &Context) -> Vec<Decomposition> {
    let mut found = Vec::new();
    if !ctx.suits_allowed(ctx.suit_mask(hand)) {
        return found;
    }
    split(
        hand.array(),
        hand.wilds(),
        None,
        &mut Vec::new(),
        &mut found,
    );
    if seven_pairs_allowed(ctx) {
        seven_pairs(hand, &mut found);
    }
    found.retain(|d| ctx.suits_allowed(suits_of(&d.counts()) | ctx.melds.suit_mask));
    found.sort();
    found.dedup();
    found
}

/// Standard splits: the lowest natural tile lies in the pair, a triplet or a sequence through it,
/// whose other tiles are natural or wild; wilds left when no natural tile is left make whole
/// groups of any tile.
fn split(
    counts: &[u8; KINDS],
    wilds: u8,
    pair: Option<Tile>,
    sets: &mut Vec<Set>,
    found: &mut Vec<Decomposition>,
) {
    let Some(i) = counts.iter().position(|&c| c > 0) else {
        return wild_groups(wilds, pair, sets, found);
    };
    let t = Tile::new(i as u8).expect("index below 27");
    if pair.is_none() {
        for (left, wilds) in takings(counts, wilds, &[i, i]) {
            split(&left, wilds, Some(t), sets, found);
        }
    }
    let rank = t.rank() as usize;
    let runs = (rank.saturating_sub(2).max(1)..=rank.min(7)).map(|start| {
        let first = i + start - rank;
        let others = (first..first + 3).filter(|&x| x != i);
        let group: Vec<usize> = std::iter::once(i).chain(others).collect();
        (
            Set::Sequence(Tile::new(first as u8).expect("index below 27")),
            group,
        )
    });
    for (set, group) in std::iter::once((Set::Triplet(t), vec![i, i, i])).chain(runs) {
        for (left, wilds) in takings(counts, wilds, &group) {
            sets.push(set);
            split(&left, wilds, pair, sets, found);
            sets.pop();
        }
    }
}

/// The ways to take `group` (tile indices, the first one natural) from the hand, each other tile
/// natural or wild: the counts and wilds left.
fn takings<'a>(
    counts: &'a [u8; KINDS],
    wilds: u8,
    group: &'a [usize],
) -> impl Iterator<Item = ([u8; KINDS], u8)> + 'a {
    (0..1u32 << (group.len() - 1)).filter_map(move |naturals| {
        let mut left = *counts;
        let mut wilds = wilds;
        for (slot, &t) in group.iter().enumerate() {
            if slot == 0 || naturals >> (slot - 1) & 1 == 1 {
                left[t] = left[t].checked_sub(1)?;
            } else {
                wilds = wilds.checked_sub(1)?;
            }
        }
        Some((left, wilds))
    })
}

/// Groups of wilds alone: the pair if it is still missing, then sets, of any tiles.
fn wild_groups(wilds: u8, pair: Option<Tile>, sets: &mut Vec<Set>, found: &mut Vec<Decomposition>) {
    match pair {
        None if wilds >= 2 => {
            for t in Tile::all() {
                wild_groups(wilds - 2, Some(t), sets, found);
            }
        }
        None => {}
        Some(pair) if wilds == 0 => {
            let mut sets = sets.clone();
            sets.sort();
            found.push(Decomposition::Standard { pair, sets });
        }
        Some(pair) if wilds >= 3 => {
            for set in every_set() {
                sets.push(set);
                wild_groups(wilds - 3, Some(pair), sets, found);
                sets.pop();
            }
        }
        Some(_) => {}
    }
}

/// Every triplet, then every sequence.
fn every_set() -> impl Iterator<Item = Set> {
    let triplets = Tile::all().map(Set::Triplet);
    triplets.chain(Tile::all().filter(|t| t.rank() <= 7).map(Set::Sequence))
}

/// Seven pairs: each kind held an odd number of times pairs with a wild; the wilds left pair
/// with each other as any tiles.
fn seven_pairs(hand: &Counts, found: &mut Vec<Decomposition>) {
    let counts = hand.array();
    let odd = counts.iter().filter(|&&c| c % 2 == 1).count() as u8;
    let Some(spare) = hand.wilds().checked_sub(odd) else {
        return;
    };
    let pairs: Vec<Tile> = Tile::all()
        .flat_map(|t| std::iter::repeat_n(t, counts[t.index()].div_ceil(2) as usize))
        .collect();
    for_each_multiset(spare as usize / 2, 0, &mut Vec::new(), &mut |extra| {
        let mut all = pairs.clone();
        all.extend(
            extra
                .iter()
                .map(|&i| Tile::new(i as u8).expect("index below 27")),
        );
        all.sort();
        found.push(Decomposition::SevenPairs { pairs: all });
    });
}

/// Calls `f` with every multiset of `k` tile indices from `first` on, in nondecreasing order.
fn for_each_multiset(
    k: usize,
    first: usize,
    chosen: &mut Vec<usize>,
    f: &mut impl FnMut(&[usize]),
) {
    if k == 0 {
        return f(chosen);
    }
    for i in first..KINDS {
        chosen.push(i);
        for_each_multiset(k - 1, i, chosen, f);
        chosen.pop();
    }
}

/// A mask of the suits a count array uses.
fn suits_of(counts: &[u8; KINDS]) -> u8 {
    Suit::ALL
        .iter()
        .filter(|s| {
            counts[9 * s.index()..9 * s.index() + 9]
                .iter()
                .any(|&c| c > 0)
        })
        .fold(0, |mask, s| mask | s.bit())
}

/// The split-dependent facts of a complete hand holding wilds, each true when some split, with
/// the wilds standing for whatever tiles it needs, has the property.
pub fn split_facts(hand: &Counts, ctx: &Context, facts: &mut HandFacts, melded_terminals: bool) {
    for d in decompositions(hand, ctx) {
        match d {
            Decomposition::Standard { pair, sets } => {
                facts.standard = true;
                facts.all_triplets |= sets.iter().all(|s| matches!(s, Set::Triplet(_)));
                facts.terminals |= melded_terminals
                    && pair.is_terminal()
                    && sets.iter().all(|s| s.holds_terminal());
            }
            Decomposition::SevenPairs { .. } => facts.seven_pairs = true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{self, HandSize};
    use crate::hand::HandError;
    use crate::meld::Meld;
    use crate::rng::Rng;
    use crate::tile::parse_tiles;

    /// Natural tiles `text` plus `wilds` wilds.
    fn hand(text: &str, wilds: u8) -> Counts {
        let counts = Counts::from_tiles(&parse_tiles(text).unwrap()).unwrap();
        counts.with_wilds(wilds).unwrap()
    }

    fn tiles(mask: u32) -> String {
        let list: Vec<Tile> = Tile::all().filter(|t| mask >> t.index() & 1 == 1).collect();
        crate::tile::format_tiles(&list)
    }

    fn plain() -> Context {
        Context::PLAIN
    }

    fn no_sevens() -> Context {
        Context {
            seven_pairs: false,
            ..Context::PLAIN
        }
    }

    fn pong(text: &str) -> Context {
        Context::new(&[Meld::parse(text, false).unwrap()], None, true).unwrap()
    }

    /// The checks the public API makes first: a complete hand's size.
    fn wins(h: &Counts, ctx: &Context) -> bool {
        ctx.check(h, HandSize::Complete).unwrap();
        is_win(h, ctx)
    }

    fn waits_of(h: &Counts, ctx: &Context) -> String {
        ctx.check(h, HandSize::Waiting).unwrap();
        tiles(waits(h, ctx))
    }

    fn shanten_of(h: &Counts, ctx: &Context) -> i8 {
        ctx.check(h, HandSize::Either).unwrap();
        shanten(h, ctx)
    }

    #[test]
    fn a_wild_completes_a_pair_a_triplet_or_a_sequence() {
        // 1m + a wild is the pair (the seed's 一个一万 + 幺鸡).
        assert!(wins(&hand("1m999m234p567p888p", 1), &plain()));
        // 11m + a wild is 111m (88p the pair), 13m + a wild is 123m.
        assert!(wins(&hand("11m999m234p567p88p", 1), &plain()));
        assert!(wins(&hand("13m999m234p567p88p", 1), &plain()));
        // 1m and 4m share no set, and one wild pairs only one of them.
        assert!(!wins(&hand("14m999m234p567p88p", 1), &plain()));
        // 1m + three wilds: 1m + a wild as the pair, 9p + two wilds as a set.
        assert!(wins(&hand("1m234p567p888p9p", 3), &plain()));
    }

    #[test]
    fn a_wild_may_be_a_fifth_copy() {
        // 5555m + a wild: 555m and a pair of 5m, the wild the fifth 5m.
        let h = hand("5555m123p456p789p", 1);
        assert!(wins(&h, &plain()));
        let splits = decompositions(&h, &plain());
        assert_eq!(splits.len(), 1);
        assert_eq!(crate::tile::format_tiles(&splits[0].wild_tiles(&h)), "5m");
        // 12345678p is a 3-6-9 wait once the wild pairs the fourth 5m.
        let ready = hand("5555m123p456p78p", 1);
        assert_eq!(waits_of(&ready, &plain()), "369p");
        assert_eq!(shanten_of(&ready, &plain()), 0);
    }

    #[test]
    fn four_wilds_win_whatever_the_shape_suits_and_void() {
        let void_s = Context {
            void: Some(Suit::S),
            ..plain()
        };
        let h = hand("1357m1357p29s", 4);
        assert!(wins(&h, &void_s));
        assert_eq!(shanten_of(&h, &void_s), -1);
        let short = hand("1357m1357p2s", 4);
        assert_eq!(shanten_of(&short, &void_s), 0);
        // Every tile completes it but 1s: the four wilds are the four 1s (issue 12.7).
        assert_eq!(
            waits(&short, &void_s),
            ALL_TILES & !(1 << Tile::YAOJI.index())
        );
    }

    #[test]
    fn natural_1s_beside_wilds_count_toward_the_four_1s() {
        // Three natural 1s and three wilds are six 1s; a kong of wilds in melds counts too.
        let six = hand("111s234m567m99m", 3);
        assert_eq!(
            plain().check(&six, HandSize::Complete),
            Err(HandError::TooManyOnes {
                natural: 3,
                wilds: 3
            })
        );
        let kong = |text| Context::new(&[Meld::parse(text, false).unwrap()], None, true).unwrap();
        let (natural, melded) = (kong("5555p"), kong("5p111s"));
        let one = hand("1s234p678p789p", 0);
        assert_eq!(waits_of(&one, &natural), "1s");
        // One natural 1s beside three wilds in a meld: all four 1s held, 1s is no wait.
        assert_eq!(melded.check(&one, HandSize::Waiting), Ok(()));
        assert_eq!(waits(&one, &melded), 0);
        let five = hand("11s234p678p789p", 0);
        assert!(melded.check(&five, HandSize::Complete).is_err());
    }

    #[test]
    fn wilds_count_for_no_suit_and_stand_for_no_third_suit() {
        // Natural tiles in three suits never win with fewer than four wilds.
        assert!(!wins(&hand("123m456p789s1m4p", 3), &plain()));
        // m and p natural, three wilds as a whole set: never bamboo.
        let h = hand("123m456m11p789p", 3);
        assert!(wins(&h, &plain()));
        let splits = decompositions(&h, &plain());
        assert!(!splits.is_empty());
        let bamboo = |d: &Decomposition| d.wild_tiles(&h).iter().any(|t| t.suit() == Suit::S);
        assert!(!splits.iter().any(bamboo));
        // Only m natural and p void: the wilds' pair is m or s, never p.
        let void_p = Context {
            void: Some(Suit::P),
            ..plain()
        };
        let h = hand("123m456m789m123m", 2);
        let splits = decompositions(&h, &void_p);
        let dots = |d: &Decomposition| d.wild_tiles(&h).iter().any(|t| t.suit() == Suit::P);
        assert!(!splits.is_empty() && !splits.iter().any(dots));
    }

    #[test]
    fn seven_pairs_pair_a_wild_with_any_tile_or_another_wild() {
        let sevens = |h: &Counts, ctx: &Context| {
            let splits = decompositions(h, ctx);
            let is_seven = |d: &&Decomposition| matches!(d, Decomposition::SevenPairs { .. });
            splits.iter().filter(is_seven).count()
        };
        // 2p pairs with a wild; the other two wilds pair as any of the 18 m and p tiles.
        let h = hand("11335577m99p2p", 3);
        assert!(wins(&h, &plain()));
        assert_eq!(sevens(&h, &plain()), 18);
        // Two kinds held once need two wilds.
        assert_eq!(sevens(&hand("11335577m99p24p", 1), &plain()), 0);
        // With a meld there are no seven pairs.
        assert_eq!(sevens(&hand("335577m99p2p", 1), &pong("111m")), 0);
    }

    #[test]
    fn shanten_counts_copies_a_wild_supplies_beyond_four() {
        // 1111m 9999m 5555p + a wild, no seven pairs: five groups hold at most 111m + 1m of 123m,
        // 999m, 555p + 5p paired with the wild as a fifth 5p: 11 naturals and the wild of 14.
        assert_eq!(shanten_of(&hand("1111m9999m5555p", 1), &no_sevens()), 1);
        // As seven pairs the twelve naturals are six pairs and the wild pairs the next draw.
        assert_eq!(shanten_of(&hand("1111m9999m5555p", 1), &plain()), 0);
        // With 555p melded, 1111m 9999m 5p + a wild: three sets and a pair keep 111m + 1m of 123m,
        // 999m, and 5p + the wild as a fifth 5p: 8 naturals and the wild of 11.
        assert_eq!(shanten_of(&hand("1111m9999m5p", 1), &pong("555p")), 1);
        // An 8m in the wild's place keeps nothing more: 111m 123m 999m and 88m keep 8 of 11.
        assert_eq!(shanten_of(&hand("1111m9999m5p8m", 0), &pong("555p")), 2);
    }

    #[test]
    fn facts_let_the_wilds_stand_for_what_each_split_needs() {
        // 111m 22m+W 333m 44p+W 55p: all triplets; also 1111m 22m 3333m 44p 55p, seven pairs.
        let f = analysis::facts(&hand("11122333m4455p", 2), &plain());
        assert!(f.standard && f.all_triplets && f.seven_pairs && !f.one_suit);
        // 11m 123m 777m 888m 999m with the wild the 2m of 1_3m: terminals, one suit.
        let f = analysis::facts(&hand("1113777888999m", 1), &plain());
        assert!(f.terminals && f.one_suit);
        // 555p and two wilds (a split makes them 5555p + a pair) hold no root: roots count
        // natural tiles.
        let f = analysis::facts(&hand("555p123m456m789m", 2), &plain());
        assert!(f.standard);
        assert_eq!(f.roots, 0);
    }

    /// Random hands near complete, with wilds: every answer agrees with the others where their
    /// definitions meet.
    #[test]
    fn win_waits_shanten_and_splits_agree() {
        let mut rng = Rng::new(6);
        let mut wall: Vec<Tile> = Tile::all().flat_map(|t| [t; 4]).collect();
        for _ in 0..20_000 {
            rng.shuffle(&mut wall);
            let wilds = rng.below(4) as u8;
            let suits = 1 + rng.below(2) as usize;
            let drawn: Vec<Tile> = wall
                .iter()
                .copied()
                .filter(|t| t.suit().index() < suits)
                .take(14 - wilds as usize)
                .collect();
            let full = Counts::from_tiles(&drawn)
                .unwrap()
                .with_wilds(wilds)
                .unwrap();
            let ctx = plain();
            ctx.check(&full, HandSize::Complete).unwrap();
            let win = is_win(&full, &ctx);
            assert_eq!(win, shanten(&full, &ctx) == -1, "{full}");
            assert_eq!(win, !decompositions(&full, &ctx).is_empty(), "{full}");
            let mut short = full;
            short.remove(drawn[0]);
            let mask = waits(&short, &ctx);
            assert_eq!(mask != 0, shanten(&short, &ctx) == 0, "{short}");
            for t in Tile::all().filter(|t| mask >> t.index() & 1 == 1) {
                let mut more = short;
                more.add(t);
                assert!(is_win(&more, &ctx), "{short} + {t}");
            }
            assert!(mask >> drawn[0].index() & 1 == u32::from(win), "{full}");
        }
    }
}
