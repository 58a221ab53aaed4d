"""Kongs (RULES.md §3, §6, §9; docs/game-protocol.md §5, §8): direct (直杠), added (补杠) and
concealed (暗杠) kongs with replacement draws and 刮风下雨 payments, `kong_draw_from`, no kong
on an empty wall, robbing a kong (抢杠, `rob_concealed_kong`) and every `late_kong` mode."""

import json

import pytest
from positions import payments, position, respond, seat, turn

from xueliu import Action

OTHERS = ["46m123m789m999m11p", "223344556677p8p", "11m22m33m66m77m88m4m"]
# Nobody waits on 5m.
NO_ROBBER = ["11m22m33m44m66m77m9m", "223344556677p8p", "22m33m66m77m88m4m1m9m"]


def kong_turn(preset="chengdu", hand="5555m123456789p1m", melds=(), drawn="1m", seat0=None, **overrides):
    """Seat 0 to move after drawing `drawn`; seat 1 waits on 5m (4_6m), seats 2-3 do not."""
    s0 = seat0 or seat(hand, melds=melds, void="s")
    return position(
        preset,
        seats=[s0] + [seat(h, void="s") for h in OTHERS],
        pending=turn(0, "draw", drawn),
        **overrides,
    )


def legal(game, s):
    return {str(a) for a in game.legal_actions(s)}


def snapshot(game):
    return json.loads(game.to_json())


def test_a_concealed_kong_is_paid_by_each_other_seat_then_a_replacement_is_drawn():
    game = kong_turn()
    front = snapshot(game)["wall"][0]
    assert "kong 5m" in legal(game, 0)
    game.act(0, Action.kong("5m"))
    assert game.events[0] == {"type": "kong", "seat": 0, "tile": "5m", "kind": "concealed", "from": None, "late": False}
    # chengdu: concealed 2 × base 6 from each seat that has not won (下雨).
    assert payments(game.events) == [(1, 0, 12, "kong"), (2, 0, 12, "kong"), (3, 0, 12, "kong")]
    assert game.events[4] == {"type": "draw", "seat": 0, "tile": front, "replacement": True}
    assert [(m.kind, str(m)) for m in game.melds(0)] == [("concealed_kong", "5555m")]
    assert game.to_act() == [0] and game.wall_remaining == snapshot(game)["wall"].__len__()


def test_kong_draw_from_back_takes_the_replacement_from_the_end_of_the_wall():
    game = kong_turn(kong_draw_from="back")
    back = snapshot(game)["wall"][-1]
    game.act(0, Action.kong("5m"))
    assert game.events[-1] == {"type": "draw", "seat": 0, "tile": back, "replacement": True}


def test_an_added_kong_is_paid_one_base_by_each_other_seat():
    # Seat 1 no longer waits on 5m here, so nobody can rob.
    s0 = seat("5m123456789p1m", melds=["555m"], void="s")
    game = position(
        "chengdu",
        seats=[s0] + [seat(h, void="s") for h in NO_ROBBER],
        pending=turn(0, "draw", "5m"),
    )
    game.act(0, Action.kong("5m"))
    assert game.events[0]["kind"] == "added" and game.events[0]["late"] is False
    assert payments(game.events) == [(1, 0, 6, "kong"), (2, 0, 6, "kong"), (3, 0, 6, "kong")]
    assert game.events[4]["type"] == "draw" and game.events[4]["replacement"] is True


def test_a_direct_kong_is_paid_by_the_discarder_alone():
    game = position(
        "chengdu",
        seats=[
            seat("555m123456789p1m", void="s"),
            seat("11m22m33m44m66m77m9m", void="s"),
            seat("223344556677p8p", void="s"),
            seat("22m33m66m77m88m4m1m9m", void="s"),
        ],
        river=[(1, "5m")],
        pending=respond(1, "5m"),
    )
    assert legal(game, 0) == {"kong 5m", "pong", "pass"}
    game.act(0, Action.kong("5m"))
    assert game.events[0] == {"type": "kong", "seat": 0, "tile": "5m", "kind": "direct", "from": 1, "late": False}
    assert payments(game.events) == [(1, 0, 12, "kong")]
    assert game.events[2]["type"] == "draw" and game.events[2]["replacement"] is True
    assert game.to_act() == [0] and game.discards(1) == []


def test_dashiyou_kongs_pay_nothing_they_only_add_fan():
    game = kong_turn("dashiyou")
    game.act(0, Action.kong("5m"))
    assert payments(game.events) == []


def test_no_kong_when_the_wall_is_empty():
    game = kong_turn(wall_len=0)
    assert not any(a.startswith("kong") for a in legal(game, 0))


