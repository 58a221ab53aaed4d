"""The standard RL interfaces (docs/encoding.md §5): ``gymnasium.make("xueliu/<Preset>-v0")``,
the Gymnasium ``VectorEnv`` over the Rust VecEnv, the PettingZoo ParallelEnv, and ``xueliu.env``
loaded lazily. Each is checked by the library's own checker and against the env it wraps."""

from __future__ import annotations

import subprocess
import sys
import warnings

import numpy as np
import pytest

import xueliu
from xueliu import IllegalActionError, VecEnv

gymnasium = pytest.importorskip("gymnasium")
env_mod = pytest.importorskip("xueliu.env")


def run_python(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120).stdout


def test_import_xueliu_imports_no_rl_library_and_env_loads_on_first_use():
    out = run_python(
        "import sys, xueliu; heavy = ('gymnasium', 'pettingzoo', 'ray');"
        "print(any(m in sys.modules for m in heavy));"
        "env = xueliu.env; print(env.__name__, 'gymnasium' in sys.modules)"
    )
    assert out.split() == ["False", "xueliu.env", "True"]


def test_every_preset_is_registered_and_passes_check_env_without_warnings():
    from gymnasium.utils.env_checker import check_env

    ids = env_mod.env_ids()
    assert set(ids.values()) == set(xueliu.Rules.presets()) and "xueliu/ChengduXueliu-v0" in ids
    for env_id, preset in ids.items():
        env = gymnasium.make(env_id, opponents="greedy")
        assert env.unwrapped.rules == preset and env.spec.id == env_id
    for env_id in ("xueliu/Chengdu-v0", "xueliu/Yaoji-v0"):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            check_env(gymnasium.make(env_id, opponents="greedy").unwrapped)


def test_gymnasium_finds_the_ids_through_the_entry_point_or_the_module_prefix():
    """Gymnasium 0.26–0.29 load the ``gymnasium.envs`` entry point on import; 1.x load the env
    module named before the id's colon. Either way, no ``import xueliu.env`` is needed."""
    from importlib.metadata import entry_points

    (point,) = [p for p in entry_points(group="gymnasium.envs") if p.name == "xueliu"]
    assert point.value == "xueliu._gym:register_envs"
    out = run_python(
        "import gymnasium; env = gymnasium.make('xueliu.env:xueliu/Xuezhan-v0'); "
        "obs, _ = env.reset(seed=1); print(env.unwrapped.rules, obs['observation'].shape)"
    )
    assert out.split() == ["xuezhan", "(71,", "27)"]


@pytest.mark.parametrize("order", ["import xueliu, gymnasium", "import gymnasium, xueliu"])
def test_gymnasium_make_works_after_import_xueliu_as_the_readme_writes_it(order):
    """Issue 30, item 15: on Gymnasium 1.x, which loads no entry points, ``import xueliu`` is
    enough, whichever is imported first, and still imports no Gymnasium itself."""
    out = run_python(f"import sys; {order}; env = gymnasium.make('xueliu/Chengdu-v0'); print(env.unwrapped.rules)")
    assert out.split() == ["chengdu"]
    assert run_python("import sys, xueliu; print('gymnasium' in sys.modules)").split() == ["False"]


def test_aec_env_passes_the_seed_test_and_the_parallel_env_says_why_it_cannot():
    """PettingZoo's seed tests: the AEC one samples within the mask and passes; the parallel
    one samples unmasked ids, which the ParallelEnv refuses (docs/encoding.md says so)."""
    from pettingzoo.test import parallel_seed_test, seed_test

    seed_test(lambda: env_mod.aec_env("chengdu", seed=3), num_cycles=100)
    with pytest.raises(IllegalActionError, match="legal ids"):
        parallel_seed_test(lambda: env_mod.parallel_env("chengdu", seed=3), num_cycles=100)


@pytest.mark.parametrize("rules", ["chengdu", "chengdu_xueliu", "yaoji"])
def test_parallel_env_passes_the_pettingzoo_parallel_api_test(rules):
    from pettingzoo.test import parallel_api_test

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        parallel_api_test(env_mod.parallel_env(rules, seed=3), num_cycles=1000)


def lowest_legal(mask) -> int:
    return int(np.flatnonzero(mask)[0])


