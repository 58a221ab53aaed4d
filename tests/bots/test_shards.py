"""Shards of self-play and duplicate evaluation over local processes and a real local Ray give
the one-process result: every hand's points, the histograms and the digest over all of it."""

from __future__ import annotations

import base64
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


# simulate(2, "chengdu", seed=7) and compare_bots("greedy", "random", 2, "chengdu", seed=3), pickled
# (protocol 4) by the binding before their byte format moved into the core (issue 29).
SIMULATION_PICKLE = (
    "gASVBAcAAAAAAACMCGJ1aWx0aW5zlIwHZ2V0YXR0cpSTlIwGeHVlbGl1lIwQU2ltdWxhdGlvblJlc3VsdJSTlIwIX3Jlc3RvcmWU"
    "hpRSlChoAowGeHVlbGl1lIwFUnVsZXOUk5SMCWZyb21fZGljdJSGlFKUfZQojAZwcmVzZXSUjAdjaGVuZ2R1lIwEbW9kZZSMB3h1"
    "ZXpoYW6UjAxmaXJzdF9kZWFsZXKUjAZyYW5kb22UjA9kZWFsZXJfcm90YXRpb26UjAxmaXJzdF93aW5uZXKUjA5rb25nX2RyYXdf"
    "ZnJvbZSMBWZyb250lIwRcG9uZ19sYXN0X2Rpc2NhcmSUiYwIZXhjaGFuZ2WUTowcZXhjaGFuZ2VfcmVkZWFsX2lmX3VuY2hhbmdl"
    "ZJSJjBJleGNoYW5nZV9zYW1lX3N1aXSUiIwMZGVjbGFyZV92b2lklIiMEWFsbG93X3NldmVuX3BhaXJzlIiMEGdlbl9jb3VudHNf"
    "a29uZ3OUiYwScm9iX2NvbmNlYWxlZF9rb25nlImMCWxhdGVfa29uZ5SMCXJvb3Rfb25seZSMDXBhc3Nfd2luX2xvY2uUjBh1bnRp"
    "bF9kcmF3X3VubGVzc19oaWdoZXKUjAlsYXN0X2ZvdXKUjApyb25fZm9yY2VklIwDZmFulH2UKIwFYmFzaWOUSwGMCWNvbmNlYWxl"
    "ZJROjAxhbGxfdHJpcGxldHOUSwKMCmZ1bGxfZmx1c2iUSwOMCXRlcm1pbmFsc5RLA4wLc2V2ZW5fcGFpcnOUSwOMEmRyYWdvbl9z"
    "ZXZlbl9wYWlyc5RLBYwOZmx1c2hfdHJpcGxldHOUSwSMDHRyaXBsZXRzXzI1OJRLBIwRZmx1c2hfc2V2ZW5fcGFpcnOUSwWMGGZs"
    "dXNoX2RyYWdvbl9zZXZlbl9wYWlyc5RLBowPZmx1c2hfdGVybWluYWxzlEsFjAhoZWF2ZW5seZRLBowHZWFydGhseZRLBowLZ29s"
    "ZGVuX2hvb2uUTowPZWlnaHRlZW5fYXJoYXRzlE51jAdnZW5fZmFulEsBjBBleHBvc2VkX2tvbmdfZmFulEsBjBJjb25jZWFsZWRf"
    "a29uZ19mYW6USwGMD2tvbmdfZmxvd2VyX2ZhbpRLAYwNa29uZ19zaG90X2ZhbpRLAYwMcm9iX2tvbmdfZmFulEsBjBByb2Jfa29u"
    "Z19zY29yaW5nlIwGbm9ybWFslIwPc2VsZl9kcmF3X2JvbnVzlIwEbm9uZZSMB3Njb3JpbmeUjAtleHBvbmVudGlhbJSMC2Jhc2Vf"
    "cG9pbnRzlEsGjApmYW5fb2Zmc2V0lEsBjAdjYXBfZmFulE6MEHNlbGZfZHJhd19wYXllcnOUjAdub3Rfd29ulIwIa29uZ19mYW6U"
    "jAh3aW5fb25seZSMDWtvbmdfcGF5bWVudHOUiIwda29uZ19mbG93ZXJfYWZ0ZXJfZGlyZWN0X2tvbmeUjA9mZWVkZXJfcGF5c19h"
    "bGyUjBRrb25nX2luY29tZV90cmFuc2ZlcpSMCWxhc3Rfa29uZ5SMEmZsb3dlcl9waWdfcGVuYWx0eZSMCWZpeGVkX2ZhbpSMDmZs"
    "b3dlcl9waWdfZmFulEsFjBFmbG93ZXJfcGlnX3BheWVlc5SMDHJlYWR5X29yX3dvbpSMD2Zsb3dlcl9waWdfcnVsZZSMC3RocmVl"
    "X3N1aXRzlIwKdGF4X3JlZnVuZJSIjBByZWFkeV9kaWZmZXJlbmNllImMBXdpbGRzlImMC25vX3dpbGRfZmFulEsAjA9oZWF2ZW5s"
    "eV9zdGFja3OUiYwOZXNjYXBlX3BlbmFsdHmUS2CMD2dvbGRlbl9ob29rX2ZhbpRLAIwXbGFzdF90aWxlX3NlbGZfZHJhd19mYW6U"
    "SwCMFGxhc3RfZGlzY2FyZF93aW5fZmFulEsAjBFyZWFkeV93YWl0X2NvcGllc5SMDmhhbmRfYW5kX21lbGRzlIwXcGFzc193aW5f"
    "bG9ja19zZWxmX2RyYXeUiYwYcGFzc193aW5fbG9ja19hZnRlcl9wb25nlIwEa2VwdJSMEHBhc3Nfd2luX2NvbXBhcmWUjApjYXBw"
    "ZWRfZmFulIwPd2FsbF9icmVha19kaWNllEsBjBBrb25nX3Nob3Rfb25fcm9ilIl1hZRSlF2UKIwGZ3JlZWR5lIwGZ3JlZWR5lIwG"
    "Z3JlZWR5lIwGZ3JlZWR5lGUoSwdLAEc/b8Nk968BPUc/6q/LIPKLRXSUQ0AAAAAAAAAAABIAAAAAAAAA7v////////8AAAAAAAAA"
    "APr/////////GAAAAAAAAAD0//////////r/////////lChdlChLAksBSwFLAmVdlChLA0sASwNLAEsAZV2UKEsASwZlS1h0lF2U"
    "dJSFlFKULg=="
)

