//! `Rules`: a room's options and presets. Converts Python values to the core's option values and
//! back; every check is the core's.

use crate::errors::{rules_error, type_error};
use pyo3::exceptions::PyAttributeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyString, PyTuple};
use pyo3::IntoPyObjectExt;
use xueliu_core::rules::{Override, Preset, Rules as CoreRules, RulesError, Value};
use xueliu_core::Choice;

/// A room's rules: every option of RULES.md by its schema name (docs/rules-schema.md), read as
/// attributes (`rules.cap_fan`; the schema's `preset` as `rules.preset_name`). Immutable; build with `Rules.preset(name, **overrides)` or
/// `Rules.from_dict(d)`, derive with `rules.replace(**overrides)`.
#[pyclass(frozen, eq, hash, module = "xueliu")]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Rules(pub CoreRules);

#[pymethods]
impl Rules {
    /// The preset `name` (see `Rules.presets()`), with options overridden by keyword, e.g.
    /// `Rules.preset("chengdu", cap_fan=4, exchange="dice")`. `fan={...}` changes the listed
    /// patterns only.
    #[staticmethod]
    #[pyo3(signature = (name, /, **overrides))]
    fn preset(name: &Bound<'_, PyAny>, overrides: Option<&Bound<'_, PyDict>>) -> PyResult<Rules> {
        let name = crate::convert::text("name", name, PRESET_NAME)?;
        let rules = CoreRules::preset(&name).map_err(rules_error)?;
        with_overrides(rules, overrides)
    }

    /// The schema's `"preset"`: the preset these rules started from, or None. (`Rules.preset` is
    /// the constructor, so the option reads under this name.)
    #[getter]
    fn preset_name(&self) -> Option<&'static str> {
        self.0.preset.map(xueliu_core::Choice::name)
    }

    /// Every preset's name.
    #[staticmethod]
    fn presets() -> Vec<&'static str> {
        Preset::ALL.iter().map(|p| p.name()).collect()
    }

    /// Rules from a dict with every key of the schema, as `to_dict` writes it.
    #[staticmethod]
    fn from_dict(d: &Bound<'_, PyAny>) -> PyResult<Rules> {
        let d = d.cast::<PyDict>().map_err(|_| {
            type_error(
                "d",
                d,
                "a dict of every option, as Rules.to_dict() writes it",
            )
        })?;
        CoreRules::from_full(entries(d)?)
            .map(Rules)
            .map_err(rules_error)
    }

    /// Every option by name, `"fan"` as a dict of pattern fans (None where the room lacks the
    /// pattern), and `"preset"`; plain JSON values.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for key in CoreRules::KEYS {
            d.set_item(key, self.option(py, key)?)?;
        }
        Ok(d)
    }

    /// A copy with options overridden by keyword, checked as `Rules.preset` checks them.
    #[pyo3(signature = (**overrides))]
    fn replace(&self, overrides: Option<&Bound<'_, PyDict>>) -> PyResult<Rules> {
        with_overrides(self.0, overrides)
    }

    /// A readable table of every option and its value.
    fn describe(&self) -> String {
        self.0.describe()
    }

    /// Points one payer pays for `fan` on this room's curve (linear or exponential), without
    /// the cap: e.g. `chengdu` gives 6 × 2^(fan − 1).
    fn points(&self, fan: &Bound<'_, PyAny>) -> PyResult<u64> {
        let accepts = "a fan, an int of at least 0";
        let fan: i128 = crate::convert::int("fan", fan, accepts)?;
        u32::try_from(fan)
            .ok()
            .and_then(|f| self.0.curve().points(f))
            .ok_or_else(|| {
                rules_error(RulesError::BadValue {
                    option: "fan".into(),
                    value: fan.to_string(),
                    expected: "an integer ≥ 0 whose points fit 64 bits".into(),
                })
            })
    }

    fn __getattr__(&self, py: Python<'_>, name: &str) -> PyResult<Py<PyAny>> {
        if !CoreRules::KEYS.contains(&name) {
            return Err(PyAttributeError::new_err(format!(
                "'Rules' has no option {name:?}; options: {}",
                CoreRules::KEYS.join(", ")
            )));
        }
        self.option(py, name)
    }

    fn __dir__(&self) -> Vec<&'static str> {
        let methods = [
            "preset_name",
            "preset",
            "presets",
            "from_dict",
            "to_dict",
            "replace",
            "describe",
            "points",
        ];
        CoreRules::KEYS.iter().copied().chain(methods).collect()
    }

    /// `Rules.preset('chengdu', cap_fan=4)`: the preset and the options that differ from it.
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let Some(preset) = self.0.preset else {
            return Ok(format!("Rules.from_dict({})", self.to_dict(py)?.repr()?));
        };
        let base = preset.rules();
        let mut args = vec![format!("'{}'", preset.name())];
        for key in CoreRules::KEYS {
            if self.0.get(key).ok() != base.get(key).ok() {
                args.push(format!("{key}={}", self.option(py, key)?.bind(py).repr()?));
            }
        }
        Ok(format!("Rules.preset({})", args.join(", ")))
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let from_dict = py.get_type::<Rules>().getattr("from_dict")?;
        let args = PyTuple::new(py, [self.to_dict(py)?])?;
        PyTuple::new(py, [from_dict.into_any(), args.into_any()])
    }
}

