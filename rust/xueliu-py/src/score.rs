//! `score`, `best_waits` and the `Score` they return.

use crate::args::{rules_arg, tile_arg};
use crate::convert;
use crate::errors::{hand_error, score_error};
use crate::tiles::{tile_object, Tile};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use xueliu_core::meld::Meld;
use xueliu_core::score::{self as core, Score as CoreScore, Situation};
use xueliu_core::Choice;

/// A scored win: the pattern (only the highest counts), each bonus with its fan, the total, the
/// cap applied, and the points one payer pays. `str(score)` is a breakdown to check by hand.
#[pyclass(frozen, eq, hash, module = "xueliu")]
#[derive(PartialEq, Eq, Hash)]
pub struct Score(pub CoreScore);

#[pymethods]
impl Score {
    /// The pattern's name, e.g. `"full_flush"`.
    #[getter]
    fn pattern(&self) -> &'static str {
        self.0.pattern.name()
    }

    /// The pattern's own fan, before bonuses.
    #[getter]
    fn pattern_fan(&self) -> u32 {
        self.0.pattern_fan
    }

    /// `(name, fan)` for each bonus, e.g. `[("root", 2), ("kong_flower", 1)]`; a bonus held
    /// several times (roots, kongs) appears once with their fan together.
    #[getter]
    fn bonuses(&self) -> Vec<(&'static str, u32)> {
        self.0
            .bonuses
            .iter()
            .map(|(bonus, _, fan)| (bonus.name(), fan))
            .collect()
    }

    /// Pattern fan plus bonuses.
    #[getter]
    fn fan(&self) -> u32 {
        self.0.fan
    }

    /// `fan` limited by the room's `cap_fan` (封顶).
    #[getter]
    fn capped_fan(&self) -> u32 {
        self.0.capped_fan
    }

    /// Points per base point: the fan (linear) or 2 to the fan less the offset (exponential).
    #[getter]
    fn multiplier(&self) -> u64 {
        self.0.multiplier
    }

    /// 自摸加底: points each payer adds for a self-drawn win.
    #[getter]
    fn extra_points(&self) -> u64 {
        self.0.extra_points
    }

    /// Points one payer pays: base × multiplier + extra.
    #[getter]
    fn points(&self) -> u64 {
        self.0.points
    }

    /// What a payer holding these kongs pays: under 杠进杠出 (`kong_fan="win_and_loss"`) their
    /// own kong fan adds to the winner's; otherwise `points`.
    #[pyo3(
        signature = (*, exposed_kongs=None, concealed_kongs=None),
        text_signature = "($self, *, exposed_kongs=0, concealed_kongs=0)"
    )]
    fn payment(
        &self,
        exposed_kongs: Option<&Bound<'_, PyAny>>,
        concealed_kongs: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<u64> {
        let accepts = "a number of kongs 0-4 (a hand holds at most four, both kinds together)";
        let count = |name, value: Option<&Bound<'_, PyAny>>| {
            value.map_or(Ok(0u8), |v| crate::convert::int(name, v, accepts))
        };
        let exposed = count("exposed_kongs", exposed_kongs)?;
        let concealed = count("concealed_kongs", concealed_kongs)?;
        if u32::from(exposed) + u32::from(concealed) > 4 {
            return Err(crate::errors::argument_error(
                "exposed_kongs + concealed_kongs",
                u32::from(exposed) + u32::from(concealed),
                accepts,
            ));
        }
        Ok(self.0.payment(exposed, concealed))
    }

    /// The score as plain values (the `score` of a `win` event): pattern, bonuses, fan, points.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("pattern", self.pattern())?;
        d.set_item("pattern_fan", self.0.pattern_fan)?;
        let bonuses = self
            .0
            .bonuses
            .iter()
            .map(|(bonus, count, fan)| {
                let b = PyDict::new(py);
                b.set_item("name", bonus.name())?;
                b.set_item("count", count)?;
                b.set_item("fan", fan)?;
                Ok(b)
            })
            .collect::<PyResult<Vec<_>>>()?;
        d.set_item("bonuses", bonuses)?;
        d.set_item("fan", self.0.fan)?;
        d.set_item("capped_fan", self.0.capped_fan)?;
        d.set_item("multiplier", self.0.multiplier)?;
        d.set_item("extra_points", self.0.extra_points)?;
        d.set_item("points", self.0.points)?;
        Ok(d)
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!(
            "Score(pattern='{}', fan={}, capped_fan={}, points={})",
            self.pattern(),
            self.0.fan,
            self.0.capped_fan,
            self.0.points
        )
    }
}

