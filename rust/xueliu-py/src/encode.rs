//! Action ids, masks, observations and `VecEnv` (`xueliu_core::encode`, `xueliu_core::env`):
//! arguments read, arrays written, errors mapped. No encoding logic lives here.

use crate::args::{rules_or_default, seed_arg, seed_or_zero};
use crate::errors::{
    core_error, exclusive, type_error, ArgumentError, BotError, ConcurrentUseError,
};
use crate::game::Game;
use numpy::{
    BorrowError, Element, PyArray, PyArray1, PyArray2, PyArray3, PyArrayMethods, PyReadwriteArray,
    PyUntypedArrayMethods,
};
use pyo3::prelude::*;
use pyo3::types::PyString;
use std::sync::{Mutex, MutexGuard};
use xueliu_core::encode::{self, Picks, ACTION_COUNT, CHANNELS, LAYOUT, OBS_SIZE, PACKED_PLANES};
use xueliu_core::env::{Obs, Outputs, Policy, VecEnv as CoreVecEnv};
use xueliu_core::game::{Game as CoreGame, Phase};
use xueliu_core::tile::{self as core_tile, KINDS};

/// Picks that start no legal exchange of `seat` are refused rather than masked to nothing.
fn check_picks(game: &CoreGame, seat: u8, picks: &Picks) -> PyResult<()> {
    if picks.is_empty() || !game.must_act(seat) {
        return Ok(());
    }
    if game.phase() != Phase::Exchange || encode::legal_ids(game, seat, picks).is_empty() {
        return Err(ArgumentError::new_err(format!(
            "seat {seat} cannot have picked {} toward an exchange: no legal exchange holds them",
            core_tile::format_tiles(picks.as_slice())
        )));
    }
    Ok(())
}

/// `Game.action_mask`: a new bool array of `ACTION_COUNT`.
pub fn action_mask<'py>(
    py: Python<'py>,
    game: &CoreGame,
    seat: u8,
    picks: &Picks,
) -> PyResult<Bound<'py, PyArray1<bool>>> {
    check_picks(game, seat, picks)?;
    let mut mask = vec![false; ACTION_COUNT];
    encode::legal_ids(game, seat, picks).write(&mut mask);
    Ok(PyArray1::from_vec(py, mask))
}

/// `Game.observe_into`: writes into a C-contiguous `uint8[CHANNELS, 27]` array.
pub fn observe_into(
    game: &CoreGame,
    seat: u8,
    picks: &Picks,
    out: &Bound<'_, PyAny>,
) -> PyResult<()> {
    check_picks(game, seat, picks)?;
    let accepts = format!("a writable C-contiguous numpy uint8 array of shape ({CHANNELS}, 27)");
    let array = out
        .cast::<PyArray2<u8>>()
        .map_err(|_| type_error("out", out, &accepts))?;
    if array.shape() != [CHANNELS, KINDS] || !array.is_c_contiguous() {
        let layout = if array.is_c_contiguous() {
            "C"
        } else {
            "not C-contiguous"
        };
        return Err(ArgumentError::new_err(format!(
            "out must be {accepts}; got shape {:?}, {layout}",
            array.shape()
        )));
    }
    let mut rw = array.try_readwrite().map_err(|_| {
        ArgumentError::new_err(format!(
            "out must be {accepts}; got a read-only or borrowed array"
        ))
    })?;
    let slice = rw
        .as_slice_mut()
        .map_err(|_| ArgumentError::new_err(format!("out must be {accepts}")))?;
    encode::observe(game, seat, picks, slice);
    Ok(())
}

/// `Game.observe`: a new `uint8[CHANNELS, 27]` array.
pub fn observe<'py>(
    py: Python<'py>,
    game: &CoreGame,
    seat: u8,
    picks: &Picks,
) -> PyResult<Bound<'py, PyArray2<u8>>> {
    let out = PyArray2::<u8>::zeros(py, [CHANNELS, KINDS], false);
    observe_into(game, seat, picks, out.as_any())?;
    Ok(out)
}

/// `Game.observe_packed`: a new `uint32[PACKED_PLANES]` array (docs/encoding.md §2.1).
pub fn observe_packed<'py>(
    py: Python<'py>,
    game: &CoreGame,
    seat: u8,
    picks: &Picks,
) -> PyResult<Bound<'py, PyArray1<u32>>> {
    check_picks(game, seat, picks)?;
    let mut out = vec![0u32; PACKED_PLANES];
    encode::observe_packed(game, seat, picks, &mut out);
    Ok(PyArray1::from_vec(py, out))
}

