//! The second door (issue 29): hidden tiles chosen outside the game, by a search that deals
//! again what a seat cannot see (`crate::search`), installed into it. The game rebuilds what the
//! tiles imply (arrival turns, pongs made with three in hand, the winners' recorded hands, cached
//! waits) and checks the result whole.
//!
//! Two ways in: [`Game::install_hidden`] replaces any hidden tiles of a game one holds, and
//! [`SeatView::world`] makes, from one seat's view, a copy in which every tile hidden from that
//! seat is replaced: it refuses a deal that leaves any of them as it is, so a search holding a
//! view learns nothing through it. The true tiles reach a search only through [`TrueHands`], an
//! explicit argument (as Mortal's agents get hidden state only through an explicit opt-in).

use super::events::KongKind;
use super::value::score_win;
use super::view::{SeatView, Viewer};
use super::Responses;
use super::{Game, Pending, TurnKind, WinRecord};
use crate::analysis::Context;
use crate::hand::Counts;
use crate::meld::{Meld, MeldKind, Melds};
use crate::rng::Rng;
use crate::score::Score;
use crate::tile::{Tile, KINDS};

/// Hidden tiles to install: any seat's concealed tiles, the tile the seat on the move has just
/// drawn, the live wall, the exchange's picks (换三张, each seen only by its giver and its
/// receiver), and the tiles of self-draws hidden until the hand ends.
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
    /// New tiles of self-draws (by index in the win list) whose tile is hidden until the hand
    /// ends (`win_reveal = "hand_end"`); only [`SeatView::world`] takes them, scoring those wins
    /// again.
    pub won: Vec<(usize, Tile)>,
}

impl Game {
    /// Installs `hidden`, checked: a drawn tile exactly for the seat on the move after a draw,
    /// a wall as long as the one it replaces, and then every invariant (the 108 tiles four of
    /// each kind, hand sizes, wins that are real). On error nothing changes.
    pub fn install_hidden(&mut self, hidden: &Hidden) -> Result<(), String> {
        if !hidden.won.is_empty() {
            return Err(
                "hidden.won: the tiles of hidden self-draws need a viewer (SeatView::world)".into(),
            );
        }
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
            x.given = given;
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
            self.redeal_seat(seat, kept, drawn);
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

/// The tiles hidden from a seat as they are: what determinisation falls back on when its search
/// finds no deal within its budget (`crate::search`). Taking one is the explicit opt-in to
/// reading hidden tiles, so that it shows in every signature that does.
#[derive(Clone, Copy)]
pub struct TrueHands<'a> {
    game: &'a Game,
}

impl<'a> TrueHands<'a> {
    /// The true tiles of `game`, which its holder sees whole anyway.
    pub fn of(game: &'a Game) -> TrueHands<'a> {
        TrueHands { game }
    }

    /// The concealed tiles of `seat` without the tile it has just drawn.
    pub fn kept(&self, seat: u8) -> Counts {
        let game = self.game;
        let mut hand = game.seats[seat as usize & 3].hand;
        if let Some(d) = game.just_drawn(seat & 3) {
            super::state::take(&mut hand, d);
        }
        hand
    }

    /// The tile of win `index`.
    pub fn won_tile(&self, index: usize) -> Option<Tile> {
        self.game.wins.get(index).map(|w| w.tile)
    }

    /// Whether these are the tiles hidden in `view`'s very game (not another's, nor a copy's).
    pub fn is_behind(&self, view: &SeatView<'_>) -> bool {
        std::ptr::eq(self.game, view.game)
    }
}

/// What a search over the hidden tiles reads besides the table: deductions from the public
/// record, the melds and scoring of the wins it may see, the world it deals, and the opt-in to
/// the true tiles.
impl<'a> SeatView<'a> {
    /// The tiles the seat knows `seat` holds: of the three it gave `seat` in the exchange, those
    /// not seen leaving its hand since ([`Game::known_tiles`] as the giver can tell them); all
    /// zero for any other seat.
    pub fn known_tiles(&self, seat: u8) -> [u8; KINDS] {
        let receives = (self.game.history.exchange).is_some_and(|e| e.receiver(self.seat) == seat);
        if receives {
            self.game.known_tiles_to(seat, Viewer::Seat(self.seat))
        } else {
            [0; KINDS]
        }
    }

    /// The most tiles of its void suit `seat` can hold, as everyone can tell
    /// ([`Game::void_bound`]).
    pub fn void_bound(&self, seat: u8) -> Option<u8> {
        self.game.void_bound(seat & 3)
    }

