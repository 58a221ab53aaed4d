"""Settlement (RULES.md §8–§9; docs/game-protocol.md §8): 天胡 and 地胡, 杠上花 and every 点杠花
mode, 杠上炮 and every `kong_income_transfer` mode, `self_draw_payers`, and the end of the hand by
流局 (查花猪, 查叫, 补差价, 退税 in that order). Points always sum to zero."""

import pytest
from positions import payments, position, respond, seat, turn, win_record

from xueliu import Action

# Background seats that never touch the m tiles the active seats play with.
QA = "1122334455667p"  # void s
QC = "778899p1122334s"  # void m


def quiet(h, void):
    return seat(h, void=void)


def test_heavenly_the_dealers_first_fourteen_win_as_a_self_draw():
    game = position(
        "chengdu",
        seats=[seat("123m456m789m234s11s", void="p", turn=1, draws=0), quiet(QA, "s"), quiet(QA, "s"), quiet(QC, "m")],
        pending=turn(0, "first"),
        claimed=False,
    )
    game.act(0, Action.win())
    win = game.wins[0]
    assert (win.kind, win.from_seat, win.score.pattern) == ("self_draw", None, "heavenly")
    # heavenly 6 fan: 6 × 2^(6-1) = 192 from each other seat.
    assert payments(game.events) == [(1, 0, 192, "self_draw"), (2, 0, 192, "self_draw"), (3, 0, 192, "self_draw")]


@pytest.mark.parametrize("claimed, pattern, points", [(False, "earthly", 192), (True, "basic", 6)])
def test_earthly_a_non_dealers_first_draw_before_any_pong_or_kong(claimed, pattern, points):
    game = position(
        "chengdu",
        seats=[quiet(QA, "s"), seat("123m456m789m234s11s", void="p", turn=1, draws=1), quiet(QA, "s"), quiet(QC, "m")],
        pending=turn(1, "draw", "1s"),
        claimed=claimed,
    )
    game.act(1, Action.win())
    assert game.wins[0].score.pattern == pattern
    assert payments(game.events) == [(p, 1, points, "self_draw") for p in (0, 2, 3)]


def test_kong_flower_a_win_on_the_replacement_tile():
    game = position(
        "chengdu",
        seats=[seat("5555m123m789m11s44s", void="p"), quiet(QA, "s"), quiet(QA, "s"), quiet(QC, "m")],
        wall="4s",
        pending=turn(0, "draw", "1s"),
    )
    game.act(0, Action.kong("5m"))
    game.act(0, Action.win())
    bonuses = {b["name"] for b in game.wins[0].score.to_dict()["bonuses"]}
    assert bonuses == {"concealed_kong", "kong_flower"}
    # basic 1 + concealed kong 1 + 杠上花 1 = 3 fan = 24, after the kong's 12 from each.
    assert payments(game.events) == [(p, 0, 12, "kong") for p in (1, 2, 3)] + [
        (p, 0, 24, "self_draw") for p in (1, 2, 3)
    ]


@pytest.mark.parametrize(
    "mode, paid",
    [
        ("feeder_pays_all", [(1, 0, 72, "kong_flower_feeder")]),
        ("all_pay", [(1, 0, 24, "self_draw"), (2, 0, 24, "self_draw"), (3, 0, 24, "self_draw")]),
        ("as_discard_win", [(1, 0, 24, "kong_flower_feeder")]),
    ],
)
def test_kong_flower_after_a_direct_kong_every_mode(mode, paid):
    game = position(
        "chengdu",
        kong_flower_after_direct_kong=mode,
        seats=[seat("555m123m789m11s44s", void="p"), quiet(QA, "s"), quiet(QA, "s"), quiet(QC, "m")],
        river=[(1, "5m")],
        wall="4s",
        pending=respond(1, "5m"),
    )
    game.act(0, Action.kong("5m"))
    game.act(0, Action.win())
    # 直杠: the discarder pays 2 × 6; then basic 1 + exposed kong 1 + 杠上花 1 = 3 fan = 24.
    assert payments(game.events) == [(1, 0, 12, "kong")] + paid
    assert sum(game.scores) == 0


