"""幺鸡 (wilds) in the game (RULES.md §11, docs/game-protocol.md §11): seed 004's own examples
(一个一万 + 幺鸡 pong a discarded 一万; 三个一万 + 幺鸡 and 三个幺鸡 + 一个一万 concealed kongs;
幺鸡 + 两个一万 + the discarded 一万 as a direct kong), 幺鸡换, four wilds at the cap, 无鸡加番, and
wilds never discarded or exchanged. Expected values are worked out from the rules."""

import json

import pytest
from positions import payments, position, seat, turn

from xueliu import Action, Game, IllegalActionError

# No m tile and no wild; seats 2 and 3 are void in m, so only seat 0 claims an m discard.
OTHERS = [("1122334455667p", "s"), ("2233445566889s", "m"), ("13579p2468s3579s", "m")]


def table(hand, *, melds=(), drawn=None, wall="", seat_1=None, on_move=0):
    """Seat 0 holds `hand` (void s); `on_move` is to move having drawn `drawn`."""
    others = [seat(h, void=v) for h, v in OTHERS]
    if seat_1:
        others[0] = seat(seat_1, void="s")
    seats = [seat(hand, melds=melds, void="s")] + others
    return position("yaoji", seats=seats, pending=turn(on_move, "draw", drawn), wall=wall)


def after_seat_1_discards_1m(hand, wall=""):
    game = table(hand, drawn="1m", wall=wall, seat_1=OTHERS[0][0] + "1m", on_move=1)
    game.act(1, Action.discard("1m"))
    return game


def hand(game, s):
    return [str(t) for t in game.hand(s)]


def legal(game, s):
    return {str(a) for a in game.legal_actions(s)}


def meld_of(game, s):
    return [(m.kind, str(m.tile), m.wilds, str(m)) for m in game.melds(s)]


def test_pong_with_one_1m_and_a_wild_on_a_discarded_1m():
    game = after_seat_1_discards_1m("1m1s23456789m899p")
    assert legal(game, 0) == {"pong", "pass"}
    game.act(0, Action.pong())
    assert meld_of(game, 0) == [("pong", "1m", 1, "11m1s")]
    assert "1s" not in hand(game, 0)
    assert game.events[-1] == {"type": "pong", "seat": 0, "tile": "1m", "from": 1, "wilds": 1}
    assert legal(game, 0) == {f"discard {t}" for t in "2m 3m 4m 5m 6m 7m 8m 9m 8p 9p".split()}


def test_a_pong_takes_two_naturals_before_a_wild():
    game = after_seat_1_discards_1m("11m1s3456789m899p")
    game.act(0, Action.pong())
    assert meld_of(game, 0) == [("pong", "1m", 0, "111m")]
    assert hand(game, 0).count("1s") == 1


def test_concealed_kong_of_three_1m_and_a_wild():
    game = table("111m1s2345678m999p", drawn="9p", wall="5p")
    game.act(0, Action.kong("1m"))
    assert meld_of(game, 0) == [("concealed_kong", "1m", 1, "111m1s")]
    kong = [e for e in game.events if e["type"] == "kong"]
    assert kong == [
        {"type": "kong", "seat": 0, "tile": "1m", "kind": "concealed", "from": None, "late": False, "wilds": 1}
    ]
    # A kong holding a wild is paid like any concealed kong: 2 base from each other seat.
    assert payments(game.events) == [(1, 0, 2, "kong"), (2, 0, 2, "kong"), (3, 0, 2, "kong")]
    assert game.events[-1] == {"type": "draw", "seat": 0, "tile": "5p", "replacement": True}


def test_concealed_kong_of_three_wilds_and_one_1m():
    game = table("1m111s2345678m999p", drawn="9p", wall="5p")
    # Three wilds make a kong of any natural tile held.
    assert {a for a in legal(game, 0) if a.startswith("kong")} == {
        f"kong {t}" for t in "1m 2m 3m 4m 5m 6m 7m 8m 9p".split()
    }
    game.act(0, Action.kong("1m"))
    assert meld_of(game, 0) == [("concealed_kong", "1m", 3, "1m111s")]
    assert "1s" not in hand(game, 0)


def test_direct_kong_of_a_wild_two_1m_and_the_discarded_1m_then_swap():
    game = after_seat_1_discards_1m("11m1s2345678m899p", wall="1m")
    assert legal(game, 0) == {"kong 1m", "pong", "pass"}
    game.act(0, Action.kong("1m"))
    assert meld_of(game, 0) == [("kong", "1m", 1, "111m1s")]
    assert payments(game.events) == [(1, 0, 2, "kong")]
    # The replacement is the fourth 1m: 幺鸡换 puts it into the kong and takes the wild back.
    assert "swap 1m" in legal(game, 0)
    game.act(0, Action.swap("1m"))
    assert game.events[-1] == {"type": "swap", "seat": 0, "tile": "1m"}
    assert all(e == game.events[-1] for e in game.events_for(2)[-1:])
    assert meld_of(game, 0) == [("kong", "1m", 0, "1111m")]
    assert hand(game, 0).count("1s") == 1
    assert payments(game.events) == [(1, 0, 2, "kong")], "a swap pays nothing"
    after = legal(game, 0)
    assert "discard 1s" not in after and not any(a.startswith("swap") for a in after)
    assert str(game.default_action(0)) != "discard 1s"


