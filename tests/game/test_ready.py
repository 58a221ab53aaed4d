"""听牌 hints (xueliu._ready): the copies a seat has not seen are counted from what it may see,
and the engine's hidden state confirms the count at every decision of random games; a table's
finder, which keeps each seat's waits until its hand changes, answers as a fresh one would."""

from __future__ import annotations

import random

import pytest

import xueliu
from xueliu._ready import Wait, Waits, seen_by


def waits_of(game: xueliu.Game, seat: int) -> list[Wait]:
    """The waits a fresh finder gives (nothing kept from earlier positions)."""
    return Waits(xueliu.Rules.from_dict(game.events[0]["rules"])).of(game, seat)


def shown(waits: list[Wait]) -> list[tuple[str, int, str, int, int]]:
    return [(w.tile, w.unseen, w.score.pattern, w.score.capped_fan, w.score.points) for w in waits]


def positions(preset: str, seed: int):
    game, rng = xueliu.Game(preset, seed=seed), random.Random(seed)
    while not game.is_over:
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        wanted = [a for a in legal if a.kind in ("pong", "kong", "win", "swap")]
        game.act(seat, rng.choice(wanted) if wanted and rng.random() < 0.7 else rng.choice(legal))
        yield game


@pytest.mark.parametrize("preset", ["xuezhan", "chengdu_xueliu", "yaoji", "dashiyou"])
def test_unseen_counts_are_what_the_wall_and_the_other_hands_hold(preset):
    ready = 0
    for seed in range(8):
        kept = Waits(xueliu.Rules.preset(preset))  # one per table, as the server keeps it
        for game in positions(preset, seed):
            for seat in range(4):
                seen = seen_by(game, seat)
                others = [0] * 27
                for other in range(4):
                    if other != seat:
                        for t in game.hand(other):
                            others[t.index] += 1
                # every tile the seat has not seen is in the wall or another hand, and no more
                assert all(seen[i] + others[i] <= 4 for i in range(27))
                assert sum(4 - n for n in seen) == game.wall_remaining + sum(others)
                waits = kept.of(game, seat)
                assert shown(waits) == shown(waits_of(game, seat))
                if waits:
                    ready += 1
                    hand = game.hand(seat)
                    assert len(hand) % 3 == 1
                    assert all(w.unseen == 4 - seen[xueliu.Tile(w.tile).index] for w in waits)
    assert ready > 50


def test_play_shows_the_waits_of_a_ready_hand():
    from rich.console import Console

    from xueliu import _play, cli

    game, seat = next(
        (g, s) for seed in range(20) for g in positions("xuezhan", seed) for s in g.to_act() if waits_of(g, s)
    )
    line = _play.ready_line(waits_of(game, seat), wilds=False).plain
    assert line.startswith("Ready 听牌, waiting on ")
    for w in waits_of(game, seat):
        assert f"{w.tile} ({w.unseen} unseen: {w.score.pattern}" in line
    out = Console(width=300, no_color=True)
    screen = _play.Screen(out, seat, list(cli.WINDS), plain=True, ask=lambda _: "1")
    screen.rules = game.events[0]["rules"]
    with out.capture() as captured:
        _play.choose(game, screen)
    assert line in captured.get()
