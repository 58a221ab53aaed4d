"""Invariants after every step of thousands of random hands across presets (issue 4): the 108
tiles are all accounted for, points sum to zero, nobody wins with a void tile, a 血战 hand never
has four winners, and every win event's hand really wins. Checked from the public API alone.
In the 幺鸡 preset a `1s` is a wild: it is no void tile, melds may hold wilds (issue 6), and four
wilds win at the cap whatever the shape."""

import json
import random
from collections import Counter

import pytest
from helpers import PRESETS

import xueliu
from xueliu import Game

HANDS_PER_PRESET = 850  # 5,100 hands in all


def set_aside_tiles(events):
    """Winning tiles taken out of play: one per discard or kong won on, however many winners."""
    out, source, last_won = [], 0, None
    for e in events:
        if e["type"] in ("discard", "kong", "draw"):
            source += 1
        elif e["type"] == "win":
            if not (e["kind"] != "self_draw" and last_won == source):
                out.append(e["tile"])
            last_won = source
    return out


def split(tiles, rules):
    """The natural tiles as one string and the wilds held beside them."""
    wilds = tiles.count("1s") if rules["wilds"] else 0
    return "".join(t for t in tiles if not (rules["wilds"] and t == "1s")), wilds


def check(game, rules, state):
    assert sum(game.scores) == 0
    tiles = Counter()
    melds = {}
    for s in range(4):
        tiles.update(str(t) for t in game.hand(s))
        melds[s] = [str(m) for m in game.melds(s)]
        for m in game.melds(s):
            tiles[str(m.tile)] += (3 if m.kind == "pong" else 4) - m.wilds
            tiles["1s"] += m.wilds
        tiles.update(str(t) for t in game.discards(s))
    if len(game.wins) != state["wins"]:
        events = game.events
        state["aside"] = set_aside_tiles(events)
        new_wins = [e for e in events if e["type"] == "win"][state["wins"] :]
        for e in new_wins:
            hand, wilds = split(e["hand"] + [e["tile"]], rules)
            if wilds == 4:  # whatever the shape, suits or void tiles
                assert e["score"]["capped_fan"] == rules["cap_fan"], e
                continue
            void = game.void(e["seat"])
            assert void is None or all(t.suit != void for t in xueliu.parse_tiles(hand)), e
            assert xueliu.is_win(
                hand,
                melds=[m.replace("!", "") for m in melds[e["seat"]]],
                void=void,
                seven_pairs=rules["allow_seven_pairs"],
                wilds=wilds,
            ), e
        state["wins"] = len(game.wins)
        if rules["mode"] == "xuezhan":
            assert len({w.seat for w in game.wins}) <= 3
    tiles.update(state["aside"])
    assert all(n <= 4 for n in tiles.values()), tiles
    assert sum(tiles.values()) + game.wall_remaining == 108


def choose(game, s, rng, rules):
    """Mostly wins when it can and often discards towards a complete hand, so that wins, kongs
    and every settlement happen often; otherwise uniformly random."""
    legal = game.legal_actions(s)
    wins = [a for a in legal if a.kind == "win"]
    if wins and rng.random() < 0.9:
        return wins[0]
    discards = [a for a in legal if a.kind == "discard"]
    if len(discards) > 1 and rng.random() < 0.7:
        hand = [str(t) for t in game.hand(s)]
        melds = [str(m) for m in game.melds(s)]
        void, seven = game.void(s), rules["allow_seven_pairs"]

        def after(a):
            rest = list(hand)
            rest.remove(str(a.tile))
            natural, wilds = split(rest, rules)
            return xueliu.shanten(natural, melds=melds, void=void, seven_pairs=seven, wilds=wilds)

        best = min(after(a) for a in discards)
        return rng.choice([a for a in discards if after(a) == best])
    return rng.choice(legal)


@pytest.mark.parametrize("preset", PRESETS)
def test_random_hands_keep_every_invariant(preset):
    rng = random.Random(preset)
    rules = json.loads(Game(preset).to_json())["rules"]
    for seed in range(HANDS_PER_PRESET):
        game = Game(preset, seed=seed)
        state = {"wins": 0, "aside": []}
        while not game.is_over:
            s = game.to_act()[0]
            game.act(s, choose(game, s, rng, rules))
            check(game, rules, state)
        assert game.events[-1]["type"] == "end"
