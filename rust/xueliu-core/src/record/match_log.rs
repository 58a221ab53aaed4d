//! A match's written form (RULES.md §2): its log (every hand's full event log) and its snapshot
//! (the finished hands' logs and the hand in play as a game snapshot), written from the match's
//! public accessors and read back through [`Match::with_hands`], which checks the hands belong
//! to the match.

use crate::error::Error;
use crate::game::Game;
use crate::matches::Match;
use serde_json::Value;
use std::sync::Arc;

/// Match snapshot format version; `from_json` rejects others.
const VERSION: u64 = 1;

impl Match {
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
        let games: Vec<String> = self
            .finished()
            .iter()
            .map(|g| g.events_json(None))
            .collect();
        format!(
            "{{{}, \"finished\": [{}], \"game\": {}}}",
            self.header_json(),
            games.join(", "),
            self.game().to_json()
        )
    }

    /// The fields a log and a snapshot share, without braces.
    fn header_json(&self) -> String {
        let p = self.placement();
        format!(
            "\"type\": \"match\", \"version\": {VERSION}, \"seed\": {}, \"hands\": {}, \"placement\": [{}, {}, {}, {}], \"time_called\": {}, \"rules\": {}",
            self.seed(),
            self.hands(),
            p[0],
            p[1],
            p[2],
            p[3],
            self.time_called(),
            crate::rules::rules_json(self.rules()),
        )
    }

    /// Restores [`Match::to_json`], verifying everything: each finished hand replays from its
    /// log; every hand's seed and dealer are the ones the match gives it; the current hand is a
    /// valid game snapshot of the match's rules.
    pub fn from_json(text: &str) -> Result<Match, Error> {
        let bad = |e: String| Error::Snapshot(format!("bad match snapshot: {e}"));
        let mut v: Value = serde_json::from_str(text).map_err(|e| bad(e.to_string()))?;
        super::migrate::match_header(&mut v);
        let (m, fields) = header(&v).map_err(bad)?;
        let finished = fields.get("finished").and_then(Value::as_array);
        let finished = finished.ok_or_else(|| bad("finished: expected a list of logs".into()))?;
        let game = fields
            .get("game")
            .ok_or_else(|| bad("game is missing".into()))?;
        let game = crate::wire::to_text(game);
        let game = Game::from_json(&game).map_err(|e| bad(format!("game: {e}")))?;
        rebuild(m, finished, Some(game)).map_err(bad)
    }

    /// Replays a match log ([`Match::log_json`]): every hand from its events, checked as
    /// [`Match::from_json`] checks a snapshot.
    pub fn from_log(text: &str) -> Result<Match, Error> {
        let bad = |e: String| Error::Snapshot(format!("bad match log: {e}"));
        let mut v: Value = serde_json::from_str(text).map_err(|e| bad(e.to_string()))?;
        super::migrate::match_header(&mut v);
        let (m, fields) = header(&v).map_err(bad)?;
        let games = fields.get("games").and_then(Value::as_array);
        let games = games.ok_or_else(|| bad("games: expected a list of logs".into()))?;
        rebuild(m, games, None).map_err(bad)
    }
}

/// A match with its first hand from the header (`type`, `version`, `seed`, `hands`, `rules`,
/// `placement` and `time_called`) of a snapshot or log in today's form ([`super::migrate`]).
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
    let hands = u32::try_from(hands)
        .map_err(|_| format!("hands: at most {}", crate::matches::MAX_HANDS))?;
    let m = Match::new(Arc::new(rules), seed, hands).map_err(|e| e.to_string())?;
    let points: Option<Vec<u32>> = fields.get("placement").and_then(Value::as_array).map(|a| {
        a.iter()
            .filter_map(|x| x.as_u64().and_then(|x| u32::try_from(x).ok()))
            .collect()
    });
    let points: [u32; 4] = points
        .and_then(|v| v.try_into().ok())
        .ok_or("placement: expected four non-negative integers")?;
    let mut m = m.with_placement(points).map_err(|e| e.to_string())?;
    match fields.get("time_called") {
        Some(Value::Bool(true)) => m.call_time(),
        Some(Value::Bool(false)) => {}
        _ => return Err("time_called: expected true or false".into()),
    }
    Ok((m, fields))
}

/// `m` with the hands `logs` record in order (each must be over but the last, which may be
/// replaced by `current`), each replayed from its log and checked by [`Match::with_hands`].
fn rebuild(m: Match, logs: &[Value], current: Option<Game>) -> Result<Match, String> {
    m.check_hand_count(logs.len() + usize::from(current.is_some()))?;
    let mut games = Vec::with_capacity(logs.len() + 1);
    for (i, log) in logs.iter().enumerate() {
        // Written back as logs are written, the replay's own text matches it byte for byte
        // and no second parse is needed to compare them.
        let log = crate::wire::to_text(log);
        let game = Game::from_events(&log).map_err(|e| format!("hand {i}: {e}"))?;
        games.push(game);
    }
    games.extend(current);
    m.with_hands(games)
}
