//! Reading and writing any option by its schema name, with the option's own checks. The one
//! list of names in schema order is [`Rules::KEYS`]; [`Rules::field`] maps each to its slot.

use super::{Rules, RulesError, MAX_BASE_POINTS, MAX_ESCAPE_PENALTY, MAX_FAN};
use crate::choice::Choice;
use crate::pattern::{FanTable, Pattern, PATTERNS};
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
    /// A value of no schema type (a float, a list, …), described for the error that rejects it.
    Unsupported(String),
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
            Value::Unsupported(description) => f.write_str(description),
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
    pub const KEYS: [&'static str; 54] = [
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
        "flower_pig_rule",
        "tax_refund",
        "ready_difference",
        "wilds",
        "no_wild_fan",
        "heavenly_stacks",
        "escape_penalty",
        "golden_hook_fan",
        "last_tile_self_draw_fan",
        "last_discard_win_fan",
        "ready_wait_copies",
        "pass_win_lock_self_draw",
        "pass_win_lock_after_pong",
        "pass_win_compare",
        "wall_break_dice",
        "kong_shot_on_rob",
        "win_reveal",
    ];

    /// Options added after the first schema, one group per addition, with the values that play
    /// as the engine did before them: a rules dict written before a group lacks all of it.
    const LATER_KEYS: [&'static [(&'static str, &'static str)]; 7] = [
        &[("flower_pig_rule", "void_held"), ("escape_penalty", "96")],
        &[
            ("golden_hook_fan", "0"),
            ("last_tile_self_draw_fan", "0"),
            ("last_discard_win_fan", "0"),
        ],
        &[("ready_wait_copies", "hand_and_melds")],
        &[
            ("pass_win_lock_self_draw", "false"),
            ("pass_win_lock_after_pong", "kept"),
            ("pass_win_compare", "capped_fan"),
        ],
        &[("wall_break_dice", "1")],
        &[("kong_shot_on_rob", "false")],
        &[("win_reveal", "immediate")],
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
            "flower_pig_rule" => Choice(&mut self.flower_pig_rule),
            "tax_refund" => Bool(&mut self.tax_refund),
            "ready_difference" => Bool(&mut self.ready_difference),
            "wilds" => Bool(&mut self.wilds),
            "no_wild_fan" => Int(&mut self.no_wild_fan, FAN),
            "heavenly_stacks" => Bool(&mut self.heavenly_stacks),
            "escape_penalty" => Int(&mut self.escape_penalty, 0..=MAX_ESCAPE_PENALTY),
            "golden_hook_fan" => Int(&mut self.golden_hook_fan, FAN),
            "last_tile_self_draw_fan" => Int(&mut self.last_tile_self_draw_fan, FAN),
            "last_discard_win_fan" => Int(&mut self.last_discard_win_fan, FAN),
            "ready_wait_copies" => Choice(&mut self.ready_wait_copies),
            "pass_win_lock_self_draw" => Bool(&mut self.pass_win_lock_self_draw),
            "pass_win_lock_after_pong" => Choice(&mut self.pass_win_lock_after_pong),
            "pass_win_compare" => Choice(&mut self.pass_win_compare),
            "wall_break_dice" => Int(&mut self.wall_break_dice, 1..=2),
            "kong_shot_on_rob" => Bool(&mut self.kong_shot_on_rob),
            "win_reveal" => Choice(&mut self.win_reveal),
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
            Field::Int(i, _) => Value::Int(i64::from(*i)),
            Field::OptionalInt(i, _) => i.map_or(Value::Null, |i| Value::Int(i64::from(i))),
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
                *slot = *i as u32;
            }
            (Field::Int(_, range), _) => return Err(bad(range_text(&range))),
            (Field::OptionalInt(slot, _), Value::Null) => *slot = None,
            (Field::OptionalInt(slot, range), Value::Int(i)) if in_range(*i, &range).is_some() => {
                *slot = Some(*i as u32);
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

    /// Rules from a value for every key of [`Rules::KEYS`], as `to_dict` writes them; then
    /// [`Rules::validate`]. A missing or unknown key is an error, except that a dict lacking
    /// every key of a group of `Rules::LATER_KEYS` (written before it existed) gets its old values.
    pub fn from_values(
        entries: impl IntoIterator<Item = (String, Value)>,
    ) -> Result<Rules, RulesError> {
        let mut rules = super::Preset::Chengdu.rules();
        let mut seen = [false; Rules::KEYS.len()];
        for (key, value) in entries {
            rules.set(&key, value)?;
            let i = Rules::KEYS
                .iter()
                .position(|&k| k == key)
                .expect("set knows the key");
            seen[i] = true;
        }
        let position = |key: &str| Rules::KEYS.iter().position(|&k| k == key);
        for group in Rules::LATER_KEYS {
            let later: Vec<usize> = group.iter().filter_map(|(k, _)| position(k)).collect();
            if later.iter().any(|&i| seen[i]) {
                continue;
            }
            for ((key, old), i) in group.iter().zip(later) {
                let value = match *old {
                    "false" => Value::Bool(false),
                    _ => old
                        .parse::<i64>()
                        .map_or_else(|_| Value::Text(old.to_string()), Value::Int),
                };
                rules.set(key, value)?;
                seen[i] = true;
            }
        }
        let missing = Rules::KEYS.iter().zip(seen).filter(|(_, seen)| !seen);
        let names: Vec<String> = missing.map(|(k, _)| k.to_string()).collect();
        if !names.is_empty() {
            return Err(RulesError::Missing {
                within: "options",
                names,
            });
        }
        rules.validate()?;
        Ok(rules)
    }
}

