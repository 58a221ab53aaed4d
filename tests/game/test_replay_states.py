"""``Game.replay_states``: the game after each decision of a replayed log, which ``xueliu replay``
shows beside each event. Each state is the live game's after that decision (hands, melds with
their wilds, voids, wins, scores) in random games with many claims; kongs, robbed kongs and
swaps do happen. (This replaced a Python fold over the events, checked the same way.)"""

from __future__ import annotations

import random

import pytest

import xueliu


def seats(game: xueliu.Game) -> list[tuple]:
    """What the replay shows of each seat."""
    return [
        (
            sorted(t.index for t in game.hand(s)),
            sorted((m.kind, m.tile.index, m.wilds) for m in game.melds(s)),
            game.void(s),
            game.scores[s],
            sum(w.seat == s for w in game.wins),
        )
        for s in range(4)
    ]


@pytest.mark.parametrize("rules", ["chengdu", "chengdu_xueliu", "xuezhan", "sanxia", "dashiyou", "yaoji"])
def test_each_state_is_the_game_after_that_decision(rules):
    seen: set[str] = set()
    for seed in range(12):
        game, rng = xueliu.Game(rules, seed=seed), random.Random(seed)
        live = [(len(game.events), seats(game))]
        while not game.is_over:
            seat = game.to_act()[0]
            legal = game.legal_actions(seat)
            claims = [a for a in legal if a.kind in ("kong", "pong", "swap", "win")]
            game.act(seat, rng.choice(claims if claims and rng.random() < 0.7 else legal))
            live.append((len(game.events), seats(game)))
        seen.update(e["type"] for e in game.events)
        states = xueliu.Game.replay_states(game.events)
        assert [(written, seats(state)) for written, state in states] == live
        assert all(state.events == [] for _, state in states)
    assert {"pong", "kong", "win", "payment"} <= seen
    if rules == "yaoji":
        assert "swap" in seen


def test_a_log_the_engine_would_not_write_is_refused_as_by_from_events():
    events = xueliu.Game("chengdu", seed=3).events
    events[-1]["tiles"] = events[-2]["tiles"]
    with pytest.raises(xueliu.XueliuError) as refused:
        xueliu.Game.from_events(events)
    with pytest.raises(type(refused.value), match="bad event log"):
        xueliu.Game.replay_states(events)
