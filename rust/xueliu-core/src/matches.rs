//! A match: hands played in order at one table (RULES.md §2). Each next hand's dealer is the
//! last hand's [`Game::next_dealer`]; each hand's seed is derived from the match seed and the
//! hand's number, so the same match seed and the same actions give the same match.
//!
//! A match is also a session (盘, MIL SBR 2025 Art.4-5): it ends after its hands or, once the
//! clock calls time ([`Match::call_time`]), after the hand in play; then each seat gets
//! placement points (盘分) by its place in the totals, tied seats sharing their places' points.

use crate::error::Error;
use crate::game::{Event, Game};
use crate::rng::Rng;
use crate::rules::Rules;
use serde_json::Value;
use std::sync::Arc;

/// Match snapshot format version; `from_json` rejects others.
const VERSION: u64 = 1;
/// Most hands a match may have.
pub const MAX_HANDS: u32 = 10_000;
/// Placement points (盘分) from first place to fourth unless a match is given others (MIL
/// Art.4-6: 「第一名至第四名分别获得 4、3、2、1 的盘分」).
pub const PLACEMENT_POINTS: [u32; 4] = [4, 3, 2, 1];
/// Largest placement points of one place.
pub const MAX_PLACEMENT_POINTS: u32 = 1_000_000;

/// The seed of hand `hand` (0-based) of the match seeded `seed`: SplitMix64's output number
/// `hand + 1` from `seed`, i.e. one step of its mixer at `seed + (hand + 1) × γ`.
pub fn hand_seed(seed: u64, hand: u32) -> u64 {
    let gamma = 0x9E37_79B9_7F4A_7C15u64;
    Rng::new(seed.wrapping_add(gamma.wrapping_mul(u64::from(hand)))).next_u64()
}

/// A match of `hands` hands. The hands before the current one are kept whole (with their event
/// logs): they are the match log.
#[derive(Clone)]
pub struct Match {
    rules: Arc<Rules>,
    seed: u64,
    hands: u32,
    /// The hands already over and left behind, in order.
    finished: Vec<Game>,
    game: Game,
    /// Placement points by place, first to fourth.
    placement: [u32; 4],
    /// The session's time is up: the hand in play is the last.
    time_called: bool,
}

impl Match {
    /// A match; its first hand is dealt at once, its dealer chosen by `first_dealer`.
    pub fn new(rules: Arc<Rules>, seed: u64, hands: u32) -> Result<Match, Error> {
        if !(1..=MAX_HANDS).contains(&hands) {
            return Err(Error::Argument(format!(
                "a match has 1 to {MAX_HANDS} hands, not {hands}"
            )));
        }
        let game = Game::with_dealer(rules.clone(), hand_seed(seed, 0), None, true)?;
        Ok(Match {
            rules,
            seed,
            hands,
            finished: Vec::new(),
            game,
            placement: PLACEMENT_POINTS,
            time_called: false,
        })
    }

    /// This match with other placement points, first place to fourth (each at most
    /// [`MAX_PLACEMENT_POINTS`]).
    pub fn with_placement(mut self, placement: [u32; 4]) -> Result<Match, Error> {
        if placement.iter().any(|&p| p > MAX_PLACEMENT_POINTS) {
            return Err(Error::Argument(format!(
                "placement points are 0 to {MAX_PLACEMENT_POINTS} per place, not {placement:?}"
            )));
        }
        self.placement = placement;
        Ok(self)
    }

    /// Placement points by place, first to fourth.
    pub fn placement(&self) -> [u32; 4] {
        self.placement
    }

    /// The session's time is up (the server's clock decides, MIL Art.5-3 「打完当副牌后本盘比赛
    /// 结束」): the hand in play is the last one. Calling it again changes nothing.
    pub fn call_time(&mut self) {
        self.time_called = true;
    }

    pub fn time_called(&self) -> bool {
        self.time_called
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    pub fn hands(&self) -> u32 {
        self.hands
    }

    /// The hand in play (or the last one, once the match is over).
    pub fn game(&self) -> &Game {
        &self.game
    }

    pub fn game_mut(&mut self) -> &mut Game {
        &mut self.game
    }

    /// The hands over and left behind, in order.
    pub fn finished(&self) -> &[Game] {
        &self.finished
    }

    /// The hands started so far, in order, the current one last.
    pub fn games(&self) -> impl Iterator<Item = &Game> + '_ {
        self.finished.iter().chain(std::iter::once(&self.game))
    }

    /// Hands over so far.
    pub fn hands_played(&self) -> u32 {
        self.finished.len() as u32 + u32::from(self.game.is_over())
    }

    /// Every hand has been played, or time was called and the hand in play is over.
    pub fn is_over(&self) -> bool {
        self.hands_played() == self.hands || (self.time_called && self.game.is_over())
    }

