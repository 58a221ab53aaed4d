"""Self-play from Python: `simulate` with greedy and random bots on one thread (the issue's
≥ 50,000 greedy hands/s per core goal) and on every core, beside a Python loop that drives
`Game` with `Bot.choose`. Each benchmark records the hands one call plays in
``extra_info["items"]``, so rates compare side by side."""

from __future__ import annotations

import pytest
from sizes import size

from xueliu import Bot, Game, simulate

HANDS = size(10_000, 100)
PYTHON_HANDS = size(50, 5)


def python_loop(hands: int) -> int:
    """Whole hands driven from Python, one `Bot.choose` + `act` per decision."""
    bots = [Bot("greedy") for _ in range(4)]
    for seed in range(hands):
        game = Game("chengdu", seed=seed)
        while not game.is_over:
            s = game.to_act()[0]
            game.act(s, bots[s].choose(game, s))
    return hands


@pytest.mark.benchmark(group="whole hands with bots (chengdu)")
@pytest.mark.parametrize("bots,threads", [("greedy", 1), ("random", 1), ("greedy", 0)])
def test_simulate(benchmark, bots, threads):
    benchmark.extra_info["items"] = HANDS
    result = benchmark(simulate, HANDS, "chengdu", bots=bots, threads=threads)
    assert result.games == HANDS


@pytest.mark.benchmark(group="whole hands with bots (chengdu)")
def test_python_loop_with_bot_choose(benchmark):
    benchmark.extra_info["items"] = PYTHON_HANDS
    benchmark(python_loop, PYTHON_HANDS)