@pytest.mark.parametrize(
    "preset, paid",
    [
        # Seed 004, 血战幺鸡 另加番 1: 「如果某个玩家放杠给另一个玩家，此时被杠上开花胡牌后，需要包掉另外
        # 两家所输的分」: the feeder pays for all three. 0 + exposed kong 1 + 杠上花 1 + 无鸡 1 = 3
        # fan = 8 from each of three.
        ("yaoji", [(1, 0, 24, "kong_flower_feeder")]),
        # xuezhan follows seed 004's 血战到底 part, silent on it: every seat pays its own 2 fan = 4.
        ("xuezhan", [(1, 0, 4, "self_draw"), (2, 0, 4, "self_draw"), (3, 0, 4, "self_draw")]),
    ],
)
def test_yaoji_kong_flower_after_a_direct_kong_is_paid_by_the_feeder(preset, paid):
    game = position(
        preset,
        seats=[seat("555m123m789m22s44s", void="p"), quiet(QA, "s"), quiet(QA, "s"), quiet(QC, "m")],
        river=[(1, "5m")],
        wall="4s",
        pending=respond(1, "5m"),
    )
    game.act(0, Action.kong("5m"))
    game.act(0, Action.win())
    assert payments(game.events) == [(1, 0, 2, "kong")] + paid


@pytest.mark.parametrize(
    "mode, transfer",
    [
        ("none", []),
        ("last_kong", [(0, 1, 36, "kong_transfer")]),
        ("all_kongs", [(0, 1, 36, "kong_transfer")]),
        ("refund_to_payers", [(0, 1, 12, "kong_transfer"), (0, 2, 12, "kong_transfer"), (0, 3, 12, "kong_transfer")]),
        ("kong_chain", [(0, 1, 36, "kong_transfer")]),
    ],
)
def test_kong_shot_and_every_kong_income_transfer_mode(mode, transfer):
    game = position(
        "chengdu",
        kong_income_transfer=mode,
        seats=[
            seat("5555m123m789m11s44s", void="p"),
            seat("234m678m789m999s6s", void="p"),
            quiet(QA, "s"),
            quiet(QC, "m"),
        ],
        wall="6s",
        pending=turn(0, "draw", "1s"),
    )
    game.act(0, Action.kong("5m"))
    game.act(0, Action.discard("6s"))
    game.act(1, Action.win())
    assert "kong_shot" in {b["name"] for b in game.wins[0].score.to_dict()["bonuses"]}
    # Kong: 12 from each; win: basic 1 + 杠上炮 1 = 2 fan = 12; then 呼叫转移 right after.
    assert payments(game.events) == [(p, 0, 12, "kong") for p in (1, 2, 3)] + [(0, 1, 12, "win")] + transfer
    assert sum(game.scores) == 0


@pytest.mark.parametrize("payers, paid_by", [("not_won", (1, 3)), ("all_others", (1, 2, 3))])
def test_self_draw_payers_in_xueliu(payers, paid_by):
    winner = seat(QA, void="s", wins=1)
    game = position(
        "chengdu_xueliu",
        self_draw_payers=payers,
        seats=[seat("123m456m789m11s444s", void="p"), seat(QA, void="s"), winner, seat("8899p223355667s", void="m")],
        wins=[win_record(2, "7p", QA, from_seat=3)],
        scores=(0, 0, 0, 0),
        pending=turn(0, "draw", "4s"),
    )
    game.act(0, Action.win())
    # basic 1 fan = 6 from each payer.
    assert payments(game.events) == [(p, 0, 6, "self_draw") for p in paid_by]
    # 血流: the winner stays; the next seat after the self-drawer draws.
    assert game.events[-1]["type"] == "draw" and game.events[-1]["seat"] == 1


def drawn_out(preset, s3, kongs=(), scores=(0, 0, 0, 0), s1=None, **overrides):
    """The wall is empty; seat 0 drew the last tile and discards 9s, which nobody claims."""
    return position(
        preset,
        seats=[seat("123m456m789m11s24s9s", void="p"), s1 or seat(QA, void="p"), seat(QA, void="s"), s3],
        wall_len=0,
        kongs=list(kongs),
        scores=scores,
        pending=turn(0, "draw", "9s"),
        **overrides,
    )