/// The id's readable name: `"discard 5m"`, `"pick 5m"` (one tile toward an exchange), `"swap 5m"`
/// (reserved for 幺鸡), `"void p"`, `"pong"`, …
#[pyfunction]
pub fn action_id_name(id: &Bound<'_, PyAny>) -> PyResult<String> {
    let id: i64 = crate::convert::int("id", id, "an action id, an int (docs/encoding.md)")?;
    u16::try_from(id)
        .ok()
        .and_then(encode::id_name)
        .ok_or_else(|| bad_id(id))
}

pub fn bad_id(id: i64) -> PyErr {
    ArgumentError::new_err(format!(
        "action id {id} does not exist; ids are 0-{}",
        ACTION_COUNT - 1
    ))
}

/// Who decides for each seat: None, a policy name for seats 1–3, or one entry per seat.
fn policies_arg(opponents: Option<&Bound<'_, PyAny>>) -> PyResult<[Policy; 4]> {
    let policy = |name: &str| {
        Policy::parse(name).ok_or_else(|| {
            BotError::new_err(format!(
                "unknown opponent {}; opponents are {}",
                crate::errors::quote(name),
                Policy::names()
            ))
        })
    };
    let Some(opponents) = opponents else {
        return Ok([Policy::Caller; 4]);
    };
    if let Ok(name) = opponents.cast::<PyString>() {
        let p = policy(&crate::convert::text(
            "opponents",
            name,
            "a policy or bot name",
        )?)?;
        return Ok([Policy::Caller, p, p, p]);
    }
    let list: Vec<Option<String>> = opponents.extract().map_err(|_| {
        type_error(
            "opponents",
            opponents,
            "None, a policy or bot name (seats 1-3), or four entries of None (yours) or a name",
        )
    })?;
    if list.len() != 4 {
        return Err(BotError::new_err(format!(
            "opponents has {} entries; give one per seat (None for a seat you decide)",
            list.len()
        )));
    }
    let mut out = [Policy::Caller; 4];
    for (slot, entry) in out.iter_mut().zip(&list) {
        if let Some(name) = entry {
            *slot = policy(name)?;
        }
    }
    Ok(out)
}

/// `n` hands stepped together in Rust with the GIL released (docs/encoding.md §4). One thread
/// uses it at a time; a second one meanwhile gets ConcurrentUseError and changes nothing.
#[pyclass(frozen, module = "xueliu")]
pub struct VecEnv {
    inner: Mutex<CoreVecEnv>,
    obs: ObsArray,
    mask: Py<PyArray2<bool>>,
    rewards: Py<PyArray2<f64>>,
    terminated: Py<PyArray1<bool>>,
    seat: Py<PyArray1<i32>>,
}

/// A VecEnv's observations: `uint8[n, CHANNELS, 27]`, or `uint32[n, PACKED_PLANES]` packed.
enum ObsArray {
    Plain(Py<PyArray3<u8>>),
    Packed(Py<PyArray2<u32>>),
}

/// What `reset` returns: observations, masks, seats.
type ResetResult = (Py<PyAny>, Py<PyArray2<bool>>, Py<PyArray1<i32>>);

/// What `step` returns: observations, masks, rewards, terminated, seats.
type StepResult = (
    Py<PyAny>,
    Py<PyArray2<bool>>,
    Py<PyArray2<f64>>,
    Py<PyArray1<bool>>,
    Py<PyArray1<i32>>,
);

/// One of the env's own output arrays, to write into; the caller may have cleared its
/// writeable flag or lent it to other Rust code, which numpy's borrow checking would report in
/// its own words.
fn writable<'py, T: Element, D: numpy::ndarray::Dimension>(
    array: &Bound<'py, PyArray<T, D>>,
    name: &str,
) -> PyResult<PyReadwriteArray<'py, T, D>> {
    array.try_readwrite().map_err(|e| match e {
        BorrowError::NotWriteable => ArgumentError::new_err(format!(
            "the VecEnv's {name} array was made read-only; the env writes each step into the \
             arrays it returned, so leave them writeable and copy them (a.copy()) to keep or \
             change them"
        )),
        // Already borrowed, and any kind a later numpy adds.
        e => ConcurrentUseError::new_err(format!(
            "the VecEnv's {name} array is borrowed by other Rust code ({e}); release it before \
             stepping the env"
        )),
    })
}

