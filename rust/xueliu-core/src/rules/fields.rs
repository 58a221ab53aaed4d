//! Reading and writing any option by its schema name, with the option's own checks. The
//! [`options!`] macro declares every option once; from it come the `Rules` struct, the names in
//! schema order ([`Rules::KEYS`]), each name's slot (`Rules::field`), the defaults and the values
//! older rules dicts play by (which `record::migrate` fills in).

use super::{Rules, RulesError, MAX_FAN};
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

/// Declares every option of a room once, in schema order (docs/rules-schema.md):
///
/// ```text
/// /// Doc comment.
/// name: Kind = default,
/// name: Kind = default, [since N: older],
/// ```
///
/// `Kind` is how the option is read and checked, and gives its type: `Bool` (`bool`),
/// `Int(range)` (`u32` within the range), `OptionalInt(range)` (`Option<u32>`, null allowed),
/// `Choice(T)` (`T`, a [`Choice`] or an `Option` of one, null allowed then) or `Fan` (the
/// [`FanTable`]). `default` is the value RULES.md states where §10's tables are silent, which
/// every preset starts from. An option added after the first schema says `[since N: older]`: it
/// came with the schema's Nth addition (options added together share N), and a rules dict
/// lacking every option of that addition, written before it, plays `older`.
///
/// From this come the `Rules` struct, [`Rules::KEYS`], `Rules::field` (each name's slot and
/// checks), `Rules::DEFAULTS`, `Rules::SINCE` and `Rules::OLDER`. Adding an option is one entry
/// here (`win_reveal: Bool = false, [since 7: false],`), then its row in docs/rules-schema.md
/// (a test holds the two equal), and its value in the presets that differ from the default.
macro_rules! options {
    (@type Bool) => { bool };
    (@type Int($range:expr)) => { u32 };
    (@type OptionalInt($range:expr)) => { Option<u32> };
    (@type Choice($t:ty)) => { $t };
    (@type Fan) => { $crate::pattern::FanTable };

    (@field $slot:expr, Bool) => { Field::Bool($slot) };
    (@field $slot:expr, Int($range:expr)) => { Field::Int($slot, $range) };
    (@field $slot:expr, OptionalInt($range:expr)) => { Field::OptionalInt($slot, $range) };
    (@field $slot:expr, Choice($t:ty)) => { Field::Choice($slot) };
    (@field $slot:expr, Fan) => { Field::Fan($slot) };

    (@since) => { 0 };
    (@since $since:literal) => { $since };
    (@older $default:expr) => { $default };
    (@older $default:expr, $older:expr) => { $older };

    (
        $(#[$meta:meta])*
        pub struct Rules {
            $(
                $(#[doc = $doc:expr])*
                $field:ident: $kind:ident $(($($arg:tt)*))? = $default:expr
                $(, [since $since:literal: $older:expr])?,
            )*
        }
    ) => {
        $(#[$meta])*
        pub struct Rules {
            $(
                $(#[doc = $doc])*
                pub $field: options!(@type $kind $(($($arg)*))?),
            )*
        }

        impl Rules {
            /// Every key of the schema, in its order (docs/rules-schema.md).
            pub const KEYS: [&'static str; [$(stringify!($field)),*].len()] =
                [$(stringify!($field)),*];

            /// Every option at its default: where every preset starts.
            const DEFAULTS: Rules = Rules { $($field: $default,)* };

            /// The addition to the schema that brought each option, by [`Rules::KEYS`]' index:
            /// 0 for the first schema's.
            pub(crate) const SINCE: [u8; Rules::KEYS.len()] = [$(options!(@since $($since)?)),*];

            /// The values a rules dict written before an option existed plays by (its defaults
            /// elsewhere, unread); `record::migrate` fills them in.
            pub(crate) const OLDER: Rules = Rules { $($field: options!(@older $default $(, $older)?),)* };

            /// The option `key`'s slot and checks.
            fn field(&mut self, key: &str) -> Option<fields::Field<'_>> {
                use fields::Field;
                Some(match key {
                    $(stringify!($field) => options!(@field &mut self.$field, $kind $(($($arg)*))?),)*
                    _ => return None,
                })
            }
        }
    };
}

pub(super) use options;

/// A mutable view of one option.
pub(super) enum Field<'a> {
    Bool(&'a mut bool),
    Int(&'a mut u32, RangeInclusive<u32>),
    OptionalInt(&'a mut Option<u32>, RangeInclusive<u32>),
    Choice(&'a mut dyn ChoiceSlot),
    Fan(&'a mut FanTable),
}

/// A slot holding a [`Choice`], or an optional one where null is allowed.
pub(super) trait ChoiceSlot {
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

    /// The options of every later addition to the schema (`Rules::SINCE`) that a rules dict
    /// naming the keys `present` lacks whole: it was written before them, and plays by
    /// `Rules::OLDER`'s values for them (`record::migrate` fills a written dict, and
    /// `Rules::from_full` a dict given whole). A dict naming some options of an addition but not
    /// all is left for the read to refuse.
    pub(crate) fn lacked_later(present: impl Fn(&str) -> bool) -> Vec<&'static str> {
        let last = Rules::SINCE.into_iter().max().unwrap_or(0);
        let mut lacked = Vec::new();
        for since in 1..=last {
            let added = || (Rules::KEYS.iter().zip(Rules::SINCE)).filter(move |&(_, s)| s == since);
            if added().all(|(key, _)| !present(key)) {
                lacked.extend(added().map(|(&key, _)| key));
            }
        }
        lacked
    }

    /// Rules from a value for every key of [`Rules::KEYS`], as `to_dict` writes them; then
    /// [`Rules::validate`]. A missing or unknown key is an error: a dict written before some
    /// options existed is brought to today's form first (`record::migrate`).
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

    /// docs/rules-schema.md's table: each key (a row may name several) with its values cell.
    fn schema_rows() -> Vec<(String, String)> {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/rules-schema.md");
        let text = std::fs::read_to_string(path).expect("docs/rules-schema.md reads");
        let mut rows = Vec::new();
        for line in text.lines().filter(|l| l.starts_with("| `")) {
            let cells: Vec<&str> = line.split(" | ").collect();
            for key in cells[0].trim_start_matches("| ").split(", ") {
                rows.push((key.trim_matches('`').to_owned(), cells[1].to_owned()));
            }
        }
        rows
    }

    /// How the schema's values cell for `key` begins, from the option's kind: every choice,
    /// null where allowed, and the least integer.
    fn documented(key: &str) -> String {
        let mut rules = chengdu();
        let quoted = |names: String| -> String {
            let names: Vec<String> = names.split(", ").map(|n| format!("`{n}`")).collect();
            names.join(" \\| ")
        };
        match rules.field(key).expect("a declared option") {
            Field::Bool(_) => "bool".into(),
            Field::Int(_, r) if r.end() - r.start() == 1 => {
                quoted(format!("{}, {}", r.start(), r.end()))
            }
            Field::Int(_, r) if *r.start() == 0 => "int".into(),
            Field::Int(_, r) => format!("int ≥ {}", r.start()),
            Field::OptionalInt(_, r) => format!("`null` \\| int ≥ {}", r.start()),
            Field::Choice(slot) => quoted(slot.valid()),
            Field::Fan(_) => "object".into(),
        }
    }

    #[test]
    fn the_schema_doc_names_every_option_with_its_values() {
        let rows = schema_rows();
        let keys: Vec<&str> = rows.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(
            keys,
            Rules::KEYS,
            "docs/rules-schema.md's rows against options!"
        );
        for (key, cell) in &rows {
            let expected = documented(key);
            // "int ≥ 0" says what "int" does; no further choice may follow the listed ones.
            let normal = cell.replacen("int ≥ 0", "int", 1);
            let rest = normal.strip_prefix(&expected);
            assert!(
                rest.is_some_and(|rest| !rest.starts_with(" \\|") && !rest.starts_with(" ≥")),
                "docs/rules-schema.md: {key} should read {expected:?}, reads {cell:?}"
            );
        }
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
