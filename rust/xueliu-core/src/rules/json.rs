//! `Rules.to_dict()` as JSON, written and read: every option by its schema name, in schema order.
//! The rules' written form, beside the rules: a snapshot, a log's `start` event and a match
//! write and read their rules through it.

use crate::pattern::FanTable;
use crate::rules::{Rules, Value as RulesValue};
use crate::Choice;
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
use serde_json::Value;

/// `Rules.to_dict()` as JSON: every option by its schema name, in schema order.
pub fn rules_json(rules: &Rules) -> String {
    crate::wire::to_text(&Options(rules))
}

/// The rules of a snapshot or a start event, written straight from the game's rules (building a
/// JSON value each time made `to_json` a third slower) and read back checked ([`rules_from`]).
pub mod rules {
    use super::{rules_from, Options, Rules, Value};
    use serde::{de, Deserialize, Deserializer, Serialize, Serializer};
    use std::sync::Arc;

    pub fn serialize<S: Serializer>(rules: &Rules, s: S) -> Result<S::Ok, S::Error> {
        Options(rules).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Arc<Rules>, D::Error> {
        let value = Value::deserialize(d)?;
        rules_from(&value).map(Arc::new).map_err(de::Error::custom)
    }
}

/// Every option, by its schema name in schema order.
struct Options<'a>(&'a Rules);

impl Serialize for Options<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(Rules::KEYS.len()))?;
        for key in Rules::KEYS {
            let value = self.0.get(key).unwrap_or(RulesValue::Null);
            map.serialize_entry(key, &OptionWire(value))?;
        }
        map.end()
    }
}

/// The option `key` of `rules` as `Rules.to_dict()` writes it (null for no such option).
pub(crate) fn option_json(rules: &Rules, key: &str) -> Value {
    let value = rules.get(key).unwrap_or(RulesValue::Null);
    serde_json::to_value(OptionWire(value)).unwrap_or(Value::Null)
}

/// One option's value as `Rules.to_dict()` writes it.
struct OptionWire(RulesValue);

impl Serialize for OptionWire {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match &self.0 {
            RulesValue::Null | RulesValue::Unsupported(_) => s.serialize_none(),
            RulesValue::Bool(b) => s.serialize_bool(*b),
            RulesValue::Int(i) => s.serialize_i64(*i),
            RulesValue::Text(t) => s.serialize_str(t),
            RulesValue::Fan(table) => {
                s.collect_map(table.iter().map(|(pattern, fan)| (pattern.name(), fan)))
            }
        }
    }
}

/// Reads `Rules.to_dict()` JSON: the named preset (chengdu if none), then every option given;
/// the result must pass `Rules::validate`.
pub fn rules_from_json(text: &str) -> Result<Rules, String> {
    let value: Value = serde_json::from_str(text).map_err(|e| format!("rules: {e}"))?;
    rules_from(&value).map_err(|e| format!("rules: {e}"))
}

/// Reads `Rules.to_dict()`: every option of the schema, as `Rules::from_values` requires; an
/// error says what is wrong, for the caller to say where.
fn rules_from(v: &Value) -> Result<Rules, String> {
    let map = v.as_object().ok_or("expected an object of options")?;
    let mut entries = Vec::with_capacity(map.len());
    for (key, value) in map {
        let value = if key == "fan" {
            let table = value.as_object().ok_or("fan: expected an object")?;
            let fans = table.iter().map(|(p, f)| (p.clone(), option_of(f)));
            RulesValue::Fan(FanTable::from_named(fans).map_err(|e| e.to_string())?)
        } else {
            option_of(value)
        };
        entries.push((key.clone(), value));
    }
    Rules::from_values(entries).map_err(|e| e.to_string())
}

fn option_of(v: &Value) -> RulesValue {
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