    /// Each seat's placement points once the match is over (`None` before): seats ranked by
    /// their totals, tied seats sharing their places' points equally (MIL Art.4-6 「名次相同则
    /// 平分对应盘分」).
    pub fn placement_points(&self) -> Option<[f64; 4]> {
        if !self.is_over() {
            return None;
        }
        let totals = self.totals();
        let mut out = [0.0; 4];
        for (seat, &total) in totals.iter().enumerate() {
            let above = totals.iter().filter(|&&t| t > total).count();
            let tied = totals.iter().filter(|&&t| t == total).count();
            let shared: u32 = self.placement[above..above + tied].iter().sum();
            out[seat] = f64::from(shared) / tied as f64;
        }
        Some(out)
    }

    /// The dealer of each hand started so far.
    pub fn dealers(&self) -> Vec<u8> {
        self.games().map(Game::dealer).collect()
    }

    /// Each finished hand's points per seat, in order.
    pub fn results(&self) -> Vec<[i64; 4]> {
        self.games()
            .filter(|g| g.is_over())
            .map(Game::scores)
            .collect()
    }

    /// The points of the finished hands, summed per seat.
    pub fn totals(&self) -> [i64; 4] {
        self.results().iter().fold([0; 4], |mut t, r| {
            (0..4).for_each(|i| t[i] += r[i]);
            t
        })
    }

    /// The dealer of the next hand once the current one is over (`None` before, and once the
    /// match is over).
    pub fn next_dealer(&self) -> Option<u8> {
        self.game.next_dealer().filter(|_| !self.is_over())
    }

    /// Deals the next hand, once the current one is over: its dealer is the current hand's
    /// [`Game::next_dealer`], its seed [`hand_seed`] of its number.
    pub fn next_hand(&mut self) -> Result<(), Error> {
        if self.is_over() {
            let why = if self.hands_played() == self.hands {
                format!("all {} hands were played", self.hands)
            } else {
                "time was called and its last hand is over".to_owned()
            };
            return Err(Error::IllegalAction(format!("the match is over: {why}")));
        }
        let Some(dealer) = self.game.next_dealer() else {
            return Err(Error::IllegalAction(format!(
                "hand {} is still in play; finish it (or abandon it) before the next",
                self.finished.len() + 1
            )));
        };
        let number = self.finished.len() as u32 + 1;
        let next = Game::with_dealer(
            self.rules.clone(),
            hand_seed(self.seed, number),
            Some(dealer),
            true,
        )?;
        self.finished.push(std::mem::replace(&mut self.game, next));
        Ok(())
    }

    /// The match log: `{"type": "match", "seed", "hands", "placement", "time_called",
    /// "rules", "games": [[events], …]}`, each hand's full event log in order.
    pub fn log_json(&self) -> String {
        let games: Vec<String> = self.games().map(|g| g.events_json(None)).collect();
        format!(
            "{{{}, \"games\": [{}]}}",
            self.header_json(),
            games.join(", ")
        )
    }

    /// A full snapshot: the match log's fields, with the current hand as a game snapshot.
    pub fn to_json(&self) -> String {
        let games: Vec<String> = self.finished.iter().map(|g| g.events_json(None)).collect();
        format!(
            "{{{}, \"finished\": [{}], \"game\": {}}}",
            self.header_json(),
            games.join(", "),
            self.game.to_json()
        )
    }

    /// The fields a log and a snapshot share, without braces.
    fn header_json(&self) -> String {
        let p = self.placement;
        format!(
            "\"type\": \"match\", \"version\": {VERSION}, \"seed\": {}, \"hands\": {}, \"placement\": [{}, {}, {}, {}], \"time_called\": {}, \"rules\": {}",
            self.seed,
            self.hands,
            p[0],
            p[1],
            p[2],
            p[3],
            self.time_called,
            crate::rules::rules_json(&self.rules),
        )
    }

    /// Restores [`Match::to_json`], verifying everything: each finished hand replays from its
    /// log; every hand's seed and dealer are the ones the match gives it; the current hand is a
    /// valid game snapshot of the match's rules.
    pub fn from_json(text: &str) -> Result<Match, Error> {
        let bad = |e: String| Error::Snapshot(format!("bad match snapshot: {e}"));
        let v: Value = serde_json::from_str(text).map_err(|e| bad(e.to_string()))?;
        let (mut m, fields) = Match::header(&v).map_err(bad)?;
        let finished = fields.get("finished").and_then(Value::as_array);
        let finished = finished.ok_or_else(|| bad("finished: expected a list of logs".into()))?;
        let game = fields
            .get("game")
            .ok_or_else(|| bad("game is missing".into()))?;
        let game = crate::wire::to_text(game);
        let game = Game::from_json(&game).map_err(|e| bad(format!("game: {e}")))?;
        m.rebuild(finished, Some(game)).map_err(bad)?;
        Ok(m)
    }

    /// Replays a match log ([`Match::log_json`]): every hand from its events, checked as
    /// [`Match::from_json`] checks a snapshot.
    pub fn from_log(text: &str) -> Result<Match, Error> {
        let bad = |e: String| Error::Snapshot(format!("bad match log: {e}"));
        let v: Value = serde_json::from_str(text).map_err(|e| bad(e.to_string()))?;
        let (mut m, fields) = Match::header(&v).map_err(bad)?;
        let games = fields.get("games").and_then(Value::as_array);
        let games = games.ok_or_else(|| bad("games: expected a list of logs".into()))?;
        m.rebuild(games, None).map_err(bad)?;
        Ok(m)
    }

