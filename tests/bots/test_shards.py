"""Shards of self-play and duplicate evaluation over local processes and a real local Ray give
the one-process result: every hand's points, the histograms and the digest over all of it."""

from __future__ import annotations

import pickle
import sys
from pathlib import Path

import numpy as np
import pytest

import xueliu
from xueliu import shards
from xueliu.players import Builtin

BOTS = ("greedy", "random", "greedy", "random")
GAMES, DEALS = 400, 60


@pytest.fixture(scope="module")
def one_process():
    return (
        xueliu.simulate(GAMES, "chengdu_xueliu", bots=BOTS, seed=5, threads=1, logs=True),
        xueliu.compare_bots("greedy", "random", DEALS, "chengdu", seed=5, threads=1),
    )


@pytest.fixture(scope="module")
def local_ray():
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, logging_level="warning")
    try:
        yield shards.Ray()
    finally:
        ray.shutdown()


def same_simulation(a: xueliu.SimulationResult, b: xueliu.SimulationResult) -> None:
    assert a.digest() == b.digest()
    assert np.array_equal(a.points, b.points)
    assert (a.wins, a.win_kinds, a.fan_histogram, a.mean_draws, a.logs) == (
        b.wins,
        b.win_kinds,
        b.fan_histogram,
        b.mean_draws,
        b.logs,
    )


def same_comparison(a: xueliu.Comparison, b: xueliu.Comparison) -> None:
    assert a.digest() == b.digest()
    assert np.array_equal(a.differences, b.differences)
    assert (a.games, a.mean, a.std_error, a.ci_low, a.ci_high) == (b.games, b.mean, b.std_error, b.ci_low, b.ci_high)


def test_two_local_processes_give_the_one_process_result(one_process):
    sim, comparison = one_process
    executor = shards.Processes(2)
    for n in (2, 7):
        same_simulation(
            shards.simulate(GAMES, "chengdu_xueliu", bots=BOTS, seed=5, logs=True, executor=executor, shards=n), sim
        )
    same_comparison(
        shards.compare_bots("greedy", "random", DEALS, "chengdu", seed=5, executor=executor, shards=5), comparison
    )


def test_a_local_ray_gives_the_one_process_result(one_process, local_ray):
    sim, comparison = one_process
    assert local_ray.workers == 2
    same_simulation(shards.simulate(GAMES, "chengdu_xueliu", bots=BOTS, seed=5, logs=True, executor=local_ray), sim)
    same_comparison(shards.compare_bots("greedy", "random", DEALS, "chengdu", seed=5, executor=local_ray), comparison)


class InThisProcess:
    """An executor that runs the jobs here, last first: shards merge in game order anyway."""

    workers = 3

    def run(self, fn, jobs):
        return (fn(*job) for job in reversed(jobs))


def test_shards_merge_in_game_order_whatever_order_they_finish(one_process):
    sim, comparison = one_process
    for n in (1, 3, 64, GAMES):
        same_simulation(
            shards.simulate(GAMES, "chengdu_xueliu", bots=BOTS, seed=5, logs=True, executor=InThisProcess(), shards=n),
            sim,
        )
    for n in (1, 4, DEALS):  # at most DEALS // 2 shards: each holds two deals or more
        same_comparison(
            shards.compare_bots("greedy", "random", DEALS, "chengdu", seed=5, executor=InThisProcess(), shards=n),
            comparison,
        )


def test_a_run_from_game_k_plays_the_full_run_games_from_k(one_process):
    sim, comparison = one_process
    tail = xueliu.simulate(GAMES - 150, "chengdu_xueliu", bots=BOTS, seed=5, first_game=150, threads=2, logs=True)
    assert np.array_equal(tail.points, sim.points[150:]) and tail.logs == sim.logs[150:]
    deals = xueliu.compare_bots("greedy", "random", DEALS - 20, "chengdu", seed=5, first_game=20)
    assert deals.first_game == 20 and np.array_equal(deals.differences, comparison.differences[20:])
    head = xueliu.compare_bots("greedy", "random", 20, "chengdu", seed=5)
    same_comparison(head.merge(deals), comparison)


def test_results_pickle_whole(one_process):
    for result in one_process:
        back = pickle.loads(pickle.dumps(result))
        assert type(back) is type(result) and back.digest() == result.digest()
        assert back.to_dict() == result.to_dict()


def test_merging_refuses_what_is_not_the_next_shard(one_process):
    _, comparison = one_process
    other = xueliu.compare_bots("greedy", "random", 4, "chengdu", seed=6, first_game=DEALS)
    with pytest.raises(xueliu.BotError, match="next deals"):
        comparison.merge(other)
    with pytest.raises(xueliu.BotError, match="next deals"):
        comparison.merge(comparison)


def test_digests_tell_different_games_apart(one_process):
    sim, comparison = one_process
    assert xueliu.simulate(GAMES, "chengdu_xueliu", bots=BOTS, seed=6).digest() != sim.digest()
    assert xueliu.compare_bots("greedy", "random", DEALS, "chengdu", seed=6).digest() != comparison.digest()


def test_plan_covers_every_game_once_in_order():
    for games, n, minimum in [(10, 3, 1), (10, 30, 1), (9, 4, 2), (3, 8, 2), (0, 4, 1)]:
        ranges = shards.plan(games, n, first_game=7, minimum=minimum)
        assert sum(count for _, count in ranges) == games
        assert [first for first, _ in ranges] == list(np.cumsum([7] + [c for _, c in ranges])[:-1])
        assert len(ranges) <= max(n, 1) and (games < minimum or all(c >= minimum for _, c in ranges))


def test_bad_arguments_fail_before_any_shard_runs():
    with pytest.raises(xueliu.BotError, match="nobot"):
        shards.simulate(10, bots="nobot", executor=InThisProcess())
    with pytest.raises(xueliu.BotError, match="nobot"):
        shards.compare_bots("greedy", "nobot", 10, executor=InThisProcess())
    with pytest.raises(xueliu.ArgumentError, match="at least 1"):
        shards.Processes(0)


def test_the_arena_gives_the_one_process_result_on_ray_and_out_of_order(local_ray):
    """A process bot, a bot played from Python and a built-in: each worker starts its own bot
    processes (a bot defined in a test module would not unpickle on Ray's workers)."""
    simple = Path(__file__).resolve().parents[2] / "examples" / "bots" / "simple_bot.py"
    bots = {"simple": xueliu.ProcessBot([sys.executable, str(simple)]), "python": Builtin("random"), "greedy": "greedy"}
    one = xueliu.arena(bots, 4, "chengdu", seed=8)
    assert xueliu.arena(bots, 4, "chengdu", seed=8, executor=local_ray, shards=3).digest() == one.digest()
    assert xueliu.arena(bots, 4, "chengdu", seed=8, executor=InThisProcess(), shards=4).digest() == one.digest()
