"""What the table server sends a viewer at once (``_events_to_window``): its events from where
it left off up to and including the first that opens a claim window, as the engine wrote them.
Checked against ``events_for``/``public_events`` and the window rule written out here, at every
position of random games, for every viewer."""

from __future__ import annotations

import json
import random

import pytest

import xueliu
from xueliu._xueliu import _events_to_window

SPECTATORS = 4


def opens_window(event: dict, rob_concealed: bool) -> bool:
    """A discard, an added kong, or a concealed kong that the rules let the others rob."""
    if event["type"] == "discard":
        return True
    return event["type"] == "kong" and (event["kind"] == "added" or (event["kind"] == "concealed" and rob_concealed))


def seen(game: xueliu.Game, viewer: int, start: int) -> list:
    return game.public_events(start=start) if viewer == SPECTATORS else game.events_for(viewer, start=start)


@pytest.mark.parametrize("preset", ["chengdu", "chengdu_xueliu", "dashiyou", "yaoji"])
def test_each_viewer_gets_its_events_window_by_window(preset):
    rob_concealed = xueliu.Rules.preset(preset).rob_concealed_kong
    windows = 0
    for seed in range(6):
        game, rng = xueliu.Game(preset, seed=seed), random.Random(seed)
        sent = [0] * 5
        while not game.is_over:
            seat = game.to_act()[0]
            legal = game.legal_actions(seat)
            wanted = [a for a in legal if a.kind in ("pong", "kong", "win")]
            game.act(seat, rng.choice(wanted) if wanted and rng.random() < 0.7 else rng.choice(legal))
            for viewer in range(5):
                new = seen(game, viewer, sent[viewer])
                cut = next((i + 1 for i, e in enumerate(new) if opens_window(e, rob_concealed)), len(new))
                text, count, opened = _events_to_window(game, viewer, sent[viewer])
                assert (json.loads(text), count, opened) == (
                    new[:cut],
                    cut,
                    cut > 0 and opens_window(new[cut - 1], rob_concealed),
                )
                windows += opened
                sent[viewer] += count
        for viewer in range(5):  # the rest goes out once no window holds it
            while (chunk := _events_to_window(game, viewer, sent[viewer]))[1]:
                sent[viewer] += chunk[1]
            assert sent[viewer] == len(seen(game, viewer, 0))
    assert windows > 100


def test_a_viewer_beyond_the_spectators_is_refused():
    game = xueliu.Game("chengdu", seed=1)
    with pytest.raises(xueliu.ArgumentError, match="viewer"):
        _events_to_window(game, 5, 0)
    assert _events_to_window(game, SPECTATORS, 99) == ("[]", 0, False)
