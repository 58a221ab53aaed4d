//! The full snapshot: `to_json` / `from_json`, restoring exactly (RNG state, hidden decisions
//! and the log included). `from_json` trusts nothing: every field is read with its path in the
//! error, derived values (claims, forced wins, cached waits, scores of wins) are recomputed, and
//! the result must pass every invariant and have someone to act.

use super::events::{Direction, EndReason, Event, KongKind, Reason, WinKind};
use super::json_out::{Object, Raw, ToJson};
use super::log::Log;
use super::state::{River, Seat, Wall};
use super::value::score_win;
use super::{
    Action, Game, IllegalAction, KongRecord, Pending, Responses, Turn, TurnKind, WinRecord,
};
use crate::hand::Counts;
use crate::meld::{Meld, MeldKind};
use crate::pattern::FanTable;
use crate::rng::Rng;
use crate::rules::{Rules, Value as RulesValue};
use crate::score::Situation;
use crate::tile::{parse_tiles, Suit, Tile, KINDS};
use crate::Choice;
use serde_json::Value;
use std::sync::Arc;

/// Snapshot format version; `from_json` rejects others.
const VERSION: u64 = 1;

/// `Rules.to_dict()` as JSON: every option by its schema name, in schema order.
pub(super) fn rules_json(rules: &Rules) -> String {
    let mut out = String::new();
    let mut o = Object::new(&mut out);
    for key in Rules::KEYS {
        match rules.get(key) {
            Ok(RulesValue::Null | RulesValue::Unsupported(_)) | Err(_) => o.field(key, &None::<u8>),
            Ok(RulesValue::Bool(b)) => o.field(key, &b),
            Ok(RulesValue::Int(i)) => o.field(key, &i),
            Ok(RulesValue::Text(t)) => o.field(key, &t),
            Ok(RulesValue::Fan(table)) => {
                let mut fan = String::new();
                let mut f = Object::new(&mut fan);
                for (pattern, value) in table.iter() {
                    f.field(pattern.name(), &value);
                }
                f.end();
                o.field(key, &Raw(&fan))
            }
        };
    }
    o.end();
    out
}

/// Reads `Rules.to_dict()` JSON: the named preset (chengdu if none), then every option given;
/// the result must pass `Rules::validate`.
pub fn rules_from_json(text: &str) -> Result<Rules, String> {
    let value: Value = serde_json::from_str(text).map_err(|e| format!("rules: {e}"))?;
    rules_from(&value)
}

/// Reads `Rules.to_dict()`: every option of the schema, as `Rules::from_values` requires.
pub(crate) fn rules_from(v: &Value) -> Result<Rules, String> {
    let map = v
        .as_object()
        .ok_or("rules: expected an object of options")?;
    let mut entries = Vec::with_capacity(map.len());
    for (key, value) in map {
        let value = if key == "fan" {
            let table = value.as_object().ok_or("rules.fan: expected an object")?;
            let fans = table.iter().map(|(p, f)| (p.clone(), rules_value(f)));
            RulesValue::Fan(FanTable::from_named(fans).map_err(|e| format!("rules: {e}"))?)
        } else {
            rules_value(value)
        };
        entries.push((key.clone(), value));
    }
    Rules::from_values(entries).map_err(|e| format!("rules: {e}"))
}

fn rules_value(v: &Value) -> RulesValue {
    match v {
        Value::Null => RulesValue::Null,
        Value::Bool(b) => RulesValue::Bool(*b),
        Value::Number(n) => n
            .as_i64()
            .map_or_else(|| RulesValue::Unsupported(n.to_string()), RulesValue::Int),
        Value::String(s) => RulesValue::Text(s.clone()),
        other => RulesValue::Unsupported(other.to_string()),
    }
}

fn bits_to_tiles(bits: u32) -> Vec<Tile> {
    Tile::all().filter(|t| bits & 1 << t.index() != 0).collect()
}

fn meld_kind_name(kind: MeldKind) -> &'static str {
    match kind {
        MeldKind::Pong => "pong",
        MeldKind::ExposedKong => "kong",
        MeldKind::ConcealedKong => "concealed_kong",
    }
}

struct MeldJson(Meld);

impl ToJson for MeldJson {
    fn write_json(&self, out: &mut String) {
        Object::new(out)
            .field("kind", meld_kind_name(self.0.kind))
            .field("tile", &self.0.tile)
            .end();
    }
}

fn melds_json(melds: &[Option<Meld>; 4]) -> Vec<MeldJson> {
    melds.iter().flatten().map(|&m| MeldJson(m)).collect()
}

impl ToJson for Action {
    fn write_json(&self, out: &mut String) {
        self.to_string().write_json(out);
    }
}

fn turn_kind_name(kind: TurnKind) -> &'static str {
    match kind {
        TurnKind::First => "first",
        TurnKind::Draw => "draw",
        TurnKind::Replacement => "replacement",
        TurnKind::AfterPong => "after_pong",
    }
}

