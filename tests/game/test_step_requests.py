"""Whom a table asks at a step and what it offers each seat (the engine's ``_step_requests``,
python/xueliu/server/table.py): checked at every position of games the greedy bot plays against the rule as
the table wrote it in Python before: the seats that must act; in a claim window every other seat
still in the hand, those the engine waits on offered their legal actions, the rest only pass."""

from __future__ import annotations

import pytest

import xueliu
from xueliu._xueliu import _step_requests


def expected(game: xueliu.Game, window: int | None, waiting: bool) -> list[tuple[int, list[str], str, bool]]:
    asked = game.to_act() if window is None or waiting else []
    everyone = (
        asked if window is None else sorted({s for s in range(4) if s != window and game.in_hand(s)} | set(asked))
    )
    return [
        (s, [str(a) for a in game.legal_actions(s)], str(game.default_action(s)), True)
        if s in asked
        else (s, ["pass"], "pass", False)
        for s in everyone
    ]


@pytest.mark.parametrize("preset", ["xuezhan", "chengdu_xueliu", "yaoji"])
def test_step_requests_are_the_tables_rule(preset):
    out_of_hand = 0
    for seed in range(6):
        game, bot = xueliu.Game(preset, seed=seed), xueliu.Bot("greedy", seed=seed)
        while not game.is_over:
            for window in (None, 0, 1, 2, 3):
                for waiting in (True, False):
                    assert _step_requests(game, window, waiting) == expected(game, window, waiting)
            out_of_hand += not all(game.in_hand(s) for s in range(4))
            seat = game.to_act()[0]
            game.act(seat, bot.choose(game, seat))
    assert out_of_hand > 0 or preset == "chengdu_xueliu"  # in 血战 a winner leaves the hand


def test_step_requests_checks_its_arguments():
    game = xueliu.Game("chengdu", seed=1)
    with pytest.raises(xueliu.ArgumentError, match="seat 4 does not exist"):
        _step_requests(game, 4, True)
    with pytest.raises(TypeError, match="waiting"):
        _step_requests(game, 0, 1)
    with pytest.raises(TypeError, match="game"):
        _step_requests("chengdu", None, False)
