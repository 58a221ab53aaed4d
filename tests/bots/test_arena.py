"""The arena (docs/bot-protocol.md §6): duplicate deals, pair margins, SPRT, ratings, outputs, and
the broken-bot zoo played through it."""

import json
import sqlite3
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import xueliu
from xueliu import shards
from xueliu._arena import seatings
from xueliu.players import Builtin, ProcessBot

ROOT = Path(__file__).resolve().parents[2]
ZOO = str(Path(__file__).with_name("zoo.py"))
SIMPLE = str(ROOT / "examples" / "bots" / "simple_bot.py")


def default_bot(game, seat):
    """Plays what a host plays for a bot that fails: the engine's default action."""
    return game.default_action(seat)


def test_two_bots_play_compare_bots_games():
    result = xueliu.arena(["greedy", "random"], 40, "chengdu", seed=5)
    comparison = xueliu.compare_bots("greedy", "random", 40, "chengdu", seed=5)
    assert np.array_equal(result._margins(0, 1), comparison.differences)
    pair = result.pairs()[0]
    assert (pair.mean, *pair.ci) == pytest.approx((comparison.mean, comparison.ci_low, comparison.ci_high))


def test_hands_played_in_python_are_the_rust_hands():
    rust = xueliu.arena(["greedy", "ismcts:4", "random"], 2, "chengdu_xueliu", seed=2)
    python = xueliu.arena([Builtin("greedy"), Builtin("ismcts:4"), Builtin("random")], 2, "chengdu_xueliu", seed=2)
    assert np.array_equal(rust.hands, python.hands)
    assert rust.digest() == python.digest()
    assert python.bot_stats()["greedy"]["decisions"] > 0 and rust.bot_stats()["greedy"]["decisions"] == 0


@pytest.mark.parametrize("bots", [2, 3, 4, 5])
def test_seatings_are_balanced(bots):
    orders = seatings(bots)
    assert len(orders) == {2: 4, 3: 36, 4: 24, 5: 40}[bots]
    seats = np.array([[sum(o[s] == b for o in orders) for s in range(4)] for b in range(bots)])
    if bots in (3, 4):  # every bot holds every seat equally often
        assert (seats == seats[0, 0]).all()
    assert len(set(orders)) == len(orders)


def test_process_bot_in_process_bot_and_builtins_side_by_side(tmp_path):
    """The issue's run: a process bot, an in-process bot and two built-ins at one table."""
    bots = {
        "simple": ProcessBot([sys.executable, SIMPLE]),
        "default": default_bot,
        "greedy": "greedy",
        "random": "random",
    }
    result = xueliu.arena(bots, 2, "xuezhan", seed=1, command="test")
    assert result.deals == 2 and len(result.seatings) == 24
    stats = result.bot_stats()
    assert all(s["hands"] == 2 * 24 for s in stats.values())
    assert stats["simple"]["defaulted"] == stats["simple"]["rejected"] == stats["simple"]["unparseable"] == 0
    assert stats["simple"]["decisions"] > 0 and stats["simple"]["decision_ms_p99"] is not None
    ratings = result.ratings()
    assert ratings["random"]["anchor"] and ratings["random"]["rating"] == 0
    assert ratings["greedy"]["ci_low"] < ratings["greedy"]["rating"] < ratings["greedy"]["ci_high"]
    ladder = tmp_path / "ladder.sqlite"
    run = result.save(str(ladder))
    with sqlite3.connect(ladder) as db:
        ((digest, stored),) = db.execute("SELECT digest, result FROM runs WHERE id = ?", (run,))
        assert digest == result.digest() == json.loads(stored)["digest"]
        assert db.execute("SELECT COUNT(*) FROM pairs WHERE run = ?", (run,)).fetchone() == (6,)
    markdown = result.to_markdown()
    assert "| simple |" in markdown and "Reproduce: `test`" in markdown


def test_the_same_result_on_several_processes():
    bots = {"simple": ProcessBot([sys.executable, SIMPLE]), "greedy": "greedy"}
    one = xueliu.arena(bots, 6, "chengdu", seed=3)
    two = xueliu.arena(bots, 6, "chengdu", seed=3, executor=shards.Processes(2), shards=3)
    assert one.digest() == two.digest()
    assert one.to_dict()["pairs"] == two.to_dict()["pairs"]


def test_sprt_stops_at_the_same_deal_however_split():
    sprt = xueliu.Sprt(0, 5, points=True)
    seen = []
    a = xueliu.arena(["greedy", "random"], 400, "chengdu", seed=1, sprt=sprt, progress=seen.append)
    b = xueliu.arena(["greedy", "random"], 400, "chengdu", seed=1, sprt=sprt, shards=7)
    assert a.verdict == "H1" and a.deals < 400
    assert (a.deals, a.digest()) == (b.deals, b.digest())
    assert seen[-1].deals == a.deals and len(seen) < 100
    llr = sprt.llr(a._margins(0, 1))
    assert llr[-1] >= sprt.bounds[1] and not (llr[:-1] >= sprt.bounds[1]).any()


def test_sprt_accepts_h0_when_the_margin_is_below_both_bounds():
    result = xueliu.arena(["greedy", "random"], 400, "chengdu", seed=2, sprt=xueliu.Sprt(45, 60, points=True))
    assert result.verdict == "H0" and result.pairs()[0].mean < 45


