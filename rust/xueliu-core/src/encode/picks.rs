//! 换三张 made one tile at a time: the tiles a seat has picked so far, and taking an action id
//! for a seat (a pick is kept until the third completes the exchange).

use super::ids::{id_name, meaning, IdMeaning};
use super::mask::legal_ids;
use crate::error::Error;
use crate::game::{Action, Game};
use crate::tile::Tile;

/// The tiles picked so far toward one seat's exchange: at most two, since the third completes
/// it. The game never sees a partial pick; whoever steps a game by ids keeps these.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Picks {
    tiles: [Tile; 2],
    len: u8,
}

impl Default for Picks {
    fn default() -> Picks {
        Picks::NONE
    }
}

impl Picks {
    pub const NONE: Picks = Picks {
        tiles: [Tile::YAOJI; 2],
        len: 0,
    };

    /// Picks of these tiles, in any order; `None` for three or more.
    pub fn of(tiles: &[Tile]) -> Option<Picks> {
        let mut picks = Picks::NONE;
        for &t in tiles {
            if picks.len == 2 {
                return None;
            }
            picks.tiles[picks.len as usize] = t;
            picks.len += 1;
        }
        Some(picks)
    }

    #[inline]
    pub fn as_slice(&self) -> &[Tile] {
        &self.tiles[..self.len as usize]
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// What `exchange` adds to these picks, if it contains them (as multisets); the tiles are
    /// written to `rest`, and their number returned.
    pub fn rest_of(&self, exchange: [Tile; 3], rest: &mut [Tile; 3]) -> Option<usize> {
        let mut left = [true; 3];
        for &p in self.as_slice() {
            let i = (0..3).find(|&i| left[i] && exchange[i] == p)?;
            left[i] = false;
        }
        let mut n = 0;
        for i in (0..3).filter(|&i| left[i]) {
            rest[n] = exchange[i];
            n += 1;
        }
        Some(n)
    }
}

/// Takes action `id` for `seat`, whose exchange picks so far are `picks`: a pick joins them
/// (the third plays the exchange and clears them); any other id plays its action. An id that is
/// not legal changes nothing and says why.
pub fn act_id(game: &mut Game, seat: u8, picks: &mut Picks, id: u16) -> Result<(), Error> {
    if !legal_ids(game, seat, picks).contains(id) {
        return Err(illegal_id(game, seat, picks, id));
    }
    take_legal_id(game, seat, picks, id)
}

/// [`act_id`] for an id the caller knows to be in `legal_ids(game, seat, picks)`.
pub(crate) fn take_legal_id(
    game: &mut Game,
    seat: u8,
    picks: &mut Picks,
    id: u16,
) -> Result<(), Error> {
    match meaning(id) {
        Some(IdMeaning::Pick(t)) if picks.len == 2 => {
            let [a, b] = picks.tiles;
            game.act(seat, Action::exchange([a, b, t]))?;
            *picks = Picks::NONE;
        }
        Some(IdMeaning::Pick(t)) => {
            picks.tiles[picks.len as usize] = t;
            picks.len += 1;
        }
        Some(IdMeaning::Act(a)) => game.act(seat, a)?,
        None => return Err(illegal_id(game, seat, picks, id)),
    }
    Ok(())
}

/// Why `id` cannot be taken, with the ids that can.
pub(crate) fn illegal_id(game: &Game, seat: u8, picks: &Picks, id: u16) -> Error {
    let legal: Vec<String> = legal_ids(game, seat, picks)
        .iter()
        .filter_map(|i| id_name(i).map(|n| format!("{i} ({n})")))
        .collect();
    let name = id_name(id).unwrap_or_else(|| "no action".into());
    Error::IllegalAction(format!(
        "action id {id} ({name}) is not legal for seat {seat} now; legal ids: {}",
        if legal.is_empty() {
            "none".to_string()
        } else {
            legal.join(", ")
        }
    ))
}
