//! The greedy bot: wins whenever it may, discards to the lowest shanten (向听) and, once ready,
//! to the most live winning tiles; claims a pong or kong only when that does not set the hand
//! back. Exchange (换三张) and void (定缺) picks give up the weakest suit. Deterministic: it uses
//! no randomness, and ties go to a fixed order.

use super::Bot;
use crate::analysis::{shanten, waits, Context};
use crate::game::{Action, ActionList, Game, Pending, Seat};
use crate::hand::Counts;
use crate::meld::{Meld, Melds};
use crate::rules::Mode;
use crate::tile::{Suit, Tile, COPIES, KINDS};

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
    fn choose(&mut self, game: &Game, seat: usize) -> Action {
        if seat > 3 {
            return Action::Pass;
        }
        let s = seat as u8;
        game.legal_actions(s, &mut self.buf);
        let legal = &self.buf;
        if legal.is_empty() {
            return Action::Pass;
        }
        if legal.contains(Action::Win) {
            return Action::Win;
        }
        let view = View::new(game, s);
        let choice = match game.pending() {
            Pending::Exchange(_) => exchange(&view, legal),
            Pending::Void(_) => Some(void(&view)),
            Pending::Turn(_) => Some(turn(&view, legal, game.seat(s))),
            Pending::Respond(r) => Some(respond(&view, legal, r.tile)),
            Pending::Over => None,
        };
        // Every branch picks from `legal`; the check keeps a slip from ever reaching the game.
        match choice {
            Some(a) if legal.contains(a) => a,
            _ => legal[0],
        }
    }
}

/// What the deciding seat knows: its hand, its analysis context and the copies of each tile it
/// has not seen (in no hand of its own, meld, discard or win).
struct View {
    hand: Counts,
    ctx: Context,
    unseen: [u8; KINDS],
    /// A 血流 winner, offered only the kongs that keep its waits.
    locked: bool,
}

impl View {
    fn new(game: &Game, seat: u8) -> View {
        let s = game.seat(seat);
        let seven_pairs = game.rules().allow_seven_pairs;
        let mut seen = *s.hand.array();
        for other in 0..4 {
            let held = &game.seat(other).meld_summary.held;
            seen.iter_mut().zip(held).for_each(|(a, b)| *a += b);
        }
        for &(_, t) in game.river() {
            seen[t.index()] += 1;
        }
        for w in game.wins().iter().filter(|w| !w.shared) {
            seen[w.tile.index()] += 1;
        }
        View {
            hand: s.hand,
            ctx: s.context(seven_pairs),
            unseen: seen.map(|n| COPIES.saturating_sub(n)),
            locked: game.rules().mode == Mode::Xueliu && s.wins > 0,
        }
    }

    /// Unseen copies of the tiles that complete `hand` (a waiting size): 0 unless ready.
    fn live_waits(&self, hand: &Counts, ctx: &Context) -> u32 {
        let mut mask = waits(hand, ctx);
        let mut live = 0;
        while mask != 0 {
            live += self.unseen[mask.trailing_zeros() as usize] as u32;
            mask &= mask - 1;
        }
        live
    }

    /// The best discard from `hand` (a complete size) among `candidates`, with its shanten and
    /// live waits: lowest shanten, then most live waits, then the least connected tile.
    fn best_discard(
        &self,
        hand: &Counts,
        ctx: &Context,
        candidates: impl Iterator<Item = Tile>,
    ) -> Option<(Tile, i8, u32)> {
        let mut best: Option<(DiscardKey, Tile, u32)> = None;
        for d in candidates {
            let mut rest = *hand;
            rest.remove(d);
            let sh = shanten(&rest, ctx);
            let live = if sh == 0 {
                self.live_waits(&rest, ctx)
            } else {
                0
            };
            let key = (sh, -(live as i64), connection(hand, d), 9 - edge(d));
            if best.is_none_or(|(k, _, _)| key < k) {
                best = Some((key, d, live));
            }
        }
        best.map(|(k, d, live)| (d, k.0, live))
    }
}

/// Orders discards, lowest first: shanten, minus live waits, connection, closeness to the middle.
type DiscardKey = (i8, i64, u32, u8);

/// How much a tile works with the rest of the hand: copies, neighbours one and two away.
fn connection(hand: &Counts, tile: Tile) -> u32 {
    let counts = hand.array();
    let (i, r) = (tile.index() as i32, tile.rank() as i32);
    let near = |d: i32| -> u32 {
        let (rr, j) = (r + d, i + d);
        if (1..=9).contains(&rr) {
            counts[j as usize] as u32
        } else {
            0
        }
    };
    4 * (counts[i as usize] as u32 - 1) + 2 * (near(-1) + near(1)) + near(-2) + near(2)
}

/// Distance of a tile's rank from the edge: terminals (0) are the least useful.
fn edge(tile: Tile) -> u8 {
    (tile.rank() - 1).min(9 - tile.rank())
}

fn suit_len(hand: &Counts, suit: Suit) -> u8 {
    hand.suit_counts(suit).iter().sum()
}

