//! The input of policy version 2 and later: the facts greedy play weighs, computed from one
//! seat's view, laid out as bytes the network reads as the planes are read (`min(v, 8) / 4`).
//! With greedy's own choice among them the network can play greedy's hand exactly and learn
//! where its teacher plays otherwise.
//!
//! ```text
//! per tile (27 columns each), block k at k·27:
//!   0 held      copies in the seat's hand (wilds as the 1s they are)
//!   1 unseen    copies the seat has not seen (4 − hand − melds − rivers − won)
//!   2 best      1 where discarding the tile leaves the lowest shanten any legal discard leaves
//!   3 shanten   1 + shanten after discarding it (0: not a legal discard), at most 8
//!   4 live      live waits after discarding it (unseen copies of the winning tiles) / 2
//!   5 most_live 1 where that is the most any discard leaves (and some)
//!   6 links     how much the tile works with the hand: 4·(copies−1) + 2·(±1) + (±2), / 2
//!   7 void      1 on the seat's void suit
//!   8 safe      rivals still in the hand whose void suit is the tile's (cannot win on it)
//!   9 river     copies in all rivers
//!  10 melded    copies in all melds
//!  11 table     the discard (or added kong) awaiting responses
//!  12 drawn     the tile just drawn
//! 351   greedy's choice: one byte per action id (114), 1 at greedy's id
//! 465   the seat: shanten now one-hot (−1 to 6, 8 bytes), the decision (void, turn, respond),
//!       the wall (8 bytes, byte k set when more than 7k tiles remain), own wins, rivals out,
//!       own melds, wilds held, the three suits' lengths / 2, concealed (no melds)
//! 492   the rules: the observation's two rules planes (docs/encoding.md §2), 54 bytes
//! ```

use super::super::greedy::Connections;
use super::super::Bot;
use super::super::GreedyBot;
use crate::analysis::{uncapped_shanten, waits};
use crate::encode::{action_id, ACTION_COUNT, OBS_SIZE};
use crate::game::{Action, ActionList, Ask, SeatView};
use crate::tile::{Suit, Tile, KINDS};

/// Per-tile blocks.
const HELD: usize = 0;
const UNSEEN: usize = 1;
const BEST: usize = 2;
const SHANTEN: usize = 3;
const LIVE: usize = 4;
const MOST_LIVE: usize = 5;
const LINKS: usize = 6;
const VOID: usize = 7;
const SAFE: usize = 8;
const RIVER: usize = 9;
const MELDED: usize = 10;
const TABLE: usize = 11;
const DRAWN: usize = 12;
const TILE_BLOCKS: usize = 13;

/// Where greedy's choice starts.
pub const GREEDY: usize = TILE_BLOCKS * KINDS;
/// Where the seat's facts start, and their fields.
const SEAT: usize = GREEDY + ACTION_COUNT;
const SHANTEN_NOW: usize = SEAT;
const DECISION: usize = SEAT + 8;
const WALL: usize = DECISION + 3;
const WINS: usize = WALL + 8;
const OUT: usize = WINS + 1;
const MELDS: usize = OUT + 1;
const WILDS: usize = MELDS + 1;
const SUITS: usize = WILDS + 1;
const CONCEALED: usize = SUITS + 3;
/// Where the rules planes start: the last bytes, the same for every decision of a ruleset.
pub const RULES_START: usize = CONCEALED + 1;
/// Bytes in the input.
pub const FEATURES: usize = RULES_START + 2 * KINDS;

const _: () = assert!(FEATURES == 546 && FEATURES <= OBS_SIZE);

/// Copies the rules planes of an observation (its last 54 bytes) to the end of `out`.
pub fn copy_rules(planes: &[u8; OBS_SIZE], out: &mut [u8]) {
    out[RULES_START..FEATURES].copy_from_slice(&planes[OBS_SIZE - 2 * KINDS..]);
}

