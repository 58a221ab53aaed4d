"""Crafted game positions for rule tests, built as `Game.from_json` snapshots.

`position(...)` places the given hands, melds and wall front; every other tile goes to the back
of the wall, or into the river once the wall is as short as asked. Expected values in the tests
are worked out from RULES.md, never read from the engine.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Optional

import xueliu
from xueliu import Game

ALL_TILES = [f"{r}{s}" for s in "mps" for r in range(1, 10)]


def tiles(text: str) -> list[str]:
    return [str(t) for t in xueliu.parse_tiles(text)] if text else []


def rules_dict(preset: str, **overrides) -> dict:
    rules = json.loads(Game(preset).to_json())["rules"]
    for key, value in overrides.items():
        if key == "fan":
            rules["fan"].update(value)
        else:
            rules[key] = value
    return rules


def seat(
    hand: str,
    *,
    melds=(),
    void=None,
    turn=1,
    draws=1,
    wins=0,
    arrival=1,
    declined=None,
    pong_with_three="",
    root_only_kongs="",
    direct_kongs="",
) -> dict:
    """One seat. `melds` are strings: "555m" a pong, "5555m" a kong, "5555m!" a concealed kong;
    in the 幺鸡 variant a meld's wilds are written 1s after its natural tiles: "55m1s"."""
    meld_list = []
    for m in melds:
        concealed = m.endswith("!")
        ts = tiles(m.rstrip("!"))
        kind = "pong" if len(ts) == 3 else ("concealed_kong" if concealed else "kong")
        wilds = ts.count("1s") if ts[0] != "1s" else 0
        meld = {"kind": kind, "tile": ts[0]}
        if wilds:
            meld["wilds"] = wilds
        meld_list.append(meld)
    return {
        "hand": tiles(hand),
        "melds": meld_list,
        "pong_with_three": tiles(pong_with_three),
        "root_only_kongs": tiles(root_only_kongs),
        "direct_kongs": tiles(direct_kongs),
        "void": void,
        "turn": turn,
        "arrival": arrival if isinstance(arrival, list) else [arrival] * 27,
        "draws": draws,
        "wins": wins,
        "declined": declined,
    }


def meld_tiles(s: dict) -> list[str]:
    out = []
    for m in s["melds"]:
        wilds = m.get("wilds", 0)
        out += [m["tile"]] * ((3 if m["kind"] == "pong" else 4) - wilds) + ["1s"] * wilds
    return out


def position(
    preset: str = "chengdu",
    *,
    seats: list[dict],
    pending: dict,
    wall: str = "",
    wall_len: Optional[int] = None,
    river: list = (),
    dealer: int = 0,
    wins: list = (),
    kongs: list = (),
    scores=(0, 0, 0, 0),
    claimed: bool = True,
    rules: Optional[dict] = None,
    **overrides,
) -> Game:
    """A game in the middle of a hand. `pending` is the snapshot's pending decision; a discard
    waiting for responses must be the river's last entry (pass it in `river`)."""
    used = Counter()
    for s in seats:
        used.update(s["hand"])
        used.update(meld_tiles(s))
    for _seat, t in river:
        used[t] += 1
    for w in wins:
        if not w.get("shared"):
            used[w["tile"]] += 1
    front = tiles(wall)
    used.update(front)
    rest = []
    for t in ALL_TILES:
        n = 4 - used[t]
        assert n >= 0, f"more than four {t}"
        rest += [t] * n
    full_wall = front + rest
    extra_river = []
    if wall_len is not None:
        extra_river = [[3, t] for t in full_wall[wall_len:]]
        full_wall = full_wall[:wall_len]
    river = extra_river + [list(e) for e in river]
    snapshot = {
        "version": 1,
        "rules": rules or rules_dict(preset, **overrides),
        "seed": 0,
        "rng": 12345,
        "dealer": dealer,
        "wall": full_wall,
        "seats": seats,
        "river": river,
        "pending": pending,
        "claimed": claimed,
        "wins": list(wins),
        "kongs": list(kongs),
        "scores": list(scores),
        "end": None,
        "logging": True,
        # The history before the position is not known; a win event per earlier win keeps the
        # log consistent with the win list.
        "events": [{"type": "win"} for _ in wins],
    }
    # Crafted: no seed and decisions produce it, so it is restored as trusted.
    return Game.from_json(json.dumps(snapshot), trusted=True)