impl Game {
    /// A full snapshot as JSON text.
    pub fn to_json(&self) -> String {
        let mut out = String::new();
        let rules = rules_json(&self.rules);
        let seats: Vec<String> = self.seats.iter().map(seat_json).collect();
        let seats_raw: Vec<Raw> = seats.iter().map(|s| Raw(s)).collect();
        let river_text: Vec<String> = self
            .river
            .entries()
            .iter()
            .map(|(s, t)| format!("[{s}, \"{t}\"]"))
            .collect();
        let river_raw: Vec<Raw> = river_text.iter().map(|s| Raw(s)).collect();
        let wins: Vec<String> = self.wins.iter().map(win_json).collect();
        let wins_raw: Vec<Raw> = wins.iter().map(|s| Raw(s)).collect();
        let kongs: Vec<String> = self.kongs.iter().map(kong_json).collect();
        let kongs_raw: Vec<Raw> = kongs.iter().map(|s| Raw(s)).collect();
        let pending = self.pending_json();
        let events = self.events_json(None);
        let mut o = Object::new(&mut out);
        o.field("version", &VERSION)
            .field("rules", &Raw(&rules))
            .field("seed", &self.seed)
            .field("rng", &self.rng.state())
            .field("dealer", &self.dealer)
            .field("wall", self.wall.live())
            .field("seats", &seats_raw)
            .field("river", &river_raw)
            .field("pending", &Raw(&pending))
            .field("claimed", &self.claimed)
            .field("wins", &wins_raw)
            .field("kongs", &kongs_raw)
            .field("scores", &self.scores)
            .field("end", &self.end.map(|e| e.name()))
            .field("logging", &self.log.is_some())
            .field("events", &Raw(&events));
        o.end();
        out
    }

    fn pending_json(&self) -> String {
        let mut out = String::new();
        let mut o = Object::new(&mut out);
        match &self.pending {
            Pending::Exchange(picks) => {
                let picks: Vec<Option<Action>> =
                    picks.iter().map(|p| p.map(Action::Exchange)).collect();
                o.field("phase", "exchange").field("picks", &picks);
            }
            Pending::Void(picks) => {
                o.field("phase", "void").field("picks", picks);
            }
            Pending::Turn(t) => {
                o.field("phase", "turn")
                    .field("seat", &t.seat)
                    .field("kind", turn_kind_name(t.kind))
                    .field("drawn", &t.drawn)
                    .field("kong", &t.kong)
                    .field("last_four", &t.last_four);
            }
            Pending::Respond(r) => {
                o.field("phase", "respond")
                    .field("from", &r.from)
                    .field("tile", &r.tile)
                    .field("kong", &r.kong.map(|(k, _)| k.name()))
                    .field("late", &r.kong.is_some_and(|(_, late)| late))
                    .field("decisions", &r.decisions)
                    .field("after_kong", &r.after_kong);
            }
            Pending::Over => {
                o.field("phase", "over");
            }
        }
        o.end();
        out
    }
}

fn seat_json(s: &Seat) -> String {
    let mut out = String::new();
    let arrival: &[u16] = &s.arrival;
    Object::new(&mut out)
        .field("hand", &s.hand)
        .field("melds", &melds_json(&s.melds))
        .field("pong_with_three", &bits_to_tiles(s.pong_with_three))
        .field("root_only_kongs", &bits_to_tiles(s.root_only_kongs))
        .field("direct_kongs", &bits_to_tiles(s.direct_kongs))
        .field("void", &s.void)
        .field("turn", &s.turn)
        .field("arrival", arrival)
        .field("draws", &s.draws)
        .field("wins", &s.wins)
        .field("declined", &s.declined)
        .end();
    out
}

fn win_json(w: &WinRecord) -> String {
    let mut out = String::new();
    let f = w.flags;
    let mut flags = String::new();
    Object::new(&mut flags)
        .field("self_draw", &f.self_draw)
        .field("kong_flower", &f.kong_flower)
        .field("kong_shot", &f.kong_shot)
        .field("robbed_kong", &f.robbed_kong)
        .field("heavenly", &f.heavenly)
        .field("earthly", &f.earthly)
        .end();
    Object::new(&mut out)
        .field("seat", &w.seat)
        .field("tile", &w.tile)
        .field("from", &w.from)
        .field("kind", w.kind.name())
        .field("hand", &w.hand)
        .field("melds", &melds_json(&w.melds))
        .field("root_only_kongs", &bits_to_tiles(w.root_only_kongs))
        .field("flags", &Raw(&flags))
        .field("feeder", &w.feeder)
        .field("shared", &w.shared)
        .end();
    out
}

fn kong_json(k: &KongRecord) -> String {
    let mut out = String::new();
    Object::new(&mut out)
        .field("owner", &k.owner)
        .field("tile", &k.tile)
        .field("kind", k.kind.name())
        .field("feeder", &k.feeder)
        .field("paid", &k.paid)
        .field("transferred", &k.transferred)
        .end();
    out
}

/// Reads one JSON value with its path, for error messages that point at the problem.
#[derive(Clone, Copy)]
struct At<'a> {
    value: &'a Value,
    path: &'a str,
}

type R<T> = Result<T, String>;

impl<'a> At<'a> {
    fn field(self, key: &str) -> R<(&'a Value, String)> {
        let path = format!("{}.{key}", self.path);
        match self.value.get(key) {
            Some(v) => Ok((v, path)),
            None => Err(format!("{path} is missing")),
        }
    }
}

fn err<T>(path: &str, what: &str, v: &Value) -> R<T> {
    let mut shown = v.to_string();
    if shown.len() > 60 {
        shown.truncate(60);
        shown.push('…');
    }
    Err(format!("{path}: expected {what}, got {shown}"))
}

fn uint(v: &Value, path: &str, max: u64) -> R<u64> {
    match v.as_u64() {
        Some(n) if n <= max => Ok(n),
        _ => err(path, &format!("an integer 0..={max}"), v),
    }
}

