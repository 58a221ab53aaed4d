"""What the reference game's tests share: checked test positions (``Game.from_position``),
actions written as dicts, the events of a step, and random games checked step by step."""

from __future__ import annotations

import collections
import json

import pytest

from xueliu.reference.game import Game
from xueliu.reference.presets import get_preset
from xueliu.reference.tiles import parse_tiles, tile_name


def reference_position(preset, hands, wall, *, voids, melds=None, first_draw=None, **overrides):
    """A checked test position: no tile more than four times across hands, melds and wall (a
    wild written 1s counts as one); 14 tiles for the dealer, seat 0, unless ``first_draw``."""
    counts = collections.Counter(parse_tiles(wall))
    for seat in range(4):
        counts.update(parse_tiles(hands[seat]))
        for text in melds[seat] if melds else ():
            counts.update(parse_tiles(text.strip("[]")))
    for seat in range(4):
        size = len(parse_tiles(hands[seat])) + 3 * len(melds[seat] if melds else ())
        wanted = 14 if seat == 0 and first_draw is None else 13
        if size != wanted:
            pytest.fail(f"bad test position: seat {seat} holds {size} tiles, not {wanted}")
    over = {tile_name(t): n for t, n in counts.items() if n > 4}
    if over:
        pytest.fail(f"bad test position, too many copies: {over}")
    rules = get_preset(preset, **overrides)
    return Game.from_position(rules, hands, wall, voids=voids, melds=melds, first_draw=first_draw)


def discard(tile):
    return {"kind": "discard", "tile": tile}


def kong(tile):
    return {"kind": "kong", "tile": tile}


def since(game, mark):
    """Events logged after ``mark`` (a length of ``game.events``)."""
    return game.events[mark:]


def payments(events):
    return [(e["payer"], e["payee"], e["amount"], e["reason"]) for e in events if e["type"] == "payment"]


def play_checked(rules, seed, rnd, policy, *, before=None, after=None):
    """Plays one game with ``policy(game, seat, rnd)`` for a seat ``rnd`` picks among those to
    act, checking what every game keeps: at each step every seat to act has legal actions, its
    default among them, the 108 tiles are all there and each payment moves points between two
    seats; at the end the scores sum to zero, are the payments' totals and the ``end`` event's,
    and under 血战 nobody wins twice. ``before(game, seat, legal)`` checks more ahead of an action,
    ``after(game, events)`` the events it logged. Returns (game, actions)."""
    game = Game(rules, seed)
    actions = []
    while not game.is_over:
        seats = game.to_act()
        assert seats == sorted(seats) and seats
        legal = {s: game.legal_actions(s) for s in seats}
        assert all(legal[s] and game.default_action(s) in legal[s] for s in seats)
        seat = rnd.choice(seats)
        if before:
            before(game, seat, legal[seat])
        action = policy(game, seat, rnd)
        mark = len(game.events)
        game.act(seat, action)
        actions.append((seat, action))
        assert game.tile_total() == 108
        for event in since(game, mark):
            if event["type"] == "payment":
                assert event["amount"] > 0 and event["payer"] != event["payee"]
        if after:
            after(game, since(game, mark))
    assert sum(game.scores) == 0
    assert game.events[-1]["type"] == "end" and game.events[-1]["scores"] == game.scores
    totals = [0, 0, 0, 0]
    for e in game.events:
        if e["type"] == "payment":
            totals[e["payer"]] -= e["amount"]
            totals[e["payee"]] += e["amount"]
    assert totals == game.scores
    wins = [e["seat"] for e in game.events if e["type"] == "win"]
    if game.rules["mode"] == "xuezhan":
        assert len(set(wins)) == len(wins) <= 3  # nobody wins twice
        assert (game.events[-1]["reason"] == "three_won") == (len(wins) == 3)
    json.dumps(game.events)  # JSON-serialisable
    return game, actions
