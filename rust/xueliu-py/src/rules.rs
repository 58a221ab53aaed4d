//! `Rules`: a room's options and presets. Converts Python values to the core's option values and
//! back; every check is the core's.

use crate::errors::rules_error;
use pyo3::exceptions::{PyAttributeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyString, PyTuple};
use pyo3::IntoPyObjectExt;
use xueliu_core::pattern::FanTable;
use xueliu_core::rules::{Preset, Rules as CoreRules, RulesError, Value};
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
    fn preset(name: &str, overrides: Option<&Bound<'_, PyDict>>) -> PyResult<Rules> {
        let rules = CoreRules::preset(name).map_err(rules_error)?;
        with_overrides(rules, overrides)
    }

    /// The schema's `"preset"`: the preset these rules started from, or None. (`Rules.preset` is
    /// the constructor, so the option reads under this name.)
    #[getter]
    fn preset_name(&self) -> Option<&'static str> {
        self.0.preset.map(|p| p.name())
    }

    /// Every preset's name.
    #[staticmethod]
    fn presets() -> Vec<&'static str> {
        Preset::ALL.iter().map(|p| p.name()).collect()
    }

    /// Rules from a dict with every key of the schema, as `to_dict` writes it.
    #[staticmethod]
    fn from_dict(d: &Bound<'_, PyDict>) -> PyResult<Rules> {
        let mut entries = Vec::with_capacity(d.len());
        for (key, value) in d.iter() {
            let key: String = key.extract().map_err(|_| {
                PyTypeError::new_err(format!("rules dict keys are option names; got {key:?}"))
            })?;
            let value = if key == "fan" {
                Value::Fan(fan_table(&value)?)
            } else {
                to_value(&value)?
            };
            entries.push((key, value));
        }
        CoreRules::from_values(entries)
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
    fn points(&self, fan: i64) -> PyResult<u64> {
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

/// `rules` with each keyword applied, then validated. `fan` merges into the current table.
fn with_overrides(mut rules: CoreRules, overrides: Option<&Bound<'_, PyDict>>) -> PyResult<Rules> {
    for (key, value) in overrides.into_iter().flat_map(|d| d.iter()) {
        let key: String = key.extract()?;
        let value =
            match key.as_str() {
                "preset" => return Err(rules_error(RulesError::Inconsistent(
                    "\"preset\" names the preset the rules started from and cannot be overridden; \
                     use Rules.preset(name)"
                        .into(),
                ))),
                "fan" => Value::Fan(merged_fan(rules.fan, &value)?),
                _ => to_value(&value)?,
            };
        rules.set(&key, value).map_err(rules_error)?;
    }
    rules.validate().map_err(rules_error)?;
    Ok(Rules(rules))
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
            Err(_) => Value::Unsupported(value.repr()?.to_string()),
        }
    } else if let Ok(s) = value.cast::<PyString>() {
        Value::Text(s.to_cow()?.into_owned())
    } else {
        let kind = value.get_type().name()?;
        Value::Unsupported(format!("{} (a {kind})", value.repr()?))
    })
}

/// A full fan table from a dict naming every pattern.
fn fan_table(value: &Bound<'_, PyAny>) -> PyResult<FanTable> {
    FanTable::from_named(fan_entries(value)?).map_err(rules_error)
}

/// `table` with the patterns a dict names set to its values.
fn merged_fan(mut table: FanTable, value: &Bound<'_, PyAny>) -> PyResult<FanTable> {
    for (name, fan) in fan_entries(value)? {
        table.set_named(&name, fan).map_err(rules_error)?;
    }
    Ok(table)
}

fn fan_entries(value: &Bound<'_, PyAny>) -> PyResult<Vec<(String, Value)>> {
    let d = value.cast::<PyDict>().map_err(|_| {
        rules_error(RulesError::BadValue {
            option: "fan".into(),
            value: value.repr().map(|r| r.to_string()).unwrap_or_default(),
            expected: "a dict of pattern name to fan (an integer, or None)".into(),
        })
    })?;
    d.iter()
        .map(|(name, fan)| Ok((name.extract::<String>()?, to_value(&fan)?)))
        .collect()
}

/// A `rules=` argument: a `Rules`, or a preset's name.
pub fn rules_arg(rules: &Bound<'_, PyAny>) -> PyResult<CoreRules> {
    if let Ok(r) = rules.cast::<Rules>() {
        return Ok(r.get().0);
    }
    if let Ok(name) = rules.cast::<PyString>() {
        return CoreRules::preset(&name.to_cow()?).map_err(rules_error);
    }
    Err(PyTypeError::new_err(format!(
        "rules= takes a Rules or a preset name such as \"chengdu\"; got {}",
        rules.get_type().name()?
    )))
}
