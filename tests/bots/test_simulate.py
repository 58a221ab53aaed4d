"""`simulate`: whole hands played by bots in Rust across threads. Results depend only on the
seed and the game index, never on the thread count or on how the run is cut into chunks."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

import xueliu
from xueliu import Bot, BotError, Game, RulesError, simulate

BOTS = ("greedy", "random", "greedy", "greedy")


def comparable(result) -> dict:
    d = result.to_dict()
    del d["seconds"], d["games_per_second"], d["table_seconds"]
    return d


@pytest.fixture(scope="module")
def run():
    return simulate(120, "chengdu", bots=BOTS, seed=7, threads=1, logs=True)


def test_threads_do_not_change_the_result(run):
    for threads in (2, 3, 0):
        assert comparable(simulate(120, "chengdu", bots=BOTS, seed=7, threads=threads, logs=True)) == comparable(run)


def test_chunks_merge_to_one_run(run):
    a = simulate(50, "chengdu", bots=BOTS, seed=7, threads=2, logs=True)
    b = simulate(70, "chengdu", bots=BOTS, seed=7, threads=1, first_game=50, logs=True)
    merged = a.merge(b)
    assert comparable(merged) == comparable(run)
    assert merged.seconds == pytest.approx(a.seconds + b.seconds)
    with pytest.raises(BotError, match="first_game=50"):
        a.merge(simulate(10, "chengdu", bots=BOTS, seed=7, first_game=60))
    with pytest.raises(BotError, match="same rules, bots and seed"):
        a.merge(simulate(10, "chengdu", bots=BOTS, seed=8, first_game=50))


def test_chunks_without_their_logs_merge_to_the_run_without_its_logs(run):
    a = simulate(50, "chengdu", bots=BOTS, seed=7, threads=2, logs=True).without_logs()
    b = simulate(70, "chengdu", bots=BOTS, seed=7, threads=1, first_game=50, logs=True).without_logs()
    assert a.logs == [] and a.first_game == 0 and b.first_game == 50
    expected = comparable(run)
    expected["logs"] = []
    assert comparable(a.merge(b)) == expected
    assert a.merge(b).digest() != run.digest()  # the digest covers the logs


def test_points_are_int64_per_game_and_seat_and_sum_to_zero(run):
    points = run.points
    assert points.dtype == np.int64 and points.shape == (120, 4)
    assert (points.sum(axis=1) == 0).all()
    assert points.any()


def test_counts_agree(run):
    assert run.games == 120 and len(run.wins) == 4
    wins = sum(run.wins)
    assert wins == sum(run.win_kinds.values()) == sum(run.fan_histogram.values()) > 0
    assert set(run.win_kinds) == {"self_draw", "kong_flower", "discard", "kong_shot", "robbed_kong"}
    assert all(isinstance(f, int) and f >= 0 for f in run.fan_histogram)
    assert 0 < run.mean_draws <= 55
    assert run.games_per_second > 0 and run.seconds > 0
    assert run.bots == list(BOTS) and run.seed == 7 and run.first_game == 0
    json.dumps(run.to_dict())


def test_logs_are_json_lines_that_python_bots_reproduce(run):
    """Each log starts with the game's seed; greedy bots driven from Python replay the game."""
    assert len(run.logs) == run.games
    for i in (0, 1, 5):
        events = [json.loads(line) for line in run.logs[i].splitlines()]
        assert events[0]["type"] == "start"
        game = Game("chengdu", seed=events[0]["seed"])
        assert game.events[: len(game.events)] == events[: len(game.events)]
        assert events[-1]["type"] == "end"
    no_logs = simulate(3, "chengdu", bots=BOTS, seed=7)
    assert no_logs.logs == []


def test_greedy_games_replay_from_python():
    """All-greedy games (greedy uses no randomness) match a Python loop over `Bot.choose`."""
    result = simulate(6, "chengdu_xueliu", bots="greedy", seed=3, logs=True)
    bots = [Bot("greedy") for _ in range(4)]
    for i, log in enumerate(result.logs):
        seed = json.loads(log.splitlines()[0])["seed"]
        game = Game("chengdu_xueliu", seed=seed)
        while not game.is_over:
            s = game.to_act()[0]
            game.act(s, bots[s].choose(game, s))
        assert game.scores == list(result.points[i])


def test_presets_and_rules_objects():
    for preset in ("xuezhan", "dashiyou", "sanxia", "yaoji"):
        r = simulate(20, preset, bots="random", seed=1)
        assert (r.points.sum(axis=1) == 0).all()
    rules = xueliu.Rules.preset("chengdu", cap_fan=3)
    assert simulate(10, rules, seed=1).games == 10
    assert simulate(0).games == 0


def test_bad_arguments_raise_typed_errors():
    with pytest.raises(BotError, match="valid bots are random, greedy"):
        simulate(5, bots=("greedy", "grredy", "greedy", "greedy"))
    with pytest.raises(BotError, match="4 names, got 3"):
        simulate(5, bots=("greedy",) * 3)
    with pytest.raises(RulesError):
        simulate(5, "nowhere")
    assert issubclass(BotError, xueliu.XueliuError)


def test_counts_and_seeds_must_be_whole_numbers():
    with pytest.raises(xueliu.ArgumentError, match="games must be an int from 0"):
        simulate(-1)
    with pytest.raises(xueliu.ArgumentError, match="seed must be"):
        simulate(1, seed=2**64)
    with pytest.raises(xueliu.ArgumentError, match="at most 256"):
        simulate(1, threads=1000)
    with pytest.raises(xueliu.ArgumentError, match="seed must be"):
        Bot("random", seed=-5)


def test_the_one_time_table_build_is_timed_apart_from_the_games():
    """A fresh process builds the analysis tables in its first simulate; that time is
    `table_seconds`, not part of `seconds`, and a second run builds nothing."""
    code = (
        "import xueliu; a = xueliu.simulate(50, threads=1); b = xueliu.simulate(50, threads=1); "
        "print(a.table_seconds, b.table_seconds, a.seconds)"
    )
    first, second, _ = map(
        float,
        subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
        ).stdout.split(),
    )
    assert first > 100 * second and first > 0.01
