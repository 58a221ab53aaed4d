//! The ISMCTS bot: determinised Monte-Carlo search over the seat's own decision. The tiles
//! hidden from the seat are unknown, so each sample is a fresh determinisation
//! ([`search::determinize`], RULES.md §12): one world consistent with everything the seat
//! knows, and the only way the search reaches hidden tiles. It opts in to the true tiles
//! ([`SeatView::true_hands`]) for the rare position whose winners the deal cannot place
//! otherwise (about 0.2%), as determinisation always did.
//! Every candidate action is played in the same worlds, each world played out to the end of
//! the hand by the greedy bot in all four seats, and the candidates are compared with the
//! *default* choice world by world: the search departs from the default only for an action
//! whose mean gain over it is [`Z_DEPART`] standard errors above zero. The default is the greedy
//! bot's choice (`"ismcts:N"`), or the policy's (`"ismcts+policy:N"`, [`IsmctsBot::with_policy`]):
//! the policy is the search's prior, the play it keeps unless the worlds show better.
//!
//! Readings, by choice: the information-set tree is cut at the root (one node, the seat's
//! decision); deeper decisions are the greedy rollout policy's. Greedy play is deterministic,
//! so an action's value in one world is exact, and playing every candidate in the same worlds
//! (common random numbers) compares them far more sharply than independent samples would at
//! these budgets; a whole-hand outcome is so noisy that picking the best mean outright does
//! worse than greedy. Candidates: the default, the greedy choice, the discards that keep the
//! lowest shanten (向听), kongs, and every response. Where there is nothing to search (a win
//! offered, the exchange and void picks, a single legal action) the default plays. In the 幺鸡
//! variant the hidden wilds are dealt again like any hidden tile.

use super::{play, Bot, GreedyBot, PolicyBot};
use crate::analysis::{shanten, tiles_of, uncapped_shanten};
use crate::game::{Action, ActionList, Ask, Decision, Game, SeatView, MAX_ACTIONS};
use crate::rng::Rng;
use crate::search;
use crate::tile::{Tile, KINDS};

/// The budget when the name gives none (`"ismcts"`).
pub const DEFAULT_PLAYOUTS: u32 = 100;

/// Standard errors of gain over the default choice that another action needs to be chosen.
pub const Z_DEPART: f64 = 2.0;

/// Determinised search with a playout budget per decision.
#[derive(Clone)]
pub struct IsmctsBot {
    /// Playouts per decision, shared among the candidate actions.
    playouts: u32,
    rng: Rng,
    greedy: GreedyBot,
    /// The policy whose choice is the default, if any; greedy's choice is, otherwise.
    prior: Option<PolicyBot>,
    legal: ActionList,
    candidates: ActionList,
    /// The game each playout runs in, copied over from its world (its lists keep their room).
    playout: Option<Game>,
}

/// Per candidate, the sums over worlds of its gain over the default choice and its square.
#[derive(Clone, Copy, Default)]
struct Gain {
    sum: f64,
    squares: f64,
}

impl IsmctsBot {
    /// A bot spending about `playouts` whole-hand playouts per decision (at least one world).
    pub fn new(playouts: u32, seed: u64) -> IsmctsBot {
        IsmctsBot {
            playouts,
            rng: Rng::new(seed),
            greedy: GreedyBot::default(),
            prior: None,
            legal: ActionList::new(),
            candidates: ActionList::new(),
            playout: None,
        }
    }

    /// A bot searching from the choice of the policy of `version` (a prior, [`PolicyBot`]),
    /// with greedy rollouts; `None` if no such version is shipped or loaded.
    pub fn with_policy(playouts: u32, version: u32, seed: u64) -> Option<IsmctsBot> {
        Some(IsmctsBot {
            prior: Some(PolicyBot::new(version, seed)?),
            ..IsmctsBot::new(playouts, seed)
        })
    }

    /// The version of the policy the search starts from, if it has one.
    pub fn policy_version(&self) -> Option<u32> {
        self.prior.as_ref().map(PolicyBot::version)
    }