def test_a_seat_that_wins_with_the_added_tile_may_rob_the_kong():
    s0 = seat("5m123456789p1m", melds=["555m"], void="s")
    game = kong_turn(seat0=s0, drawn="5m")
    game.act(0, Action.kong("5m"))
    assert game.to_act() == [1] and legal(game, 1) == {"win", "pass"}
    game.act(1, Action.win())
    kinds = [e["type"] for e in game.events]
    assert kinds == ["kong", "robbed", "win", "payment", "draw"]
    assert game.events[1] == {"type": "robbed", "seat": 0, "tile": "5m"}
    win = game.events[2]
    assert (win["seat"], win["tile"], win["from"], win["kind"]) == (1, "5m", 0, "robbed_kong")
    # basic 1 + a root (four 9m) 1 + 抢杠 1 = 3 fan: 6 × 2^(3-1) = 24, paid by the kong's owner;
    # no kong payment.
    assert payments(game.events) == [(0, 1, 24, "win")]
    assert [str(m) for m in game.melds(0)] == ["555m"] and "5m" not in [str(t) for t in game.hand(0)]
    assert game.events[4]["seat"] == 2  # after the robber


def test_a_robbing_pass_lets_the_kong_stand():
    s0 = seat("5m123456789p1m", melds=["555m"], void="s")
    game = kong_turn(seat0=s0, drawn="5m")
    game.act(0, Action.kong("5m"))
    game.act(1, Action.pass_())
    kinds = [e["type"] for e in game.events]
    assert kinds == ["kong", "pass", "payment", "payment", "payment", "draw"]
    assert game.events[1] == {"type": "pass", "seat": 1, "on": "kong", "could": ["win"]}


@pytest.mark.parametrize("preset, robbable", [("chengdu", False), ("dashiyou", True)])
def test_rob_concealed_kong(preset, robbable):
    game = kong_turn(preset)
    game.act(0, Action.kong("5m"))
    assert (game.to_act() == [1]) == robbable
    if robbable:
        game.act(1, Action.win())
        assert game.events[1] == {"type": "robbed", "seat": 0, "tile": "5m"}
        assert game.melds(0) == [] and [str(t) for t in game.hand(0)].count("5m") == 3


LATE_MODES = ["full", "root_only", "kept_fourth_forbidden", "forbidden"]


@pytest.mark.parametrize("mode", LATE_MODES)
def test_a_concealed_kong_of_a_fourth_kept_from_an_earlier_turn(mode):
    # The four 5m arrived on turn 1; this is turn 3.
    s0 = seat("5555m123456789p1m", void="s", turn=3)
    game = kong_turn(seat0=s0, late_kong=mode)
    # Seeds 001 §三.3 / 003 §3 「杠牌可隨時進行…但不能碰牌後補杠以前碰過的牌」: only a kept fourth
    # added onto an earlier pong is forbidden, so kept_fourth_forbidden allows this late 暗杠.
    allowed = mode != "forbidden"
    assert ("kong 5m" in legal(game, 0)) == allowed
    if allowed:
        game.act(0, Action.kong("5m"))
        assert game.events[0]["late"] is True
        # root_only too: its two cases are both about a pong (seed 002 計分規則 12).
        assert payments(game.events) == [(1, 0, 12, "kong"), (2, 0, 12, "kong"), (3, 0, 12, "kong")]
        assert snapshot(game)["seats"][0]["root_only_kongs"] == []


@pytest.mark.parametrize("mode", LATE_MODES)
def test_a_kong_konged_on_the_turn_its_fourth_arrived_is_never_late(mode):
    arrival = [1] * 27
    arrival[4] = 3  # the fourth 5m was drawn this turn
    s0 = seat("5555m123456789p1m", void="s", turn=3, arrival=arrival)
    game = kong_turn(seat0=s0, drawn="5m", late_kong=mode)
    game.act(0, Action.kong("5m"))
    assert game.events[0]["late"] is False and len(payments(game.events)) == 3


@pytest.mark.parametrize("mode", LATE_MODES)
def test_an_added_kong_onto_a_pong_made_with_three_in_hand(mode):
    # Seat 0 ponged 5m holding three; the fourth stayed in hand. Seat 1 cannot rob (no 5m wait).
    s0 = seat("5m123456789p1m", melds=["555m"], void="s", turn=3, pong_with_three="5m")
    game = position(
        "chengdu",
        late_kong=mode,
        seats=[s0] + [seat(h, void="s") for h in NO_ROBBER],
        pending=turn(0, "draw", "1m"),
    )
    allowed = mode != "forbidden"
    assert ("kong 5m" in legal(game, 0)) == allowed
    if allowed:
        game.act(0, Action.kong("5m"))
        assert game.events[0]["late"] is True
        expected = [] if mode == "root_only" else [(1, 0, 6, "kong"), (2, 0, 6, "kong"), (3, 0, 6, "kong")]
        assert payments(game.events) == expected