/// The winner's melds: pongs and exposed kongs as `"555m"` / `"5555m"`, concealed kongs apart.
fn all_melds(
    melds: Option<&Bound<'_, PyAny>>,
    concealed_kongs: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<Meld>> {
    let mut all = convert::melds("melds", melds, false)?;
    all.extend(convert::melds("concealed_kongs", concealed_kongs, true)?);
    Ok(all)
}

/// Scores a win. `hand` is the concealed tiles *without* the winning tile (13 less 3 per meld),
/// so `score("2344567m345789p", "7m", rules="chengdu")` reads as "this hand wins on 7m".
/// `melds` are pongs and exposed kongs (`"555m"`, `"5555m"`), `concealed_kongs` the 暗杠
/// (`"7777p"`). The flags say how the win came about; 杠上花 takes `self_draw=True` too.
/// Under the 幺鸡 rules (`wilds`), `hand` lists natural tiles and `wilds` counts the wilds held
/// beside them; `win_tile="1s"` is a winning wild; a meld names its wilds as `1s` (`"55m1s"`).
#[pyfunction]
#[pyo3(signature = (
    hand, win_tile, *, rules, melds=None, concealed_kongs=None, void=None,
    self_draw=None, kong_flower=None, kong_shot=None, robbed_kong=None, heavenly=None,
    earthly=None, last_tile=None, wilds=None
), text_signature = "(hand, win_tile, *, rules, melds=(), concealed_kongs=(), void=None, \
    self_draw=False, kong_flower=False, kong_shot=False, robbed_kong=False, heavenly=False, \
    earthly=False, last_tile=False, wilds=0)")]
#[allow(clippy::too_many_arguments)]
pub fn score(
    hand: &Bound<'_, PyAny>,
    win_tile: &Bound<'_, PyAny>,
    rules: &Bound<'_, PyAny>,
    melds: Option<&Bound<'_, PyAny>>,
    concealed_kongs: Option<&Bound<'_, PyAny>>,
    void: Option<&Bound<'_, PyAny>>,
    self_draw: Option<&Bound<'_, PyAny>>,
    kong_flower: Option<&Bound<'_, PyAny>>,
    kong_shot: Option<&Bound<'_, PyAny>>,
    robbed_kong: Option<&Bound<'_, PyAny>>,
    heavenly: Option<&Bound<'_, PyAny>>,
    earthly: Option<&Bound<'_, PyAny>>,
    last_tile: Option<&Bound<'_, PyAny>>,
    wilds: Option<&Bound<'_, PyAny>>,
) -> PyResult<Score> {
    let rules = rules_arg(rules)?;
    let melds = all_melds(melds, concealed_kongs)?;
    let counts = convert::counts(hand)?
        .with_wilds(convert::wilds(wilds)?)
        .map_err(hand_error)?;
    let win_tile = tile_arg("win_tile", win_tile)?;
    let flag = |name, value| convert::flag(name, value, false);
    let situation = Situation {
        self_draw: flag("self_draw", self_draw)?,
        kong_flower: flag("kong_flower", kong_flower)?,
        kong_shot: flag("kong_shot", kong_shot)?,
        robbed_kong: flag("robbed_kong", robbed_kong)?,
        heavenly: flag("heavenly", heavenly)?,
        earthly: flag("earthly", earthly)?,
        last_tile: flag("last_tile", last_tile)?,
    };
    let void = convert::void(void)?;
    core::score_on(&counts, win_tile, &melds, void, &rules, &situation)
        .map(Score)
        .map_err(score_error)
}

/// Every wait of a ready hand (13 tiles less 3 per meld) with its best score under 查叫: the
/// pattern, roots and the player's own kongs, capped; no situational bonus. Empty when the hand
/// is not ready. Under `wilds`, `hand` lists natural tiles and `wilds` counts the wilds; the
/// waits are natural tiles, never `1s`.
#[pyfunction]
#[pyo3(
    signature = (hand, *, rules, melds=None, concealed_kongs=None, void=None, wilds=None),
    text_signature = "(hand, *, rules, melds=(), concealed_kongs=(), void=None, wilds=0)"
)]
pub fn best_waits(
    py: Python<'_>,
    hand: &Bound<'_, PyAny>,
    rules: &Bound<'_, PyAny>,
    melds: Option<&Bound<'_, PyAny>>,
    concealed_kongs: Option<&Bound<'_, PyAny>>,
    void: Option<&Bound<'_, PyAny>>,
    wilds: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<(Py<Tile>, Score)>> {
    let rules = rules_arg(rules)?;
    let melds = all_melds(melds, concealed_kongs)?;
    let counts = convert::counts(hand)?
        .with_wilds(convert::wilds(wilds)?)
        .map_err(hand_error)?;
    let void = convert::void(void)?;
    let waits = core::best_waits(&counts, &melds, void, &rules).map_err(score_error)?;
    Ok(waits
        .into_iter()
        .map(|(tile, score)| (tile_object(py, tile), Score(score)))
        .collect())
}