fn int(v: &Value, path: &str) -> R<i64> {
    v.as_i64().map_or_else(|| err(path, "an integer", v), Ok)
}

fn boolean(v: &Value, path: &str) -> R<bool> {
    v.as_bool()
        .map_or_else(|| err(path, "true or false", v), Ok)
}

fn seat_num(v: &Value, path: &str) -> R<u8> {
    Ok(uint(v, path, 3)? as u8)
}

fn opt<T>(v: &Value, f: impl FnOnce(&Value) -> R<T>) -> R<Option<T>> {
    if v.is_null() {
        Ok(None)
    } else {
        f(v).map(Some)
    }
}

fn tile(v: &Value, path: &str) -> R<Tile> {
    let text = v
        .as_str()
        .map_or_else(|| err(path, "a tile like \"5m\"", v), Ok)?;
    match parse_tiles(text).ok().as_deref() {
        Some([t]) => Ok(*t),
        _ => err(path, "a tile like \"5m\"", v),
    }
}

fn array<'a>(v: &'a Value, path: &str) -> R<&'a Vec<Value>> {
    v.as_array().map_or_else(|| err(path, "a list", v), Ok)
}

fn tiles(v: &Value, path: &str) -> R<Vec<Tile>> {
    array(v, path)?
        .iter()
        .enumerate()
        .map(|(i, t)| tile(t, &format!("{path}[{i}]")))
        .collect()
}

fn counts(v: &Value, path: &str) -> R<Counts> {
    Counts::from_tiles(&tiles(v, path)?).map_err(|e| format!("{path}: {e}"))
}

fn tile_bits(v: &Value, path: &str) -> R<u32> {
    Ok(tiles(v, path)?.iter().fold(0, |b, t| b | 1 << t.index()))
}

fn suit(v: &Value, path: &str) -> R<Suit> {
    v.as_str()
        .and_then(Suit::parse)
        .map_or_else(|| err(path, "a suit \"m\", \"p\" or \"s\"", v), Ok)
}

fn name<'a>(v: &'a Value, path: &str, names: &[&str]) -> R<&'a str> {
    match v.as_str() {
        Some(s) if names.contains(&s) => Ok(s),
        _ => err(path, &format!("one of {names:?}"), v),
    }
}

fn action(v: &Value, path: &str) -> R<Action> {
    v.as_str()
        .and_then(Action::parse)
        .map_or_else(|| err(path, "an action like \"discard 5m\"", v), Ok)
}

fn melds(v: &Value, path: &str) -> R<[Option<Meld>; 4]> {
    let list = array(v, path)?;
    if list.len() > 4 {
        return Err(format!("{path}: at most four melds, got {}", list.len()));
    }
    let mut out = [None; 4];
    for (i, m) in list.iter().enumerate() {
        let at = At {
            value: m,
            path: &format!("{path}[{i}]"),
        };
        let (k, kp) = at.field("kind")?;
        let (t, tp) = at.field("tile")?;
        let tile = tile(t, &tp)?;
        out[i] = Some(match name(k, &kp, &["pong", "kong", "concealed_kong"])? {
            "pong" => Meld::pong(tile),
            "kong" => Meld::kong(tile, false),
            _ => Meld::kong(tile, true),
        });
    }
    let mut seen = 0u32;
    for m in out.iter().flatten() {
        if seen & 1 << m.tile.index() != 0 {
            return Err(format!("{path}: two melds of {}", m.tile));
        }
        seen |= 1 << m.tile.index();
    }
    Ok(out)
}

fn kong_kind(v: &Value, path: &str) -> R<KongKind> {
    Ok(match name(v, path, &["direct", "added", "concealed"])? {
        "direct" => KongKind::Direct,
        "added" => KongKind::Added,
        _ => KongKind::Concealed,
    })
}

fn seat_from(v: &Value, path: &str) -> R<Seat> {
    let at = At { value: v, path };
    let f = |key: &str| at.field(key);
    let mut s = Seat::EMPTY;
    let (x, p) = f("hand")?;
    s.hand = counts(x, &p)?;
    let (x, p) = f("melds")?;
    s.melds = melds(x, &p)?;
    s.rebuild_summary();
    let (x, p) = f("pong_with_three")?;
    s.pong_with_three = tile_bits(x, &p)?;
    let (x, p) = f("root_only_kongs")?;
    s.root_only_kongs = tile_bits(x, &p)?;
    let (x, p) = f("direct_kongs")?;
    s.direct_kongs = tile_bits(x, &p)?;
    let (x, p) = f("void")?;
    s.void = opt(x, |x| suit(x, &p))?;
    let (x, p) = f("turn")?;
    s.turn = uint(x, &p, 10_000)? as u16;
    let (x, p) = f("arrival")?;
    let arrival = array(x, &p)?;
    if arrival.len() != KINDS {
        return Err(format!("{p}: expected 27 turn numbers"));
    }
    for (i, a) in arrival.iter().enumerate() {
        s.arrival[i] = uint(a, &format!("{p}[{i}]"), 10_000)? as u16;
    }
    let (x, p) = f("draws")?;
    s.draws = uint(x, &p, 200)? as u8;
    let (x, p) = f("wins")?;
    s.wins = uint(x, &p, 200)? as u8;
    let (x, p) = f("declined")?;
    s.declined = opt(x, |x| uint(x, &p, 10_000).map(|n| n as u32))?;
    Ok(s)
}