impl FanTable {
    /// Sets one pattern's fan by name: an integer, or null to remove the pattern from the room.
    pub fn set_named(&mut self, pattern: &str, value: Value) -> Result<(), RulesError> {
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
        self.set(p, fan);
        Ok(())
    }

    /// A table from a value for every pattern; a missing or unknown pattern is an error.
    pub fn from_named(
        entries: impl IntoIterator<Item = (String, Value)>,
    ) -> Result<FanTable, RulesError> {
        let mut table = FanTable::EMPTY;
        let mut seen = [false; PATTERNS];
        for (name, value) in entries {
            table.set_named(&name, value)?;
            seen[Pattern::parse(&name).expect("set_named knows the name") as usize] = true;
        }
        let names: Vec<String> = Pattern::ALL
            .iter()
            .filter(|&&p| !seen[p as usize])
            .map(|p| p.name().to_owned())
            .collect();
        if !names.is_empty() {
            return Err(RulesError::Missing {
                within: "fan patterns",
                names,
            });
        }
        Ok(table)
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
        // No typo is that long: a short message, however many options the schema grows.
        let e = r
            .set(&"x".repeat(1000), Value::Int(3))
            .unwrap_err()
            .to_string();
        assert!(e.len() < 200 && e.contains("docs/rules-schema.md"), "{e}");
        let e = r
            .fan
            .set_named("pinghu", Value::Int(1))
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("unknown pattern \"pinghu\" in fan; patterns: \"basic\""));
        r.fan.set_named("golden_hook", Value::Int(3)).unwrap();
        assert_eq!(r.fan.get(Pattern::GoldenHook), Some(3));
        assert!(r.fan.set_named("basic", Value::Bool(true)).is_err());
        assert!(r.set("cap_fan", Value::Unsupported("1.5".into())).is_err());
    }

    #[test]
    fn from_values_needs_every_key() {
        let yaoji = Rules::preset("yaoji").unwrap();
        let all = || Rules::KEYS.map(|k| (k.to_owned(), yaoji.get(k).unwrap()));
        assert_eq!(Rules::from_values(all()).unwrap(), yaoji);
        let e = Rules::from_values(
            all()
                .into_iter()
                .filter(|(k, _)| k != "wilds" && k != "mode"),
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "missing options: mode, wilds; a rules dict names every option and every fan pattern \
             (docs/rules-schema.md)"
        );
        let fan: Vec<(String, Value)> = yaoji
            .fan
            .iter()
            .map(|(p, f)| {
                (
                    p.name().to_owned(),
                    f.map_or(Value::Null, |f| Value::Int(i64::from(f))),
                )
            })
            .collect();
        assert_eq!(FanTable::from_named(fan.clone()).unwrap(), yaoji.fan);
        let e = FanTable::from_named(fan.into_iter().skip(1))
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("missing fan patterns: basic;"), "{e}");
    }
}
