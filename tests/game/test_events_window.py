"""What the table server sends at once (``_events_to_window``): each viewer's events from where
the last reading ended up to and including the first that opens a claim window, as the engine
wrote them, with that window's event, whether public events follow it and where the next reading
starts (which ``_read_place`` finds again from the counts sent). Checked against
``events_for``/``public_events`` and the window rule written out here, at every position of
random games, for every viewer."""

from __future__ import annotations

import json
import random

import pytest

import xueliu
from xueliu._xueliu import _events_to_window, _read_place

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
        sent, read = [0] * 5, 0
        while not game.is_over:
            seat = game.to_act()[0]
            legal = game.legal_actions(seat)
            wanted = [a for a in legal if a.kind in ("pong", "kong", "win")]
            game.act(seat, rng.choice(wanted) if wanted and rng.random() < 0.7 else rng.choice(legal))
            views, window, held, read = _events_to_window(game, read)
            for viewer in range(5):
                new = seen(game, viewer, sent[viewer])
                cut = next((i + 1 for i, e in enumerate(new) if opens_window(e, rob_concealed)), len(new))
                text, count = views[viewer]
                assert (json.loads(text), count) == (new[:cut], cut)
                if viewer == SPECTATORS:
                    opened = cut > 0 and opens_window(new[cut - 1], rob_concealed)
                    assert window == (json.dumps(new[cut - 1], separators=(", ", ": ")) if opened else None)
                    assert held == (opened and cut < len(new))
                    windows += opened
                sent[viewer] += count
            assert read == _read_place(game, sent)
        while (views := _events_to_window(game, read))[0] != [("[]", 0)] * 5:  # the rest, once no window holds it
            sent = [n + count for n, (_, count) in zip(sent, views[0])]
            read = views[3]
        for viewer in range(5):
            assert sent[viewer] == len(seen(game, viewer, 0))
        assert read == len(game.events) == _read_place(game, sent)
    assert windows > 100


def test_bad_arguments_are_refused():
    game = xueliu.Game("chengdu", seed=1)
    for sent in ([0] * 4, [0] * 6, (0,) * 5, [0, 0, 0, 0, -1]):
        with pytest.raises(xueliu.ArgumentError, match="sent"):
            _read_place(game, sent)
    with pytest.raises(xueliu.ArgumentError, match="read"):
        _events_to_window(game, -1)
    end = len(game.events)
    assert _events_to_window(game, end + 99) == ([("[]", 0)] * 5, None, False, end + 99)
    assert _read_place(game, [99] * 5) == end