fn pending_from(v: &Value, path: &str, game: &Game) -> R<Pending> {
    let at = At { value: v, path };
    let (phase, pp) = at.field("phase")?;
    let four = |key: &str| -> R<(Vec<Value>, String)> {
        let (x, p) = at.field(key)?;
        let list = array(x, &p)?;
        if list.len() != 4 {
            return Err(format!("{p}: expected four entries, one per seat"));
        }
        Ok((list.clone(), p))
    };
    Ok(
        match name(phase, &pp, &["exchange", "void", "turn", "respond", "over"])? {
            "exchange" => {
                let (list, p) = four("picks")?;
                let mut picks = [None; 4];
                for (i, x) in list.iter().enumerate() {
                    let xp = format!("{p}[{i}]");
                    picks[i] = opt(x, |x| match action(x, &xp)? {
                        Action::Exchange(t) => Ok(t),
                        _ => err(&xp, "an exchange like \"exchange 123m\"", x),
                    })?;
                }
                Pending::Exchange(picks)
            }
            "void" => {
                let (list, p) = four("picks")?;
                let mut picks = [None; 4];
                for (i, x) in list.iter().enumerate() {
                    picks[i] = opt(x, |x| suit(x, &format!("{p}[{i}]")))?;
                }
                Pending::Void(picks)
            }
            "turn" => {
                let (x, p) = at.field("seat")?;
                let seat = seat_num(x, &p)?;
                let (x, p) = at.field("kind")?;
                let kind = match name(x, &p, &["first", "draw", "replacement", "after_pong"])? {
                    "first" => TurnKind::First,
                    "draw" => TurnKind::Draw,
                    "replacement" => TurnKind::Replacement,
                    _ => TurnKind::AfterPong,
                };
                let (x, p) = at.field("drawn")?;
                let drawn = opt(x, |x| tile(x, &p))?;
                let (x, p) = at.field("kong")?;
                let kong = opt(x, |x| {
                    uint(x, &p, game.kongs.len().saturating_sub(1) as u64)
                })?;
                if kong.is_some() && game.kongs.is_empty() {
                    return Err(format!("{p}: names a kong but none stood"));
                }
                let (x, p) = at.field("last_four")?;
                let last_four = boolean(x, &p)?;
                let needs_draw = matches!(kind, TurnKind::Draw | TurnKind::Replacement);
                if needs_draw != drawn.is_some()
                    || (kind == TurnKind::Replacement) != kong.is_some()
                {
                    return Err(format!(
                        "{path}: a draw or replacement turn names its drawn tile (and a replacement its kong); others name neither"
                    ));
                }
                Pending::Turn(Turn {
                    seat,
                    kind,
                    drawn,
                    kong: kong.map(|k| k as u16),
                    last_four,
                })
            }
            "respond" => respond_from(&at, game)?,
            _ => Pending::Over,
        },
    )
}

/// Claims and forced wins are recomputed from the state, which has not changed since the
/// discard or kong; stored decisions must be among the legal ones.
fn respond_from(at: &At<'_>, game: &Game) -> R<Pending> {
    let (x, p) = at.field("from")?;
    let from = seat_num(x, &p)?;
    let (x, p) = at.field("tile")?;
    let tile = tile(x, &p)?;
    let (x, p) = at.field("kong")?;
    let kind = opt(x, |x| kong_kind(x, &p))?;
    if kind == Some(KongKind::Direct) {
        return Err(format!("{p}: a direct kong is never robbed"));
    }
    let (x, p) = at.field("late")?;
    let late = boolean(x, &p)?;
    let (x, p) = at.field("after_kong")?;
    let after_kong = opt(x, |x| uint(x, &p, u16::MAX as u64))?;
    if after_kong.is_some_and(|k| k as usize >= game.kongs.len())
        || (after_kong.is_some() && kind.is_some())
    {
        return Err(format!("{p}: names no kong that stood before this discard"));
    }
    let mut r = Responses {
        from,
        tile,
        kong: kind.map(|k| (k, late)),
        claims: [0; 4],
        forced: 0,
        decisions: [None; 4],
        after_kong: after_kong.map(|k| k as u16),
    };
    for other in (0..4).filter(|&o| o != from) {
        r.claims[other as usize] = match kind {
            None => game.discard_claims(other, tile, r.after_kong.is_some()),
            Some(k) if k == KongKind::Added || game.rules.rob_concealed_kong => {
                game.rob_claims(other, tile)
            }
            Some(_) => 0,
        };
    }
    let (x, p) = at.field("decisions")?;
    let list = array(x, &p)?;
    if list.len() != 4 {
        return Err(format!("{p}: expected four entries, one per seat"));
    }
    let mut decisions = [None; 4];
    for (i, d) in list.iter().enumerate() {
        decisions[i] = opt(d, |d| action(d, &format!("{p}[{i}]")))?;
    }
    let mut probe = game.clone();
    probe.open_responses(r, game.wall.remaining() <= 4);
    let Pending::Respond(mut opened) = probe.pending else {
        return Err(format!(
            "{}: nobody may claim {tile}, so nothing waits",
            at.path
        ));
    };
    for seat in 0..4u8 {
        if let Some(d) = decisions[seat as usize] {
            if !probe.is_legal(seat, d) {
                return Err(format!("{p}[{seat}]: {d} is not a legal response here"));
            }
        }
    }
    opened.decisions = decisions;
    if (0..4).all(|i| opened.claims[i] == 0 || opened.decisions[i].is_some()) {
        return Err(format!(
            "{p}: every decision is in, so the responses would have resolved"
        ));
    }
    Ok(Pending::Respond(opened))
}