    /// Copies of each kind that have left the concealed hand of `seat` in public since the
    /// deal: its discards, the tiles of its melds from its hand, its winning tiles seen.
    pub fn shown_from_hand(&self, seat: u8) -> [u8; KINDS] {
        (self.game).shown_from_hand(seat & 3, Viewer::Seat(self.seat))
    }

    /// The melds the winner of win `index` held when it won.
    pub fn win_melds(&self, index: usize) -> Option<[Option<Meld>; 4]> {
        self.game.wins.get(index).map(|w| w.melds)
    }

    /// The concealed tiles before win `index` of its winner, were it to keep `kept` now: a
    /// concealed kong made since held three of its tiles in the hand then.
    pub fn hand_at_win(&self, index: usize, kept: Counts) -> Option<Counts> {
        (self.game.wins.get(index)).map(|w| self.game.hand_at_win(w, kept))
    }

    /// The context the winner of win `index` was judged in when it won (its melds then).
    pub fn win_context(&self, index: usize) -> Option<Context> {
        let w = self.game.wins.get(index)?;
        let mut melds = Melds::NONE;
        for m in w.melds.iter().flatten() {
            // Melds of distinct tiles, at most four: the push cannot fail.
            let _ = melds.push(*m);
        }
        let seat = &self.game.seats[w.seat as usize];
        Some(Context {
            melds,
            ..seat.context(&self.game.rules)
        })
    }

    /// The context `seat`'s hand is judged in: its melds and void suit.
    pub fn context_of(&self, seat: u8) -> Context {
        self.game.seats[seat as usize & 3].context(&self.game.rules)
    }

    /// What win `index` would have scored had its winner held `hand` (its concealed tiles
    /// before the win, with the melds it held then); `None` for a win whose score the seat may
    /// not see yet.
    pub fn score_with(&self, index: usize, hand: Counts) -> Option<Score> {
        let w = self.game.wins.get(index)?;
        (!self.game.win_hidden(Viewer::Seat(self.seat), w)).then(|| self.game.score_with(w, hand))
    }

    /// The seat's opt-in to the tiles hidden from it ([`TrueHands`]): a search that passes it on
    /// reads them where its own deal fails.
    pub fn true_hands(&self) -> TrueHands<'a> {
        TrueHands::of(self.game)
    }

    /// A world for search: a copy of the game in which every tile hidden from the seat is
    /// `hidden`'s, which must name them all (each other seat's kept tiles and drawn tile, the
    /// wall, the exchange's picks it did not see, the tiles of self-draws it did not see); the
    /// seat's own tiles and the picks it saw stay. The copy keeps no event log (it would give
    /// the true deal away); its seed is `seed` and its generator starts from `rng`. The other
    /// seats' hidden decisions are forgotten and responses open to them worked out from their
    /// new hands (a discard may go unclaimed), and the wins the seat may not see scored again.
    /// Checked whole (every invariant); on error no world.
    pub fn world(&self, hidden: &Hidden, seed: u64, rng: u64) -> Result<Game, String> {
        self.make_world(hidden, seed, rng, true)
    }

    /// [`SeatView::world`] without the invariant checks but in debug builds: for the crate's own
    /// search, whose deals hold every invariant by construction (its tests check each copy) and
    /// which makes one per ISMCTS sample, where the checks cost 6% of a determinisation.
    pub(crate) fn world_unchecked(
        &self,
        hidden: &Hidden,
        seed: u64,
        rng: u64,
    ) -> Result<Game, String> {
        self.make_world(hidden, seed, rng, false)
    }

    fn make_world(
        &self,
        hidden: &Hidden,
        seed: u64,
        rng: u64,
        checked: bool,
    ) -> Result<Game, String> {
        self.covers(hidden)?;
        let mut world = self.game.clone();
        world.stop_logging();
        (world.seed, world.rng) = (seed, Rng::new(rng));
        world.place(hidden)?;
        world.rescore_hidden_wins(self.seat, &hidden.won)?;
        if checked {
            world.check_invariants()?;
        } else {
            debug_assert!(
                world.check_invariants().is_ok(),
                "a world breaks an invariant"
            );
        }
        world.reopen_decisions(self.seat);
        Ok(world)
    }

