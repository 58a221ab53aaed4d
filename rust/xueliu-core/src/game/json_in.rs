//! Reading JSON values with their path, so that every error points at the problem; and
//! reading `Rules.to_dict()`.

use super::Action;
use crate::hand::Counts;
use crate::meld::{Meld, MeldKind};
use crate::pattern::FanTable;
use crate::rules::{Rules, Value as RulesValue};
use crate::tile::{parse_tiles, Suit, Tile};
use crate::Choice;
use serde_json::Value;

/// Reads one JSON value with its path, for error messages that point at the problem.
#[derive(Clone, Copy)]
pub(super) struct At<'a> {
    pub(super) value: &'a Value,
    pub(super) path: &'a str,
}

pub(super) type R<T> = Result<T, String>;

impl<'a> At<'a> {
    pub(super) fn field(self, key: &str) -> R<(&'a Value, String)> {
        let path = format!("{}.{key}", self.path);
        match self.value.get(key) {
            Some(v) => Ok((v, path)),
            None => Err(format!("{path} is missing")),
        }
    }
}

pub(super) fn err<T>(path: &str, what: &str, v: &Value) -> R<T> {
    let mut shown = v.to_string();
    // Cut by characters: a byte cut could split a multi-byte one (and panic).
    if shown.chars().count() > 60 {
        shown = shown.chars().take(60).chain(['…']).collect();
    }
    Err(format!("{path}: expected {what}, got {shown}"))
}

pub(super) fn uint(v: &Value, path: &str, max: u64) -> R<u64> {
    match v.as_u64() {
        Some(n) if n <= max => Ok(n),
        _ => err(path, &format!("an integer 0..={max}"), v),
    }
}

pub(super) fn int(v: &Value, path: &str) -> R<i64> {
    v.as_i64().map_or_else(|| err(path, "an integer", v), Ok)
}

pub(super) fn boolean(v: &Value, path: &str) -> R<bool> {
    v.as_bool()
        .map_or_else(|| err(path, "true or false", v), Ok)
}

pub(super) fn seat_num(v: &Value, path: &str) -> R<u8> {
    Ok(uint(v, path, 3)? as u8)
}

pub(super) fn opt<T>(v: &Value, f: impl FnOnce(&Value) -> R<T>) -> R<Option<T>> {
    if v.is_null() {
        Ok(None)
    } else {
        f(v).map(Some)
    }
}

pub(super) fn tile(v: &Value, path: &str) -> R<Tile> {
    let text = v
        .as_str()
        .map_or_else(|| err(path, "a tile like \"5m\"", v), Ok)?;
    match parse_tiles(text).ok().as_deref() {
        Some([t]) => Ok(*t),
        _ => err(path, "a tile like \"5m\"", v),
    }
}

pub(super) fn array<'a>(v: &'a Value, path: &str) -> R<&'a Vec<Value>> {
    v.as_array().map_or_else(|| err(path, "a list", v), Ok)
}

pub(super) fn tiles(v: &Value, path: &str) -> R<Vec<Tile>> {
    array(v, path)?
        .iter()
        .enumerate()
        .map(|(i, t)| tile(t, &format!("{path}[{i}]")))
        .collect()
}

pub(super) fn counts(v: &Value, path: &str) -> R<Counts> {
    Counts::from_tiles(&tiles(v, path)?).map_err(|e| format!("{path}: {e}"))
}

/// A hand; under `wilds` its `1s` are wilds (docs/game-protocol.md §11).
pub(super) fn hand(v: &Value, path: &str, wilds: bool) -> R<Counts> {
    let mut hand = counts(v, path)?;
    if wilds {
        let n = hand.count(Tile::YAOJI);
        (0..n).for_each(|_| hand.remove(Tile::YAOJI));
        hand = hand.with_wilds(n).map_err(|e| format!("{path}: {e}"))?;
    }
    Ok(hand)
}

pub(super) fn tile_bits(v: &Value, path: &str) -> R<u32> {
    Ok(tiles(v, path)?.iter().fold(0, |b, t| b | 1 << t.index()))
}

pub(super) fn suit(v: &Value, path: &str) -> R<Suit> {
    v.as_str()
        .and_then(Suit::parse)
        .map_or_else(|| err(path, "a suit \"m\", \"p\" or \"s\"", v), Ok)
}

pub(super) fn name<'a>(v: &'a Value, path: &str, names: &[&str]) -> R<&'a str> {
    match v.as_str() {
        Some(s) if names.contains(&s) => Ok(s),
        _ => err(path, &format!("one of {names:?}"), v),
    }
}

/// A name of `T` (a [`Choice`]): one definition of each name, for writing and reading.
pub(super) fn choice<T: Choice>(v: &Value, path: &str) -> R<T> {
    v.as_str()
        .and_then(T::parse)
        .map_or_else(|| err(path, &format!("one of {}", T::names()), v), Ok)
}

pub(super) fn action(v: &Value, path: &str) -> R<Action> {
    v.as_str()
        .and_then(Action::parse)
        .map_or_else(|| err(path, "an action like \"discard 5m\"", v), Ok)
}

/// Melds written `{"kind", "tile", "wilds"}` (`wilds` may be left out for 0); wilds only under
/// the `wilds` rules.
pub(super) fn melds(v: &Value, path: &str, wilds_allowed: bool) -> R<[Option<Meld>; 4]> {
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
        let meld = match choice(k, &kp)? {
            MeldKind::Pong => Meld::pong(tile),
            kind => Meld::kong(tile, kind == MeldKind::ConcealedKong),
        };
        let wp = format!("{path}[{i}].wilds");
        let wilds = opt_field(m, "wilds").map_or(Ok(0), |w| uint(w, &wp, 3))? as u8;
        // A pong holds at most one wild, an exposed kong two, a concealed kong three (§11).
        let most = match meld.kind {
            MeldKind::Pong => 1,
            MeldKind::ExposedKong => 2,
            MeldKind::ConcealedKong => 3,
        };
        if wilds > 0 && (!wilds_allowed || tile == Tile::YAOJI || wilds > most) {
            return Err(format!(
                "{wp}: wilds only in the 幺鸡 variant, in a meld of another tile, at most {most} in this {}",
                ["pong", "kong", "concealed kong"][meld.kind as usize]
            ));
        }
        out[i] = Some(meld.with_wilds(wilds));
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

/// A field that may be left out (or null).
pub(super) fn opt_field<'a>(v: &'a Value, key: &str) -> Option<&'a Value> {
    v.get(key).filter(|x| !x.is_null())
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

pub(super) fn rules_value(v: &Value) -> RulesValue {
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