fn win_from(v: &Value, path: &str, rules: &Rules) -> R<WinRecord> {
    let at = At { value: v, path };
    let (x, p) = at.field("seat")?;
    let seat = seat_num(x, &p)?;
    let (x, p) = at.field("tile")?;
    let win_tile = tile(x, &p)?;
    let (x, p) = at.field("from")?;
    let from = opt(x, |x| seat_num(x, &p))?;
    let (x, p) = at.field("kind")?;
    let kind = match name(x, &p, &["discard", "self_draw", "robbed_kong"])? {
        "discard" => WinKind::Discard,
        "self_draw" => WinKind::SelfDraw,
        _ => WinKind::RobbedKong,
    };
    if (kind == WinKind::SelfDraw) != from.is_none() {
        return Err(format!(
            "{path}: a self-drawn win has no from; other wins do"
        ));
    }
    let (x, p) = at.field("hand")?;
    let hand = counts(x, &p)?;
    let (x, p) = at.field("melds")?;
    let melds = melds(x, &p)?;
    let (x, p) = at.field("root_only_kongs")?;
    let root_only_kongs = tile_bits(x, &p)?;
    let (fl, fp) = at.field("flags")?;
    let fat = At {
        value: fl,
        path: &fp,
    };
    let flag = |key: &str| -> R<bool> {
        let (x, p) = fat.field(key)?;
        boolean(x, &p)
    };
    let flags = Situation {
        self_draw: flag("self_draw")?,
        kong_flower: flag("kong_flower")?,
        kong_shot: flag("kong_shot")?,
        robbed_kong: flag("robbed_kong")?,
        heavenly: flag("heavenly")?,
        earthly: flag("earthly")?,
    };
    let (x, p) = at.field("feeder")?;
    let feeder = opt(x, |x| seat_num(x, &p))?;
    let (x, p) = at.field("shared")?;
    let shared = boolean(x, &p)?;
    let mut winner = Seat::EMPTY;
    winner.hand = hand;
    winner.melds = melds;
    winner.root_only_kongs = root_only_kongs;
    winner.rebuild_summary();
    let size = hand.len() + 3 * winner.meld_summary.sets as usize;
    if size != 13 || winner.meld_summary.check_copies(&hand).is_err() || hand.count(win_tile) >= 4 {
        return Err(format!(
            "{path}: the hand before a win holds 13 tiles counting melds as three"
        ));
    }
    let score = score_win(rules, &winner, win_tile, flags);
    Ok(WinRecord {
        seat,
        tile: win_tile,
        from,
        kind,
        hand,
        melds,
        root_only_kongs,
        flags,
        feeder,
        score,
        shared,
    })
}

fn kong_from(v: &Value, path: &str) -> R<KongRecord> {
    let at = At { value: v, path };
    let (x, p) = at.field("owner")?;
    let owner = seat_num(x, &p)?;
    let (x, p) = at.field("tile")?;
    let tile = tile(x, &p)?;
    let (x, p) = at.field("kind")?;
    let kind = kong_kind(x, &p)?;
    let (x, p) = at.field("feeder")?;
    let feeder = opt(x, |x| seat_num(x, &p))?;
    let (x, p) = at.field("paid")?;
    let list = array(x, &p)?;
    if list.len() != 4 {
        return Err(format!("{p}: expected four amounts"));
    }
    let mut paid = [0i64; 4];
    for (i, a) in list.iter().enumerate() {
        paid[i] = uint(a, &format!("{p}[{i}]"), 1 << 40)? as i64;
    }
    let (x, p) = at.field("transferred")?;
    let transferred = boolean(x, &p)?;
    Ok(KongRecord {
        owner,
        tile,
        kind,
        feeder,
        paid,
        transferred,
    })
}

impl Game {
    /// Restores a snapshot written by [`Game::to_json`], rejecting anything inconsistent.
    pub fn from_json(text: &str) -> Result<Game, IllegalAction> {
        let value: Value = serde_json::from_str(text)
            .map_err(|e| IllegalAction(format!("snapshot is not JSON: {e}")))?;
        Game::from_value(&value).map_err(|e| IllegalAction(format!("bad snapshot: {e}")))
    }