    /// Whether `hidden` replaces every tile hidden from the seat and no tile it sees.
    fn covers(&self, hidden: &Hidden) -> Result<(), String> {
        let (game, viewer) = (self.game, self.seat);
        if hidden.kept[viewer as usize].is_some() || hidden.drawn[viewer as usize].is_some() {
            return Err(format!(
                "hidden.kept[{viewer}]: the seat's own tiles are not hidden from it"
            ));
        }
        if let Some(s) = (0..4u8).find(|&s| s != viewer && hidden.kept[s as usize].is_none()) {
            return Err(format!(
                "hidden.kept[{s}]: a world deals every hand hidden from seat {viewer}"
            ));
        }
        if hidden.wall.is_none() {
            return Err("hidden.wall: a world deals the wall again".into());
        }
        match (game.history.exchange, hidden.exchange) {
            (None, None) => {}
            (Some(x), Some(given)) => {
                let from = (0..4u8)
                    .find(|&g| x.receiver(g) == viewer)
                    .unwrap_or(viewer);
                for g in [viewer, from] {
                    if given[g as usize] != x.given[g as usize] {
                        return Err(format!("hidden.exchange[{g}]: seat {viewer} saw that pick"));
                    }
                }
            }
            _ => return Err("hidden.exchange: picks exactly when the exchange resolved".into()),
        }
        let hidden_wins = (game.wins.iter().enumerate())
            .filter(|(_, w)| game.tile_hidden(Viewer::Seat(viewer), w));
        let named = |i: usize| hidden.won.iter().filter(|&&(j, _)| j == i).count();
        if let Some((i, _)) = hidden_wins.clone().find(|&(i, _)| named(i) != 1) {
            return Err(format!(
                "hidden.won: win {i}'s tile once, as seat {viewer} has not seen it"
            ));
        }
        if hidden.won.len() != hidden_wins.count() {
            return Err(format!(
                "hidden.won: tiles only of wins seat {viewer} has not seen"
            ));
        }
        Ok(())
    }
}

impl Game {
    /// The tile `seat` has just drawn while it is on the move.
    fn just_drawn(&self, seat: u8) -> Option<Tile> {
        match self.pending {
            Pending::Turn(t) if t.seat == seat => match t.kind {
                TurnKind::Draw | TurnKind::Replacement => t.drawn,
                TurnKind::First | TurnKind::AfterPong | TurnKind::Dealt => None,
            },
            _ => None,
        }
    }

    /// What win `w` scores with the concealed tiles `hand` before it and the melds then.
    fn score_with(&self, w: &WinRecord, hand: Counts) -> Score {
        let mut then = self.seats[w.seat as usize];
        (then.hand, then.melds, then.root_only_kongs) = (hand, w.melds, w.root_only_kongs);
        then.rebuild_summary();
        score_win(&self.rules, &then, w.tile, w.flags)
    }

    /// Gives seat `s` the kept tiles `kept` and the drawn tile `drawn`. Arrival turns and
    /// pongs made with three in hand are hidden history: the kept tiles count as held before
    /// this turn (a kept fourth copy as held when the pong was made), the drawn one as new.
    fn redeal_seat(&mut self, s: u8, kept_counts: Counts, drawn: Option<Tile>) {
        let wilds = self.rules.wilds;
        let seat = &mut self.seats[s as usize];
        seat.hand = kept_counts;
        seat.arrival = [0; KINDS];
        kept_counts
            .tiles()
            .for_each(|t| seat.arrival[t.index()] = 1);
        let held = kept_counts.tiles().fold(0u32, |m, t| m | 1 << t.index());
        seat.pong_with_three = seat.pongs & held;
        seat.declined = None;
        if let Some(d) = drawn {
            let turn = seat.turn;
            seat.receive(d, turn, wilds);
            if let Pending::Turn(t) = &mut self.pending {
                t.drawn = Some(d);
            }
        }
        for i in 0..self.wins.len() {
            if self.wins[i].seat == s {
                self.wins[i].hand = self.hand_at_win(&self.wins[i], kept_counts);
            }
        }
    }

    /// The concealed hand before win `w` of a winner that keeps `kept` now: a concealed kong
    /// made after the win held three of its tiles in the hand then.
    fn hand_at_win(&self, w: &WinRecord, kept: Counts) -> Counts {
        let mut then = kept;
        for m in self.seats[w.seat as usize].melds.iter().flatten() {
            let later = !w.melds.iter().flatten().any(|x| x.tile == m.tile);
            if m.kind == MeldKind::ConcealedKong && later {
                (0..3).for_each(|_| then.add(m.tile));
            }
        }
        then
    }

