//! Training data for the policy: whole hands played by four bots while a teacher bot labels
//! every decision of every seat with its own choice (distillation; with the policy itself
//! playing, the teacher corrects the states the policy reaches). Each sample is the seat's
//! observation, its legal ids and the teacher's id. Exchanges (greedy's rule in the policy)
//! and decisions with one legal action are not recorded.
//!
//! Seeded as `simulate` is: game `i` is dealt from `game_seed(seed, first_game + i)`, so the
//! samples never depend on the thread count.

use super::super::parallel::run_ranges;
use super::super::simulate::{bot_seed, build_tables, game_seed};
use super::super::{AnyBot, Bot, BotKind};
use super::features::{self, FEATURES};
use super::ids_of;
use crate::bots::GreedyBot;
use crate::encode::{action_id, Picks, RulePlanes, ACTION_COUNT, OBS_SIZE};
use crate::error::Error;
use crate::game::{ActionList, Ask, Game};
use crate::rules::Rules;
use std::ops::Range;
use std::sync::Arc;

/// Keeps the teachers' seeds apart from the players'.
const TEACHER_SALT: u64 = 0x7EAC_4E12_7EAC_4E12;

/// What to play and who labels it.
#[derive(Clone, Debug)]
pub struct Distillation {
    pub rules: Arc<Rules>,
    /// The bot whose choices label the decisions.
    pub teacher: BotKind,
    /// The bot in each seat, whose choices are played (the teacher's when it is the same kind).
    pub players: [BotKind; 4],
    pub seed: u64,
    pub first_game: u64,
}

/// Labelled decisions, in game order: sample `k` is `obs[k·1917..]`, `features[k·546..]`,
/// `legal[k·114..]`, `labels[k]`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Samples {
    /// Observations as `observe` writes them, 1,917 bytes each.
    pub obs: Vec<u8>,
    /// [`features::write`]'s bytes, 546 each.
    pub features: Vec<u8>,
    /// The legal ids as 114 flags each.
    pub legal: Vec<bool>,
    /// The teacher's action id.
    pub labels: Vec<u16>,
}

impl Samples {
    pub fn len(&self) -> usize {
        self.labels.len()
    }

    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }

    fn append(&mut self, other: Samples) {
        self.obs.extend(other.obs);
        self.features.extend(other.features);
        self.legal.extend(other.legal);
        self.labels.extend(other.labels);
    }
}

/// The bots of one range of games, kept from hand to hand.
struct Seats {
    /// Greedy's choice is one of the features.
    greedy: GreedyBot,
    players: [AnyBot; 4],
    teachers: [AnyBot; 4],
    same: [bool; 4],
}

/// Plays `games` hands of `d` over `threads` threads (0: every core), labelling as it goes.
pub fn samples(d: &Distillation, games: u64, threads: usize) -> Result<Samples, Error> {
    crate::game::playable(&d.rules).map_err(Error::Rules)?;
    build_tables(&d.rules);
    let parts = run_ranges(games, threads, |r| sample_range(d, r))
        .ok_or_else(|| Error::Internal("a sampling thread panicked".into()))?;
    let mut all = Samples::default();
    for part in parts {
        all.append(part?);
    }
    Ok(all)
}

fn sample_range(d: &Distillation, range: Range<u64>) -> Result<Samples, Error> {
    let mut seats = Seats {
        greedy: GreedyBot::default(),
        players: d.players.map(|k| AnyBot::new(k, 0)),
        teachers: [d.teacher; 4].map(|k| AnyBot::new(k, 0)),
        same: d.players.map(|k| k == d.teacher),
    };
    let planes = RulePlanes::new(&d.rules);
    let mut out = Samples::default();
    for i in range {
        let seed = game_seed(d.seed, d.first_game.wrapping_add(i));
        play_labelled(&d.rules, &planes, &mut seats, seed, &mut out)?;
    }
    Ok(out)
}

/// Plays the hand dealt from `seed`, appending its labelled decisions to `out`.
fn play_labelled(
    rules: &Arc<Rules>,
    planes: &RulePlanes,
    seats: &mut Seats,
    seed: u64,
    out: &mut Samples,
) -> Result<(), Error> {
    for s in 0..4 {
        seats.players[s].reseed(bot_seed(seed, s));
        seats.teachers[s].reseed(bot_seed(seed, s) ^ TEACHER_SALT);
    }
    let mut game = Game::new(rules.clone(), seed, false)?;
    let mut legal = ActionList::new();
    let mut obs = [0u8; OBS_SIZE];
    let mut feats = [0u8; FEATURES];
    while let Some(seat) = (0..4u8).find(|&s| game.must_act(s)) {
        let s = usize::from(seat);
        let Some(view) = game.view(seat) else { break };
        let mut label = None;
        if view.ask() != Ask::Exchange {
            view.legal_actions(&mut legal);
            if legal.len() > 1 {
                let taught = seats.teachers[s].decide(&view);
                if let Some(id) = action_id(taught.action) {
                    planes.observe_view(&view, &Picks::NONE, &mut obs);
                    out.obs.extend_from_slice(&obs);
                    features::write(&view, &legal, &mut seats.greedy, &mut feats);
                    features::copy_rules(&obs, &mut feats);
                    out.features.extend_from_slice(&feats);
                    let at = out.legal.len();
                    out.legal.resize(at + ACTION_COUNT, false);
                    ids_of(&legal).write(&mut out.legal[at..]);
                    out.labels.push(id);
                    label = Some(taught);
                }
            }
        }
        let decision = match label {
            Some(taught) if seats.same[s] => taught,
            _ => seats.players[s].decide(&view),
        };
        let name = seats.players[s].name();
        game.act_decision(seat, decision)
            .map_err(|e| Error::Bot(format!("bot {name} chose an illegal action: {e}")))?;
    }
    Ok(())
}