impl Rules {
    /// The option `key` as a Python value.
    fn option(&self, py: Python<'_>, key: &str) -> PyResult<Py<PyAny>> {
        let value = self.0.get(key).map_err(rules_error)?;
        Ok(match value {
            Value::Null => py.None(),
            Value::Bool(b) => b.into_py_any(py)?,
            Value::Int(i) => i.into_py_any(py)?,
            Value::Text(t) => t.into_py_any(py)?,
            Value::Fan(table) => {
                let d = PyDict::new(py);
                for (pattern, fan) in table.iter() {
                    d.set_item(pattern.name(), fan)?;
                }
                d.into_any().unbind()
            }
            Value::Unsupported(text) => text.into_py_any(py)?,
        })
    }
}

/// `rules` with each keyword applied, then validated (the core's `with_overrides`).
fn with_overrides(rules: CoreRules, overrides: Option<&Bound<'_, PyDict>>) -> PyResult<Rules> {
    let entries = match overrides {
        Some(d) => entries(d)?,
        None => Vec::new(),
    };
    rules
        .with_overrides(entries)
        .map(Rules)
        .map_err(rules_error)
}

/// A dict of options as the core reads it: `fan` as patterns, every other value as is.
pub(crate) fn entries(d: &Bound<'_, PyDict>) -> PyResult<Vec<(String, Override)>> {
    d.iter()
        .map(|(key, value)| {
            let key = crate::convert::text("rules key", &key, "an option name (a str)")?;
            let value = match key.as_str() {
                "fan" => Override::FanPatterns(fan_entries(&value)?),
                _ => Override::Value(to_value(&value)?),
            };
            Ok((key, value))
        })
        .collect()
}

/// A Python option value as the core reads it: None, bool, int or str.
fn to_value(value: &Bound<'_, PyAny>) -> PyResult<Value> {
    Ok(if value.is_none() {
        Value::Null
    } else if let Ok(b) = value.cast::<PyBool>() {
        Value::Bool(b.is_true())
    } else if value.cast::<PyInt>().is_ok() {
        match value.extract::<i64>() {
            Ok(i) => Value::Int(i),
            Err(_) => Value::Unsupported(crate::errors::excerpt(value)),
        }
    } else if value.cast::<PyString>().is_ok() {
        Value::Text(crate::convert::text("a rules option", value, "a str")?)
    } else {
        let kind = crate::errors::type_name(value);
        Value::Unsupported(format!("{} (a {kind})", crate::errors::excerpt(value)))
    })
}

fn fan_entries(value: &Bound<'_, PyAny>) -> PyResult<Vec<(String, Value)>> {
    let d = value.cast::<PyDict>().map_err(|_| {
        rules_error(RulesError::BadValue {
            option: "fan".into(),
            value: crate::errors::excerpt(value),
            expected: "a dict of pattern name to fan (an integer, or None)".into(),
        })
    })?;
    d.iter()
        .map(|(name, fan)| {
            let name = crate::convert::text("fan key", &name, "a pattern name (a str)")?;
            Ok((name, to_value(&fan)?))
        })
        .collect()
}

/// What a preset name is.
const PRESET_NAME: &str = "a preset name such as \"chengdu\"";
