//! The greedy bot: wins whenever it may, discards to the lowest shanten (向听) and, once ready,
//! to the most live winning tiles; claims a pong or kong only when that does not set the hand
//! back. Exchange (换三张) and void (定缺) picks give up the weakest suit. Deterministic: it uses
//! no randomness, and ties go to a fixed order.

use super::Bot;
use crate::analysis::{tile_bits, tiles_of, uncapped_shanten, waits, Context};
use crate::game::{Action, ActionList, Ask, Decision, SeatView};
use crate::hand::Counts;
use crate::meld::{Meld, Melds};
use crate::rules::Mode;
use crate::tile::{Suit, Tile, KINDS};

/// Greedy play from the seat's own hand and the tiles in sight. Allocates nothing per decision.
#[derive(Clone)]
pub struct GreedyBot {
    buf: ActionList,
}

impl GreedyBot {
    /// The seed is accepted so that every bot kind is built alike; greedy play does not use it.
    pub fn new(_seed: u64) -> GreedyBot {
        GreedyBot {
            buf: ActionList::new(),
        }
    }
}

impl Default for GreedyBot {
    fn default() -> GreedyBot {
        GreedyBot::new(0)
    }
}

impl Bot for GreedyBot {
    fn decide(&mut self, view: &SeatView<'_>) -> Decision {
        let ask = view.ask();
        let sight = Sight::new(*view);
        match ask {
            Ask::Nothing => return Decision::checked(Action::Pass),
            // Three held tiles of one suit and any suit are always legal here: no need to list
            // the up to 364 possible picks.
            Ask::Exchange => {
                let pick = exchange(&sight).or_else(|| view.default_action());
                return Decision::checked(pick.unwrap_or(Action::Pass));
            }
            Ask::Void => return Decision::checked(void(&sight)),
            // The turn visits the legal actions once, with no list.
            Ask::Turn => return turn(&sight),
            Ask::Respond(_) => {}
        }
        view.legal_actions(&mut self.buf);
        let legal = &self.buf;
        if legal.is_empty() {
            return Decision::checked(Action::Pass);
        }
        if legal.contains(Action::Win) {
            return Decision::listed(Action::Win);
        }
        let choice = match ask {
            Ask::Respond(open) => respond(&sight, legal, open.tile),
            _ => legal[0],
        };
        // Every branch picks from `legal`; the check keeps a slip from ever reaching the game.
        if legal.contains(choice) {
            Decision::listed(choice)
        } else {
            Decision::listed(legal[0])
        }
    }
}

/// What the deciding seat knows: its hand and its analysis context, copied out of the view
/// once; the view for the tiles in sight.
struct Sight<'a> {
    view: SeatView<'a>,
    hand: Counts,
    ctx: Context,
    /// A 血流 winner, offered only the kongs that keep its waits.
    locked: bool,
}

