"""The engine against the pure-Python reference (`xueliu.reference.Game`), written from the same
protocol by someone else: identical legal-action sets at every step, identical event logs and
identical scores, on random play over every preset and over random option combinations.

Events are compared whole, the `score` of each `win` included."""

import os
import random

import pytest

import xueliu
from xueliu import Action, Game
from xueliu.reference import Game as Reference

# Issue 4 asks for thousands of games per preset; a quick local run plays fewer.
GAMES_PER_PRESET = 1000 if os.environ.get("CI") else 60
PRESETS = ["dashiyou", "sanxia", "sanxia_piao", "chengdu", "chengdu_xueliu", "xuezhan", "yaoji"]
OPTIONS = {
    "exchange": [None, "dice", "clockwise", "counterclockwise", "opposite", "random"],
    "exchange_same_suit": [True, False],
    "declare_void": [True, False],
    "pong_last_discard": [True, False],
    "kong_draw_from": ["front", "back"],
    "rob_concealed_kong": [True, False],
    "late_kong": ["full", "root_only", "kept_fourth_forbidden", "forbidden"],
    "pass_win_lock": ["none", "until_draw", "until_draw_unless_higher"],
    "last_four": ["none", "forced", "self_draw_forced", "ron_forced"],
    "self_draw_payers": ["not_won", "all_others"],
    "kong_fan": ["win_and_loss", "win_only"],
    "kong_payments": [True, False],
    "kong_flower_after_direct_kong": ["feeder_pays_all", "all_pay", "as_discard_win"],
    "kong_income_transfer": ["none", "last_kong", "all_kongs", "refund_to_payers"],
    "flower_pig_payees": ["ready", "ready_or_won", "non_pigs"],
    "flower_pig_rule": ["three_suits", "void_held"],
    "tax_refund": [True, False],
    "ready_difference": [True, False],
    "first_dealer": ["east", "random", "dice"],
    "cap_fan": [None, 3, 5],
}


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
        game.act(seat, Action.parse(pick))
        ref.act(seat, theirs[pick])
    assert game.events == ref.events
    assert all(game.events_for(seat) == ref.events_for(seat) for seat in range(4))
    assert game.public_events() == ref.public_events()
    assert game.scores == ref.scores


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


def test_yaoji_option_combinations_match_the_reference():
    # 幺鸡 needs 血战 and a cap (protocol §11): the mode stays and cap_fan is 3 or 5.
    rng = random.Random(2027)
    for _ in range(100):
        overrides = {k: rng.choice(v) for k, v in OPTIONS.items() if rng.random() < 0.5}
        overrides["cap_fan"] = rng.choice([3, 5])
        play_both(xueliu.Rules.preset("yaoji", **overrides), rng.randrange(2**32), rng, win_rate=0.6)


def test_random_option_combinations_match_the_reference():
    rng = random.Random(2026)
    played = 0
    while played < 150:
        preset = rng.choice(["chengdu", "xuezhan", "chengdu_xueliu", "dashiyou", "sanxia"])
        overrides = {k: rng.choice(v) for k, v in OPTIONS.items() if rng.random() < 0.5}
        play_both(xueliu.Rules.preset(preset, **overrides), rng.randrange(2**32), rng, win_rate=0.6)
        played += 1
