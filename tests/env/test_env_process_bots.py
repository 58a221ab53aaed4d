"""A bot in another process (:class:`xueliu.ProcessBot`) as the single-seat env's opponent: it
follows each hand from its start to its end over the bot protocol, one process per seat, and the
env plays exactly the hands an in-process bot making the same choices plays."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import xueliu

env_mod = pytest.importorskip("xueliu.env")

ZOO = str(Path(__file__).resolve().parents[1] / "bots" / "zoo.py")


class FirstLegal:
    """What zoo.py's ``echo`` bot answers: the first legal action."""

    def choose(self, game: xueliu.Game, seat: int) -> xueliu.Action:
        return game.legal_actions(seat)[0]


def trajectory(env, hands: int) -> list:
    """The learner's observations, rewards and ends over ``hands`` hands of random legal play."""
    rng, out = np.random.default_rng(5), []
    for _ in range(hands):
        obs, _ = env.reset()
        done = False
        while not done:
            action = int(rng.choice(np.flatnonzero(env.action_masks())))
            obs, reward, done, _, _ = env.step(action)
            out.append((obs["observation"].tobytes(), reward, done))
    return out


@pytest.mark.parametrize("mode, twin", [("echo", FirstLegal()), ("silent", "default")])
def test_a_process_bot_plays_the_hands_its_in_process_twin_plays(mode, twin):
    bot = xueliu.ProcessBot([sys.executable, ZOO, mode], time_ms=2000 if mode == "echo" else 50, start_ms=3000)
    env = env_mod.SingleSeatEnv(rules="chengdu", seat=1, opponents=bot, seed=11)
    try:
        played = trajectory(env, hands=2)
        players = [env.opponents[s] for s in (0, 2, 3)]
        assert len({id(p) for p in players}) == 3  # one process per seat
        for p in players:
            assert p.counts.decisions > 0
            assert p.counts.failures == (0 if mode == "echo" else p.counts.decisions)
    finally:
        env.close()
    assert played == trajectory(env_mod.SingleSeatEnv(rules="chengdu", seat=1, opponents=twin, seed=11), hands=2)