    /// Gives the self-draws hidden from `viewer` their new tiles `won`, and scores every win
    /// hidden from it again from its new hand, with what it is owed.
    fn rescore_hidden_wins(&mut self, viewer: u8, won: &[(usize, Tile)]) -> Result<(), String> {
        for &(i, tile) in won {
            let w = self
                .wins
                .get_mut(i)
                .ok_or(format!("hidden.won: no win {i}"))?;
            w.tile = tile;
        }
        for i in 0..self.wins.len() {
            if !self.win_hidden(Viewer::Seat(viewer), &self.wins[i]) {
                continue;
            }
            self.wins[i].score = self.score_with(&self.wins[i], self.wins[i].hand);
            if self.wins[i].owed != [0; 4] {
                self.wins[i].owed = self.owed_again(i);
            }
        }
        Ok(())
    }

    /// Forgets the other seats' hidden decisions and reopens responses to their new hands.
    fn reopen_decisions(&mut self, viewer: u8) {
        let v = viewer as usize;
        match &mut self.pending {
            Pending::Exchange(picks) => (0..4).filter(|&i| i != v).for_each(|i| picks[i] = None),
            Pending::Void(picks) => (0..4).filter(|&i| i != v).for_each(|i| picks[i] = None),
            Pending::Respond(r) => {
                let old = *r;
                self.reopen_responses(viewer, old);
            }
            Pending::Turn(_) | Pending::Over => {}
        }
    }

    /// Claims on the pending discard or kong, worked out again from the new hands; the viewer's
    /// claim and decision stay. Resolves at once if nobody else may claim and the viewer has
    /// decided (or was not asked).
    fn reopen_responses(&mut self, viewer: u8, old: Responses) {
        let mut r = Responses {
            claims: [0; 4],
            forced: 0,
            decisions: [None; 4],
            ..old
        };
        let robbable = match old.kong {
            Some((kind, _)) => kind == KongKind::Added || self.rules.rob_concealed_kong,
            None => true,
        };
        for o in (0..4u8).filter(|&o| o != old.from) {
            r.claims[o as usize] = if o == viewer {
                old.claims[o as usize]
            } else if !robbable {
                0
            } else if old.kong.is_some() {
                self.rob_claims(o, &old)
            } else {
                self.discard_claims(o, old.tile, old.after_kong.is_some())
            };
        }
        r.decisions[viewer as usize] = old.decisions[viewer as usize];
        self.open_responses(r, self.wall.remaining() <= 4);
        if let Pending::Respond(open) = self.pending {
            if (0..4).all(|i| open.claims[i] == 0 || open.decisions[i].is_some()) {
                self.resolve_responses(open);
            }
        }
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
            let truth = Some(TrueHands::of(&game));
            let dealt = crate::search::determinize(&game.view(0).unwrap(), 9, truth).unwrap();
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

    /// A world from the view takes a deal of every tile hidden from the seat and nothing it
    /// sees: a search holding a view cannot ask it for the true tiles by leaving some out.
    #[test]
    fn a_world_deals_every_hidden_tile_and_no_seen_one() {
        let game = midway(Preset::Xuezhan, 6, 30);
        let view = game.view(0).unwrap();
        let full = hidden_of(&game, 0);
        let world = view.world(&full, 1, 2).unwrap();
        assert!(
            world.events().next().is_none(),
            "no log: it holds the true deal"
        );
        assert_eq!(world.seed(), 1);
        let mut installed = game.clone();
        installed.install_hidden(&full).unwrap();
        assert!((0..4).all(|s| world.seat(s).hand == installed.seat(s).hand));
        let mut faults = [full.clone(), full.clone(), full.clone(), full.clone()];
        (faults[0].kept[2], faults[0].drawn[2]) = (None, None);
        faults[1].wall = None;
        faults[2].kept[0] = Some(game.seat(0).hand);
        let x = game.history().exchange.unwrap();
        let mut given = x.given;
        given[0].reverse();
        given[0][0] = Tile::all().find(|t| !x.given[0].contains(t)).unwrap();
        faults[3].exchange = Some(given);
        for (i, hidden) in faults.iter().enumerate() {
            let Err(e) = view.world(hidden, 1, 2) else {
                panic!("fault {i} taken");
            };
            assert!(e.starts_with("hidden."), "fault {i}: {e}");
        }
    }
}
