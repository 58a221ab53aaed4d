//! One hand stepped by action ids, one seat at a time: the caller decides for its seats, built-in
//! policies for the others (opponents).

use crate::bots::{bot_seed, play, AnyBot, BotKind, BOT_NAMES};
use crate::encode::picks::{illegal_id, take_legal_id};
use crate::encode::{legal_ids, IdSet, Picks};
use crate::error::Error;
use crate::game::{Action, Game};
use crate::rng::Rng;
use crate::rules::Rules;
use std::sync::Arc;

/// Keeps `Policy::Random`'s stream apart from the game's own.
const RANDOM_SALT: u64 = 0x5EA7_5EA7_5EA7_5EA7;

/// Who decides for a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// The caller, by action id.
    Caller,
    /// A uniformly random legal action (an exchange: one of the legal picks of three).
    Random,
    /// The game's timeout action (`Game::default_action`, docs/game-protocol.md §2).
    Default,
    /// A Rust bot (`bots`); seat `s`'s bot in the hand dealt from seed `h` is built with seed
    /// `bot_seed(h, s)`, as `simulate` seeds its bots.
    Bot(BotKind),
}

impl Policy {
    /// The policy called `name`: `"random"`, `"default"` or any other bot name (`BOT_NAMES`).
    /// `"random"` is the table's own random policy, drawn from the hand's seed.
    pub fn parse(name: &str) -> Option<Policy> {
        match name {
            "random" => Some(Policy::Random),
            "default" => Some(Policy::Default),
            _ => BotKind::parse(name).ok().map(Policy::Bot),
        }
    }

    /// The names `parse` reads, quoted and comma-separated, for error messages.
    pub fn names() -> String {
        let mut names = vec!["default"];
        names.extend(BOT_NAMES.iter().copied());
        let quoted: Vec<String> = names.iter().map(|n| format!("{n:?}")).collect();
        format!(
            "{}, or \"ismcts:N\" or \"ismcts+policy:N\" (N playouts per decision)",
            quoted.join(", ")
        )
    }
}

/// A hand in progress, with the state that stepping by ids needs: the seat to decide and its
/// legal ids, and that seat's exchange picks so far.
#[derive(Clone)]
pub struct Table {
    game: Game,
    /// The game's rules, for dealing the next hand at this table.
    rules: Arc<Rules>,
    policies: [Policy; 4],
    /// Drives `Policy::Random`; seeded from the hand's seed.
    rng: Rng,
    /// The bot of each `Policy::Bot` seat, allocated only when a seat has one (four inline bot
    /// slots would be most of a table's size) and kept from hand to hand, reseeded.
    bots: Option<Box<[Option<AnyBot>; 4]>>,
    seat: u8,
    picks: Picks,
    legal: IdSet,
}

impl Table {
    /// A new hand of `seed` without a log; opponents play until a caller seat must decide. At
    /// least one seat must be the caller's.
    pub fn new(rules: Arc<Rules>, seed: u64, policies: [Policy; 4]) -> Result<Table, Error> {
        if !policies.contains(&Policy::Caller) {
            return Err(Error::Argument(
                "every seat is an opponent: leave at least one seat to the caller".into(),
            ));
        }
        let any_bot = policies.iter().any(|p| matches!(p, Policy::Bot(_)));
        let mut table = Table {
            game: Game::new(rules.clone(), seed, false)?,
            rules,
            policies,
            rng: Rng::new(seed ^ RANDOM_SALT),
            bots: any_bot.then(|| {
                Box::new(std::array::from_fn(|s| match policies[s] {
                    Policy::Bot(kind) => Some(AnyBot::new(kind, bot_seed(seed, s))),
                    _ => None,
                }))
            }),
            seat: 0,
            picks: Picks::NONE,
            legal: IdSet::EMPTY,
        };
        table.advance();
        Ok(table)
    }

