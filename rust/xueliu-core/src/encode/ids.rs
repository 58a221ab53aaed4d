//! The fixed table of action ids (docs/encoding.md §1): every decision a seat can make is
//! one small integer, so a policy has a fixed-size output and a mask of the same size.
//!
//! 换三张 is the one decision with too many shapes for one id each (three tiles of one suit, or
//! of any suits: up to C(29, 3) = 3,654 multisets), so it is made as three *picks*, one tile
//! per id; the third pick completes the [`Action::Exchange`]. The `swap` block is the 幺鸡
//! variant's 幺鸡换, one id per tile; other rules never make it legal.

use crate::game::Action;
use crate::tile::{Suit, Tile, KINDS};

/// First id of each block; a block of 27 is indexed by tile (`1m..9m, 1p..9p, 1s..9s`).
pub const PICK: u16 = 0;
/// Three ids, `m`, `p`, `s`.
pub const VOID: u16 = PICK + KINDS as u16;
pub const DISCARD: u16 = VOID + 3;
pub const PONG: u16 = DISCARD + KINDS as u16;
pub const KONG: u16 = PONG + 1;
pub const WIN: u16 = KONG + KINDS as u16;
pub const PASS: u16 = WIN + 1;
/// The 幺鸡 variant's `swap` (幺鸡换), by tile.
pub const SWAP: u16 = PASS + 1;
/// Number of action ids.
pub const ACTION_COUNT: usize = SWAP as usize + KINDS;

/// What one id stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IdMeaning {
    /// One tile toward an exchange; three picks make it.
    Pick(Tile),
    /// A whole action.
    Act(Action),
}

/// The id of a pick of `tile` toward an exchange.
#[inline]
pub const fn pick_id(tile: Tile) -> u16 {
    PICK + tile.index() as u16
}

/// The id of `action`; `None` for an exchange, which is three picks ([`exchange_ids`]).
#[inline]
pub const fn action_id(action: Action) -> Option<u16> {
    Some(match action {
        Action::Exchange(_) => return None,
        Action::Void(s) => VOID + s.index() as u16,
        Action::Discard(t) => DISCARD + t.index() as u16,
        Action::Pong => PONG,
        Action::Kong(t) => KONG + t.index() as u16,
        Action::Win => WIN,
        Action::Pass => PASS,
        Action::Swap(t) => SWAP + t.index() as u16,
    })
}

/// The three pick ids of an exchange, in the order of its (sorted) tiles.
#[inline]
pub const fn exchange_ids(tiles: [Tile; 3]) -> [u16; 3] {
    [pick_id(tiles[0]), pick_id(tiles[1]), pick_id(tiles[2])]
}

/// What `id` stands for; `None` past the table.
pub fn meaning(id: u16) -> Option<IdMeaning> {
    let tile = |base: u16| Tile::new((id - base) as u8);
    Some(match id {
        _ if id < VOID => IdMeaning::Pick(tile(PICK)?),
        _ if id < DISCARD => IdMeaning::Act(Action::Void(Suit::from_index((id - VOID) as usize))),
        _ if id < PONG => IdMeaning::Act(Action::Discard(tile(DISCARD)?)),
        PONG => IdMeaning::Act(Action::Pong),
        _ if id < WIN => IdMeaning::Act(Action::Kong(tile(KONG)?)),
        WIN => IdMeaning::Act(Action::Win),
        PASS => IdMeaning::Act(Action::Pass),
        _ if (id as usize) < ACTION_COUNT => IdMeaning::Act(Action::Swap(tile(SWAP)?)),
        _ => return None,
    })
}

/// A readable name for `id`: the action's text (`"discard 5m"`, `"swap 5m"`) or `"pick 5m"`.
pub fn id_name(id: u16) -> Option<String> {
    Some(match meaning(id)? {
        IdMeaning::Pick(t) => format!("pick {t}"),
        IdMeaning::Act(a) => a.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_are_in_the_documented_places() {
        assert_eq!((PICK, VOID, DISCARD, PONG, KONG), (0, 27, 30, 57, 58));
        assert_eq!((WIN, PASS, SWAP, ACTION_COUNT), (85, 86, 87, 114));
    }

    #[test]
    fn every_id_round_trips_and_every_action_has_one() {
        for id in 0..ACTION_COUNT as u16 {
            match meaning(id).unwrap() {
                IdMeaning::Pick(t) => assert_eq!(pick_id(t), id),
                IdMeaning::Act(a) => assert_eq!(action_id(a), Some(id), "{a}"),
            }
        }
        assert_eq!(meaning(ACTION_COUNT as u16), None);
        let names: std::collections::HashSet<String> = (0..ACTION_COUNT as u16)
            .map(|i| id_name(i).unwrap())
            .collect();
        assert_eq!(names.len(), ACTION_COUNT);
    }

    #[test]
    fn an_exchange_is_its_three_picks() {
        let t = |i| Tile::new(i).unwrap();
        let ex = Action::exchange([t(4), t(2), t(2)]);
        assert_eq!(action_id(ex), None);
        let Action::Exchange(tiles) = ex else {
            unreachable!()
        };
        assert_eq!(exchange_ids(tiles), [2, 2, 4]);
    }
}