def test_parallel_env_plays_the_aec_env_hand_with_simultaneous_decisions_together():
    par, aec = env_mod.parallel_env("chengdu", seed=9), env_mod.aec_env("chengdu", seed=9)
    obs, _ = par.reset(seed=4)
    aec.reset(seed=4)
    totals, together = np.zeros(4), 0
    while par.agents:
        deciding = par.deciding()
        together = max(together, len(deciding))
        actions = {a: lowest_legal(obs[a]["action_mask"]) for a in deciding}
        for a in set(par.agents) - set(deciding):
            assert not obs[a]["action_mask"].any()
        obs, rewards, terminations, _, _ = par.step(actions)
        totals += [rewards[a] for a in par.possible_agents]
    for _agent in aec.agent_iter():
        o, _, term, trunc, _ = aec.last()
        aec.step(None if term or trunc else lowest_legal(o["action_mask"]))
    assert together == 4 and all(terminations.values())
    assert list(totals) == par.hand.game.scores == aec.hand.game.scores
    assert par.hand.game.to_json() == aec.hand.game.to_json()


def test_parallel_env_refuses_a_missing_or_illegal_id_and_changes_nothing():
    par = env_mod.parallel_env("chengdu", seed=2)
    obs, _ = par.reset()
    before = par.hand.game.to_json()
    first, *others = par.deciding()
    legal = {a: lowest_legal(obs[a]["action_mask"]) for a in par.deciding()}
    with pytest.raises(IllegalActionError, match="legal ids"):
        par.step({a: legal[a] for a in others})
    with pytest.raises(IllegalActionError, match="legal ids"):
        par.step(legal | {first: int(np.flatnonzero(obs[first]["action_mask"] == 0)[0])})
    assert par.hand.game.to_json() == before


def test_vector_env_follows_gymnasium_conventions():
    from gymnasium.vector import AutoresetMode
    from gymnasium.vector.utils import batch_space

    env = env_mod.VectorEnv(6, "chengdu", opponents="greedy", seed=3)
    assert isinstance(env, gymnasium.vector.VectorEnv)
    assert env.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    assert env.single_observation_space == env_mod.SingleSeatEnv().observation_space
    assert env.observation_space == batch_space(env.single_observation_space, 6)
    assert env.action_space == batch_space(env.single_action_space, 6)
    obs, infos = env.reset()
    assert env.observation_space.contains(obs) and infos == {}
    env.action_space.seed(0)
    seen = []
    for _ in range(60):
        actions = env.action_space.sample(mask=tuple(obs["action_mask"]))
        assert np.array_equal(obs["action_mask"].astype(bool), env.action_masks())
        obs, reward, terminated, truncated, infos = env.step(actions)
        assert env.observation_space.contains(obs)
        assert reward.shape == terminated.shape == truncated.shape == (6,) and not truncated.any()
        seen.append(obs["observation"])
    assert not any(np.shares_memory(a, b) for a, b in zip(seen, seen[1:]))  # copies by default


def test_vector_env_is_the_rust_vec_env_seen_from_seat_zero():
    env = env_mod.VectorEnv(5, "chengdu_xueliu", opponents=[None, "greedy", "random", "greedy"], seed=8)
    raw = VecEnv(5, "chengdu_xueliu", 8, [None, "greedy", "random", "greedy"])
    obs, _ = env.reset()
    raw_obs, raw_mask, _ = raw.reset(8)
    ended, total = 0, np.zeros(5)
    for _ in range(300):
        assert np.array_equal(obs["observation"], raw_obs) and np.array_equal(env.action_masks(), raw_mask)
        actions = np.array([lowest_legal(m) for m in raw_mask])
        obs, reward, terminated, _, _ = env.step(actions)
        raw_obs, raw_mask, raw_rewards, raw_terminated, seats = raw.step(actions)
        assert np.array_equal(reward, raw_rewards[:, 0]) and np.array_equal(terminated, raw_terminated)
        assert (seats == 0).all()
        ended += terminated.sum()
        total += reward
    assert ended > 0


def test_vector_env_works_under_gymnasium_vector_wrappers():
    from gymnasium.wrappers.vector import RecordEpisodeStatistics

    env = RecordEpisodeStatistics(env_mod.VectorEnv(4, "chengdu", seed=1))
    obs, _ = env.reset(seed=1)
    finished = 0
    for _ in range(400):
        obs, reward, terminated, truncated, infos = env.step(np.array([lowest_legal(m) for m in obs["action_mask"]]))
        finished += terminated.sum()
        if terminated.any():
            assert set(infos["episode"]) >= {"r", "l", "t"}
    assert finished > 0 and len(env.return_queue) == min(finished, env.return_queue.maxlen)


def test_vector_env_refuses_illegal_ids_and_bad_opponents():
    env = env_mod.VectorEnv(3, "chengdu", seed=1)
    obs, _ = env.reset()
    bad = np.array([int(np.flatnonzero(m == 0)[0]) for m in obs["action_mask"]])
    with pytest.raises(IllegalActionError):
        env.step(bad)
    with pytest.raises(ValueError, match="learner"):
        env_mod.VectorEnv(3, opponents=[None, None, "random", "random"])