    fn from_value(v: &Value) -> R<Game> {
        let at = At {
            value: v,
            path: "snapshot",
        };
        let f = |key: &str| at.field(key);
        let (x, p) = f("version")?;
        if uint(x, &p, u64::MAX)? != VERSION {
            return Err(format!("{p}: this engine reads version {VERSION}"));
        }
        let (x, _) = f("rules")?;
        let rules = Arc::new(rules_from(x)?);
        if rules.wilds {
            return Err("rules: the 幺鸡 wildcard variant is not playable yet".into());
        }
        let (x, p) = f("seed")?;
        let seed = uint(x, &p, u64::MAX)?;
        let (x, p) = f("rng")?;
        let rng = Rng::new(uint(x, &p, u64::MAX)?);
        let (x, p) = f("dealer")?;
        let dealer = seat_num(x, &p)?;
        let (x, p) = f("wall")?;
        let live = tiles(x, &p)?;
        if live.len() > super::WALL_SIZE {
            return Err(format!("{p}: more than 108 tiles"));
        }
        let mut wall = Wall::sorted();
        wall.tiles[..live.len()].copy_from_slice(&live);
        wall.front = 0;
        wall.back = live.len() as u8;
        let (x, p) = f("seats")?;
        let list = array(x, &p)?;
        if list.len() != 4 {
            return Err(format!("{p}: expected four seats"));
        }
        let mut seats = [Seat::EMPTY; 4];
        for (i, s) in list.iter().enumerate() {
            seats[i] = seat_from(s, &format!("{p}[{i}]"))?;
        }
        let (x, p) = f("river")?;
        let mut river = River::new();
        let entries = array(x, &p)?;
        if entries.len() > super::WALL_SIZE {
            return Err(format!("{p}: more than 108 discards"));
        }
        for (i, e) in entries.iter().enumerate() {
            let ep = format!("{p}[{i}]");
            match e.as_array().map(Vec::as_slice) {
                Some([s, t]) => river.push(seat_num(s, &ep)?, tile(t, &ep)?),
                _ => return err(&ep, "a [seat, tile] pair", e),
            }
        }
        let (x, p) = f("claimed")?;
        let claimed = boolean(x, &p)?;
        let (x, p) = f("kongs")?;
        let kongs = array(x, &p)?
            .iter()
            .enumerate()
            .map(|(i, k)| kong_from(k, &format!("{p}[{i}]")))
            .collect::<R<Vec<_>>>()?;
        let (x, p) = f("wins")?;
        let wins = array(x, &p)?
            .iter()
            .enumerate()
            .map(|(i, w)| win_from(w, &format!("{p}[{i}]"), &rules))
            .collect::<R<Vec<_>>>()?;
        let (x, p) = f("scores")?;
        let list = array(x, &p)?;
        if list.len() != 4 {
            return Err(format!("{p}: expected four scores"));
        }
        let mut scores = [0i64; 4];
        for (i, s) in list.iter().enumerate() {
            scores[i] = int(s, &format!("{p}[{i}]"))?;
            if scores[i].abs() > 1 << 50 {
                return Err(format!("{p}[{i}]: out of range"));
            }
        }
        let (x, p) = f("end")?;
        let end = opt(x, |x| {
            Ok(match name(x, &p, &["three_won", "wall_empty"])? {
                "three_won" => EndReason::ThreeWon,
                _ => EndReason::WallEmpty,
            })
        })?;
        let (x, p) = f("logging")?;
        let logging = boolean(x, &p)?;
        let mut game = Game {
            rules,
            seed,
            rng,
            dealer,
            wall,
            seats,
            river,
            pending: Pending::Over,
            claimed,
            wins,
            kongs,
            scores,
            end,
            log: None,
        };
        game.check_records()?;
        // Claims read the cached waits: refresh them before and after the pending decision.
        game.refresh_cached_waits();
        let (x, p) = f("pending")?;
        game.pending = pending_from(x, &p, &game)?;
        game.refresh_cached_waits();
        game.check_invariants()?;
        game.check_pending()?;
        let (x, p) = f("events")?;
        if logging {
            game.log = Some(events_from(x, &p, &game)?);
        } else if !array(x, &p)?.is_empty() {
            return Err(format!("{p}: a game without logging has no events"));
        }
        Ok(game)
    }

    /// Wins per seat match the win list; kongs name real melds.
    fn check_records(&self) -> R<()> {
        for seat in 0..4u8 {
            let n = self.wins.iter().filter(|w| w.seat == seat).count();
            if n != self.seats[seat as usize].wins as usize {
                return Err(format!(
                    "seats[{seat}].wins is not its number of wins ({n})"
                ));
            }
        }
        for (i, k) in self.kongs.iter().enumerate() {
            if k.feeder.is_some() != (k.kind == KongKind::Direct) || k.feeder == Some(k.owner) {
                return Err(format!(
                    "kongs[{i}]: only a direct kong has a feeder, another seat"
                ));
            }
        }
        Ok(())
    }

    /// Someone must be able to act, unless the hand is over; the end reason fits.
    fn check_pending(&self) -> R<()> {
        if matches!(self.pending, Pending::Over) != self.end.is_some() {
            return Err("the hand is over exactly when it has an end reason".into());
        }
        if let Pending::Turn(t) = self.pending {
            if t.kong
                .is_some_and(|k| self.kongs[k as usize].owner != t.seat)
            {
                return Err("pending.kong is another seat's kong".into());
            }
            if self.wins.iter().any(|w| w.seat == t.seat) && !self.in_hand(t.seat) {
                return Err("a 血战 winner is on the move".into());
            }
        }
        if let Pending::Respond(r) = self.pending {
            if !self.in_hand(r.from) {
                return Err("pending.from has left the hand".into());
            }
            if r.kong.is_none() && self.river.entries().last() != Some(&(r.from, r.tile)) {
                return Err(
                    "the discard waiting for responses is not the last in the river".into(),
                );
            }
        }
        let mut buf = super::ActionList::new();
        for seat in self.to_act() {
            self.legal_actions(seat, &mut buf);
            if buf.is_empty() {
                return Err(format!("seat {seat} must act but has no legal action"));
            }
        }
        if !self.is_over() && self.to_act().is_empty() {
            return Err("nobody can act, yet the hand is not over".into());
        }
        Ok(())
    }