    /// Plays on as [`IsmctsBot::new`] with `seed` and the same budget would: the rest are
    /// buffers that hold nothing between decisions.
    pub fn reseed(&mut self, seed: u64) {
        self.rng = Rng::new(seed);
    }

    /// The actions worth searching, the default first, then greedy's choice.
    fn pick_candidates(&mut self, view: &SeatView<'_>, default: Action, greedy: Action) {
        self.candidates.clear();
        self.candidates.push(default);
        if greedy != default {
            self.candidates.push(greedy);
        }
        let after = lowest_shanten_discards(view, &self.legal);
        for &a in self.legal.iter() {
            let keep = match a {
                Action::Discard(t) => after & 1 << t.index() != 0,
                _ => true,
            };
            if keep && a != default && a != greedy {
                self.candidates.push(a);
            }
        }
    }

    /// Each candidate's gain over the default (`candidates[0]`), over `worlds`
    /// determinisations: `gains[i]` belongs to `candidates[i]`.
    fn evaluate(&mut self, view: &SeatView<'_>, worlds: u32, gains: &mut [Gain]) {
        let seat = view.seat();
        let mut scores = [0i64; MAX_ACTIONS];
        for _ in 0..worlds {
            let seed = self.rng.next_u64();
            let Ok(world) = search::determinize(view, seed, Some(view.true_hands())) else {
                return;
            };
            for (i, &action) in self.candidates.iter().enumerate() {
                let copy = match &mut self.playout {
                    Some(copy) => {
                        copy.clone_from(&world);
                        copy
                    }
                    none => none.insert(world.clone()),
                };
                // The seat's legal actions are the same in every world; a refusal cannot happen.
                scores[i] = match copy.act(seat, action) {
                    Ok(()) => {
                        play_out(&mut self.greedy, copy);
                        copy.scores()[seat as usize]
                    }
                    Err(_) => i64::MIN / 2,
                };
            }
            for (g, &sc) in gains.iter_mut().zip(&scores).skip(1) {
                let d = (sc - scores[0]) as f64;
                g.sum += d;
                g.squares += d * d;
            }
        }
    }
}

impl Bot for IsmctsBot {
    fn decide(&mut self, view: &SeatView<'_>) -> Decision {
        Decision::checked(self.search(view))
    }
}

impl IsmctsBot {
    /// The default choice, or a candidate the search finds clearly better.
    fn search(&mut self, view: &SeatView<'_>) -> Action {
        let greedy = self.greedy.choose(view);
        let default = match &mut self.prior {
            Some(policy) => policy.choose(view),
            None => greedy,
        };
        if !matches!(view.ask(), Ask::Turn | Ask::Respond(_)) {
            return default;
        }
        view.legal_actions(&mut self.legal);
        if self.legal.len() < 2 || self.legal.contains(Action::Win) {
            return default;
        }
        self.pick_candidates(view, default, greedy);
        let n = self.candidates.len();
        if n < 2 {
            return default;
        }
        let worlds = (self.playouts / n as u32).max(2);
        let mut gains = [Gain::default(); MAX_ACTIONS];
        self.evaluate(view, worlds, &mut gains[..n]);
        let w = f64::from(worlds);
        let z = |g: &Gain| {
            let mean = g.sum / w;
            // At least one point squared: equal gains in every world are still a sample.
            let var = ((g.squares - w * mean * mean) / (w - 1.0)).max(1.0);
            mean / (var / w).sqrt()
        };
        let best = (1..n)
            .filter(|&i| z(&gains[i]) > Z_DEPART)
            .max_by(|&i, &j| gains[i].sum.total_cmp(&gains[j].sum));
        best.map_or(default, |i| self.candidates[i])
    }
}

