"""What the reference game's tests share: checked test positions (``Game.from_position``),
actions written as dicts, and the events of a step."""

from __future__ import annotations

import collections

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