    /// A match with its first hand from the header (`type`, `version`, `seed`, `hands`,
    /// `rules`) of a snapshot or log.
    fn header(v: &Value) -> Result<(Match, &serde_json::Map<String, Value>), String> {
        let fields = v.as_object().ok_or("expected a JSON object")?;
        if fields.get("type").and_then(Value::as_str) != Some("match") {
            return Err("type: expected \"match\"".into());
        }
        if fields.get("version").and_then(Value::as_u64) != Some(VERSION) {
            return Err(format!("version: this engine reads version {VERSION}"));
        }
        let uint = |key: &str| {
            fields
                .get(key)
                .and_then(Value::as_u64)
                .ok_or(format!("{key}: expected a non-negative integer"))
        };
        let (seed, hands) = (uint("seed")?, uint("hands")?);
        let rules = fields.get("rules").ok_or("rules is missing")?;
        let rules = crate::rules::json::rules_from_json(&rules.to_string())?;
        let hands = u32::try_from(hands).map_err(|_| format!("hands: at most {MAX_HANDS}"))?;
        let mut m = Match::new(Arc::new(rules), seed, hands).map_err(|e| e.to_string())?;
        // A log written before sessions has neither field: the defaults play as it did.
        if let Some(p) = fields.get("placement") {
            let points: Option<Vec<u32>> = p.as_array().map(|a| {
                a.iter()
                    .filter_map(|x| x.as_u64().and_then(|x| u32::try_from(x).ok()))
                    .collect()
            });
            let points: [u32; 4] = points
                .and_then(|v| v.try_into().ok())
                .ok_or("placement: expected four non-negative integers")?;
            m = m.with_placement(points).map_err(|e| e.to_string())?;
        }
        match fields.get("time_called") {
            None => {}
            Some(Value::Bool(called)) => m.time_called = *called,
            Some(_) => return Err("time_called: expected true or false".into()),
        }
        Ok((m, fields))
    }

    /// Plays the hands `logs` record in order (each must be over but the last, which may be
    /// replaced by `current`), checking each hand's seed and dealer.
    fn rebuild(&mut self, logs: &[Value], current: Option<Game>) -> Result<(), String> {
        let total = logs.len() + usize::from(current.is_some());
        if total == 0 || total > self.hands as usize {
            return Err(format!(
                "a match of {} hands holds 1 to {} of them, not {total}",
                self.hands, self.hands
            ));
        }
        let mut games = Vec::with_capacity(total);
        for (i, log) in logs.iter().enumerate() {
            // Written back as logs are written, the replay's own text matches it byte for byte
            // and no second parse is needed to compare them.
            let log = crate::wire::to_text(log);
            let game = Game::from_events(&log).map_err(|e| format!("hand {i}: {e}"))?;
            games.push(game);
        }
        games.extend(current);
        for (i, game) in games.iter().enumerate() {
            let last = i + 1 == games.len();
            self.check_hand(i, game, last)?;
            if i > 0 {
                let dealer = games[i - 1].next_dealer();
                if dealer != Some(game.dealer()) {
                    return Err(format!(
                        "hand {i}: dealt by seat {}, but the hand before gives seat {dealer:?}",
                        game.dealer()
                    ));
                }
            }
        }
        self.game = games.pop().ok_or("no hand")?;
        self.finished = games;
        Ok(())
    }

    /// A hand of this match: its rules, seed, dealer source and logging are the match's.
    fn check_hand(&self, i: usize, game: &Game, last: bool) -> Result<(), String> {
        if *game.rules() != *self.rules {
            return Err(format!("hand {i}: its rules are not the match's"));
        }
        let seed = hand_seed(self.seed, i as u32);
        if game.seed() != seed {
            return Err(format!(
                "hand {i}: seed {} is not the match's ({seed})",
                game.seed()
            ));
        }
        let start = game.events().next().and_then(|e| match e {
            Event::Start {
                seed,
                dealer,
                given,
                ..
            } => Some((*seed, *dealer, *given)),
            _ => None,
        });
        if start.is_some_and(|(s, d, _)| (s, d) != (seed, game.dealer())) {
            return Err(format!(
                "hand {i}: its log starts with another seed or dealer than the hand's"
            ));
        }
        if start.map(|(_, _, given)| given) != Some(i > 0) {
            return Err(format!(
                "hand {i}: {} (a logged hand whose dealer the match names after the first)",
                if i == 0 {
                    "the first hand's dealer comes from first_dealer"
                } else {
                    "its dealer must be the one the hand before gives"
                }
            ));
        }
        if !last && !game.is_over() {
            return Err(format!("hand {i} is not over, yet a later hand follows"));
        }
        Ok(())
    }
}