impl<'a> Sight<'a> {
    fn new(view: SeatView<'a>) -> Sight<'a> {
        let locked = view.rules().mode == Mode::Xueliu && view.wins_of(view.seat()) > 0;
        Sight {
            view,
            hand: *view.hand(),
            ctx: view.context(),
            locked,
        }
    }

    /// Unseen copies of the tiles that complete `hand` (a waiting size): 0 unless ready.
    /// Counted per tile asked, as only a ready hand's waits are.
    fn live_waits(&self, hand: &Counts, ctx: &Context) -> u32 {
        tiles_of(waits(hand, ctx))
            .map(|t| u32::from(self.view.unseen(t)))
            .sum()
    }

    /// The best discard from `hand` (a complete size) among `candidates`, with its shanten and
    /// live waits: lowest shanten, then most live waits, then the least connected tile, then
    /// tiles nearer the middle first (terminals last), then the lowest tile.
    ///
    /// Candidates are tried in the order of the later keys, and the hand's own shanten bounds
    /// any discard's from below; so, short of ready, the first candidate that meets the bound
    /// wins and the rest need no shanten. Once ready, [`Sight::best_live_discard`] usually
    /// answers with no shanten at all.
    fn best_discard(
        &self,
        hand: &Counts,
        ctx: &Context,
        candidates: impl Iterator<Item = Tile>,
    ) -> Option<(Tile, i8, u32)> {
        let mut tiles = [Tile::YAOJI; KINDS];
        let mut n = 0;
        for d in candidates.take(KINDS) {
            tiles[n] = d;
            n += 1;
        }
        let tiles = &tiles[..n];
        let bound = uncapped_shanten(hand, ctx);
        if bound == 0 {
            if let Some(found) = self.best_live_discard(hand, ctx, tiles) {
                return Some(found);
            }
        }
        // Each candidate packed as connection, then 9 − edge, then tile index: one u32 order.
        let links = Connections::new(hand);
        let mut order = [0u32; KINDS];
        for (o, &d) in order.iter_mut().zip(tiles) {
            *o = links.of(d) << 16 | u32::from(9 - edge(d)) << 8 | d.index() as u32;
        }
        let order = &mut order[..n];
        let mut best: Option<(DiscardKey, Tile, u32)> = None;
        // Tiles of the void suit count for nothing, so every void discard leaves one shanten.
        let mut void_shanten = None;
        for k in 0..n {
            // Short of ready, candidates come in key order (a selection sort that usually stops
            // after a step or two); once ready all are scored, and the key settles ties.
            if bound > 0 {
                let first = (k..n).min_by_key(|&j| order[j]).unwrap_or(k);
                order.swap(k, first);
            }
            let packed = order[k];
            let (link, edge) = (packed >> 16, (packed >> 8) as u8);
            let d = Tile::new(packed as u8)?;
            let mut rest = *hand;
            rest.remove(d);
            let sh = if ctx.void == Some(d.suit()) {
                *void_shanten.get_or_insert_with(|| uncapped_shanten(&rest, ctx))
            } else {
                uncapped_shanten(&rest, ctx)
            };
            let live = if sh == 0 {
                self.live_waits(&rest, ctx)
            } else {
                0
            };
            let key = (sh, -i64::from(live), link, edge, d.index());
            if best.is_none_or(|(k, _, _)| key < k) {
                best = Some((key, d, live));
            }
            if sh <= bound && bound > 0 {
                break;
            }
        }
        best.map(|(k, d, live)| (d, k.0, live))
    }

    /// Among the candidate `tiles`, the discard leaving the most live waits, if any leaves one:
    /// then `best_discard`'s own answer, found with no shanten at all. A discard that leaves
    /// live waits leaves a ready hand (shanten 0, the least there is), so it beats every other.
    fn best_live_discard(
        &self,
        hand: &Counts,
        ctx: &Context,
        tiles: &[Tile],
    ) -> Option<(Tile, i8, u32)> {
        let links = Connections::new(hand);
        let mut best: Option<(LiveKey, Tile, u32)> = None;
        for &d in tiles {
            let mut rest = *hand;
            rest.remove(d);
            let live = self.live_waits(&rest, ctx);
            if live == 0 {
                continue;
            }
            let key = (-i64::from(live), links.of(d), 9 - edge(d), d.index());
            if best.is_none_or(|(k, _, _)| key < k) {
                best = Some((key, d, live));
            }
        }
        best.map(|(_, d, live)| (d, 0, live))
    }
}

/// Orders discards, lowest first: shanten, minus live waits, connection, closeness to the
/// middle, tile index.
type DiscardKey = (i8, i64, u32, u8, usize);

/// [`DiscardKey`] less its shanten, for discards that all leave a ready hand.
type LiveKey = (i64, u32, u8, usize);

/// A hand's counts laid out for [`Connections::of`]: each suit's nine ranks with two empty
/// ranks either side, so that a tile's neighbours are read without asking where its suit ends.
pub(super) struct Connections([u8; SPACED]);

/// Ranks per suit in [`Connections`]: two empty, nine, two empty.
const SPACED_SUIT: usize = 13;
const SPACED: usize = 3 * SPACED_SUIT;

impl Connections {
    pub(super) fn new(hand: &Counts) -> Connections {
        let mut spaced = [0; SPACED];
        for suit in Suit::ALL {
            let at = SPACED_SUIT * suit.index() + 2;
            spaced[at..at + 9].copy_from_slice(&hand.suit_counts(suit));
        }
        Connections(spaced)
    }