def turn(seat_no: int, kind: str = "draw", drawn: Optional[str] = None, kong=None, last_four=False) -> dict:
    return {"phase": "turn", "seat": seat_no, "kind": kind, "drawn": drawn, "kong": kong, "last_four": last_four}


def respond(from_seat: int, tile: str, kong=None, late=False, after_kong=None, decisions=None) -> dict:
    return {
        "phase": "respond",
        "from": from_seat,
        "tile": tile,
        "kong": kong,
        "late": late,
        "decisions": decisions or [None] * 4,
        "after_kong": after_kong,
    }


def win_record(seat_no: int, tile: str, hand: str, *, from_seat=None, kind="discard", melds=()) -> dict:
    """An earlier win: `hand` is the 13 tiles before it (the seat's locked or final hand)."""
    return {
        "seat": seat_no,
        "tile": tile,
        "from": from_seat,
        "kind": kind,
        "hand": tiles(hand),
        "melds": seat("", melds=melds)["melds"],
        "root_only_kongs": [],
        "flags": {
            "self_draw": kind == "self_draw",
            "kong_flower": False,
            "kong_shot": False,
            "robbed_kong": kind == "robbed_kong",
            "heavenly": False,
            "earthly": False,
        },
        "feeder": None,
        "shared": False,
    }


def exchange_phase(preset: str = "dashiyou", hands=(), **overrides) -> Game:
    """A hand in the exchange phase (换三张) with the given hands, nothing picked yet."""
    return position(
        preset,
        seats=[seat(h, turn=0, draws=0) for h in hands],
        pending={"phase": "exchange", "picks": [None] * 4},
        claimed=False,
        **overrides,
    )


# Hands that every seat gets back as they were when each gives 123m, opposite: a redeal.
REDEAL_HANDS = ["123m456p11223344s", "123m456p1122334s", "123m456p5566778s", "123m456p5678899s"]


def kinds(game: Game, seat_no: int) -> set[str]:
    return {str(a) for a in game.legal_actions(seat_no)}


def new_events(game: Game, before: int) -> list[dict]:
    return game.events[before:]


def payments(events: list[dict]) -> list[tuple]:
    return [(e["payer"], e["payee"], e["amount"], e["reason"]) for e in events if e["type"] == "payment"]


def yaoji_76_after(steps: int) -> Game:
    """`Game("yaoji", seed=76)` after `steps` random actions: seat 3 is dealt four wilds."""
    game, rng = Game("yaoji", seed=76), random.Random(76)
    for _ in range(steps):
        seat = game.to_act()[0]
        game.act(seat, rng.choice(game.legal_actions(seat)))
    return game


# 过胡: seat 1 waits on 1m (basic) and 4m (234m + 444m: a root, one fan more); seat 2 discards
# first, seat 3 will draw 7p and can discard the second tile.
PASSED_WIN_HANDS = ["88m99m123456789p", "23m444m789m999p11p", "556677m22p33p44p8p", "49m123p456p678p55p"]


def passed_win(preset: str, first: str, **overrides) -> Game:
    """Seat 1 is offered a win on seat 2's `first` tile (1m or 4m; with 4m, seat 3 holds the 1m)."""
    hands = list(PASSED_WIN_HANDS)
    if first == "4m":
        hands[3] = "19m123p456p678p55p"
    return position(
        preset,
        seats=[seat(h, void="s") for h in hands],
        river=[(2, first)],
        wall="7p",
        pending=respond(2, first),
        **overrides,
    )
