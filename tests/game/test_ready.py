"""听牌 hints (the engine's ``_ready_waits``, shown by ``xueliu play`` and the web table): each
wait and its value are those ``best_waits`` finds for the seat's hand, and the copies a seat has
not seen are counted from what it may see, a count the engine's hidden state confirms at every
decision of random games."""

from __future__ import annotations

import random

import pytest

import xueliu
from xueliu._ready import Wait, waits

WILD = 18  # 1s, a wild (幺鸡) when the rules have wilds


def seen_by(game: xueliu.Game, seat: int) -> list[int]:
    """How many of each of the 27 tiles ``seat`` has seen, counted here from the game's public
    parts: its hand, every river, every meld (a wild as a 1s), and every win's tile it was shown
    (a second winner on one discard, 一炮多响, takes no second copy)."""
    seen = [0] * 27
    for t in game.hand(seat):
        seen[t.index] += 1
    for s in range(4):
        for t in game.discards(s):
            seen[t.index] += 1
        for m in game.melds(s):
            seen[m.tile.index] += (4 if "kong" in m.kind else 3) - m.wilds
            seen[WILD] += m.wilds
    before = None
    for event in game.events_for(seat):
        if event["type"] == "win" and event["tile"] is not None:
            shared = before is not None and before["type"] == "win" and before["from"] is not None
            if not (shared and (before["from"], before["tile"]) == (event["from"], event["tile"])):
                seen[xueliu.Tile(event["tile"]).index] += 1
        before = event
    return seen


def best(game: xueliu.Game, seat: int, rules: xueliu.Rules) -> list[tuple[str, str, int, int]]:
    """The seat's waits and values by the public ``best_waits``, from its hand, melds and void."""
    hand, melds = game.hand(seat), game.melds(seat)
    if len(hand) % 3 != 1:
        return []
    naturals = [t for t in hand if not (rules.wilds and t.index == WILD)]
    found = xueliu.best_waits(
        naturals,
        rules=rules,
        melds=[str(m) for m in melds if m.kind != "concealed_kong"],
        concealed_kongs=[str(m) for m in melds if m.kind == "concealed_kong"],
        void=game.void(seat),
        wilds=len(hand) - len(naturals),
    )
    return [(str(t), s.pattern, s.capped_fan, s.points) for t, s in found]


def positions(preset: str, seed: int, bot: str = ""):
    """Every position of a hand played at random, keener on claims and wins, or by ``bot``."""
    game, rng = xueliu.Game(preset, seed=seed), random.Random(seed)
    player = xueliu.Bot(bot, seed=seed) if bot else None
    while not game.is_over:
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        wanted = [a for a in legal if a.kind in ("pong", "kong", "win", "swap")]
        if player is not None:
            game.act(seat, player.choose(game, seat))
        else:
            game.act(seat, rng.choice(wanted) if wanted and rng.random() < 0.7 else rng.choice(legal))
        yield game


# mil_sbr_2025 by the greedy bot: win_reveal = "hand_end" hides a self-drawn win's tile from the others
@pytest.mark.parametrize(
    ("preset", "bot"),
    [("xuezhan", ""), ("chengdu_xueliu", ""), ("yaoji", ""), ("dashiyou", ""), ("mil_sbr_2025", "greedy")],
)
def test_waits_and_unseen_counts_are_what_the_seat_may_know(preset, bot):
    rules, ready, hidden = xueliu.Rules.preset(preset), 0, 0
    for seed in range(8):
        for game in positions(preset, seed, bot):
            for seat in range(4):
                seen = seen_by(game, seat)
                others = [0] * 27
                for other in range(4):
                    if other != seat:
                        for t in game.hand(other):
                            others[t.index] += 1
                hidden_wins = sum(e["type"] == "win" and e["tile"] is None for e in game.events_for(seat))
                # every tile the seat has not seen is in the wall, another hand or a win it was not shown
                assert all(seen[i] + others[i] <= 4 for i in range(27))
                assert sum(4 - n for n in seen) == game.wall_remaining + sum(others) + hidden_wins
                found = waits(game, seat)
                assert [(w.tile, w.pattern, w.fan, w.points) for w in found] == best(game, seat, rules)
                assert all(w.unseen == 4 - seen[xueliu.Tile(w.tile).index] for w in found)
                ready += bool(found)
                hidden += hidden_wins
    assert ready > 50
    assert hidden > 0 or preset != "mil_sbr_2025"  # win_reveal = "hand_end": self-drawn tiles others are not shown


def test_ready_waits_checks_its_arguments():
    game = xueliu.Game("chengdu", seed=1)
    with pytest.raises(xueliu.ArgumentError, match="seat 4 does not exist"):
        xueliu._xueliu._ready_waits(game, 4)
    with pytest.raises(TypeError, match="game"):
        xueliu._xueliu._ready_waits("chengdu", 0)


def test_play_shows_the_waits_of_a_ready_hand():
    from rich.console import Console

    from xueliu import _play, cli

    game, seat = next(
        (g, s) for seed in range(20) for g in positions("xuezhan", seed) for s in g.to_act() if waits(g, s)
    )
    line = _play.ready_line(waits(game, seat), wilds=False).plain
    assert line.startswith("Ready 听牌, waiting on ")
    for w in waits(game, seat):
        assert isinstance(w, Wait)
        assert f"{w.tile} ({w.unseen} unseen: {w.pattern}" in line
    out = Console(width=300, no_color=True)
    screen = _play.Screen(out, seat, list(cli.WINDS), plain=True, ask=lambda _: "1")
    screen.rules = game.events[0]["rules"]
    with out.capture() as captured:
        _play.choose(game, screen)
    assert line in captured.get()