    /// How much a held tile works with the rest of the hand: copies, neighbours one and two
    /// away.
    #[inline]
    pub(super) fn of(&self, tile: Tile) -> u32 {
        let i = SPACED_SUIT * tile.suit().index() + tile.rank() as usize + 1;
        let near = |j: usize| self.0.get(j).map_or(0, |&n| u32::from(n));
        4 * near(i).saturating_sub(1) + 2 * (near(i - 1) + near(i + 1)) + near(i - 2) + near(i + 2)
    }
}

/// Distance of a tile's rank from the edge: 0 for terminals, 4 for fives. Among equally
/// connected tiles the bot discards the middle ones first; terminals first measured no better
/// (docs/bots.md).
fn edge(tile: Tile) -> u8 {
    (tile.rank() - 1).min(9 - tile.rank())
}

fn suit_len(hand: &Counts, suit: Suit) -> u8 {
    hand.suit_counts(suit).iter().sum()
}

/// 换三张: three tiles of the weakest suit holding three (fewest tiles, then the worst hand
/// without it), keeping what helps the rest most.
fn exchange(sight: &Sight) -> Option<Action> {
    let hand = &sight.hand;
    let suit = Suit::ALL
        .into_iter()
        .filter(|&s| suit_len(hand, s) >= 3)
        .min_by_key(|&s| (suit_len(hand, s), void_shanten(sight, s), s))?;
    // The suit's tiles, one entry per copy (at most 14).
    let mut copies = [Tile::from_suit_rank(suit, 1)?; 14];
    let mut n = 0;
    for t in hand.tiles().filter(|t| t.suit() == suit).take(14) {
        copies[n] = t;
        n += 1;
    }
    let links = Connections::new(hand);
    let cost = |ts: [Tile; 3]| {
        let mut rest = *hand;
        ts.iter().for_each(|&t| rest.remove(t));
        let link: u32 = ts.iter().map(|&t| links.of(t)).sum();
        (uncapped_shanten(&rest, &sight.ctx), link)
    };
    let mut best: Option<((i8, u32), [Tile; 3])> = None;
    for i in 0..n {
        for j in i + 1..n {
            for k in j + 1..n {
                let ts = [copies[i], copies[j], copies[k]];
                let c = cost(ts);
                if best.is_none_or(|(b, _)| c < b) {
                    best = Some((c, ts));
                }
            }
        }
    }
    best.map(|(_, ts)| Action::exchange(ts))
}

/// Shanten of the hand with `suit` declared void.
fn void_shanten(sight: &Sight, suit: Suit) -> i8 {
    let ctx = Context {
        void: Some(suit),
        ..sight.ctx
    };
    uncapped_shanten(&sight.hand, &ctx)
}

/// 定缺: the suit whose loss hurts least (shanten with it void), then the shortest.
fn void(sight: &Sight) -> Action {
    let suit = Suit::ALL
        .into_iter()
        .min_by_key(|&s| (void_shanten(sight, s), suit_len(&sight.hand, s), s))
        .unwrap_or(Suit::M);
    Action::Void(suit)
}

/// The seat to move: a win, else a kong that does not set the hand back, else the best
/// discard; always one of the legal actions.
fn turn(sight: &Sight<'_>) -> Decision {
    let options = TurnOptions::visit(sight);
    let Some(first) = options.first else {
        return Decision::checked(Action::Pass);
    };
    if options.win {
        return Decision::listed(Action::Win);
    }
    if options.kongs != 0 {
        let now = uncapped_shanten(&sight.hand, &sight.ctx);
        for t in Tile::all().filter(|t| options.kongs & 1 << t.index() != 0) {
            let added = sight.view.has_pong(sight.view.seat(), t);
            let kong = Meld::kong(t, !added);
            let taken = if added { 1 } else { 4 };
            if sight.locked || kong_shanten(sight, kong, added, taken) <= now {
                return Decision::listed(Action::Kong(t));
            }
        }
    }
    let mut discards = tiles_of(options.discards);
    // One discard to choose from (a 血流 winner's drawn tile, the void suit's last kind) needs
    // no analysis.
    if options.discards.is_power_of_two() {
        return Decision::listed(discards.next().map_or(first, Action::Discard));
    }
    match sight.best_discard(&sight.hand, &sight.ctx, discards) {
        Some((t, _, _)) => Decision::listed(Action::Discard(t)),
        None => Decision::listed(first),
    }
}

/// The legal actions on the seat's turn, as greedy reads them.
struct TurnOptions {
    /// The first action listed, for a turn that offers no win, kong or discard.
    first: Option<Action>,
    win: bool,
    /// Tiles that may be konged, one bit each.
    kongs: u32,
    /// Tiles that may be discarded, one bit each.
    discards: u32,
}

impl TurnOptions {
    /// One visit of the game's legal actions, building no list.
    fn visit(sight: &Sight<'_>) -> TurnOptions {
        let mut options = TurnOptions {
            first: None,
            win: false,
            kongs: 0,
            discards: 0,
        };
        sight.view.visit_legal(&mut |a| {
            options.first.get_or_insert(a);
            match a {
                Action::Win => options.win = true,
                Action::Kong(t) => options.kongs |= 1 << t.index(),
                Action::Discard(t) => options.discards |= 1 << t.index(),
                _ => {}
            }
        });
        options
    }
}

/// The seat's melds with `meld` added, or replacing the pong of its tile when `replace`.
fn melds_with(view: &SeatView<'_>, meld: Meld, replace: bool) -> Melds {
    let mut list = [meld; 4];
    let mut n = 0;
    for m in view
        .melds(view.seat())
        .filter(|m| !(replace && m.tile == meld.tile))
    {
        list[n] = m;
        n += 1;
    }
    list[n.min(3)] = meld;
    Melds::new(&list[..=n.min(3)]).unwrap_or(*view.melded(view.seat()))
}

/// `hand` less `n` copies of `tile`, natural copies first and wilds (幺鸡) for the rest, as the
/// game takes them; never more than the hand holds.
fn take(hand: &Counts, tile: Tile, n: u8) -> Counts {
    let mut rest = *hand;
    for _ in 0..n {
        if rest.count(tile) > 0 {
            rest.remove(tile);
        } else if rest.wilds() > 0 {
            rest.remove_wild();
        }
    }
    rest
}

/// Shanten after a kong of `kong.tile` that takes `taken` copies from the hand.
fn kong_shanten(sight: &Sight, kong: Meld, replace: bool, taken: u8) -> i8 {
    let hand = take(&sight.hand, kong.tile, taken);
    let ctx = Context {
        melds: melds_with(&sight.view, kong, replace),
        ..sight.ctx
    };
    uncapped_shanten(&hand, &ctx)
}

/// A discard (or a kong to rob) is open: claim a kong or pong that does not set the hand back.
fn respond(sight: &Sight, legal: &ActionList, tile: Tile) -> Action {
    let now = uncapped_shanten(&sight.hand, &sight.ctx);
    let pass = if legal.contains(Action::Pass) {
        Action::Pass
    } else {
        legal[0]
    };
    if legal.contains(Action::Kong(tile)) {
        let hand = take(&sight.hand, tile, 3);
        let ctx = Context {
            melds: add_meld(&sight.ctx.melds, Meld::kong(tile, false)),
            ..sight.ctx
        };
        if uncapped_shanten(&hand, &ctx) <= now {
            return Action::Kong(tile);
        }
    }
    if legal.contains(Action::Pong) && pong_helps(sight, tile, now) {
        return Action::Pong;
    }
    pass
}

/// Whether ponging `tile` leaves the hand closer to a win, or as close with more to gain: a
/// free tile while not ready, or no fewer live waits once ready.
fn pong_helps(sight: &Sight, tile: Tile, now: i8) -> bool {
    let hand = take(&sight.hand, tile, 2);
    let ctx = Context {
        melds: add_meld(&sight.ctx.melds, Meld::pong(tile)),
        ..sight.ctx
    };
    // Without wilds the best discard keeps the hand's own shanten (no discard lowers it, and
    // one outside its best split keeps it; a complete hand falls to ready): only when both
    // hands are ready do their live waits need counting.
    if hand.wilds() == 0 {
        let after = uncapped_shanten(&hand, &ctx).max(0);
        if after != now || now > 0 {
            return after <= now;
        }
    }
    // Every held tile, or only those of the void suit while the hand holds any.
    let mut held = hand.at_least(1);
    if let Some(v) = sight.ctx.void.filter(|&v| held_void(&hand, Some(v))) {
        held &= tile_bits(v.bit());
    }
    let Some((_, after, live)) = sight.best_discard(&hand, &ctx, tiles_of(held)) else {
        return false;
    };
    after < now || (after == now && (now > 0 || live >= sight.live_waits(&sight.hand, &sight.ctx)))
}

/// Whether `hand` holds a tile of the void suit (which must then be discarded first).
fn held_void(hand: &Counts, void: Option<Suit>) -> bool {
    void.is_some_and(|v| hand.suit_mask() & v.bit() != 0)
}

/// `melds` with one more meld; unchanged if that is impossible.
fn add_meld(melds: &Melds, meld: Meld) -> Melds {
    let mut m = *melds;
    match m.push(meld) {
        Ok(()) => m,
        Err(_) => *melds,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::shanten;
    use crate::rng::Rng;

    /// Random hands of `len` tiles from one shuffled set, with `melds` pongs of distinct tiles.
    fn hands(melds: usize, len: usize, count: usize) -> Vec<(Counts, Context)> {
        let mut rng = Rng::new(5);
        (0..count)
            .map(|_| {
                let mut wall: Vec<Tile> = Tile::all().flat_map(|t| [t; 4]).collect();
                rng.shuffle(&mut wall);
                let pongs: Vec<Meld> = wall[..melds].iter().map(|&t| Meld::pong(t)).collect();
                let mut hand = Counts::new();
                wall.iter()
                    .filter(|t| !pongs.iter().any(|m| m.tile == **t))
                    .take(len)
                    .for_each(|&t| hand.add(t));
                let ctx = Context::new(&pongs, None, true).unwrap_or_default();
                (hand, ctx)
            })
            .collect()
    }

    /// How much a tile works with the rest of the hand, counted the plain way: what
    /// [`Connections::of`] must match.
    fn connection(hand: &Counts, tile: Tile) -> u32 {
        let counts = hand.array();
        let (i, r) = (tile.index() as i32, i32::from(tile.rank()));
        let near = |d: i32| -> u32 {
            let (rr, j) = (r + d, i + d);
            if (1..=9).contains(&rr) {
                u32::from(counts[j as usize])
            } else {
                0
            }
        };
        4 * (u32::from(counts[i as usize]) - 1) + 2 * (near(-1) + near(1)) + near(-2) + near(2)
    }

    #[test]
    fn connections_count_copies_and_neighbours_within_the_suit() {
        for (hand, _) in hands(0, 14, 3000) {
            let links = Connections::new(&hand);
            for t in Tile::all().filter(|&t| hand.count(t) > 0) {
                assert_eq!(links.of(t), connection(&hand, t), "{t} in {hand}");
            }
        }
        // 9m and 1p are no neighbours: 9m has one pair-neighbour (8m), 1p none.
        let hand = Counts::from_tiles(&crate::tile::parse_tiles("89m1p").unwrap()).unwrap();
        let links = Connections::new(&hand);
        let t = |s| crate::tile::parse_tiles(s).unwrap()[0];
        assert_eq!([links.of(t("9m")), links.of(t("1p"))], [2, 0]);
    }

    /// Every candidate scored in full, in index order: what `best_discard` must match.
    fn every_discard(sight: &Sight, legal: &ActionList) -> Option<(Tile, i8, u32)> {
        let mut best: Option<(DiscardKey, Tile, u32)> = None;
        for &a in legal.iter() {
            let Action::Discard(d) = a else { continue };
            let mut rest = sight.hand;
            rest.remove(d);
            let sh = uncapped_shanten(&rest, &sight.ctx);
            let live = if sh == 0 {
                sight.live_waits(&rest, &sight.ctx)
            } else {
                0
            };
            let key = (
                sh,
                -i64::from(live),
                connection(&sight.hand, d),
                9 - edge(d),
                d.index(),
            );
            if best.is_none_or(|(k, _, _)| key < k) {
                best = Some((key, d, live));
            }
        }
        best.map(|(k, d, live)| (d, k.0, live))
    }

    #[test]
    fn best_discard_stops_early_without_changing_the_choice() {
        use crate::game::{Game, Pending};
        use crate::rules::Rules;
        use std::sync::Arc;
        let rules = Arc::new(Rules::preset("chengdu_xueliu").unwrap());
        let (mut rng, mut legal, mut checked) = (Rng::new(9), ActionList::new(), 0);
        for seed in 0..100 {
            let mut game = Game::new(rules.clone(), seed, false).unwrap();
            let mut bot = GreedyBot::default();
            while let Some(seat) = (0..4).find(|&s| game.must_act(s)) {
                if let Pending::Turn(_) = game.pending() {
                    game.legal_actions(seat, &mut legal);
                    let sight = Sight::new(game.view(seat).unwrap());
                    let discards = legal.iter().filter_map(|a| match a {
                        Action::Discard(t) => Some(*t),
                        _ => None,
                    });
                    let fast = sight.best_discard(&sight.hand, &sight.ctx, discards);
                    assert_eq!(fast, every_discard(&sight, &legal), "seed {seed}");
                    // What `pong_helps` relies on: without wilds, the best discard's shanten
                    // is the hand's own, or ready from a complete hand.
                    if let (Some((_, sh, _)), 0) = (fast, sight.hand.wilds()) {
                        let own = uncapped_shanten(&sight.hand, &sight.ctx);
                        assert_eq!(sh, own.max(0), "seed {seed}");
                    }
                    checked += 1;
                }
                // Mix greedy and random play to reach varied hands.
                let action = if rng.below(3) == 0 {
                    game.legal_actions(seat, &mut legal);
                    legal[rng.below(legal.len() as u64) as usize]
                } else {
                    bot.choose(&game.view(seat).unwrap())
                };
                game.act(seat, action).unwrap();
            }
        }
        assert!(checked > 3000, "{checked}");
    }

    #[test]
    fn uncapped_shanten_is_exact_without_melds_and_never_above_with_them() {
        for (hand, ctx) in hands(0, 14, 3000) {
            assert_eq!(
                uncapped_shanten(&hand, &ctx),
                shanten(&hand, &ctx),
                "{hand}"
            );
        }
        for melds in 1..=3 {
            let mut differ = 0;
            for (hand, ctx) in hands(melds, 14 - 3 * melds, 3000) {
                let (quick, exact) = (uncapped_shanten(&hand, &ctx), shanten(&hand, &ctx));
                assert!(quick <= exact, "{hand}: {quick} > {exact}");
                differ += u32::from(quick != exact);
            }
            assert!(differ < 300, "{differ} of 3000 differ with {melds} melds");
        }
    }
}