COMPARISON_PICKLE = (
    "gASVgQYAAAAAAACMCGJ1aWx0aW5zlIwHZ2V0YXR0cpSTlIwGeHVlbGl1lIwKQ29tcGFyaXNvbpSTlIwIX3Jlc3RvcmWUhpRSlCho"
    "AowGeHVlbGl1lIwFUnVsZXOUk5SMCWZyb21fZGljdJSGlFKUfZQojAZwcmVzZXSUjAdjaGVuZ2R1lIwEbW9kZZSMB3h1ZXpoYW6U"
    "jAxmaXJzdF9kZWFsZXKUjAZyYW5kb22UjA9kZWFsZXJfcm90YXRpb26UjAxmaXJzdF93aW5uZXKUjA5rb25nX2RyYXdfZnJvbZSM"
    "BWZyb250lIwRcG9uZ19sYXN0X2Rpc2NhcmSUiYwIZXhjaGFuZ2WUTowcZXhjaGFuZ2VfcmVkZWFsX2lmX3VuY2hhbmdlZJSJjBJl"
    "eGNoYW5nZV9zYW1lX3N1aXSUiIwMZGVjbGFyZV92b2lklIiMEWFsbG93X3NldmVuX3BhaXJzlIiMEGdlbl9jb3VudHNfa29uZ3OU"
    "iYwScm9iX2NvbmNlYWxlZF9rb25nlImMCWxhdGVfa29uZ5SMCXJvb3Rfb25seZSMDXBhc3Nfd2luX2xvY2uUjBh1bnRpbF9kcmF3"
    "X3VubGVzc19oaWdoZXKUjAlsYXN0X2ZvdXKUjApyb25fZm9yY2VklIwDZmFulH2UKIwFYmFzaWOUSwGMCWNvbmNlYWxlZJROjAxh"
    "bGxfdHJpcGxldHOUSwKMCmZ1bGxfZmx1c2iUSwOMCXRlcm1pbmFsc5RLA4wLc2V2ZW5fcGFpcnOUSwOMEmRyYWdvbl9zZXZlbl9w"
    "YWlyc5RLBYwOZmx1c2hfdHJpcGxldHOUSwSMDHRyaXBsZXRzXzI1OJRLBIwRZmx1c2hfc2V2ZW5fcGFpcnOUSwWMGGZsdXNoX2Ry"
    "YWdvbl9zZXZlbl9wYWlyc5RLBowPZmx1c2hfdGVybWluYWxzlEsFjAhoZWF2ZW5seZRLBowHZWFydGhseZRLBowLZ29sZGVuX2hv"
    "b2uUTowPZWlnaHRlZW5fYXJoYXRzlE51jAdnZW5fZmFulEsBjBBleHBvc2VkX2tvbmdfZmFulEsBjBJjb25jZWFsZWRfa29uZ19m"
    "YW6USwGMD2tvbmdfZmxvd2VyX2ZhbpRLAYwNa29uZ19zaG90X2ZhbpRLAYwMcm9iX2tvbmdfZmFulEsBjBByb2Jfa29uZ19zY29y"
    "aW5nlIwGbm9ybWFslIwPc2VsZl9kcmF3X2JvbnVzlIwEbm9uZZSMB3Njb3JpbmeUjAtleHBvbmVudGlhbJSMC2Jhc2VfcG9pbnRz"
    "lEsGjApmYW5fb2Zmc2V0lEsBjAdjYXBfZmFulE6MEHNlbGZfZHJhd19wYXllcnOUjAdub3Rfd29ulIwIa29uZ19mYW6UjAh3aW5f"
    "b25seZSMDWtvbmdfcGF5bWVudHOUiIwda29uZ19mbG93ZXJfYWZ0ZXJfZGlyZWN0X2tvbmeUjA9mZWVkZXJfcGF5c19hbGyUjBRr"
    "b25nX2luY29tZV90cmFuc2ZlcpSMCWxhc3Rfa29uZ5SMEmZsb3dlcl9waWdfcGVuYWx0eZSMCWZpeGVkX2ZhbpSMDmZsb3dlcl9w"
    "aWdfZmFulEsFjBFmbG93ZXJfcGlnX3BheWVlc5SMDHJlYWR5X29yX3dvbpSMD2Zsb3dlcl9waWdfcnVsZZSMC3RocmVlX3N1aXRz"
    "lIwKdGF4X3JlZnVuZJSIjBByZWFkeV9kaWZmZXJlbmNllImMBXdpbGRzlImMC25vX3dpbGRfZmFulEsAjA9oZWF2ZW5seV9zdGFj"
    "a3OUiYwOZXNjYXBlX3BlbmFsdHmUS2CMD2dvbGRlbl9ob29rX2ZhbpRLAIwXbGFzdF90aWxlX3NlbGZfZHJhd19mYW6USwCMFGxh"
    "c3RfZGlzY2FyZF93aW5fZmFulEsAjBFyZWFkeV93YWl0X2NvcGllc5SMDmhhbmRfYW5kX21lbGRzlIwXcGFzc193aW5fbG9ja19z"
    "ZWxmX2RyYXeUiYwYcGFzc193aW5fbG9ja19hZnRlcl9wb25nlIwEa2VwdJSMEHBhc3Nfd2luX2NvbXBhcmWUjApjYXBwZWRfZmFu"
    "lIwPd2FsbF9icmVha19kaWNllEsBjBBrb25nX3Nob3Rfb25fcm9ilIl1hZRSlIwGZ3JlZWR5lIwGcmFuZG9tlIaUSwNLAIaUXZQo"
    "R0AwAAAAAAAAR0A2AAAAAAAAZXSUhZRSlC4="
)


def test_results_pickled_before_still_load():
    simulation = pickle.loads(base64.b64decode(SIMULATION_PICKLE))
    again = xueliu.simulate(2, "chengdu", seed=7)
    assert simulation.digest() == again.digest()
    assert np.array_equal(simulation.points, again.points) and simulation.wins == again.wins
    comparison = pickle.loads(base64.b64decode(COMPARISON_PICKLE))
    same_comparison(comparison, xueliu.compare_bots("greedy", "random", 2, "chengdu", seed=3))


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
