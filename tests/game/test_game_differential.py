"""The engine against the pure-Python reference (`xueliu.reference.Game`), written from the same
protocol by someone else: identical legal-action sets at every step, identical event logs and
identical scores, on random play over every preset and over random option combinations.

Events are compared whole, the `score` of each `win` included."""

import random

import pytest
from helpers import PRESETS, option_values, scaled

import xueliu
from xueliu import Action, Game
from xueliu.reference import Game as Reference

# Issue 4 asks for thousands of games per preset: the `long` profile plays 3,000, CI 300, a
# local run 90 (tests/conftest.py).
GAMES_PER_PRESET = scaled(300)
# Every option the rules schema has, with its values (tests/helpers.py): a new option is drawn
# in the random combinations below as soon as the stub types it.
OPTIONS = option_values()


def text(action: dict) -> str:
    kind = action["kind"]
    if kind == "exchange":
        return "exchange " + xueliu.format_tiles(xueliu.parse_tiles("".join(action["tiles"])))
    if kind == "void":
        return "void " + action["suit"]
    if kind in ("discard", "kong", "swap"):
        return f"{kind} {action['tile']}"
    return kind


def play_both(rules, seed: int, rng: random.Random, win_rate: float) -> None:
    game, ref = Game(rules, seed=seed), Reference(rules.to_dict(), seed)
    while True:
        assert game.to_act() == ref.to_act()
        if game.is_over:
            break
        seat = game.to_act()[0]
        ours = sorted(str(a) for a in game.legal_actions(seat))
        theirs = {text(a): a for a in ref.legal_actions(seat)}
        assert ours == sorted(theirs), (seat, game.events[-3:])
        pick = "win" if "win" in ours and rng.random() < win_rate else rng.choice(ours)
        wins = len(game.wins)
        game.act(seat, Action.parse(pick))
        ref.act(seat, theirs[pick])
        if len(game.wins) > wins and not game.is_over:
            # What each viewer sees of a win mid-hand (win_reveal = "hand_end" hides its score).
            assert_views_agree(game, ref)
    assert game.events == ref.events
    assert_views_agree(game, ref)
    assert game.scores == ref.scores


def assert_views_agree(game: Game, ref: Reference) -> None:
    assert all(game.events_for(seat) == ref.events_for(seat) for seat in range(4))
    assert game.public_events() == ref.public_events()


@pytest.mark.parametrize("preset", PRESETS)
def test_presets_match_the_reference(preset):
    rng = random.Random(preset)
    for seed in range(GAMES_PER_PRESET):
        play_both(xueliu.Rules.preset(preset), seed, rng, win_rate=0.7)


# yaoji seeds whose deal gives one seat all four wilds (found by dealing with the reference): seats
# 3, 0, 0, 3, 1, 3 with dealers 0, 2, 1, 3, 2, 0, so the non-dealer's "dealt" turn and the dealer's
# forced first-turn win both come up (protocol §11).
FOUR_WILDS_DEALT = [76, 1071, 2095, 3047, 6220, 8447]


def test_four_wilds_dealt_match_the_reference():
    rng = random.Random(4)
    for seed in FOUR_WILDS_DEALT:
        for _ in range(3):
            play_both(xueliu.Rules.preset("yaoji"), seed, rng, win_rate=0.7)


def random_rules(rng: random.Random, preset: str, **fixed) -> xueliu.Rules:
    """`preset` with about half the options drawn at random, `fixed` on top; a combination the
    engine refuses to play (幺鸡 needs 血战 and a cap, protocol §11) is drawn again."""
    while True:
        overrides = {k: rng.choice(v) for k, v in OPTIONS.items() if rng.random() < 0.5}
        try:
            rules = xueliu.Rules.preset(preset, **{**overrides, **fixed})
            Game(rules, seed=0)
            return rules
        except xueliu.RulesError:
            continue


def test_yaoji_option_combinations_match_the_reference():
    rng = random.Random(2027)
    for _ in range(100):
        rules = random_rules(rng, "yaoji", cap_fan=rng.choice([3, 5]))
        play_both(rules, rng.randrange(2**32), rng, win_rate=0.6)


def test_random_option_combinations_match_the_reference():
    rng = random.Random(2026)
    for _ in range(150):
        preset = rng.choice(["chengdu", "xuezhan", "chengdu_xueliu", "dashiyou", "sanxia"])
        play_both(random_rules(rng, preset), rng.randrange(2**32), rng, win_rate=0.6)
