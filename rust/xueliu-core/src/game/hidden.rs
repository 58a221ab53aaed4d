//! The second door (issue 29): hidden tiles chosen outside the game, by a search that deals
//! again what a seat cannot see, installed into it. The game rebuilds what the tiles imply
//! (arrival turns, pongs made with three in hand, the winners' recorded hands, cached waits), as
//! [`Game::determinize`] does for its own deal, and checks the result whole.

use super::{Game, Pending, TurnKind};
use crate::hand::Counts;
use crate::tile::{Tile, KINDS};

/// Hidden tiles to install: any seat's concealed tiles, the tile the seat on the move has just
/// drawn, the live wall, and the exchange's picks (换三张, each seen only by its giver and its
/// receiver).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Hidden {
    /// Each seat's concealed tiles without its just-drawn tile (a winner's: its tiles at its
    /// win); `None` leaves the seat as it is.
    pub kept: [Option<Counts>; 4],
    /// The tile a seat given `kept` has just drawn, when it is on the move after a draw.
    pub drawn: [Option<Tile>; 4],
    /// The tiles still in the wall, front first, as many as it holds now; `None` keeps them.
    pub wall: Option<Vec<Tile>>,
    /// The three tiles each seat gave in the exchange that resolved; `None` keeps them.
    pub exchange: Option<[[Tile; 3]; 4]>,
}

impl Game {
    /// Installs `hidden`, checked: a drawn tile exactly for the seat on the move after a draw,
    /// a wall as long as the one it replaces, and then every invariant (the 108 tiles four of
    /// each kind, hand sizes, wins that are real). On error nothing changes.
    pub fn install_hidden(&mut self, hidden: &Hidden) -> Result<(), String> {
        let mut copy = self.clone();
        copy.place(hidden)?;
        copy.check_invariants()?;
        self.clone_from(&copy);
        Ok(())
    }

    fn place(&mut self, hidden: &Hidden) -> Result<(), String> {
        if let Some(wall) = &hidden.wall {
            let (front, back) = (self.wall.front as usize, self.wall.back as usize);
            if wall.len() != back - front {
                return Err(format!(
                    "hidden.wall: {} tiles for a wall of {}",
                    wall.len(),
                    back - front
                ));
            }
            self.wall.tiles[front..back].copy_from_slice(wall);
        }
        if let Some(given) = hidden.exchange {
            let Some(x) = &mut self.history.exchange else {
                return Err("hidden.exchange: picks for an exchange that never resolved".into());
            };
            x.given = given.map(|mut pick| {
                pick.sort_unstable();
                pick
            });
        }
        for seat in 0..4u8 {
            let (kept, drawn) = (hidden.kept[seat as usize], hidden.drawn[seat as usize]);
            let Some(kept) = kept else {
                if drawn.is_some() {
                    return Err(format!(
                        "hidden.drawn[{seat}]: a drawn tile without kept tiles"
                    ));
                }
                continue;
            };
            if drawn.is_some() != self.drew(seat) {
                return Err(format!(
                    "hidden.drawn[{seat}]: a drawn tile exactly for the seat on the move after a draw"
                ));
            }
            let mut kinds = [0u8; KINDS];
            kept.tiles_with_wilds().for_each(|t| kinds[t.index()] += 1);
            self.redeal_seat(seat, &kinds, drawn);
        }
        self.refresh_cached_waits();
        Ok(())
    }

    /// Whether `seat` is on the move holding a tile it has just drawn.
    fn drew(&self, seat: u8) -> bool {
        matches!(self.pending, Pending::Turn(t)
            if t.seat == seat && matches!(t.kind, TurnKind::Draw | TurnKind::Replacement))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::ActionList;
    use crate::rng::Rng;
    use crate::rules::Preset;
    use std::sync::Arc;

    /// A hand of `preset` after `steps` random decisions and any more up to a turn (where a
    /// determinised copy resolves nothing).
    fn midway(preset: Preset, seed: u64, steps: usize) -> Game {
        let mut game = Game::new(Arc::new(preset.rules()), seed, false).unwrap();
        let (mut rng, mut buf) = (Rng::new(seed), ActionList::new());
        for _ in 0..steps {
            game.step_random(&mut rng, &mut buf);
        }
        while !matches!(game.pending, Pending::Turn(_)) {
            assert!(game.step_random(&mut rng, &mut buf), "the hand ended");
        }
        game
    }

    /// What `game` hides from `viewer`, as a search would choose it.
    fn hidden_of(game: &Game, viewer: u8) -> Hidden {
        let mut hidden = Hidden {
            wall: Some(game.wall().live().to_vec()),
            exchange: game.history().exchange.map(|x| x.given),
            ..Hidden::default()
        };
        for s in (0..4u8).filter(|&s| s != viewer) {
            let mut kept = game.seat(s).hand;
            if game.drew(s) {
                let Pending::Turn(t) = game.pending else {
                    unreachable!()
                };
                let drawn = t.drawn.unwrap();
                super::super::state::take(&mut kept, drawn);
                hidden.drawn[s as usize] = Some(drawn);
            }
            hidden.kept[s as usize] = Some(kept);
        }
        hidden
    }

    #[test]
    fn installing_a_determinised_deal_gives_its_hands_and_wall() {
        for (preset, seed, steps) in [
            (Preset::Chengdu, 1, 30),
            (Preset::Xuezhan, 2, 25),
            (Preset::ChengduXueliu, 3, 70),
            (Preset::Yaoji, 4, 60),
        ] {
            let game = midway(preset, seed, steps);
            let dealt = game.determinize(0, 9).unwrap();
            let mut installed = game.clone();
            installed.install_hidden(&hidden_of(&dealt, 0)).unwrap();
            for s in 0..4u8 {
                assert_eq!(
                    installed.seat(s).hand,
                    dealt.seat(s).hand,
                    "{preset:?} seat {s}"
                );
                assert_eq!(
                    installed.seat(s).waits,
                    dealt.seat(s).waits,
                    "{preset:?} seat {s}"
                );
            }
            assert_eq!(installed.wall().live(), dealt.wall().live(), "{preset:?}");
            assert_eq!(installed.history(), dealt.history(), "{preset:?}");
            assert_ne!(
                game.wall().live(),
                dealt.wall().live(),
                "{preset:?}: a new deal"
            );
        }
    }

    #[test]
    fn a_deal_that_is_not_the_hidden_tiles_is_refused_and_changes_nothing() {
        let game = midway(Preset::Chengdu, 5, 40);
        let before = game.to_json();
        let swap = |hidden: &mut Hidden| {
            let kept = hidden.kept[1].as_mut().unwrap();
            let t = kept.tiles().next().unwrap();
            let other = Tile::all().find(|&o| o != t && kept.count(o) == 0).unwrap();
            kept.remove(t);
            kept.add(other);
        };
        let mut tampered = [
            hidden_of(&game, 0),
            hidden_of(&game, 0),
            hidden_of(&game, 0),
        ];
        swap(&mut tampered[0]);
        tampered[1].wall.as_mut().unwrap().pop();
        tampered[2].kept[1] = None;
        tampered[2].drawn[1] = Some(Tile::all().next().unwrap());
        for hidden in &tampered {
            let mut game = game.clone();
            assert!(game.install_hidden(hidden).is_err());
            assert_eq!(game.to_json(), before);
        }
        let mut same = game.clone();
        same.install_hidden(&hidden_of(&game, 0)).unwrap();
        assert_eq!(same.wall().live(), game.wall().live());
        assert!((0..4).all(|s| same.seat(s).hand == game.seat(s).hand));
    }
}
