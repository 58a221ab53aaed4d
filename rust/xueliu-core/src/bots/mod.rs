//! Bots that play a [`Game`] from any seat: [`RandomBot`] (uniform over the legal actions),
//! [`GreedyBot`] (shanten- and waits-driven), [`IsmctsBot`] (determinised search with greedy
//! playouts, from greedy's choice or the policy's) and [`PolicyBot`] (a trained network,
//! [`policy`]), named by [`BotKind`] for the factory.
//!
//! A bot decides from a [`SeatView`]: what its seat may see (RULES.md §12), never the game
//! itself, so a bot that reads hidden tiles does not compile (but through the explicit
//! [`SeatView::true_hands`]); [`play`] is the one door from a bot
//! to a game. It must be asked only when its seat must act; asked otherwise it answers
//! [`Action::Pass`], which the game refuses. Search reaches the hidden tiles only through
//! [`crate::search::determinize`], which reads the true tiles only when passed
//! [`SeatView::true_hands`](crate::game::SeatView::true_hands).
//! A bot's own randomness comes from the seed it was built with, so a game played by bots is
//! reproducible from the game's seed and the bots' seeds.

mod compare;
mod greedy;
mod ismcts;
mod parallel;
pub mod policy;
mod random;
mod simulate;

pub use compare::{compare, compare_range, Comparison};
pub use greedy::GreedyBot;
pub use ismcts::{IsmctsBot, DEFAULT_PLAYOUTS};
pub use parallel::thread_count;
pub use policy::PolicyBot;
pub use random::RandomBot;
pub use simulate::{
    bot_seed, build_tables, game_seed, play_game, play_hand, simulate, Simulation,
    SimulationResult, Tally, WIN_KIND_NAMES,
};

use crate::error::Error;
use crate::game::{Action, Decision, Game, SeatView};
use std::fmt;

/// A player: picks one legal action for the seat of `view`.
pub trait Bot {
    /// The bot's decision, and whether it was taken from the view's own legal actions.
    fn decide(&mut self, view: &SeatView<'_>) -> Decision;

    /// The action [`Bot::decide`] picks.
    fn choose(&mut self, view: &SeatView<'_>) -> Action {
        self.decide(view).action
    }
}

/// Lets `bot` decide for `seat` and takes the decision on `game`; returns its action. Self-play
/// loops call this: a bot that picks from the legal list it has just built spares the game a
/// second check.
pub fn play<B: Bot + ?Sized>(bot: &mut B, game: &mut Game, seat: u8) -> Result<Action, Error> {
    let Some(view) = game.view(seat) else {
        return Err(Error::Argument(format!(
            "seat {seat} does not exist; seats are 0-3"
        )));
    };
    let decision = bot.decide(&view);
    game.act_decision(seat, decision).map(|()| decision.action)
}

/// The bots the factory can build, by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BotKind {
    Random,
    Greedy,
    /// With its playout budget per decision.
    Ismcts(u32),
    /// ISMCTS searching from the newest policy's choice ([`IsmctsBot::with_policy`]), with its
    /// playout budget per decision.
    IsmctsPolicy(u32),
    /// With its network's version (shipped or loaded, [`policy::versions`]).
    Policy(u32),
}

/// The names [`BotKind::parse`] accepts, in the order error messages list them; `"ismcts"`
/// and `"ismcts+policy"` also take a budget, `"ismcts:N"` (N playouts per decision, 1 to
/// [`MAX_PLAYOUTS`]), and `"policy"` a version, `"policy:VERSION"`.
pub const BOT_NAMES: &[&str] = &["random", "greedy", "ismcts", "ismcts+policy", "policy"];

/// The largest playout budget a name may ask for.
pub const MAX_PLAYOUTS: u32 = 1_000_000;

/// A bot name the factory does not know; the message lists the valid names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownBot(pub String);

impl fmt::Display for UnknownBot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown bot {}; valid bots are {}, ismcts:N or ismcts+policy:N for N playouts per \
             decision (1 to {MAX_PLAYOUTS}), or policy:VERSION for a policy version ({})",
            crate::excerpt::quote(&self.0),
            BOT_NAMES.join(", "),
            policy::versions()
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        )
    }
}

impl std::error::Error for UnknownBot {}

impl BotKind {
    /// Reads a bot name: `"random"`, `"greedy"`, `"ismcts"`, `"ismcts:N"`, `"ismcts+policy"`,
    /// `"ismcts+policy:N"`, `"policy"` or `"policy:VERSION"` (a version shipped or loaded).
    pub fn parse(name: &str) -> Result<BotKind, UnknownBot> {
        let unknown = || UnknownBot(name.to_string());
        match name {
            "random" => Ok(BotKind::Random),
            "greedy" => Ok(BotKind::Greedy),
            "ismcts" => Ok(BotKind::Ismcts(DEFAULT_PLAYOUTS)),
            "ismcts+policy" => Ok(BotKind::IsmctsPolicy(DEFAULT_PLAYOUTS)),
            "policy" => Ok(BotKind::Policy(policy::LATEST)),
            _ => {
                if let Some(v) = number_after(name, "policy:") {
                    return policy::network(v)
                        .map(|_| BotKind::Policy(v))
                        .ok_or_else(unknown);
                }
                let budget =
                    |prefix| number_after(name, prefix).filter(|n| (1..=MAX_PLAYOUTS).contains(n));
                if let Some(n) = budget("ismcts:") {
                    return Ok(BotKind::Ismcts(n));
                }
                budget("ismcts+policy:")
                    .map(BotKind::IsmctsPolicy)
                    .ok_or_else(unknown)
            }
        }
    }