/// Writes the features of `view` into `out`, whose last 54 bytes (the rules) are left as
/// they are. `legal` holds the seat's legal actions; `greedy` decides for greedy's choice.
pub fn write(view: &SeatView<'_>, legal: &ActionList, greedy: &mut GreedyBot, out: &mut [u8]) {
    let out = &mut out[..RULES_START];
    out.fill(0);
    let hand = view.hand();
    let ctx = view.context();
    let held = hand.array();
    let links = Connections::new(hand);
    let mut unseen = [0; KINDS];
    let col = |block: usize, t: Tile| block * KINDS + t.index();
    for t in Tile::all() {
        let i = t.index();
        unseen[i] = view.unseen(t);
        out[col(HELD, t)] = held[i];
        out[col(UNSEEN, t)] = unseen[i];
        out[col(LINKS, t)] = (links.of(t) / 2).min(8) as u8;
        out[col(RIVER, t)] = view.river_counts()[i];
        out[col(MELDED, t)] = (0..4).map(|s| view.melded(s).held[i]).sum();
    }
    let me = view.seat();
    if let Some(v) = ctx.void {
        Tile::all()
            .filter(|t| t.suit() == v)
            .for_each(|t| out[col(VOID, t)] = 1);
    }
    let rivals = (0..4u8).filter(|&s| s != me && view.in_hand(s));
    for s in rivals.clone() {
        if let Some(v) = view.void(s) {
            Tile::all()
                .filter(|t| t.suit() == v)
                .for_each(|t| out[col(SAFE, t)] += 1);
        }
    }
    if let Some(open) = view.open_tile() {
        out[col(TABLE, open.tile)] = 1;
    }
    if let Some(t) = view.drawn() {
        out[col(DRAWN, t)] = 1;
    }

    // Each legal discard: the shanten it leaves and, when ready, its live waits.
    let mut after = [i8::MAX; KINDS];
    let mut live = [0u32; KINDS];
    for &a in legal.iter() {
        if let Action::Discard(t) = a {
            let mut rest = *hand;
            rest.remove(t);
            let sh = uncapped_shanten(&rest, &ctx);
            after[t.index()] = sh;
            if sh == 0 {
                let mut mask = waits(&rest, &ctx);
                while mask != 0 {
                    live[t.index()] += u32::from(unseen[mask.trailing_zeros() as usize]);
                    mask &= mask - 1;
                }
            }
        }
    }
    let lowest = after.iter().copied().min().unwrap_or(i8::MAX);
    let most = live.iter().copied().max().unwrap_or(0);
    for t in Tile::all().filter(|t| after[t.index()] != i8::MAX) {
        let (sh, l) = (after[t.index()], live[t.index()]);
        out[col(BEST, t)] = u8::from(sh == lowest);
        out[col(SHANTEN, t)] = (sh.max(-1) + 2).min(8) as u8;
        out[col(LIVE, t)] = (l / 2).min(8) as u8;
        out[col(MOST_LIVE, t)] = u8::from(most > 0 && l == most);
    }

    if let Some(id) = action_id(greedy.decide(view).action) {
        out[GREEDY + usize::from(id)] = 1;
    }
    let now = uncapped_shanten(hand, &ctx);
    out[SHANTEN_NOW + (now.clamp(-1, 6) + 1) as usize] = 1;
    match view.ask() {
        Ask::Void => out[DECISION] = 1,
        Ask::Turn => out[DECISION + 1] = 1,
        Ask::Respond(_) => out[DECISION + 2] = 1,
        Ask::Exchange | Ask::Nothing => {}
    }
    let wall = view.wall_remaining();
    (0..8).for_each(|k| out[WALL + k] = u8::from(wall > 7 * k));
    out[WINS] = view.wins_of(me).min(8);
    out[OUT] = 3 - rivals.count() as u8;
    let melds = view.melds(me).count() as u8;
    out[MELDS] = melds;
    out[WILDS] = hand.wilds();
    for s in Suit::ALL {
        out[SUITS + s.index()] = hand.suit_counts(s).iter().sum::<u8>() / 2;
    }
    out[CONCEALED] = u8::from(melds == 0);
}