@pytest.mark.parametrize("mode", LATE_MODES)
def test_an_added_kong_of_a_fourth_drawn_on_an_earlier_turn(mode):
    arrival = [1] * 27
    arrival[4] = 2  # drawn on turn 2, not konged then; this is turn 3
    s0 = seat("5m123456789p1m", melds=["555m"], void="s", turn=3, arrival=arrival)
    game = position(
        "chengdu",
        late_kong=mode,
        seats=[s0] + [seat(h, void="s") for h in NO_ROBBER],
        pending=turn(0, "draw", "1m"),
    )
    assert ("kong 5m" in legal(game, 0)) == (mode in ("full", "root_only"))


def test_a_root_only_kong_scores_as_a_root_in_a_later_win():
    # xuezhan-style: kong fan 1, root 1. Seat 0 ponged 5m and drew the fourth on turn 2 without
    # konging it (seed 002 計分規則 12's second case); its added kong on turn 3 under root_only is
    # a root. It then wins by self-draw on the replacement.
    arrival = [1] * 27
    arrival[4] = 2
    s0 = seat("5m123p789p88p99p", melds=["555m"], void="s", turn=3, arrival=arrival)
    game = position(
        "xuezhan",
        late_kong="root_only",
        seats=[s0] + [seat(h, void="s") for h in NO_ROBBER],
        wall="9p",
        pending=turn(0, "draw", "8p"),
    )
    game.act(0, Action.kong("5m"))
    assert game.events[-1] == {"type": "draw", "seat": 0, "tile": "9p", "replacement": True}
    game.act(0, Action.win())
    score = game.wins[0].score.to_dict()
    names = {b["name"]: b["count"] for b in score["bonuses"]}
    # basic 0 + roots 2 (four 9p, and the kong as a root) + 杠上花 1 = 3 fan; counted as a
    # kong it would have been one root and an exposed kong worth 1.
    assert names == {"root": 2, "kong_flower": 1} and score["fan"] == 3


def test_root_only_leaves_a_late_concealed_kong_a_full_rain():
    # Seed 002 計分規則 12 「自己三張，碰了之後下輪再杠隻算根…碰牌後，摸到第四張不及時杠，之後再杠時隻算根」
    # names two cases, both about a pong (RULES.md §6). Three concealed 5m, the fourth drawn on
    # turn 2 and konged (暗杠) on turn 3 is a full 下雨 under root_only: paid, and scored as a kong.
    arrival = [1] * 27
    arrival[4] = 2
    s0 = seat("5555m123p789p88p99p", void="s", turn=3, arrival=arrival)
    game = position(
        "xuezhan",
        late_kong="root_only",
        seats=[s0] + [seat(h, void="s") for h in NO_ROBBER],
        wall="9p",
        pending=turn(0, "draw", "8p"),
    )
    game.act(0, Action.kong("5m"))
    assert game.events[0]["late"] is True
    # xuezhan: concealed 2 × base 1 from each other seat.
    assert payments(game.events) == [(1, 0, 2, "kong"), (2, 0, 2, "kong"), (3, 0, 2, "kong")]
    game.act(0, Action.win())
    score = game.wins[0].score.to_dict()
    names = {b["name"]: b["count"] for b in score["bonuses"]}
    # basic 0 + root 1 (four 9p) + concealed kong 2 + 杠上花 1 = 4 fan.
    assert names == {"root": 1, "concealed_kong": 1, "kong_flower": 1} and score["fan"] == 4


@pytest.mark.parametrize("preset", ["sanxia", "chengdu_xueliu"])
def test_sanxia_and_chengdu_xueliu_allow_a_late_concealed_kong_but_not_a_kept_fourth_added(preset):
    # Seeds 001 §三.3 and 003 §3: 「杠牌可隨時進行…但不能碰牌後補杠以前碰過的牌」 — kongs any time; only
    # adding a kept fourth to an earlier pong is forbidden.
    late_concealed = kong_turn(preset, seat0=seat("5555m123456789p1m", void="s", turn=3))
    assert "kong 5m" in legal(late_concealed, 0)
    arrival = [1] * 27
    arrival[4] = 2
    kept = seat("5m123456789p1m", melds=["555m"], void="s", turn=3, arrival=arrival)
    late_added = position(preset, seats=[kept] + [seat(h, void="s") for h in NO_ROBBER], pending=turn(0, "draw", "1m"))
    assert "kong 5m" not in legal(late_added, 0)
