//! A tiny JSON writer: objects keep their fields in the order written, which the event log's
//! contract fixes (docs/game-protocol.md §9).

use crate::hand::Counts;
use crate::rules::{Rules, Value as RulesValue};
use crate::tile::{Suit, Tile};
use crate::Choice;
use serde_json::Value;
use std::fmt::Write;

/// A value that writes itself as JSON.
pub trait ToJson {
    fn write_json(&self, out: &mut String);
}

/// Text that is already JSON.
pub struct Raw<'a>(pub &'a str);

impl ToJson for Raw<'_> {
    fn write_json(&self, out: &mut String) {
        out.push_str(self.0);
    }
}

impl ToJson for bool {
    fn write_json(&self, out: &mut String) {
        out.push_str(if *self { "true" } else { "false" });
    }
}

macro_rules! int_json {
    ($($t:ty),*) => {$(
        impl ToJson for $t {
            fn write_json(&self, out: &mut String) {
                let _ = write!(out, "{}", self);
            }
        }
    )*};
}
int_json!(u8, u16, u32, u64, usize, i32, i64);

impl ToJson for str {
    fn write_json(&self, out: &mut String) {
        out.push('"');
        for c in self.chars() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                '\n' => out.push_str("\\n"),
                c if (c as u32) < 0x20 => {
                    let _ = write!(out, "\\u{:04x}", c as u32);
                }
                c => out.push(c),
            }
        }
        out.push('"');
    }
}

impl ToJson for &str {
    fn write_json(&self, out: &mut String) {
        (**self).write_json(out);
    }
}

impl ToJson for String {
    fn write_json(&self, out: &mut String) {
        self.as_str().write_json(out);
    }
}

impl ToJson for Tile {
    fn write_json(&self, out: &mut String) {
        let _ = write!(out, "\"{self}\"");
    }
}

impl ToJson for Suit {
    fn write_json(&self, out: &mut String) {
        let _ = write!(out, "\"{self}\"");
    }
}

impl<T: ToJson> ToJson for Option<T> {
    fn write_json(&self, out: &mut String) {
        match self {
            Some(v) => v.write_json(out),
            None => out.push_str("null"),
        }
    }
}

impl<T: ToJson> ToJson for [T] {
    fn write_json(&self, out: &mut String) {
        out.push('[');
        for (i, v) in self.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            v.write_json(out);
        }
        out.push(']');
    }
}

impl<T: ToJson, const N: usize> ToJson for [T; N] {
    fn write_json(&self, out: &mut String) {
        self.as_slice().write_json(out);
    }
}

impl<T: ToJson> ToJson for Vec<T> {
    fn write_json(&self, out: &mut String) {
        self.as_slice().write_json(out);
    }
}

/// A hand as a sorted list of tiles, each wild written as the `1s` it is (幺鸡).
impl ToJson for Counts {
    fn write_json(&self, out: &mut String) {
        let tiles: Vec<Tile> = self.tiles_with_wilds().collect();
        tiles.write_json(out);
    }
}

/// Writes one object's fields in order; `end` closes it.
pub struct Object<'a> {
    out: &'a mut String,
    first: bool,
}

impl<'a> Object<'a> {
    pub fn new(out: &'a mut String) -> Object<'a> {
        out.push('{');
        Object { out, first: true }
    }

    pub fn field<V: ToJson + ?Sized>(&mut self, key: &str, value: &V) -> &mut Self {
        if !self.first {
            self.out.push_str(", ");
        }
        self.first = false;
        key.write_json(self.out);
        self.out.push_str(": ");
        value.write_json(self.out);
        self
    }

    pub fn end(&mut self) {
        self.out.push('}');
    }
}

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