def test_flower_pig_is_a_hand_of_three_suits():
    # Seed 000 「筒子、條子、萬子三種類型的牌都有」, seed 001 §二.1, seed 004 §四.7 「若手上的牌还有3种
    # 花色的话」: seat 1 holds only p, its declared void, so it is no pig: it is not ready and pays
    # 查叫 (6 to seat 0, 96 to seat 2) like seat 3.
    game = drawn_out("chengdu", seat("778899p1122346s", void="m"))
    game.act(0, Action.discard("9s"))
    assert payments(game.events) == [
        (1, 0, 6, "not_ready"),
        (1, 2, 96, "not_ready"),
        (3, 0, 6, "not_ready"),
        (3, 2, 96, "not_ready"),
    ]
    # A hand still holding m, p and s is the pig: 5 fan = 96 to each ready player.
    game = drawn_out("chengdu", seat("778899p1122346s", void="m"), s1=seat("12m1122334455p5s", void="s"))
    game.act(0, Action.discard("9s"))
    assert payments(game.events)[:2] == [(1, 0, 96, "flower_pig"), (1, 2, 96, "flower_pig")]


def test_drawn_hand_chengdu_flower_pig_then_not_ready():
    # The platform variant flower_pig_rule = "void_held" (RULES.md §9.1): any tile of the void suit.
    game = drawn_out("chengdu", seat("778899p1122346s", void="m"), flower_pig_rule="void_held")
    game.act(0, Action.discard("9s"))
    # Seat 0 waits on 3s: basic 1 fan = 6. Seat 2 waits on 7p: flush seven pairs 5 fan = 96.
    # Seat 1 is a pig (holds p, its void): 5 fan = 6 × 2^4 = 96 to each ready player.
    # Seat 3 is neither ready nor a pig: it pays each ready player its best wait.
    assert payments(game.events) == [
        (1, 0, 96, "flower_pig"),
        (1, 2, 96, "flower_pig"),
        (3, 0, 6, "not_ready"),
        (3, 2, 96, "not_ready"),
    ]
    assert game.events[-1] == {"type": "end", "reason": "wall_empty", "scores": game.scores}
    assert game.scores == [102, -192, 192, -102] and game.is_over


def test_drawn_hand_xuezhan_pig_not_ready_difference_and_tax_refund_in_order():
    kong = {"owner": 3, "tile": "5s", "kind": "concealed", "feeder": None, "paid": [2, 2, 2, 0], "transferred": False}
    s3 = seat("778899p1346s", melds=["5555s!"], void="m")
    game = drawn_out("xuezhan", s3, kongs=[kong], scores=(-2, -2, -2, 6), flower_pig_rule="void_held")
    game.act(0, Action.discard("9s"))
    # xuezhan: base 1, offset 0. Seat 0's wait 3s: basic 0 fan = 1; seat 2's 7p: flush seven
    # pairs 4 fan = 16. Pig: 4 fan = 16 to every non-pig. Not ready: seat 3 pays 1 and 16.
    # 补差价: seat 0 pays seat 2 16 - 1 = 15. 退税: seat 3 (not ready) repays its kong's 2s.
    assert payments(game.events) == [
        (1, 0, 16, "flower_pig"),
        (1, 2, 16, "flower_pig"),
        (1, 3, 16, "flower_pig"),
        (3, 0, 1, "not_ready"),
        (3, 2, 16, "not_ready"),
        (0, 2, 15, "ready_difference"),
        (3, 0, 2, "tax_refund"),
        (3, 1, 2, "tax_refund"),
        (3, 2, 2, "tax_refund"),
    ]
    assert sum(game.scores) == 0 and game.events[-1]["reason"] == "wall_empty"


def test_tax_refund_repays_every_payer_including_one_who_has_since_won():
    # Seed 004 §四.10 「未下叫者（包括花猪）将退回所有刮风下雨的所得」 (all of it), seed 002 計分規則 4,
    # RULES.md §9.4: chengdu (血战). Seat 3's 暗杠 5s was paid 12 by each of seats 0, 1, 2; seat 1
    # then won and left. At 流局 seat 3 is not ready: it repays all three, the winner included.
    kong = {
        "owner": 3,
        "tile": "5s",
        "kind": "concealed",
        "feeder": None,
        "paid": [12, 12, 12, 0],
        "transferred": False,
    }
    won = "1122334455669p"
    s1 = seat(won, void="s", wins=1)
    s3 = seat("778899p1346s", melds=["5555s!"], void="m")
    earlier = win_record(1, "9p", won, from_seat=0)
    game = drawn_out("chengdu", s3, kongs=[kong], scores=(-12, -12, -12, 36), s1=s1, wins=[earlier])
    game.act(0, Action.discard("9s"))
    refunds = [p for p in payments(game.events) if p[3] == "tax_refund"]
    assert refunds == [(3, 0, 12, "tax_refund"), (3, 1, 12, "tax_refund"), (3, 2, 12, "tax_refund")]
    assert game.events[-1]["reason"] == "wall_empty"