def test_swap_is_from_a_kong_not_a_pong_on_any_turn_after_a_draw():
    game = table("5m7m234m899p", melds=["555m1s", "77m1s"], drawn="9p")
    assert {"swap 5m", "kong 7m"} <= legal(game, 0)
    assert "swap 7m" not in legal(game, 0)
    assert repr(Action.swap("5m")) == "Action.swap('5m')"
    assert Action.parse("swap 5m") == Action.swap("5m")
    assert str(Action.swap("5m").tile) == "5m" and Action.swap("5m").kind == "swap"
    with pytest.raises(IllegalActionError, match="幺鸡换"):
        game.act(0, Action.swap("7m"))


def test_four_wilds_win_at_once_at_the_cap():
    game = table("1111s23579m24689p", drawn="1s")
    assert legal(game, 0) == {"win"}
    assert str(game.default_action(0)) == "win"
    with pytest.raises(IllegalActionError, match="four wilds"):
        game.act(0, Action.discard("2m"))
    game.act(0, Action.win())
    [win] = [e for e in game.events if e["type"] == "win"]
    assert (win["tile"], win["kind"], win["hand"].count("1s")) == ("1s", "self_draw", 3)
    score = win["score"]
    assert (score["pattern"], score["capped_fan"]) == ("basic", 5)
    assert score["bonuses"] == [{"name": "four_wilds", "count": 1, "fan": 5}]
    # Exponential with base 1 and no offset: 2^5 from each seat.
    assert payments(game.events) == [(s, 0, 32, "self_draw") for s in (1, 2, 3)]


def first_seed_dealing_four_wilds(dealer: bool):
    for seed in range(100_000):
        game = Game("yaoji", seed=seed)
        for s in range(4):
            if hand(game, s).count("1s") == 4 and (s == game.dealer) == dealer:
                return game, s
    raise AssertionError("no deal with four wilds")


def test_a_non_dealer_dealt_four_wilds_wins_before_the_dealers_first_turn():
    game, s = first_seed_dealing_four_wilds(dealer=False)
    while game.phase in ("exchange", "void"):
        for p in game.to_act():
            game.act(p, game.default_action(p))
    assert hand(game, s).count("1s") == 4, "the exchange never moves a wild"
    assert game.to_act() == [s] and legal(game, s) == {"win"}
    game.act(s, Action.win())
    [win] = [e for e in game.events if e["type"] == "win"]
    assert (win["seat"], win["tile"], len(win["hand"])) == (s, "1s", 12)
    assert win["score"]["capped_fan"] == 5
    assert game.to_act() == [game.dealer]
    assert len(game.hand(game.dealer)) == 14
    while not game.is_over:
        p = game.to_act()[0]
        game.act(p, game.default_action(p))
    assert sum(game.scores) == 0
    assert Game.from_events(game.events).events == game.events


def test_no_wild_bonus_counts_wilds_in_the_concealed_hand_only():
    def bonuses(hand, melds=()):
        game = table(hand, melds=melds, drawn="9p")
        game.act(0, Action.win())
        [win] = [e for e in game.events if e["type"] == "win"]
        return [b["name"] for b in win["score"]["bonuses"]]

    assert bonuses("123m456m789m22p789p") == ["no_wild"]
    assert bonuses("123m456m789m22p89p1s") == []
    assert bonuses("456m789m22p789p", melds=["33m1s"]) == ["no_wild"]


def test_a_wild_is_never_exchanged_and_never_discarded_in_random_hands():
    import random

    rng = random.Random(6)
    for seed in range(30):
        game = Game("yaoji", seed=seed)
        while not game.is_over:
            p = game.to_act()[0]
            actions = game.legal_actions(p)
            for a in actions:
                if a.kind == "exchange":
                    assert "1s" not in [str(t) for t in a.tiles]
                if a.kind == "discard" and str(a.tile) == "1s":
                    assert set(hand(game, p)) == {"1s"}
            game.act(p, rng.choice(actions))
        assert sum(game.scores) == 0


def test_snapshots_keep_melds_holding_wilds_and_refuse_impossible_ones():
    game = table("5m7m234m899p", melds=["555m1s", "77m1s"], drawn="9p")
    game.act(0, Action.swap("5m"))
    text = game.to_json()
    assert '{"kind": "kong", "tile": "5m", "wilds": 0}' in text
    assert '{"kind": "pong", "tile": "7m", "wilds": 1}' in text
    assert Game.from_json(text, trusted=True).to_json() == text  # a crafted position
    from xueliu import SnapshotError

    with pytest.raises(SnapshotError, match="at most 1"):
        table("5m7m234m899p", melds=["555m1s", "7m11s"], drawn="9p")
    seats = [seat("5m234m899p", melds=["55m1s"], void="s")] + [seat(h, void=v) for h, v in OTHERS]
    with pytest.raises(SnapshotError, match="幺鸡"):
        position("xuezhan", seats=seats, pending=turn(0, "draw", "9m"))


def test_a_restored_log_names_a_melds_wilds_only_in_the_yaoji_variant():
    """A meld event's `wilds` is written in the 幺鸡 variant only, as 0 if a crafted log leaves
    it out; under other rules a crafted `wilds` is dropped, so the restored game writes its log
    as its own games do."""
    others = [seat(h, void=v) for h, v in OTHERS]
    natural = position("xuezhan", seats=[seat("1111m2345678999m", void="s"), *others], pending=turn(0, "draw", "9m"))

    def restored(game, **wilds):
        snapshot = json.loads(game.to_json())
        snapshot["events"].append({"type": "pong", "seat": 0, "tile": "1m", "from": 1, **wilds})
        return Game.from_json(json.dumps(snapshot), trusted=True).events[-1]

    pong = {"type": "pong", "seat": 0, "tile": "1m", "from": 1}
    assert restored(table("111m1s2345678m999p", drawn="9p")) == {**pong, "wilds": 0}
    assert restored(natural, wilds=1) == pong
