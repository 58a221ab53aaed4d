"""`Bot`: random and greedy players that drive any seat of a `Game`, and `compare_bots`, the
duplicate evaluation of one bot against another."""

from __future__ import annotations

import random

import pytest
from helpers import PLAY_PRESETS
from hypothesis import given, settings
from hypothesis import strategies as st

import xueliu
from xueliu import Action, Bot, BotError, Game, IllegalActionError, compare_bots

PRESETS = PLAY_PRESETS


@settings(max_examples=25, deadline=None)
@given(
    preset=st.sampled_from(PRESETS),
    seed=st.integers(0, 2**64 - 1),
    name=st.sampled_from(["greedy", "random"]),
    seats=st.sets(st.integers(0, 3), min_size=1),
)
def test_a_bot_drives_any_seats_with_legal_actions_only(preset, seed, name, seats):
    game = Game(preset, seed=seed)
    bot = Bot(name, seed=seed)
    rng = random.Random(seed)
    steps = 0
    while not game.is_over:
        s = rng.choice(game.to_act())
        legal = game.legal_actions(s)
        action = bot.choose(game, s) if s in seats else rng.choice(legal)
        assert action in legal
        game.act(s, action)
        steps += 1
        assert steps < 3000
    assert sum(game.scores) == 0


def test_choose_leaves_the_game_unchanged_and_is_reproducible():
    game = Game("chengdu", seed=5)
    for _ in range(40):
        s = game.to_act()[0]
        game.act(s, game.legal_actions(s)[0])
    s = game.to_act()[0]
    before = game.to_json()
    assert Bot("greedy").choose(game, s) == Bot("greedy", seed=9).choose(game, s)
    picks = [Bot("random", seed=3).choose(game, s) for _ in range(3)]
    assert picks[0] == picks[1] == picks[2]
    assert game.to_json() == before


def test_greedy_exchanges_and_voids_the_weakest_suit():
    game = Game("xuezhan", seed=11)
    bot = Bot("greedy")
    for s in range(4):
        hand = game.hand(s)
        action = bot.choose(game, s)
        assert action.kind == "exchange"
        suit = action.tiles[0].suit
        assert all(t.suit == suit for t in action.tiles)
        held = {x: sum(t.suit == x for t in hand) for x in "mps"}
        assert held[suit] == min(n for n in held.values() if n >= 3)
        game.act(s, action)
    for s in range(4):
        action = bot.choose(game, s)
        assert action.kind == "void"
        held = {x: sum(t.suit == x for t in game.hand(s)) for x in "mps"}
        assert held[action.suit] <= sorted(held.values())[1]
        game.act(s, action)


def test_greedy_wins_when_it_can():
    for seed in range(40):
        game = Game("chengdu_xueliu", seed=seed)
        bot = Bot("greedy")
        while not game.is_over:
            s = game.to_act()[0]
            action = bot.choose(game, s)
            if Action.win() in game.legal_actions(s):
                assert action == Action.win()
            game.act(s, action)


def test_asking_a_seat_that_need_not_act_is_refused():
    game = Game("chengdu", seed=1)
    bot = Bot("greedy")
    for _ in range(8):  # the exchange and the void declarations
        s = game.to_act()[0]
        game.act(s, bot.choose(game, s))
    idle = next(s for s in range(4) if s not in game.to_act())
    before = game.to_json()
    with pytest.raises(IllegalActionError, match="nothing to decide"):
        Bot("random").choose(game, idle)
    with pytest.raises(xueliu.ArgumentError, match="seats are 0-3"):
        Bot("random").choose(game, 4)
    assert game.to_json() == before


def test_bad_names_list_the_valid_ones():
    with pytest.raises(BotError, match=r'unknown bot "ismcts!"; valid bots are random, greedy'):
        Bot("ismcts!")
    with pytest.raises(xueliu.XueliuError):
        compare_bots("greedy", "nobody", 10)
    assert Bot("random", seed=4).name == "random" and Bot("random", seed=4).seed == 4
    assert repr(Bot("greedy")) == 'Bot("greedy", seed=0)'


def test_greedy_beats_random_by_duplicate_evaluation():
    c = compare_bots("greedy", "random", 2000, "chengdu", seed=1)
    assert c.ci_low > 0, c
    assert c.ci_low < c.mean < c.ci_high
    assert c.games == 2000 and (c.a, c.b) == ("greedy", "random")
    assert set(c.to_dict()) == {
        "a",
        "b",
        "games",
        "seed",
        "first_game",
        "mean",
        "std_error",
        "ci_low",
        "ci_high",
        "differences",
    }
    assert c.differences.shape == (2000,) and c.differences.mean() == pytest.approx(c.mean)


def test_comparison_ignores_threads_and_a_bot_against_itself_is_even():
    one = compare_bots("greedy", "random", 100, seed=2, threads=1)
    assert one.to_dict() == compare_bots("greedy", "random", 100, seed=2, threads=2).to_dict()
    same = compare_bots("greedy", "greedy", 30, seed=2)
    assert same.mean == pytest.approx(0.0, abs=1e-9)
    with pytest.raises(BotError, match="at least 2 games"):
        compare_bots("greedy", "random", 1)
