"""What a request tells a seat beyond its legal actions (docs/server.md): the score of a win on
offer, before the seat chooses, and the engine's own reason when an action is refused."""

from __future__ import annotations

import json

import pytest
from server_harness import Harness

import xueliu
from xueliu.server import TableError


@pytest.mark.parametrize("preset", ["xuezhan", "chengdu_xueliu", "yaoji"])
def test_a_win_on_offer_carries_the_score_that_win_gets(preset: str) -> None:
    h = Harness({"preset": preset, "seed": 11, "hands": 1})
    offered = 0
    bot_choice = xueliu.Bot("greedy")
    while h.table.status != "over":
        if h.table.status == "between":
            h.advance(h.table.config.next_hand_delay)
            continue
        game = h.table.match.game
        before = len(game.wins)
        offers = {}
        for seat, request in sorted(h.pending().items()):
            if "win" in request["actions"]:
                offers[seat] = request["win_score"]
                h.act(seat, request["decision"], "win")
            else:
                assert request["win_score"] is None
                bot = str(bot_choice.choose(game, seat)) if request["actions"] != ["pass"] else "pass"
                h.act(seat, request["decision"], bot)
        # the step has closed: each win made is worth what its request said
        for seat, score in offers.items():
            won = next(w for w in game.wins[before:] if w.seat == seat)
            assert score == won.score.to_dict()
            offered += 1
    assert offered >= 2


def test_a_refused_action_gives_the_engines_reason_and_changes_nothing() -> None:
    h = Harness({"seed": 2})
    while not any(r["kind"] == "turn" for r in h.pending().values()):
        for seat, request in sorted(h.pending().items()):
            h.act(seat, request["decision"], request["default"])
    seat, request = next((s, r) for s, r in h.pending().items() if r["kind"] == "turn")
    game = h.table.match.game
    held = {str(t) for t in game.hand(seat)}
    wrong = next(str(xueliu.Tile(i)) for i in range(27) if str(xueliu.Tile(i)) not in held)
    for action in (f"discard {wrong}", "pong"):
        with pytest.raises(xueliu.IllegalActionError) as why:
            game.clone().act(seat, action)
        before = json.dumps(h.table.to_dict()) + h.table.match_json()
        with pytest.raises(TableError) as e:
            h.act(seat, request["decision"], action)
        assert e.value.code == "illegal" and str(e.value) == str(why.value)
        assert json.dumps(h.table.to_dict()) + h.table.match_json() == before