/// The discards in `legal` that leave the lowest shanten, one bit per tile. The exact shanten
/// of a hand with melds runs a dynamic programme, so it is asked only of discards whose
/// [`uncapped_shanten`] (never above it) does not already rule them out.
fn lowest_shanten_discards(view: &SeatView<'_>, legal: &ActionList) -> u32 {
    let ctx = view.context();
    let rest = |t: Tile| {
        let mut rest = *view.hand();
        rest.remove(t);
        rest
    };
    let mut bound = [i8::MAX; KINDS];
    let mut discards = 0u32;
    for &a in legal.iter() {
        if let Action::Discard(t) = a {
            bound[t.index()] = uncapped_shanten(&rest(t), &ctx);
            discards |= 1 << t.index();
        }
    }
    let mut exact = [i8::MAX; KINDS];
    let mut best = i8::MAX;
    // Lowest bound first: once a bound exceeds the best exact shanten, no discard left can
    // reach it.
    let mut todo = discards;
    while let Some(t) = tiles_of(todo).min_by_key(|t| bound[t.index()]) {
        todo &= !(1 << t.index());
        if bound[t.index()] > best {
            break;
        }
        exact[t.index()] = shanten(&rest(t), &ctx);
        best = best.min(exact[t.index()]);
    }
    tiles_of(discards)
        .filter(|t| exact[t.index()] == best)
        .fold(0, |bits, t| bits | 1 << t.index())
}