/// 换三张: three tiles of the weakest suit holding three (fewest tiles, then the worst hand
/// without it), keeping what helps the rest most.
fn exchange(view: &View, legal: &ActionList) -> Option<Action> {
    let hand = &view.hand;
    let suit = Suit::ALL
        .into_iter()
        .filter(|&s| suit_len(hand, s) >= 3)
        .min_by_key(|&s| (suit_len(hand, s), void_shanten(view, s), s))?;
    let in_suit =
        |a: &Action| matches!(a, Action::Exchange(ts) if ts.iter().all(|t| t.suit() == suit));
    let cost = |a: &Action| {
        let Action::Exchange(ts) = *a else {
            return (i8::MAX, 0);
        };
        let mut rest = *hand;
        ts.iter().for_each(|&t| rest.remove(t));
        let link: u32 = ts.iter().map(|&t| connection(hand, t)).sum();
        (shanten(&rest, &view.ctx), link)
    };
    legal
        .iter()
        .filter(|a| in_suit(a))
        .min_by_key(|a| cost(a))
        .copied()
}

/// Shanten of the hand with `suit` declared void.
fn void_shanten(view: &View, suit: Suit) -> i8 {
    let ctx = Context {
        void: Some(suit),
        ..view.ctx
    };
    shanten(&view.hand, &ctx)
}

/// 定缺: the suit whose loss hurts least (shanten with it void), then the shortest.
fn void(view: &View) -> Action {
    let suit = Suit::ALL
        .into_iter()
        .min_by_key(|&s| (void_shanten(view, s), suit_len(&view.hand, s), s))
        .unwrap_or(Suit::M);
    Action::Void(suit)
}

/// The seat to move: a kong that does not set the hand back, else the best discard.
fn turn(view: &View, legal: &ActionList, seat: &Seat) -> Action {
    let now = shanten(&view.hand, &view.ctx);
    for &a in legal.iter() {
        let Action::Kong(t) = a else { continue };
        let added = seat.has_pong(t);
        let kong = Meld::kong(t, !added);
        let taken = if added { 1 } else { 4 };
        if view.locked || kong_shanten(view, seat, kong, added, taken) <= now {
            return a;
        }
    }
    let discards = legal.iter().filter_map(|a| match a {
        Action::Discard(t) => Some(*t),
        _ => None,
    });
    match view.best_discard(&view.hand, &view.ctx, discards) {
        Some((t, _, _)) => Action::Discard(t),
        None => legal[0],
    }
}

/// The seat's melds with `meld` added, or replacing the pong of its tile when `replace`.
fn melds_with(seat: &Seat, meld: Meld, replace: bool) -> Melds {
    let mut list = [meld; 4];
    let mut n = 0;
    for m in seat
        .meld_list()
        .filter(|m| !(replace && m.tile == meld.tile))
    {
        list[n] = m;
        n += 1;
    }
    list[n.min(3)] = meld;
    Melds::new(&list[..=n.min(3)]).unwrap_or(seat.meld_summary)
}

/// Shanten after a kong of `kong.tile` that takes `taken` copies from the hand.
fn kong_shanten(view: &View, seat: &Seat, kong: Meld, replace: bool, taken: u8) -> i8 {
    let mut hand = view.hand;
    (0..taken).for_each(|_| hand.remove(kong.tile));
    let ctx = Context {
        melds: melds_with(seat, kong, replace),
        ..view.ctx
    };
    shanten(&hand, &ctx)
}

/// A discard (or a kong to rob) is open: claim a kong or pong that does not set the hand back.
fn respond(view: &View, legal: &ActionList, tile: Tile) -> Action {
    let now = shanten(&view.hand, &view.ctx);
    let pass = if legal.contains(Action::Pass) {
        Action::Pass
    } else {
        legal[0]
    };
    if legal.contains(Action::Kong(tile)) {
        let mut hand = view.hand;
        (0..3).for_each(|_| hand.remove(tile));
        let ctx = Context {
            melds: add_meld(&view.ctx.melds, Meld::kong(tile, false)),
            ..view.ctx
        };
        if shanten(&hand, &ctx) <= now {
            return Action::Kong(tile);
        }
    }
    if legal.contains(Action::Pong) && pong_helps(view, tile, now) {
        return Action::Pong;
    }
    pass
}

/// Whether ponging `tile` leaves the hand closer to a win, or as close with more to gain: a
/// free tile while not ready, or no fewer live waits once ready.
fn pong_helps(view: &View, tile: Tile, now: i8) -> bool {
    let mut hand = view.hand;
    hand.remove(tile);
    hand.remove(tile);
    let ctx = Context {
        melds: add_meld(&view.ctx.melds, Meld::pong(tile)),
        ..view.ctx
    };
    let void = view.ctx.void;
    let candidates = Tile::all()
        .filter(move |t| hand.count(*t) > 0)
        .filter(move |t| void.is_none_or(|v| t.suit() == v) || !held_void(&hand, void));
    let Some((_, after, live)) = view.best_discard(&hand, &ctx, candidates) else {
        return false;
    };
    after < now || (after == now && (now > 0 || live >= view.live_waits(&view.hand, &view.ctx)))
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
