//! The action mask: which ids a seat may take now, derived from the game's own legal actions
//! (so that the mask can never disagree with `legal_actions`).

use super::ids::{action_id, pick_id, ACTION_COUNT, PICK};
use super::picks::Picks;
use crate::game::{Action, Game, Pending};
use crate::tile::{Tile, KINDS};

/// A set of action ids, one bit each (the table has fewer than 128).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct IdSet(pub u128);

const _: () = assert!(ACTION_COUNT <= 128);

/// Each byte's eight bits as eight booleans, lowest bit first.
const SPREAD: [[bool; 8]; 256] = {
    let mut table = [[false; 8]; 256];
    let mut byte = 0;
    while byte < 256 {
        let mut bit = 0;
        while bit < 8 {
            table[byte][bit] = (byte >> bit) & 1 != 0;
            bit += 1;
        }
        byte += 1;
    }
    table
};

impl IdSet {
    pub const EMPTY: IdSet = IdSet(0);

    #[inline]
    pub fn insert(&mut self, id: u16) {
        self.0 |= 1 << id;
    }

    #[inline]
    pub fn contains(&self, id: u16) -> bool {
        (id as usize) < ACTION_COUNT && self.0 >> id & 1 != 0
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.0.count_ones() as usize
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0 == 0
    }

    /// The `n`-th id of the set in increasing order (`n < len()`).
    pub fn nth(&self, n: usize) -> Option<u16> {
        self.iter().nth(n)
    }

    /// The ids in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = u16> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            (bits != 0).then(|| {
                let id = bits.trailing_zeros() as u16;
                bits &= bits - 1;
                id
            })
        })
    }

    /// Writes the set as `ACTION_COUNT` booleans, eight at a time.
    pub fn write(&self, out: &mut [bool]) {
        let out = &mut out[..ACTION_COUNT];
        let bytes = self.0.to_le_bytes();
        for (chunk, &byte) in out.chunks_mut(8).zip(&bytes) {
            chunk.copy_from_slice(&SPREAD[byte as usize][..chunk.len()]);
        }
    }
}

/// The ids `seat` may take now, given its exchange `picks` so far: during the exchange, each
/// tile that extends the picks toward some legal exchange; otherwise one id per legal action
/// (and none when picks are given outside an exchange). Empty for a seat that need not decide.
pub fn legal_ids(game: &Game, seat: u8, picks: &Picks) -> IdSet {
    if let Pending::Exchange(_) = game.pending() {
        return pick_ids(game, seat, picks);
    }
    let mut set = IdSet::EMPTY;
    let mut rest = [Tile::YAOJI; 3];
    game.visit_legal(seat, &mut |a| match a {
        Action::Exchange(tiles) => {
            if let Some(n) = picks.rest_of(tiles, &mut rest) {
                rest[..n].iter().for_each(|&t| set.insert(pick_id(t)));
            }
        }
        other => {
            if let (true, Some(id)) = (picks.is_empty(), action_id(other)) {
                set.insert(id);
            }
        }
    });
    set
}

/// The pick ids of an exchange, found without listing the exchanges (up to 364 a seat; that
/// listing was most of a pick's cost): every natural tile held beyond its copies among the picks,
/// in a span holding three or more natural tiles — the picks' suit under `exchange_same_suit`
/// (any suit before the first pick), else the whole hand. None when the picks are not the
/// seat's. A test checks it against the listed exchanges.
fn pick_ids(game: &Game, seat: u8, picks: &Picks) -> IdSet {
    let mut set = IdSet::EMPTY;
    if seat > 3 || !game.must_act(seat) {
        return set;
    }
    let held = game.seat(seat).hand().array();
    let mut left = *held;
    for &p in picks.as_slice() {
        if left[p.index()] == 0 {
            return set;
        }
        left[p.index()] -= 1;
    }
    let mut spans = [0..KINDS, 0..0, 0..0];
    if game.rules().exchange_same_suit {
        let suit = |t: Tile| t.index() / 9 * 9..t.index() / 9 * 9 + 9;
        spans = [0..9, 9..18, 18..27];
        if let Some(&first) = picks.as_slice().first() {
            if picks.as_slice().iter().any(|p| p.suit() != first.suit()) {
                return set;
            }
            spans = [suit(first), 0..0, 0..0];
        }
    }
    for span in spans {
        if held[span.clone()]
            .iter()
            .map(|&n| n as usize)
            .sum::<usize>()
            >= 3
        {
            span.filter(|&t| left[t] > 0)
                .for_each(|t| set.insert(PICK + t as u16));
        }
    }
    set
}

#[cfg(test)]
mod tests {
    use super::super::ids::{meaning, IdMeaning};
    use super::super::picks::act_id;
    use super::*;
    use crate::game::ActionList;
    use crate::rng::Rng;
    use crate::rules::Rules;
    use std::sync::Arc;

