"""Whole matches against the pure-Python reference (`xueliu.reference.Match`): the same dealers,
hand seeds, legal actions, event logs, results and totals, in every preset, with 逃跑 (abandon)
at random moments."""

import random

import pytest
from helpers import PRESETS
from hypothesis import given, settings
from hypothesis import strategies as st
from test_game_differential import text

import xueliu
from xueliu import Action, Match
from xueliu.reference import Match as Reference


def play_hand(game, ref, rng: random.Random, leave_at) -> None:
    """Random play of one hand on both; at step `leave_at` a seat that has not won leaves."""
    step = 0
    while not game.is_over:
        assert game.to_act() == ref.to_act()
        if step == leave_at:
            seat = rng.choice([s for s in range(4) if not any(w.seat == s for w in game.wins)])
            game.abandon(seat)
            ref.abandon(seat)
            break
        seat = game.to_act()[0]
        ours = sorted(str(a) for a in game.legal_actions(seat))
        theirs = {text(a): a for a in ref.legal_actions(seat)}
        assert ours == sorted(theirs)
        pick = "win" if "win" in ours and rng.random() < 0.7 else rng.choice(ours)
        game.act(seat, Action.parse(pick))
        ref.act(seat, theirs[pick])
        step += 1
    assert game.events == ref.events and game.scores == ref.scores
    assert game.next_dealer == ref.next_dealer and game.leaver == ref.leaver


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=10, deadline=None)
@given(
    seed=st.integers(0, 2**64 - 1),
    hands=st.integers(1, 3),
    play=st.integers(0, 2**32),
    leave=st.lists(st.one_of(st.none(), st.integers(0, 120)), min_size=3, max_size=3),
)
def test_matches_match_the_reference(preset, seed, hands, play, leave):
    rules = xueliu.Rules.preset(preset)
    m, ref = Match(rules, seed=seed, hands=hands), Reference(rules.to_dict(), seed, hands)
    rng = random.Random(play)
    for hand in range(hands):
        assert m.game.seed == ref.game.seed and m.dealers == ref.dealers
        play_hand(m.game, ref.game, rng, leave[hand])
        assert m.next_dealer == ref.next_dealer
        if hand + 1 < hands:
            m.next_hand()
            ref.next_hand()
    assert m.is_over and ref.is_over
    assert m.results == ref.results and m.totals == ref.totals and m.dealers == ref.dealers
    assert m.placement_points == ref.placement_points
    assert m.log() == ref.log()
    assert Match.from_log(m.log()).to_json() == m.to_json()