    /// Deals the hand of `seed` at this table, as `Table::new` with the same rules and policies
    /// would, but keeping the bots (reseeded) instead of building new ones.
    pub fn redeal(&mut self, seed: u64) -> Result<(), Error> {
        self.game = Game::new(self.rules.clone(), seed, false)?;
        self.rng = Rng::new(seed ^ RANDOM_SALT);
        for (s, bot) in self.bots.iter_mut().flat_map(|b| b.iter_mut()).enumerate() {
            if let Some(bot) = bot {
                bot.reseed(bot_seed(seed, s));
            }
        }
        self.picks = Picks::NONE;
        self.advance();
        Ok(())
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The seat that decides next (meaningless once the hand is over).
    pub fn seat(&self) -> u8 {
        self.seat
    }

    pub fn picks(&self) -> &Picks {
        &self.picks
    }

    /// The ids the seat to decide may take; empty once the hand is over.
    pub fn legal(&self) -> IdSet {
        self.legal
    }

    pub fn is_over(&self) -> bool {
        self.game.is_over()
    }

    /// Takes `id` for the seat to decide, then lets opponents play until a caller seat must
    /// decide or the hand ends. Returns each seat's change of points. An illegal id changes
    /// nothing.
    pub fn step(&mut self, id: u16) -> Result<[i64; 4], Error> {
        if !self.legal.contains(id) {
            return Err(illegal_id(&self.game, self.seat, &self.picks, id));
        }
        let before = self.game.scores();
        take_legal_id(&mut self.game, self.seat, &mut self.picks, id)?;
        self.advance();
        let after = self.game.scores();
        Ok(std::array::from_fn(|i| after[i] - before[i]))
    }

    /// Plays opponents' decisions until the first seat (in seat order) that must decide is the
    /// caller's, and records it and its legal ids.
    fn advance(&mut self) {
        while let Some(seat) = (0..4).find(|&s| self.game.must_act(s)) {
            let action = match self.policies[seat as usize] {
                Policy::Caller => {
                    self.seat = seat;
                    self.legal = legal_ids(&self.game, seat, &self.picks);
                    return;
                }
                Policy::Random => self.random_action(seat),
                Policy::Default => self.game.default_action(seat),
                Policy::Bot(_) => {
                    // The bot takes its choice itself (sparing a second legality check).
                    let bot = self.bots.as_mut().and_then(|b| b[seat as usize].as_mut());
                    let played = bot.map(|bot| play(bot, &mut self.game, seat));
                    debug_assert!(matches!(played, Some(Ok(_))), "{played:?}");
                    continue;
                }
            };
            // A seat that must act has a legal action, and every policy picks one of them.
            let played = action.map(|a| self.game.act(seat, a));
            debug_assert!(matches!(played, Some(Ok(()))), "{played:?}");
        }
        self.legal = IdSet::EMPTY;
    }

    fn random_action(&mut self, seat: u8) -> Option<Action> {
        let mut n = 0u64;
        self.game.visit_legal(seat, &mut |_| n += 1);
        if n == 0 {
            return None;
        }
        let mut k = self.rng.below(n);
        let mut chosen = None;
        self.game.visit_legal(seat, &mut |a| {
            if k == 0 && chosen.is_none() {
                chosen = Some(a);
            }
            k = k.wrapping_sub(1);
        });
        chosen
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::observe::{observe, OBS_SIZE};

    fn rules() -> Arc<Rules> {
        Arc::new(Rules::preset("chengdu_xueliu").unwrap())
    }

    #[test]
    fn opponents_decide_and_the_caller_sees_only_its_seat() {
        let policies = [
            Policy::Caller,
            Policy::Random,
            Policy::Default,
            Policy::Random,
        ];
        let mut rng = Rng::new(5);
        for seed in 0..20 {
            let mut table = Table::new(rules(), seed, policies).unwrap();
            let mut total = [0i64; 4];
            while !table.is_over() {
                assert_eq!(table.seat(), 0);
                let legal = table.legal();
                let id = legal.nth(rng.below(legal.len() as u64) as usize).unwrap();
                let delta = table.step(id).unwrap();
                (0..4).for_each(|i| total[i] += delta[i]);
            }
            assert_eq!(total, table.game().scores());
            assert!(table.legal().is_empty());
        }
    }

    #[test]
    fn the_same_seed_plays_the_same_hand() {
        let policies = [
            Policy::Caller,
            Policy::Random,
            Policy::Random,
            Policy::Random,
        ];
        let play = || {
            let mut table = Table::new(rules(), 9, policies).unwrap();
            let mut obs = vec![0u8; OBS_SIZE];
            let mut trace = Vec::new();
            while !table.is_over() {
                let id = table.legal().iter().last().unwrap();
                table.step(id).unwrap();
                observe(table.game(), 0, table.picks(), &mut obs);
                trace.push(obs.clone());
            }
            trace
        };
        assert_eq!(play(), play());
    }

    #[test]
    fn policy_names_cover_the_bots() {
        assert_eq!(Policy::parse("greedy"), Some(Policy::Bot(BotKind::Greedy)));
        assert_eq!(Policy::parse("random"), Some(Policy::Random));
        assert_eq!(
            Policy::parse("ismcts:5"),
            Some(Policy::Bot(BotKind::Ismcts(5)))
        );
        assert_eq!(Policy::parse("smart"), None);
        assert!(Policy::names().starts_with("\"default\", \"random\", \"greedy\", \"ismcts\""));
    }

    #[test]
    fn greedy_opponents_play_whole_hands_alike_from_a_seed() {
        let g = Policy::Bot(BotKind::Greedy);
        let play = |seed| {
            let mut table = Table::new(rules(), seed, [g, Policy::Caller, g, g]).unwrap();
            let mut total = [0i64; 4];
            while !table.is_over() {
                assert_eq!(table.seat(), 1);
                let id = table.legal().iter().next().unwrap();
                let delta = table.step(id).unwrap();
                (0..4).for_each(|i| total[i] += delta[i]);
            }
            assert_eq!(total, table.game().scores());
            table.game().to_json()
        };
        for seed in 0..10 {
            assert_eq!(play(seed), play(seed));
        }
    }

    #[test]
    fn a_redealt_table_plays_the_hand_a_new_one_plays_and_bots_cost_memory_only_when_asked() {
        let g = Policy::Bot(BotKind::Greedy);
        let policies = [
            Policy::Caller,
            g,
            Policy::Random,
            Policy::Bot(BotKind::Random),
        ];
        let play = |table: &mut Table| {
            while !table.is_over() {
                let id = table.legal().iter().next().unwrap();
                table.step(id).unwrap();
            }
            table.game().to_json()
        };
        let mut reused = Table::new(rules(), 0, policies).unwrap();
        for seed in 1..12 {
            play(&mut reused);
            reused.redeal(seed).unwrap();
            let mut fresh = Table::new(rules(), seed, policies).unwrap();
            assert_eq!(play(&mut reused.clone()), play(&mut fresh), "seed {seed}");
        }
        let bare = Table::new(
            rules(),
            1,
            [
                Policy::Caller,
                Policy::Random,
                Policy::Random,
                Policy::Default,
            ],
        );
        assert!(bare.unwrap().bots.is_none() && reused.bots.is_some());
    }

    #[test]
    fn an_illegal_id_changes_nothing() {
        let mut table = Table::new(rules(), 1, [Policy::Caller; 4]).unwrap();
        let before = table.game().to_json();
        let bad = (0..114).find(|&i| !table.legal().contains(i)).unwrap();
        assert!(table.step(bad).is_err());
        assert_eq!(table.game().to_json(), before);
        assert!(Table::new(rules(), 1, [Policy::Random; 4]).is_err());
    }
}
