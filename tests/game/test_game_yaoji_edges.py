"""幺鸡 edge cases that once crashed or chose wrong: a seat dealt four wilds wins at once, and
determinize and ISMCTS handle it; the default action never discards a wild as the void suit
(issue 12, items 1 and 6)."""

from __future__ import annotations

import random

from positions import yaoji_76_after

import xueliu
from xueliu import (
    Bot,
    Game,
)


def assert_restores(game: Game, trusted: bool = False) -> None:
    text = game.to_json()
    assert Game.from_json(text, trusted=trusted).to_json() == text


def test_a_dealt_four_wilds_turn_determinises_to_a_legal_game():
    game = yaoji_76_after(8)
    assert game.to_act() == [3] and game.legal_actions(3) == [xueliu.Action.win()]
    for viewer in range(4):
        for seed in range(5):
            copy = game.determinize(viewer, seed)
            assert_restores(copy, trusted=True)
            assert copy.legal_actions(3) == [xueliu.Action.win()]


def test_after_a_four_wilds_win_determinize_and_ismcts_do_not_panic():
    game = yaoji_76_after(8)
    game.act(3, xueliu.Action.win())
    for viewer in range(4):
        for seed in range(5):
            assert_restores(game.determinize(viewer, seed), trusted=True)
    seat = game.to_act()[0]
    assert Bot("ismcts:50").choose(game, seat) in game.legal_actions(seat)


def test_default_action_never_discards_a_wild_for_the_void_suit():
    # Under 幺鸡 a seat that must discard its void suit (条) may draw a wild, the 1s it is.
    for seed in range(40):
        game, rng = Game("yaoji", seed=seed), random.Random(seed)
        while not game.is_over:
            for seat in game.to_act():
                assert game.default_action(seat) in game.legal_actions(seat), (seed, game.to_json())
            seat = game.to_act()[0]
            game.act(seat, rng.choice(game.legal_actions(seat)))