    /// Recomputes the waits kept per seat (see `Seat::waits`).
    pub(super) fn refresh_cached_waits(&mut self) {
        let seven = self.rules.allow_seven_pairs;
        let on_move = match self.pending {
            Pending::Turn(t) => Some(t),
            _ => None,
        };
        for (i, s) in self.seats.iter_mut().enumerate() {
            let mut waiting = *s;
            if let Some(t) = on_move.filter(|t| t.seat as usize == i) {
                match t.drawn.filter(|&d| s.hand.count(d) > 0) {
                    Some(d) if t.kind == TurnKind::Draw => waiting.hand.remove(d),
                    _ => continue,
                }
            }
            waiting.refresh_waits(seven);
            s.waits = waiting.waits;
        }
    }
}

/// Reads a log back into events; win events refer to the win list in order.
fn events_from(v: &Value, path: &str, game: &Game) -> R<Log<Event>> {
    let mut log = Log::default();
    let mut wins = 0u16;
    for (i, e) in array(v, path)?.iter().enumerate() {
        let ep = format!("{path}[{i}]");
        let event = event_from(e, &ep, &mut wins)?;
        log.push(event);
    }
    if wins as usize != game.wins.len() {
        return Err(format!(
            "{path}: {wins} win events for {} wins",
            game.wins.len()
        ));
    }
    Ok(log)
}

/// One event of the full (unfiltered) log.
pub(super) fn event_from(v: &Value, path: &str, wins: &mut u16) -> R<Event> {
    let at = At { value: v, path };
    let get = |key: &str| at.field(key);
    let seat = || -> R<u8> {
        let (x, p) = get("seat")?;
        seat_num(x, &p)
    };
    let tile_f = |key: &str| -> R<Tile> {
        let (x, p) = get(key)?;
        tile(x, &p)
    };
    let (x, p) = get("type")?;
    let kinds = [
        "start", "dice", "deal", "exchange", "redeal", "void", "draw", "discard", "pass", "pong",
        "kong", "beaten", "robbed", "win", "payment", "end",
    ];
    Ok(match name(x, &p, &kinds)? {
        "start" => {
            let (x, p) = get("seed")?;
            let (d, dp) = get("dealer")?;
            Event::Start {
                seed: uint(x, &p, u64::MAX)?,
                dealer: seat_num(d, &dp)?,
            }
        }
        "dice" => {
            let (x, p) = get("purpose")?;
            let purpose = name(x, &p, &["dealer", "wall", "exchange"])?;
            let (r, rp) = get("rolls")?;
            let rolls = array(r, &rp)?;
            let die = |v: &Value, p: &str| -> R<u8> {
                match v.as_u64() {
                    Some(n @ 1..=6) => Ok(n as u8),
                    _ => err(p, "a die 1-6", v),
                }
            };
            if purpose == "dealer" {
                if rolls.len() != 4 {
                    return Err(format!("{rp}: one list of rolls per seat"));
                }
                let mut out: [Vec<u8>; 4] = Default::default();
                for (s, list) in rolls.iter().enumerate() {
                    for (j, d) in array(list, &rp)?.iter().enumerate() {
                        out[s].push(die(d, &format!("{rp}[{s}][{j}]"))?);
                    }
                }
                Event::DealerDice { rolls: out }
            } else {
                match rolls.as_slice() {
                    [d] => Event::Dice {
                        exchange: purpose == "exchange",
                        seat: seat()?,
                        roll: die(d, &rp)?,
                    },
                    _ => return Err(format!("{rp}: one die")),
                }
            }
        }
        "deal" => {
            let (x, p) = get("tiles")?;
            Event::Deal {
                seat: seat()?,
                tiles: counts(x, &p)?,
            }
        }
        "exchange" => {
            let (x, p) = get("direction")?;
            let direction = match name(x, &p, &["counterclockwise", "clockwise", "opposite"])? {
                "counterclockwise" => Direction::Counterclockwise,
                "clockwise" => Direction::Clockwise,
                _ => Direction::Opposite,
            };
            let lists = |key: &str| -> R<[[Tile; 3]; 4]> {
                let (x, p) = get(key)?;
                let list = array(x, &p)?;
                let mut out = [[Tile::new(0).expect("1m"); 3]; 4];
                if list.len() != 4 {
                    return Err(format!("{p}: four lists"));
                }
                for (s, l) in list.iter().enumerate() {
                    let lp = format!("{p}[{s}]");
                    match tiles(l, &lp)?.as_slice() {
                        [a, b, c] => out[s] = [*a, *b, *c],
                        _ => return Err(format!("{lp}: three tiles")),
                    }
                }
                Ok(out)
            };
            Event::Exchange {
                direction,
                given: lists("given")?,
                received: lists("received")?,
            }
        }
        "redeal" => Event::Redeal,
        "void" => {
            let (x, p) = get("suit")?;
            Event::Void {
                seat: seat()?,
                suit: suit(x, &p)?,
            }
        }
        "draw" => {
            let (x, p) = get("replacement")?;
            Event::Draw {
                seat: seat()?,
                tile: tile_f("tile")?,
                replacement: boolean(x, &p)?,
            }
        }
        "discard" => Event::Discard {
            seat: seat()?,
            tile: tile_f("tile")?,
        },
        "pass" => {
            let (x, p) = get("on")?;
            let on_kong = name(x, &p, &["discard", "kong"])? == "kong";
            let (c, cp) = get("could")?;
            let mut could = 0;
            for (j, n) in array(c, &cp)?.iter().enumerate() {
                could |= match name(n, &format!("{cp}[{j}]"), &["win", "kong", "pong"])? {
                    "win" => super::events::claim::WIN,
                    "kong" => super::events::claim::KONG,
                    _ => super::events::claim::PONG,
                };
            }
            Event::Pass {
                seat: seat()?,
                on_kong,
                could,
            }
        }
        "pong" => {
            let (x, p) = get("from")?;
            Event::Pong {
                seat: seat()?,
                tile: tile_f("tile")?,
                from: seat_num(x, &p)?,
            }
        }
        "kong" => {
            let (k, kp) = get("kind")?;
            let (x, p) = get("from")?;
            let (l, lp) = get("late")?;
            Event::Kong {
                seat: seat()?,
                tile: tile_f("tile")?,
                kind: kong_kind(k, &kp)?,
                from: opt(x, |x| seat_num(x, &p))?,
                late: boolean(l, &lp)?,
            }
        }
        "beaten" => {
            let (x, p) = get("claim")?;
            let claim = match name(x, &p, &["pong", "kong"])? {
                "pong" => super::events::claim::PONG,
                _ => super::events::claim::KONG,
            };
            Event::Beaten {
                seat: seat()?,
                claim,
            }
        }
        "robbed" => Event::Robbed {
            seat: seat()?,
            tile: tile_f("tile")?,
        },
        "win" => {
            let index = *wins;
            *wins += 1;
            Event::Win { index }
        }
        "payment" => {
            let (x, p) = get("payer")?;
            let (y, q) = get("payee")?;
            let (a, ap) = get("amount")?;
            let (r, rp) = get("reason")?;
            let names: Vec<&str> = Reason::ALL.iter().map(|r| r.name()).collect();
            let reason = name(r, &rp, &names)?;
            Event::Payment {
                payer: seat_num(x, &p)?,
                payee: seat_num(y, &q)?,
                amount: int(a, &ap)?,
                reason: Reason::ALL
                    .into_iter()
                    .find(|r| r.name() == reason)
                    .unwrap_or(Reason::Win),
            }
        }
        _ => {
            let (x, p) = get("reason")?;
            let reason = match name(x, &p, &["three_won", "wall_empty"])? {
                "three_won" => EndReason::ThreeWon,
                _ => EndReason::WallEmpty,
            };
            let (s, sp) = get("scores")?;
            let list = array(s, &sp)?;
            if list.len() != 4 {
                return Err(format!("{sp}: four scores"));
            }
            let mut scores = [0i64; 4];
            for (i, x) in list.iter().enumerate() {
                scores[i] = int(x, &sp)?;
            }
            Event::End { reason, scores }
        }
    })
}

