"""The game from Python: a loop of `legal_actions` + `act` with a random choice (the issue's
≥ 200,000 decisions/s goal), whole hands, `clone`, and snapshots. Each benchmark records the
items one call processes in ``extra_info["items"]``, so rates compare side by side."""

from __future__ import annotations

import random

import pytest
from sizes import size

from xueliu import Game, Match
from xueliu.reference import Game as Reference

DECISIONS = size(20_000, 500)
REFERENCE_DECISIONS = size(2_000, 100)


def random_decisions(preset: str, count: int, seed: int) -> int:
    """Plays `count` random legal decisions over as many hands as it takes."""
    rng = random.Random(seed)
    done, hand = 0, 0
    while done < count:
        game = Game(preset, seed=seed * 100_000 + hand)
        hand += 1
        while not game.is_over and done < count:
            s = game.to_act()[0]
            game.act(s, rng.choice(game.legal_actions(s)))
            done += 1
    return done


def reference_decisions(preset: str, count: int, seed: int) -> int:
    """The same loop over the pure-Python reference game, for the ratio."""
    rng = random.Random(seed)
    done, hand = 0, 0
    while done < count:
        game = Reference(preset, seed * 100_000 + hand)
        hand += 1
        while not game.is_over and done < count:
            s = game.to_act()[0]
            game.act(s, rng.choice(game.legal_actions(s)))
            done += 1
    return done


def whole_hands(preset: str, hands: int) -> int:
    rng = random.Random(hands)
    for seed in range(hands):
        game = Game(preset, seed=seed)
        while not game.is_over:
            s = game.to_act()[0]
            game.act(s, rng.choice(game.legal_actions(s)))
    return hands


def mid_hand(preset: str) -> Game:
    game = Game(preset, seed=1)
    rng = random.Random(1)
    for _ in range(60):
        s = game.to_act()[0]
        game.act(s, rng.choice(game.legal_actions(s)))
    return game


@pytest.mark.benchmark(group="game decisions from Python (legal_actions + act, random choice)")
@pytest.mark.parametrize("preset", ["chengdu", "chengdu_xueliu", "dashiyou", "yaoji"])
def test_random_decisions(benchmark, preset):
    benchmark.extra_info["items"] = DECISIONS
    benchmark(random_decisions, preset, DECISIONS, 1)


@pytest.mark.benchmark(group="game decisions from Python (legal_actions + act, random choice)")
@pytest.mark.parametrize("preset", ["chengdu", "yaoji"])
def test_random_decisions_reference(benchmark, preset):
    benchmark.extra_info["items"] = REFERENCE_DECISIONS
    benchmark(reference_decisions, preset, REFERENCE_DECISIONS, 1)


@pytest.mark.benchmark(group="whole hands from Python (random play)")
@pytest.mark.parametrize("preset", ["chengdu", "chengdu_xueliu"])
def test_whole_hands(benchmark, preset):
    benchmark.extra_info["items"] = 200
    benchmark(whole_hands, preset, 200)


@pytest.mark.benchmark(group="game copies and snapshots (per call)")
def test_clone(benchmark):
    game = mid_hand("chengdu_xueliu")
    benchmark.extra_info["items"] = 1
    benchmark(game.clone)


@pytest.mark.benchmark(group="game copies and snapshots (per call)")
def test_to_json(benchmark):
    game = mid_hand("chengdu_xueliu")
    benchmark.extra_info["items"] = 1
    benchmark(game.to_json)


@pytest.mark.benchmark(group="game copies and snapshots (per call)")
def test_from_json(benchmark):
    text = mid_hand("chengdu_xueliu").to_json()
    benchmark.extra_info["items"] = 1
    benchmark(Game.from_json, text)


def end_of_hand(preset: str) -> Game:
    game, rng = Game(preset, seed=1), random.Random(1)
    while not game.is_over:
        s = game.to_act()[0]
        game.act(s, rng.choice(game.legal_actions(s)))
    return game


def end_of_match(hands: int) -> Match:
    match, rng = Match("chengdu", seed=5, hands=hands), random.Random(5)
    for hand in range(hands):
        while not match.game.is_over:
            s = match.game.to_act()[0]
            match.game.act(s, rng.choice(match.game.legal_actions(s)))
        if hand + 1 < hands:
            match.next_hand()
    return match


@pytest.mark.benchmark(group="restoring a snapshot: verified (replayed) or trusted (per call)")
@pytest.mark.parametrize("trusted", [False, True], ids=["verified", "trusted"])
@pytest.mark.parametrize("when", ["mid_hand", "end_of_hand"])
def test_restore(benchmark, when, trusted):
    text = (mid_hand if when == "mid_hand" else end_of_hand)("chengdu_xueliu").to_json()
    benchmark.extra_info["items"] = 1
    benchmark(lambda: Game.from_json(text, trusted=trusted))


@pytest.mark.benchmark(group="restoring a snapshot: verified (replayed) or trusted (per call)")
def test_restore_match_of_four_hands(benchmark):
    text = end_of_match(4).to_json()
    benchmark.extra_info["items"] = 1
    benchmark(Match.from_json, text)