impl VecEnv {
    /// The core env, unless another thread is using it.
    fn lock(&self) -> PyResult<MutexGuard<'_, CoreVecEnv>> {
        exclusive(&self.inner, "VecEnv")
    }

    /// Runs `f` on the core env and the output buffers, with the GIL released.
    fn with_outputs<T: Send>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&mut CoreVecEnv, Outputs<'_>) -> T + Send,
    ) -> PyResult<T> {
        let mut inner = self.lock()?;
        let (mask, rewards) = (self.mask.bind(py), self.rewards.bind(py));
        let (terminated, seat) = (self.terminated.bind(py), self.seat.bind(py));
        let (mut plain, mut packed) = match &self.obs {
            ObsArray::Plain(a) => (Some(writable(a.bind(py), "observations")?), None),
            ObsArray::Packed(a) => (None, Some(writable(a.bind(py), "observations")?)),
        };
        let obs = match (&mut plain, &mut packed) {
            (Some(a), _) => Obs::Plain(a.as_slice_mut()?),
            (_, Some(a)) => Obs::Packed(a.as_slice_mut()?),
            _ => unreachable!("one of the two is set"),
        };
        let mut mask = writable(mask, "masks")?;
        let mut rewards = writable(rewards, "rewards")?;
        let mut terminated = writable(terminated, "terminated")?;
        let mut seat = writable(seat, "seats")?;
        let out = Outputs {
            obs,
            mask: mask.as_slice_mut()?,
            rewards: rewards.as_slice_mut()?,
            terminated: terminated.as_slice_mut()?,
            seat: seat.as_slice_mut()?,
        };
        let inner = &mut *inner;
        Ok(py.detach(move || f(inner, out)))
    }

    fn outputs(&self, py: Python<'_>) -> StepResult {
        let obs = match &self.obs {
            ObsArray::Plain(a) => a.clone_ref(py).into_any(),
            ObsArray::Packed(a) => a.clone_ref(py).into_any(),
        };
        (
            obs,
            self.mask.clone_ref(py),
            self.rewards.clone_ref(py),
            self.terminated.clone_ref(py),
            self.seat.clone_ref(py),
        )
    }
}

#[pymethods]
impl VecEnv {
    #[new]
    #[pyo3(
        signature = (n, rules=None, seed=None, opponents=None, *, threads=None, packed=None),
        text_signature = "(n, rules=None, seed=None, opponents=None, *, threads=None, packed=False)"
    )]
    fn new(
        py: Python<'_>,
        n: &Bound<'_, PyAny>,
        rules: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
        opponents: Option<&Bound<'_, PyAny>>,
        threads: Option<&Bound<'_, PyAny>>,
        packed: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<VecEnv> {
        let n: usize = crate::convert::int("n", n, "a number of hands, an int of at least 1")?;
        let threads: Option<usize> = threads
            .map(|t| {
                crate::convert::int(
                    "threads",
                    t,
                    "None or a number of threads, an int of at least 0",
                )
            })
            .transpose()?;
        let rules = rules_or_default(rules)?;
        let seed = seed_or_zero(seed)?;
        let policies = policies_arg(opponents)?;
        let packed = crate::convert::flag("packed", packed, false)?;
        let threads = threads.unwrap_or_else(|| {
            std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
        });
        let inner = py
            .detach(|| CoreVecEnv::new(n, rules, seed, policies, threads))
            .map_err(core_error)?;
        let env = VecEnv {
            inner: Mutex::new(inner),
            obs: if packed {
                ObsArray::Packed(PyArray2::zeros(py, [n, PACKED_PLANES], false).unbind())
            } else {
                ObsArray::Plain(PyArray3::zeros(py, [n, CHANNELS, KINDS], false).unbind())
            },
            mask: PyArray2::zeros(py, [n, ACTION_COUNT], false).unbind(),
            rewards: PyArray2::zeros(py, [n, 4], false).unbind(),
            terminated: PyArray1::zeros(py, n, false).unbind(),
            seat: PyArray1::zeros(py, n, false).unbind(),
        };
        env.with_outputs(py, xueliu_core::env::VecEnv::current)?;
        Ok(env)
    }

    /// Number of hands.
    #[getter]
    fn num_envs(&self) -> PyResult<usize> {
        Ok(self.lock()?.len())
    }

    fn __len__(&self) -> PyResult<usize> {
        Ok(self.lock()?.len())
    }

    /// Abandons the hands in progress: with `seed`, starts over as a new VecEnv of that seed
    /// would; without, deals each slot its next hand. Returns `(obs, mask, seat)`.
    #[pyo3(signature = (seed=None))]
    fn reset(&self, py: Python<'_>, seed: Option<&Bound<'_, PyAny>>) -> PyResult<ResetResult> {
        let seed = seed.map(seed_arg).transpose()?;
        self.with_outputs(py, |inner, out| inner.reset(seed, out))?
            .map_err(core_error)?;
        let (obs, mask, _, _, seat) = self.outputs(py);
        Ok((obs, mask, seat))
    }

    /// Takes one action id per hand (`int32[n]`, each legal in its hand's mask) and returns
    /// `(obs, mask, rewards, terminated, seat)`: the arrays this VecEnv owns, overwritten by the
    /// next step. A hand that ends is replaced at once; its row then shows the new hand.
    fn step(&self, py: Python<'_>, actions: &Bound<'_, PyAny>) -> PyResult<StepResult> {
        let ids = action_ids(actions)?;
        self.with_outputs(py, |inner, out| inner.step(&ids, out))?
            .map_err(core_error)?;
        Ok(self.outputs(py))
    }

    /// A copy of hand `i` as a `Game` (kept without an event log).
    fn game(&self, i: &Bound<'_, PyAny>) -> PyResult<Game> {
        let inner = self.lock()?;
        let n = inner.len();
        let i = crate::convert::index("i", i, n, "a hand of this VecEnv")?;
        Ok(Game::of(inner.table(i).game().clone()))
    }

    fn __repr__(&self) -> PyResult<String> {
        let inner = self.lock()?;
        Ok(format!("VecEnv(n={}, seed={})", inner.len(), inner.seed()))
    }
}

