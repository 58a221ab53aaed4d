"""Arrays crossing the binding: read in logical order whatever their layout, refused with an
ArgumentError when read-only, of the wrong dtype or too large, and a refused call changes
nothing (issue 12, items 2-4, 10 and 13; docs/guarantees.md)."""

from __future__ import annotations

import numpy as np
import pytest

from xueliu import (
    OBS_SHAPE,
    ArgumentError,
    ArgumentTypeError,
    Game,
    VecEnv,
    batch,
)


def test_observe_into_a_read_only_array_is_an_argument_error():
    out = np.zeros(OBS_SHAPE, np.uint8)
    out.flags.writeable = False
    with pytest.raises(ArgumentError, match="read-only"):
        Game("chengdu", seed=1).observe_into(0, out)


@pytest.mark.parametrize("n", [2**62, 2**40])
def test_a_vec_env_larger_than_memory_is_refused_before_allocating(n):
    with pytest.raises(ArgumentError, match="more memory than this machine has"):
        VecEnv(n)


def some_counts() -> np.ndarray:
    rng = np.random.default_rng(4)
    rows = []
    for _ in range(40):
        row = np.zeros(27, np.uint8)
        for t in rng.choice(108, 13, replace=False):
            row[t // 4] += 1
        rows.append(row)
    return np.array(rows)


@pytest.mark.parametrize("layout", ["fortran", "transposed", "strided", "reversed", "offset"])
def test_batch_reads_any_layout_in_logical_order(layout):
    counts = some_counts()
    other = {
        "fortran": lambda c: np.asfortranarray(c),
        "transposed": lambda c: np.ascontiguousarray(c.T).T,
        "strided": lambda c: np.repeat(c, 2, axis=0)[::2],
        "reversed": lambda c: c[::-1][::-1],
        # C-contiguous but starting one row into its buffer: read in place, from its first row
        "offset": lambda c: np.concatenate([c[-1:], c])[1:],
    }[layout](counts)
    assert (other == counts).all()
    for f in (batch.shanten, batch.waits):
        assert (f(other) == f(counts)).all()


def test_batch_and_observe_into_refuse_a_wrong_dtype_or_layout():
    with pytest.raises(ArgumentTypeError, match="dtype int64"):
        batch.shanten(some_counts().astype(np.int64))
    with pytest.raises(ArgumentError, match="not C-contiguous"):
        Game("chengdu", seed=1).observe_into(0, np.asfortranarray(np.zeros(OBS_SHAPE, np.uint8)))
    with pytest.raises(ArgumentTypeError, match="uint8"):
        Game("chengdu", seed=1).observe_into(0, np.zeros(OBS_SHAPE, np.int64))


def test_vec_env_step_refuses_cast_ids():
    env = VecEnv(2, "chengdu")
    _, mask, _ = env.reset()
    ids = np.array([np.flatnonzero(m)[0] for m in mask], np.int64)
    before = [env.game(i).to_json() for i in range(2)]
    with pytest.raises(ArgumentError, match=r"actions\[0\] is 4294967"):
        env.step(ids + 2**32)
    for bad in (ids.astype(float), [str(i) for i in ids], [True, False]):
        with pytest.raises(ArgumentTypeError):
            env.step(bad)
    assert [env.game(i).to_json() for i in range(2)] == before
    env.step(ids)


@pytest.mark.parametrize("packed", [False, True])
def test_a_read_only_output_array_is_an_argument_error_and_changes_nothing(packed):
    env, twin = VecEnv(4, "chengdu", packed=packed), VecEnv(4, "chengdu", packed=packed)
    obs, mask, _ = env.reset(seed=1)
    twin.reset(seed=1)
    ids = np.array([np.flatnonzero(m)[0] for m in mask], np.int32)
    for array, name in ((obs, "observations"), (mask, "masks")):
        array.flags.writeable = False
        with pytest.raises(ArgumentError, match=f"VecEnv's {name} array was made read-only"):
            env.step(ids)
        array.flags.writeable = True
    # The refused steps changed nothing: the env steps on exactly as its twin does.
    for a, b in zip(env.step(ids), twin.step(ids)):
        assert (a == b).all()