    /// Every step of random games: the mask holds exactly the legal actions' ids (an exchange
    /// through its picks), and playing a random id keeps the game legal.
    #[test]
    fn the_mask_is_the_legal_actions() {
        let mut rng = Rng::new(7);
        let mut list = ActionList::new();
        for preset in ["chengdu", "chengdu_xueliu", "sanxia", "yaoji"] {
            let mut rules = Rules::preset(preset).unwrap();
            rules.exchange_same_suit = preset != "sanxia";
            let rules = Arc::new(rules);
            for seed in 0..30 {
                let mut game = Game::new(rules.clone(), seed, false).unwrap();
                let mut picks = Picks::NONE;
                while let Some(seat) = (0..4).find(|&s| game.must_act(s)) {
                    let set = legal_ids(&game, seat, &picks);
                    game.legal_actions(seat, &mut list);
                    if picks.is_empty() {
                        assert_eq!(set, expected(&list), "{preset} {seed}");
                    }
                    for other in (0..4).filter(|&s| !game.must_act(s)) {
                        assert!(legal_ids(&game, other, &Picks::NONE).is_empty());
                    }
                    let id = set.nth(rng.below(set.len() as u64) as usize).unwrap();
                    act_id(&mut game, seat, &mut picks, id).unwrap();
                    game.check_invariants().unwrap();
                }
            }
        }
    }

    /// The pick ids found directly are those the listed exchanges give, for every seat and every
    /// picks of up to two tiles (legal or not), in the exchange of random deals of each preset
    /// and of both `exchange_same_suit` settings.
    #[test]
    fn pick_ids_are_those_of_the_listed_exchanges() {
        let listed = |game: &Game, seat: u8, picks: &Picks| {
            let mut set = IdSet::EMPTY;
            let mut rest = [Tile::YAOJI; 3];
            game.visit_legal(seat, &mut |a| {
                if let Action::Exchange(tiles) = a {
                    if let Some(n) = picks.rest_of(tiles, &mut rest) {
                        rest[..n].iter().for_each(|&t| set.insert(pick_id(t)));
                    }
                }
            });
            set
        };
        let tiles: Vec<Tile> = (0..KINDS as u8).map(|i| Tile::new(i).unwrap()).collect();
        let mut all_picks = vec![Picks::NONE];
        for (i, &a) in tiles.iter().enumerate() {
            all_picks.push(Picks::of(&[a]).unwrap());
            all_picks.extend(tiles[i..].iter().map(|&b| Picks::of(&[a, b]).unwrap()));
        }
        let mut exchanges = 0;
        for preset in ["chengdu_xueliu", "sanxia", "yaoji"] {
            for same_suit in [true, false] {
                let mut rules = Rules::preset(preset).unwrap();
                rules.exchange_same_suit = same_suit;
                let rules = Arc::new(rules);
                for seed in 0..6 {
                    let game = Game::new(rules.clone(), seed, false).unwrap();
                    if !matches!(game.pending(), Pending::Exchange(_)) {
                        continue;
                    }
                    exchanges += 1;
                    for seat in 0..5 {
                        for picks in &all_picks {
                            let want = listed(&game, seat, picks);
                            assert_eq!(pick_ids(&game, seat, picks), want, "{preset} {seed}");
                        }
                    }
                }
            }
        }
        assert!(exchanges >= 24, "{exchanges} deals began with an exchange");
    }

    /// The ids of the legal actions, an exchange contributing its first pick's candidates.
    fn expected(list: &ActionList) -> IdSet {
        let mut set = IdSet::EMPTY;
        for &a in list.iter() {
            match a {
                Action::Exchange(t) => t.iter().for_each(|&t| set.insert(pick_id(t))),
                other => set.insert(action_id(other).unwrap()),
            }
        }
        set
    }

    #[test]
    fn a_set_writes_as_booleans() {
        let mut set = IdSet::EMPTY;
        [0, 7, 8, 63, 64, 100, 113]
            .iter()
            .for_each(|&i| set.insert(i));
        let mut out = [true; ACTION_COUNT];
        set.write(&mut out);
        let ids: Vec<u16> = (0..ACTION_COUNT as u16)
            .filter(|&i| out[i as usize])
            .collect();
        assert_eq!(ids, set.iter().collect::<Vec<_>>());
        assert_eq!(set.len(), 7);
    }

    #[test]
    fn picks_narrow_the_exchange_to_one_suit() {
        let rules = Arc::new(Rules::preset("chengdu_xueliu").unwrap());
        let game = Game::new(rules, 3, false).unwrap();
        let first = legal_ids(&game, 0, &Picks::NONE);
        let pick = first.iter().next().unwrap();
        let Some(IdMeaning::Pick(t)) = meaning(pick) else {
            panic!("not a pick")
        };
        let second = legal_ids(&game, 0, &Picks::of(&[t]).unwrap());
        assert!(!second.is_empty());
        for id in second.iter() {
            let Some(IdMeaning::Pick(u)) = meaning(id) else {
                panic!("not a pick")
            };
            assert_eq!(u.suit(), t.suit());
        }
    }
}