@pytest.mark.parametrize(
    "mode", ["silent", "slow", "crashing", "garbage", "illegal", "flooding", "unknown", "neverexits"]
)
def test_a_broken_bot_plays_the_default_games(mode):
    """Whatever the bot does, its seat plays default actions, the other seats' games go on
    exactly as against a bot that always plays the default, and the arena finishes in time."""
    bot = ProcessBot([sys.executable, ZOO, mode], time_ms=60, start_ms=1500)
    deals = 2 if mode == "crashing" else 1  # each seat's process plays two hands: one restart
    start = time.monotonic()
    broken = xueliu.arena({"broken": bot, "greedy": "greedy"}, deals, "chengdu", seed=4)
    assert time.monotonic() - start < 60
    default = xueliu.arena({"broken": default_bot, "greedy": "greedy"}, deals, "chengdu", seed=4)
    assert np.array_equal(broken.hands, default.hands)
    stats = broken.bot_stats()["broken"]
    assert stats["decisions"] > 0
    assert stats["defaulted"] + stats["rejected"] + stats["unparseable"] == stats["decisions"]
    expected = {"illegal": "rejected", "garbage": "unparseable", "flooding": "unparseable", "unknown": "errors"}
    assert stats[expected.get(mode, "defaulted")] > 0
    if mode == "crashing":
        assert stats["restarts"] == 4  # a process per seat and hand, each crashing at its first request


def test_the_memory_limit_holds():
    """A bot that needs 384 MiB plays its first legal actions, or, under a 192 MiB limit, fails
    at its first request and plays the default games."""
    args = ({"greedy": "greedy"}, 1, "chengdu")
    limited = ProcessBot([sys.executable, ZOO, "hungry"], memory_mb=192, time_ms=2000)
    default = xueliu.arena({"bot": default_bot, **args[0]}, *args[1:], seed=4)
    assert np.array_equal(xueliu.arena({"bot": limited, **args[0]}, *args[1:], seed=4).hands, default.hands)
    free = ProcessBot([sys.executable, ZOO, "hungry"], memory_mb=None, time_ms=5000)
    played = xueliu.arena({"bot": free, **args[0]}, *args[1:], seed=4)
    first = xueliu.arena({"bot": lambda game, seat: game.legal_actions(seat)[0], **args[0]}, *args[1:], seed=4)
    assert np.array_equal(played.hands, first.hands) and not np.array_equal(played.hands, default.hands)


def test_an_in_process_bot_that_raises_or_cheats_is_defaulted():
    def raises(game, seat):
        raise RuntimeError("a bug in the bot")

    class Cheats:
        def choose(self, game, seat):
            return "swap 5m"

    for bot, count in ((raises, "unparseable"), (Cheats(), "rejected")):
        result = xueliu.arena({"bot": bot, "greedy": "greedy"}, 1, "chengdu", seed=4)
        default = xueliu.arena({"bot": default_bot, "greedy": "greedy"}, 1, "chengdu", seed=4)
        assert np.array_equal(result.hands, default.hands)
        stats = result.bot_stats()["bot"]
        assert stats[count] == stats["decisions"] > 0


def test_bad_arguments_fail_before_any_game():
    with pytest.raises(xueliu.ArgumentError, match="at least 2 bots"):
        xueliu.arena(["greedy"], 10)
    with pytest.raises(xueliu.BotError):
        xueliu.arena(["greedy", "nobot"], 10)
    with pytest.raises(xueliu.ArgumentError, match="share a name"):
        xueliu.arena(["greedy", "greedy"], 10)
    with pytest.raises(xueliu.ArgumentError, match="increasing"):
        xueliu.Sprt(5, 0)


def test_compare_bots_takes_any_bot():
    """A Python agent gets the same games compare_bots plays for names, and reads the same way."""
    names = xueliu.compare_bots("greedy", "random", 12, "chengdu", seed=6)
    agent = xueliu.compare_bots(lambda game, seat: game.legal_actions(seat)[0], "random", 12, "chengdu", seed=6)
    assert isinstance(names, xueliu.Comparison) and isinstance(agent, xueliu.Pair)
    same = xueliu.compare_bots(Builtin("greedy"), "random", 12, "chengdu", seed=6)
    assert (same.games, same.mean, same.ci_low, same.ci_high) == pytest.approx(
        (names.games, names.mean, names.ci_low, names.ci_high)
    )
    assert agent.games == 12 and agent.ci_low <= agent.mean <= agent.ci_high


def test_simulate_takes_any_bot():
    """Bots played from Python play simulate's games: the same points as the Rust run."""
    names = ("greedy", "random", "greedy", "random")
    rust = xueliu.simulate(6, "chengdu_xueliu", bots=names, seed=3, first_game=2)
    python = xueliu.simulate(6, "chengdu_xueliu", bots=[Builtin(n) for n in names], seed=3, first_game=2)
    assert isinstance(rust, xueliu.SimulationResult) and isinstance(python, xueliu.Played)
    assert np.array_equal(rust.points, python.points) and list(rust.wins) == python.wins
    agent = xueliu.simulate(2, bots=[default_bot, "greedy", "greedy", "greedy"])
    assert agent.points.shape == (2, 4) and agent.counts[0].decisions > 0 and agent.counts[0].failures == 0
    with pytest.raises(xueliu.ArgumentError, match="four bots"):
        xueliu.simulate(2, bots=[default_bot, "greedy"])
