"""Issue 12's sweep: every preset, random legal actions mixed with `default_action`; at every
decision point each seat's determinised copy and the game itself restore byte for byte, the
default is legal, and the mask agrees with the legal actions. Bounded: SWEEP_GAMES games a
preset (raise it to sweep longer)."""

from __future__ import annotations

import os
import random

import numpy as np
import pytest

from xueliu import Game, Rules

GAMES = int(os.environ.get("SWEEP_GAMES", "3"))


def restores(game: Game, trusted: bool = False) -> bool:
    text = game.to_json()
    return Game.from_json(text, trusted=trusted).to_json() == text


@pytest.mark.parametrize("preset", Rules.presets())
def test_sweep_every_decision_point(preset):
    for g in range(GAMES):
        game, rng = Game(preset, seed=1000 + g), random.Random(g)
        while not game.is_over:
            assert restores(game)
            for seat in range(4):
                copy = game.determinize(seat, rng.randrange(2**64))
                assert restores(copy, trusted=True), (preset, g, seat, game.to_json())
            for seat in game.to_act():
                legal = game.legal_actions(seat)
                assert game.default_action(seat) in legal
                assert set(np.flatnonzero(game.action_mask(seat))) == {i for a in legal for i in a.ids}
                out = np.empty_like(game.observe(seat))
                game.observe_into(seat, out)
                assert (out == game.observe(seat)).all()
            for seat in set(range(4)) - set(game.to_act()):
                assert not game.action_mask(seat).any()
            seat = game.to_act()[0]
            action = game.default_action(seat) if rng.random() < 0.3 else rng.choice(game.legal_actions(seat))
            game.act(seat, action)
        assert restores(game)