/// Plays `game` to the end with `bot` in every seat. A refused action (never expected from
/// greedy play) ends the playout where it stands.
fn play_out(bot: &mut GreedyBot, game: &mut Game) {
    while let Some(seat) = (0..4u8).find(|&s| game.must_act(s)) {
        if play(bot, game, seat).is_err() {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{play_game, BotKind};
    use super::*;
    use crate::rules::Rules;
    use std::sync::Arc;

    #[test]
    fn names_carry_the_budget() {
        assert_eq!(
            BotKind::parse("ismcts"),
            Ok(BotKind::Ismcts(DEFAULT_PLAYOUTS))
        );
        assert_eq!(BotKind::parse("ismcts:25"), Ok(BotKind::Ismcts(25)));
        assert_eq!(BotKind::Ismcts(25).to_string(), "ismcts:25");
        assert_eq!(
            BotKind::parse("ismcts+policy"),
            Ok(BotKind::IsmctsPolicy(DEFAULT_PLAYOUTS))
        );
        assert_eq!(
            BotKind::parse("ismcts+policy:25"),
            Ok(BotKind::IsmctsPolicy(25))
        );
        assert_eq!(BotKind::IsmctsPolicy(25).to_string(), "ismcts+policy:25");
        for bad in [
            "ismcts:0",
            "ismcts:",
            "ismcts:x",
            "ismcts:+5",
            "ismcts:-1",
            "ismcts:1000001",
            "ismcts+policy:0",
            "ismcts+policy:",
            "ismcts+policy:1000001",
            "ismcts+policy:2:5",
            "ismcts+greedy:5",
        ] {
            let e = BotKind::parse(bad).unwrap_err().to_string();
            assert!(
                e.contains("ismcts:N") && e.contains("ismcts+policy:N"),
                "{e}"
            );
        }
    }

    /// With the policy as its prior, the search starts from the policy's choice: it is the
    /// first candidate whenever the search runs, and it plays wherever nothing is searched (a
    /// win offered, 定缺, a single legal action). Version 1 differs from greedy often enough
    /// for the test to tell the two defaults apart.
    #[test]
    fn with_the_policy_the_search_starts_from_the_policy_s_choice() {
        let (mut searched, mut unsearched, mut apart) = (0, 0, 0);
        for preset in ["chengdu", "yaoji"] {
            let rules = Arc::new(Rules::preset(preset).unwrap());
            for seed in 0..3 {
                let mut game = Game::new(rules.clone(), seed, false).unwrap();
                let mut bot = IsmctsBot::with_policy(8, 1, seed).unwrap();
                let mut policy = PolicyBot::new(1, seed).unwrap();
                let mut greedy = GreedyBot::default();
                while let Some(seat) = (0..4u8).find(|&s| game.must_act(s)) {
                    let view = game.view(seat).unwrap();
                    let wanted = policy.choose(&view);
                    apart += u32::from(wanted != greedy.choose(&view));
                    bot.candidates.clear();
                    let action = bot.choose(&view);
                    if bot.candidates.is_empty() {
                        assert_eq!(action, wanted, "{preset} seed {seed}");
                        unsearched += 1;
                    } else {
                        assert_eq!(bot.candidates[0], wanted, "{preset} seed {seed}");
                        searched += 1;
                    }
                    game.act(seat, action).unwrap();
                }
            }
        }
        assert!(
            searched > 100 && unsearched > 50 && apart > 20,
            "{searched} {unsearched} {apart}"
        );
    }

    #[test]
    fn plays_legal_actions_to_the_end_the_same_way_for_a_seed() {
        for preset in ["chengdu", "xuezhan", "yaoji"] {
            let rules = Arc::new(Rules::preset(preset).unwrap());
            let kinds = [
                BotKind::Ismcts(6),
                BotKind::Greedy,
                BotKind::Random,
                BotKind::IsmctsPolicy(6),
            ];
            for seed in 0..3 {
                let a = play_game(&rules, kinds, seed, true).unwrap();
                let b = play_game(&rules, kinds, seed, true).unwrap();
                assert!(a.is_over());
                assert_eq!(a.events_json(None), b.events_json(None));
            }
        }
    }

    /// The bound-pruned pick of the lowest-shanten discards is the plain one: every discard's
    /// exact shanten, the lowest kept.
    #[test]
    fn lowest_shanten_discards_are_those_of_the_exact_shanten() {
        let (mut legal, mut with_melds) = (ActionList::new(), 0);
        for preset in ["chengdu", "yaoji"] {
            let rules = Arc::new(Rules::preset(preset).unwrap());
            for seed in 0..40 {
                let mut game = Game::new(rules.clone(), seed, false).unwrap();
                let mut greedy = GreedyBot::default();
                while let Some(seat) = (0..4u8).find(|&s| game.must_act(s)) {
                    let view = game.view(seat).unwrap();
                    view.legal_actions(&mut legal);
                    let after = |t: Tile| {
                        let mut rest = *view.hand();
                        rest.remove(t);
                        shanten(&rest, &view.context())
                    };
                    let discards = legal.iter().filter_map(|a| match a {
                        Action::Discard(t) => Some(*t),
                        _ => None,
                    });
                    let best = discards.clone().map(after).min();
                    let plain = discards
                        .filter(|&t| Some(after(t)) == best)
                        .fold(0u32, |bits, t| bits | 1 << t.index());
                    assert_eq!(lowest_shanten_discards(&view, &legal), plain, "seed {seed}");
                    with_melds += u32::from(plain != 0 && view.context().melds.sets > 0);
                    let action = greedy.choose(&view);
                    game.act(seat, action).unwrap();
                }
            }
        }
        assert!(with_melds > 500, "{with_melds}");
    }

    /// The choice reads only what the seat sees: a determinised copy of the game (which the
    /// seat cannot tell from it) gets the same choice from a bot of the same seed. Copies where
    /// determinisation fell back to the winners' true hands may differ; they are rare.
    #[test]
    fn the_choice_depends_only_on_what_the_seat_sees() {
        let rules = Arc::new(Rules::preset("chengdu").unwrap());
        let (mut same, mut total) = (0, 0);
        for seed in 0..4 {
            let mut game = Game::new(rules.clone(), seed, false).unwrap();
            let mut greedy = GreedyBot::default();
            let mut step = 0u64;
            while let Some(seat) = (0..4u8).find(|&s| game.must_act(s)) {
                let view = game.view(seat).unwrap();
                if step % 5 == 0 && view.ask() == Ask::Turn {
                    let copy = search::determinize(&view, step, Some(view.true_hands())).unwrap();
                    let a = IsmctsBot::new(12, step).choose(&view);
                    let b = IsmctsBot::new(12, step).choose(&copy.view(seat).unwrap());
                    same += u32::from(a == b);
                    total += 1;
                }
                let action = greedy.choose(&view);
                game.act(seat, action).unwrap();
                step += 1;
            }
        }
        assert!(total > 40 && same * 50 >= total * 49, "{same} of {total}");
    }
}