impl Game {
    /// Replays an event log: its `start` event gives seed and rules, its decisions the actions;
    /// the replay must write the same log again.
    pub fn from_events(text: &str) -> Result<Game, IllegalAction> {
        let bad = |e: String| IllegalAction(format!("bad event log: {e}"));
        let value: Value = serde_json::from_str(text).map_err(|e| bad(e.to_string()))?;
        let list = array(&value, "events").map_err(bad)?;
        let start = list.first().ok_or_else(|| bad("the log is empty".into()))?;
        let at = At {
            value: start,
            path: "events[0]",
        };
        let (x, p) = at.field("seed").map_err(bad)?;
        let seed = uint(x, &p, u64::MAX).map_err(bad)?;
        let (x, _) = at.field("rules").map_err(bad)?;
        let rules = Arc::new(rules_from(x).map_err(bad)?);
        let actions = decisions(list).map_err(bad)?;
        let game = Game::replay(rules, seed, &actions, true)?;
        let written: Value =
            serde_json::from_str(&game.events_json(None)).map_err(|e| bad(e.to_string()))?;
        if written != value {
            return Err(bad(
                "replaying its decisions writes a different log (edited or from another version)"
                    .into(),
            ));
        }
        Ok(game)
    }
}

/// The decisions a log records, in order.
fn decisions(list: &[Value]) -> R<Vec<(u8, Action)>> {
    let mut out = Vec::new();
    let mut last_discard = None;
    let mut wins = 0u16;
    for (i, e) in list.iter().enumerate() {
        let path = format!("events[{i}]");
        match event_from(e, &path, &mut wins)? {
            Event::Exchange { given, .. } => {
                for (seat, tiles) in given.iter().enumerate() {
                    out.push((seat as u8, Action::exchange(*tiles)));
                }
            }
            Event::Void { seat, suit } => out.push((seat, Action::Void(suit))),
            Event::Discard { seat, tile } => {
                last_discard = Some(tile);
                out.push((seat, Action::Discard(tile)));
            }
            Event::Pass { seat, .. } => out.push((seat, Action::Pass)),
            Event::Beaten { seat, claim } => {
                let action = if claim == super::events::claim::PONG {
                    Action::Pong
                } else {
                    Action::Kong(last_discard.ok_or(format!("{path}: a kong before any discard"))?)
                };
                out.push((seat, action));
            }
            Event::Pong { seat, .. } => out.push((seat, Action::Pong)),
            Event::Kong { seat, tile, .. } => out.push((seat, Action::Kong(tile))),
            Event::Win { .. } => {
                let (x, p) = At {
                    value: e,
                    path: &path,
                }
                .field("seat")?;
                out.push((seat_num(x, &p)?, Action::Win));
            }
            _ => {}
        }
    }
    Ok(out)
}
