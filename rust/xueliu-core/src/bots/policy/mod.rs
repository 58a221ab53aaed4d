//! The learned policy bot (`"policy"`, `"policy:VERSION"`): a small network trained by
//! `python -m xueliu.train` scores the legal action ids of one seat's observation
//! (docs/encoding.md) and the bot plays the best. Its weights ship inside the crate
//! ([`weights`] is their format); more versions can be loaded at run time ([`load`]).
//!
//! The network decides 定缺, discards, kongs, 幺鸡 swaps and every response (win, pong, kong,
//! pass, hence 过胡 too); the exchange (换三张), three tiles at once, is greedy's rule.
//! Version 1 reads the observation planes; version 2 on reads [`features`]: the facts greedy
//! play weighs, greedy's own choice among them.
//! [`samples()`] plays hands with a teacher bot labelling every decision: the training data.

pub mod features;
mod network;
mod samples;
pub mod weights;

pub use network::{Input, Network, Scratch};
pub use samples::{samples, Distillation, Samples};

use super::{Bot, GreedyBot};
use crate::encode::{action_id, IdSet, Picks, RulePlanes, OBS_SIZE};
use crate::error::Error;
use crate::game::{Action, ActionList, Ask, Decision, SeatView};
use crate::rules::Rules;
use std::sync::{Arc, RwLock};
use weights::Weights;

/// The version `"policy"` names.
pub const LATEST: u32 = 2;

/// The versions shipped in the crate, with their weights files.
const EMBEDDED: [(u32, &[u8]); 2] = [
    (1, include_bytes!("v1.xlpw")),
    (2, include_bytes!("v2.xlpw")),
];

/// Networks in use, by version: the embedded ones as first asked for, and the loaded ones.
static NETWORKS: RwLock<Vec<Arc<Network>>> = RwLock::new(Vec::new());

/// The network of `version`: a loaded one, else an embedded one (parsed on first use).
pub fn network(version: u32) -> Option<Arc<Network>> {
    let known = |nets: &[Arc<Network>]| nets.iter().find(|n| n.version == version).cloned();
    if let Some(net) = known(&NETWORKS.read().ok()?) {
        return Some(net);
    }
    let (_, bytes) = EMBEDDED.iter().find(|(v, _)| *v == version)?;
    let net = Arc::new(Network::new(Weights::parse(bytes).ok()?)?);
    let mut nets = NETWORKS.write().ok()?;
    Some(known(&nets).unwrap_or_else(|| {
        nets.push(net.clone());
        net
    }))
}

/// Loads a weights file for this process, under the version it carries, and returns that
/// version: `"policy:VERSION"` then plays it. A shipped version cannot be replaced by other
/// weights; a loaded one can (bots built before keep the old network).
pub fn load(bytes: &[u8]) -> Result<u32, Error> {
    let weights = Weights::parse(bytes)?;
    let version = weights.version;
    if let Some((_, shipped)) = EMBEDDED.iter().find(|(v, _)| *v == version) {
        if *shipped != bytes {
            return Err(Error::Argument(format!(
                "policy version {version} ships with xueliu and cannot be replaced; export \
                 the weights under another version (python -m xueliu.train --version N)"
            )));
        }
        return network(version)
            .map(|_| version)
            .ok_or_else(|| Error::Internal(format!("the shipped policy {version} does not load")));
    }
    let net = Network::new(weights).ok_or_else(|| Error::Argument("no layers".into()))?;
    let mut nets = NETWORKS
        .write()
        .map_err(|_| Error::Internal("the policy registry is poisoned".into()))?;
    nets.retain(|n| n.version != version);
    nets.push(Arc::new(net));
    Ok(version)
}

/// The versions `"policy:VERSION"` may name now: the shipped ones and the loaded ones.
pub fn versions() -> Vec<u32> {
    let mut all: Vec<u32> = EMBEDDED.iter().map(|(v, _)| *v).collect();
    if let Ok(nets) = NETWORKS.read() {
        all.extend(nets.iter().map(|n| n.version));
    }
    all.sort_unstable();
    all.dedup();
    all
}

/// Plays the network's choice among the legal action ids. Deterministic (the seed is not
/// used); allocates nothing per decision.
#[derive(Clone)]
pub struct PolicyBot {
    net: Arc<Network>,
    greedy: GreedyBot,
    legal: ActionList,
    /// The network's input (the planes, or the features in the first bytes).
    obs: [u8; OBS_SIZE],
    /// The ruleset last played and its rules planes (their share of the first layer is in
    /// `scratch`; with features, their bytes are in place at the end of `obs`).
    ruleset: Option<(Rules, RulePlanes)>,
    scratch: Scratch,
}

impl PolicyBot {
    /// The bot of `version`; `None` if no such version is shipped or loaded.
    pub fn new(version: u32, _seed: u64) -> Option<PolicyBot> {
        let net = network(version)?;
        Some(PolicyBot {
            scratch: net.scratch(),
            net,
            greedy: GreedyBot::default(),
            legal: ActionList::new(),
            obs: [0; OBS_SIZE],
            ruleset: None,
        })
    }

    /// The network's version.
    pub fn version(&self) -> u32 {
        self.net.version
    }

    /// The rules planes of `rules`, recomputed with their share of the first layer only when
    /// the rules change.
    fn planes(&mut self, rules: &Rules) -> RulePlanes {
        match self.ruleset {
            Some((seen, planes)) if seen == *rules => planes,
            _ => {
                let planes = RulePlanes::new(rules);
                planes.observe_rules(&mut self.obs);
                if self.net.input == Input::Features {
                    let rules = self.obs;
                    features::copy_rules(&rules, &mut self.obs);
                }
                self.net.rules_base(&self.obs, &mut self.scratch);
                self.ruleset = Some((*rules, planes));
                planes
            }
        }
    }
}

impl Bot for PolicyBot {
    fn decide(&mut self, view: &SeatView<'_>) -> Decision {
        match view.ask() {
            Ask::Nothing => return Decision::checked(Action::Pass),
            Ask::Exchange => return self.greedy.decide(view),
            Ask::Void | Ask::Turn | Ask::Respond(_) => {}
        }
        view.legal_actions(&mut self.legal);
        match self.legal.len() {
            0 => return Decision::checked(Action::Pass),
            1 => return Decision::listed(self.legal[0]),
            _ => {}
        }
        let ids = ids_of(&self.legal);
        let planes = self.planes(view.rules());
        match self.net.input {
            Input::Planes => planes.observe_view(view, &Picks::NONE, &mut self.obs),
            Input::Features => features::write(view, &self.legal, &mut self.greedy, &mut self.obs),
        }
        let best = self.net.best(&self.obs, ids, &mut self.scratch);
        let chosen = self
            .legal
            .iter()
            .find(|&&a| best.is_some() && action_id(a) == best);
        Decision::listed(*chosen.unwrap_or(&self.legal[0]))
    }
}

/// The action ids of `legal` (an exchange has none).
fn ids_of(legal: &ActionList) -> IdSet {
    let mut ids = IdSet::EMPTY;
    legal
        .iter()
        .filter_map(|&a| action_id(a))
        .for_each(|id| ids.insert(id));
    ids
}

#[cfg(test)]
mod tests;
