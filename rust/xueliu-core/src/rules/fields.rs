//! Reading and writing any option by its schema name, with the option's own checks. The one
//! list of names in schema order is [`Rules::KEYS`]; [`Rules::field`] maps each to its slot.

use super::{Rules, RulesError, MAX_BASE_POINTS, MAX_FAN};
use crate::choice::Choice;
use crate::pattern::{FanTable, Pattern};
use std::fmt;
use std::ops::RangeInclusive;

/// An option's value as the schema writes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Null,
    Bool(bool),
    Int(i64),
    Text(String),
    /// The `fan` option: every pattern's fan or null.
    Fan(FanTable),
}

impl fmt::Display for Value {
    /// JSON-like: `null`, `true`, `3`, `"dice"`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Null => f.write_str("null"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Int(i) => write!(f, "{i}"),
            Value::Text(t) => write!(f, "{t:?}"),
            Value::Fan(_) => f.write_str("a fan table"),
        }
    }
}

impl Value {
    /// For tables read by people: strings bare, null as `—`.
    pub fn plain(&self) -> String {
        match self {
            Value::Null => "—".to_owned(),
            Value::Text(t) => t.clone(),
            other => other.to_string(),
        }
    }
}

/// A mutable view of one option.
enum Field<'a> {
    Bool(&'a mut bool),
    Int(&'a mut u32, RangeInclusive<u32>),
    OptionalInt(&'a mut Option<u32>, RangeInclusive<u32>),
    Choice(&'a mut dyn ChoiceSlot),
    Fan(&'a mut FanTable),
}

/// A slot holding a [`Choice`], or an optional one where null is allowed.
trait ChoiceSlot {
    fn read(&self) -> Option<&'static str>;
    /// Writes the named value; false if it is not one of the valid ones.
    fn write(&mut self, name: Option<&str>) -> bool;
    fn valid(&self) -> String;
}

impl<C: Choice> ChoiceSlot for C {
    fn read(&self) -> Option<&'static str> {
        Some(self.name())
    }

    fn write(&mut self, name: Option<&str>) -> bool {
        name.and_then(C::parse).map(|c| *self = c).is_some()
    }

    fn valid(&self) -> String {
        C::names()
    }
}

impl<C: Choice> ChoiceSlot for Option<C> {
    fn read(&self) -> Option<&'static str> {
        self.map(C::name)
    }

    fn write(&mut self, name: Option<&str>) -> bool {
        match name {
            None => {
                *self = None;
                true
            }
            Some(text) => C::parse(text).map(|c| *self = Some(c)).is_some(),
        }
    }

    fn valid(&self) -> String {
        format!("null, {}", C::names())
    }
}

const FAN: RangeInclusive<u32> = 0..=MAX_FAN;

impl Rules {
    /// Every key of the schema, in its order (docs/rules-schema.md).
    pub const KEYS: [&'static str; 42] = [
        "preset",
        "mode",
        "first_dealer",
        "dealer_rotation",
        "kong_draw_from",
        "pong_last_discard",
        "exchange",
        "exchange_redeal_if_unchanged",
        "exchange_same_suit",
        "declare_void",
        "allow_seven_pairs",
        "gen_counts_kongs",
        "rob_concealed_kong",
        "late_kong",
        "pass_win_lock",
        "last_four",
        "fan",
        "gen_fan",
        "exposed_kong_fan",
        "concealed_kong_fan",
        "kong_flower_fan",
        "kong_shot_fan",
        "rob_kong_fan",
        "rob_kong_scoring",
        "self_draw_bonus",
        "scoring",
        "base_points",
        "fan_offset",
        "cap_fan",
        "self_draw_payers",
        "kong_fan",
        "kong_payments",
        "kong_flower_after_direct_kong",
        "kong_income_transfer",
        "flower_pig_penalty",
        "flower_pig_fan",
        "flower_pig_payees",
        "tax_refund",
        "ready_difference",
        "wilds",
        "no_wild_fan",
        "heavenly_stacks",
    ];

    fn field(&mut self, key: &str) -> Option<Field<'_>> {
        use Field::*;
        Some(match key {
            "preset" => Choice(&mut self.preset),
            "mode" => Choice(&mut self.mode),
            "first_dealer" => Choice(&mut self.first_dealer),
            "dealer_rotation" => Choice(&mut self.dealer_rotation),
            "kong_draw_from" => Choice(&mut self.kong_draw_from),
            "pong_last_discard" => Bool(&mut self.pong_last_discard),
            "exchange" => Choice(&mut self.exchange),
            "exchange_redeal_if_unchanged" => Bool(&mut self.exchange_redeal_if_unchanged),
            "exchange_same_suit" => Bool(&mut self.exchange_same_suit),
            "declare_void" => Bool(&mut self.declare_void),
            "allow_seven_pairs" => Bool(&mut self.allow_seven_pairs),
            "gen_counts_kongs" => Bool(&mut self.gen_counts_kongs),
            "rob_concealed_kong" => Bool(&mut self.rob_concealed_kong),
            "late_kong" => Choice(&mut self.late_kong),
            "pass_win_lock" => Choice(&mut self.pass_win_lock),
            "last_four" => Choice(&mut self.last_four),
            "fan" => Fan(&mut self.fan),
            "gen_fan" => Int(&mut self.gen_fan, FAN),
            "exposed_kong_fan" => Int(&mut self.exposed_kong_fan, FAN),
            "concealed_kong_fan" => Int(&mut self.concealed_kong_fan, FAN),
            "kong_flower_fan" => Int(&mut self.kong_flower_fan, FAN),
            "kong_shot_fan" => Int(&mut self.kong_shot_fan, FAN),
            "rob_kong_fan" => Int(&mut self.rob_kong_fan, FAN),
            "rob_kong_scoring" => Choice(&mut self.rob_kong_scoring),
            "self_draw_bonus" => Choice(&mut self.self_draw_bonus),
            "scoring" => Choice(&mut self.scoring),
            "base_points" => Int(&mut self.base_points, 1..=MAX_BASE_POINTS),
            "fan_offset" => Int(&mut self.fan_offset, FAN),
            "cap_fan" => OptionalInt(&mut self.cap_fan, 1..=MAX_FAN),
            "self_draw_payers" => Choice(&mut self.self_draw_payers),
            "kong_fan" => Choice(&mut self.kong_fan),
            "kong_payments" => Bool(&mut self.kong_payments),
            "kong_flower_after_direct_kong" => Choice(&mut self.kong_flower_after_direct_kong),
            "kong_income_transfer" => Choice(&mut self.kong_income_transfer),
            "flower_pig_penalty" => Choice(&mut self.flower_pig_penalty),
            "flower_pig_fan" => Int(&mut self.flower_pig_fan, FAN),
            "flower_pig_payees" => Choice(&mut self.flower_pig_payees),
            "tax_refund" => Bool(&mut self.tax_refund),
            "ready_difference" => Bool(&mut self.ready_difference),
            "wilds" => Bool(&mut self.wilds),
            "no_wild_fan" => Int(&mut self.no_wild_fan, FAN),
            "heavenly_stacks" => Bool(&mut self.heavenly_stacks),
            _ => return None,
        })
    }

    /// The value of the option `key`.
    pub fn get(&self, key: &str) -> Result<Value, RulesError> {
        let mut copy = *self;
        let field = copy
            .field(key)
            .ok_or_else(|| RulesError::UnknownOption(key.to_owned()))?;
        Ok(match field {
            Field::Bool(b) => Value::Bool(*b),
            Field::Int(i, _) => Value::Int(*i as i64),
            Field::OptionalInt(i, _) => i.map_or(Value::Null, |i| Value::Int(i as i64)),
            Field::Choice(c) => c.read().map_or(Value::Null, |t| Value::Text(t.to_owned())),
            Field::Fan(table) => Value::Fan(*table),
        })
    }

    /// Sets the option `key`, checking its type and range; the rest is left as it was on error.
    /// Cross-option checks are [`Rules::validate`]'s.
    pub fn set(&mut self, key: &str, value: Value) -> Result<(), RulesError> {
        let field = self
            .field(key)
            .ok_or_else(|| RulesError::UnknownOption(key.to_owned()))?;
        let bad = |expected: String| RulesError::BadValue {
            option: key.to_owned(),
            value: value.to_string(),
            expected,
        };
        let in_range = |i: i64, range: &RangeInclusive<u32>| {
            u32::try_from(i).ok().filter(|v| range.contains(v))
        };
        let range_text = |r: &RangeInclusive<u32>| format!("an integer {}-{}", r.start(), r.end());
        match (field, &value) {
            (Field::Bool(b), Value::Bool(v)) => *b = *v,
            (Field::Bool(_), _) => return Err(bad("true, false".into())),
            (Field::Int(slot, range), Value::Int(i)) if in_range(*i, &range).is_some() => {
                *slot = *i as u32
            }
            (Field::Int(_, range), _) => return Err(bad(range_text(&range))),
            (Field::OptionalInt(slot, _), Value::Null) => *slot = None,
            (Field::OptionalInt(slot, range), Value::Int(i)) if in_range(*i, &range).is_some() => {
                *slot = Some(*i as u32)
            }
            (Field::OptionalInt(_, range), _) => {
                return Err(bad(format!("null or {}", range_text(&range))))
            }
            (Field::Choice(slot), value) => {
                let name = match value {
                    Value::Null => Some(None),
                    Value::Text(t) => Some(Some(t.as_str())),
                    _ => None,
                };
                if !name.is_some_and(|name| slot.write(name)) {
                    return Err(bad(slot.valid()));
                }
            }
            (Field::Fan(slot), Value::Fan(table)) => *slot = *table,
            (Field::Fan(_), _) => return Err(bad("a table of pattern fans".into())),
        }
        Ok(())
    }

    /// Sets one pattern's fan: an integer, or null to remove the pattern from the room.
    pub fn set_fan(&mut self, pattern: &str, value: Value) -> Result<(), RulesError> {
        let p = Pattern::parse(pattern)
            .ok_or_else(|| RulesError::UnknownPattern(pattern.to_owned()))?;
        let fan = match value {
            Value::Null => None,
            Value::Int(i) if u32::try_from(i).is_ok_and(|v| FAN.contains(&v)) => Some(i as u32),
            other => {
                return Err(RulesError::BadValue {
                    option: format!("fan.{pattern}"),
                    value: other.to_string(),
                    expected: format!("null or an integer 0-{MAX_FAN}"),
                })
            }
        };
        self.fan.set(p, fan);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chengdu() -> Rules {
        Rules::preset("chengdu").unwrap()
    }

    #[test]
    fn every_key_reads_and_writes_back() {
        for &preset in super::super::Preset::ALL {
            let rules = preset.rules();
            let mut copy = Rules::preset("dashiyou").unwrap();
            for key in Rules::KEYS {
                copy.set(key, rules.get(key).unwrap()).unwrap();
            }
            assert_eq!(copy, rules, "{preset}");
        }
    }

    #[test]
    fn values_are_checked_one_by_one() {
        let mut r = chengdu();
        let text = |t: &str| Value::Text(t.to_owned());
        r.set("exchange", Value::Null).unwrap();
        r.set("exchange", text("opposite")).unwrap();
        assert_eq!(r.get("exchange").unwrap(), text("opposite"));
        let e = r.set("exchange", text("north")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "option \"exchange\" cannot be \"north\"; valid: null, \"dice\", \"clockwise\", \
             \"counterclockwise\", \"opposite\", \"random\""
        );
        assert!(r.set("mode", Value::Null).is_err());
        let e = r.set("cap_fan", Value::Int(0)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "option \"cap_fan\" cannot be 0; valid: null or an integer 1-64"
        );
        assert!(r.set("base_points", Value::Int(0)).is_err());
        assert!(r.set("gen_fan", Value::Int(-1)).is_err());
        assert!(r.set("wilds", Value::Int(1)).is_err());
        assert_eq!(r, {
            let mut e = chengdu();
            e.exchange = Some(super::super::Exchange::Opposite);
            e
        });
    }

    #[test]
    fn unknown_names_list_the_valid_ones() {
        let mut r = chengdu();
        let e = r.set("cap", Value::Int(3)).unwrap_err().to_string();
        assert!(e.starts_with("unknown option \"cap\"; options: \"preset\", \"mode\""));
        assert!(e.contains("\"cap_fan\""));
        let e = r.set_fan("pinghu", Value::Int(1)).unwrap_err().to_string();
        assert!(e.starts_with("unknown pattern \"pinghu\" in fan; patterns: \"basic\""));
        r.set_fan("golden_hook", Value::Int(3)).unwrap();
        assert_eq!(r.fan.get(Pattern::GoldenHook), Some(3));
        assert!(r.set_fan("basic", Value::Bool(true)).is_err());
    }
}
