"""``Game.offered_win``: the score of the win a seat may declare now, as the engine then records
it. Checked against a copy of the game in which the seat wins and every other asked seat takes
its default, at every position of random games in every preset (self-draws, discards, robbed
kongs, 杠上花/杠上炮, 海底, wilds)."""

from __future__ import annotations

import random

import pytest

import xueliu


def recorded(game: xueliu.Game, seat: int) -> dict:
    """The score a copy of ``game`` records when ``seat`` wins now."""
    trial = game.clone()
    for other in trial.to_act():
        trial.act(other, "win" if other == seat else trial.default_action(other))
    return next(w.score for w in reversed(trial.wins) if w.seat == seat).to_dict()


@pytest.mark.parametrize("preset", xueliu.Rules.presets())
def test_the_offered_win_is_the_win_recorded(preset):
    offered = 0
    for seed in range(10):
        game, rng, bot = xueliu.Game(preset, seed=seed), random.Random(seed), xueliu.Bot("greedy", seed=seed)
        while not game.is_over:
            for seat in range(4):
                legal = game.legal_actions(seat)
                score = game.offered_win(seat)
                assert (score is not None) == (xueliu.Action.win() in legal)
                if score is not None:
                    assert score.to_dict() == recorded(game, seat)
                    offered += 1
            seat = game.to_act()[0]
            game.act(seat, bot.choose(game, seat) if rng.random() < 0.9 else rng.choice(game.legal_actions(seat)))
    assert offered > 20


def test_an_absent_seat_is_refused():
    with pytest.raises(xueliu.ArgumentError, match="seat"):
        xueliu.Game("chengdu", seed=1).offered_win(4)