    /// The kind's name, without the budget (see [`fmt::Display`] for the full name).
    pub const fn name(self) -> &'static str {
        match self {
            BotKind::Random => "random",
            BotKind::Greedy => "greedy",
            BotKind::Ismcts(_) => "ismcts",
            BotKind::IsmctsPolicy(_) => "ismcts+policy",
            BotKind::Policy(_) => "policy",
        }
    }

    /// A new bot of this kind whose own randomness starts from `seed`.
    pub fn build(self, seed: u64) -> Box<dyn Bot + Send> {
        match AnyBot::new(self, seed) {
            AnyBot::Random(b) => Box::new(b),
            AnyBot::Greedy(b) => Box::new(b),
            AnyBot::Ismcts(b) => b,
            AnyBot::Policy(b) => b,
        }
    }
}

/// The number written after `prefix` in `name` (digits only: no sign), if that is all `name` is.
fn number_after(name: &str, prefix: &str) -> Option<u32> {
    let digits = name.strip_prefix(prefix)?;
    digits
        .bytes()
        .all(|b| b.is_ascii_digit())
        .then(|| digits.parse().ok())?
}

/// The full name, which [`BotKind::parse`] reads back: `"ismcts:N"` with its budget.
impl fmt::Display for BotKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotKind::Ismcts(n) => write!(f, "ismcts:{n}"),
            BotKind::IsmctsPolicy(n) => write!(f, "ismcts+policy:{n}"),
            BotKind::Policy(v) => write!(f, "policy:{v}"),
            _ => f.write_str(self.name()),
        }
    }
}

/// A bot of any kind, held by value: what `simulate` keeps per seat from hand to hand
/// ([`AnyBot::reseed`]) and [`crate::env::Table`] per opponent seat, so that dealing a new hand
/// allocates no box (but for the search bot, whose cost dwarfs one).
#[derive(Clone)]
pub enum AnyBot {
    Random(RandomBot),
    Greedy(GreedyBot),
    Ismcts(Box<IsmctsBot>),
    Policy(Box<PolicyBot>),
}

impl AnyBot {
    /// A new bot of `kind` whose own randomness starts from `seed`.
    pub fn new(kind: BotKind, seed: u64) -> AnyBot {
        match kind {
            BotKind::Random => AnyBot::Random(RandomBot::new(seed)),
            BotKind::Greedy => AnyBot::Greedy(GreedyBot::new(seed)),
            BotKind::Ismcts(playouts) => AnyBot::Ismcts(Box::new(IsmctsBot::new(playouts, seed))),
            // As for `Policy`: the newest version always exists.
            BotKind::IsmctsPolicy(playouts) => AnyBot::Ismcts(Box::new(
                IsmctsBot::with_policy(playouts, policy::LATEST, seed)
                    .unwrap_or_else(|| IsmctsBot::new(playouts, seed)),
            )),
            // `parse` admits only versions that exist, and none is ever removed.
            BotKind::Policy(version) => match PolicyBot::new(version, seed) {
                Some(bot) => AnyBot::Policy(Box::new(bot)),
                None => AnyBot::Greedy(GreedyBot::new(seed)),
            },
        }
    }

    /// Makes the bot play as [`AnyBot::new`] of its kind and `seed` would, keeping its buffers.
    pub fn reseed(&mut self, seed: u64) {
        match self {
            AnyBot::Random(b) => b.reseed(seed),
            AnyBot::Greedy(_) | AnyBot::Policy(_) => {}
            AnyBot::Ismcts(b) => b.reseed(seed),
        }
    }

    /// The kind's name, as [`BotKind::name`].
    pub fn name(&self) -> &'static str {
        match self {
            AnyBot::Random(_) => BotKind::Random.name(),
            AnyBot::Greedy(_) => BotKind::Greedy.name(),
            AnyBot::Ismcts(b) if b.policy_version().is_some() => BotKind::IsmctsPolicy(0).name(),
            AnyBot::Ismcts(_) => BotKind::Ismcts(0).name(),
            AnyBot::Policy(_) => BotKind::Policy(0).name(),
        }
    }
}

impl Bot for AnyBot {
    fn decide(&mut self, view: &SeatView<'_>) -> Decision {
        match self {
            AnyBot::Random(b) => b.decide(view),
            AnyBot::Greedy(b) => b.decide(view),
            AnyBot::Ismcts(b) => b.decide(view),
            AnyBot::Policy(b) => b.decide(view),
        }
    }
}

/// The factory: a bot from its name and seed.
pub fn bot_from_name(name: &str, seed: u64) -> Result<Box<dyn Bot + Send>, UnknownBot> {
    BotKind::parse(name).map(|k| k.build(seed))
}

#[cfg(test)]
mod tests;
