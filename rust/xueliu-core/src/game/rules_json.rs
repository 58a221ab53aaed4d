//! `Rules.to_dict()` as JSON, written and read: every option by its schema name, in schema order.

use crate::pattern::FanTable;
use crate::rules::{Rules, Value as RulesValue};
use crate::Choice;
use serde_json::Value;

/// `Rules.to_dict()` as JSON: every option by its schema name, in schema order.
pub fn rules_json(rules: &Rules) -> String {
    super::wire::to_text(&rules_value(rules))
}

/// `Rules.to_dict()` as a JSON value.
pub fn rules_value(rules: &Rules) -> Value {
    let option = |key| match rules.get(key) {
        Ok(RulesValue::Null | RulesValue::Unsupported(_)) | Err(_) => Value::Null,
        Ok(RulesValue::Bool(b)) => b.into(),
        Ok(RulesValue::Int(i)) => i.into(),
        Ok(RulesValue::Text(t)) => t.into(),
        Ok(RulesValue::Fan(table)) => {
            let fans = table
                .iter()
                .map(|(p, fan)| (p.name().to_owned(), fan.into()));
            Value::Object(fans.collect())
        }
    };
    Value::Object(
        Rules::KEYS
            .iter()
            .map(|&key| (key.to_owned(), option(key)))
            .collect(),
    )
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
            let fans = table.iter().map(|(p, f)| (p.clone(), option_of(f)));
            RulesValue::Fan(FanTable::from_named(fans).map_err(|e| format!("rules: {e}"))?)
        } else {
            option_of(value)
        };
        entries.push((key.clone(), value));
    }
    Rules::from_values(entries).map_err(|e| format!("rules: {e}"))
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