/// `VecEnv.step`'s ids: a 1-D array or sequence of integers, each exactly an `int32` (no
/// float, string or wrapped-around value is read as another id).
fn action_ids(actions: &Bound<'_, PyAny>) -> PyResult<Vec<i32>> {
    // An int32 array, what numpy code passes, is read at once: the checks below take seven
    // numpy calls (about 10 µs a step, a tenth of a thousand hands' step).
    if let Ok(array) = actions.cast::<PyArray1<i32>>() {
        if let Ok(view) = array.try_readonly() {
            return Ok(view.as_array().to_vec());
        }
    }
    let accepts = "one integer action id per hand (an int array or a list of ints)";
    let np = actions.py().import("numpy")?;
    let array = np
        .call_method1("asarray", (actions,))
        .map_err(|_| type_error("actions", actions, accepts))?;
    let kind: String = array.getattr("dtype")?.getattr("kind")?.extract()?;
    let ndim: usize = array.getattr("ndim")?.extract()?;
    if !matches!(kind.as_str(), "i" | "u") || ndim != 1 {
        return Err(type_error("actions", actions, accepts));
    }
    let ids = array.call_method1("astype", ("int32",))?;
    let same = array.call_method1("__eq__", (&ids,))?;
    if let Some(i) = np
        .call_method1("flatnonzero", (np.call_method1("logical_not", (same,))?,))?
        .extract::<Vec<usize>>()?
        .first()
    {
        return Err(ArgumentError::new_err(format!(
            "actions[{i}] is {}, which is no action id; ids are 0-{}",
            array.get_item(i)?,
            ACTION_COUNT - 1
        )));
    }
    ids.cast_into::<PyArray1<i32>>()?
        .try_readonly()?
        .as_array()
        .iter()
        .map(|&id| Ok(id))
        .collect()
}

/// Constants of the encoding: `ACTION_COUNT`, `OBS_SHAPE`, `OBS_LAYOUT` (name, first channel,
/// channels), `OBS_PACKED_SHAPE`, `OBS_PACKED_BITS` (planes per channel), and `action_id_name`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("ACTION_COUNT", ACTION_COUNT)?;
    m.add("OBS_SHAPE", (CHANNELS, KINDS))?;
    m.add("OBS_PACKED_SHAPE", (PACKED_PLANES,))?;
    let mut first = 0;
    let mut layout: Vec<(&str, usize, usize)> = Vec::new();
    let mut bits: Vec<usize> = Vec::new();
    for (name, count, width) in LAYOUT {
        layout.push((name, first, count));
        bits.extend(std::iter::repeat_n(usize::from(width), count));
        first += count;
    }
    debug_assert_eq!(first * KINDS, OBS_SIZE);
    m.add("OBS_LAYOUT", layout)?;
    m.add("OBS_PACKED_BITS", bits)?;
    m.add_function(wrap_pyfunction!(action_id_name, m)?)?;
    m.add_class::<VecEnv>()?;
    Ok(())
}
