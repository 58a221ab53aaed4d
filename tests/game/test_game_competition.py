"""The competition presets in play (docs/presets.md): the worked examples and settlements of MIL
四川麻将（SBR）竞赛规则 2025 and T/TFMJ 01—2024 (research note competition-presets.md §5) that need a
game: 及时雨 add kongs, 杠上炮, 海底 and the pig at a drawn wall. Expected payments are the
rulebooks', worked out by hand."""

import json

import pytest
from positions import passed_win, payments, position, respond, seat, turn

import xueliu
from xueliu import Action, Game, Rules

QA = "1122334455667p"  # void s
QC = "778899p1122334s"  # void m


def legal(game, s):
    return {str(a) for a in game.legal_actions(s)}


def kong_choice(preset):
    """Seat 0 ponged 6m and 9m; its 6m arrived on turn 1, the 9m was just drawn on turn 3."""
    arrival = [1] * 27
    arrival[8] = 3
    s0 = seat("1134678m9m", melds=["666m", "999m"], void="s", turn=3, arrival=arrival)
    return position(
        preset,
        seats=[s0, seat(QA, void="s"), seat(QA, void="s"), seat(QC, void="m")],
        pending=turn(0, "draw", "9m"),
    )


def test_mil_an_added_kong_with_the_tile_just_drawn_is_paid():
    # MIL Art.10-1(2)1 (及时雨), example M-K1: adding the drawn 9m to pong(999m) collects 1 from each.
    game = kong_choice("mil_sbr_2025")
    assert {"kong 6m", "kong 9m"} <= legal(game, 0)
    game.act(0, Action.kong("9m"))
    assert payments(game.events) == [(1, 0, 1, "kong"), (2, 0, 1, "kong"), (3, 0, 1, "kong")]


def test_mil_an_added_kong_with_a_kept_tile_stands_unpaid():
    # M-K1: adding the 6m kept in hand to pong(666m) is allowed, counts as a kong, and collects 0.
    game = kong_choice("mil_sbr_2025")
    game.act(0, Action.kong("6m"))
    assert game.events[0]["late"] is True and payments(game.events) == []
    assert ("kong", "6666m") in [(m.kind, str(m)) for m in game.melds(0)]


def test_tfmj_an_added_kong_needs_the_tile_just_drawn():
    # TF-33 (ES §3 「用于加杠的第四张必须是该回合刚摸到的牌」): the kept 6m cannot be added; the drawn 9m can.
    game = kong_choice("tfmj_2024")
    kongs = {a for a in legal(game, 0) if a.startswith("kong")}
    assert kongs == {"kong 9m"}


# The dealer kongs its dealt 9999m; seat 1 (L) waits on 9p, which the dealer then discards.
KONG_SHOT = ["2345679999m1239p", "111234567m2349p", "1122334455667s", "5566788p778899s"]


@pytest.mark.parametrize(
    "preset, scores",
    [
        # MIL Art.10-1(4) 「杠上炮，则其这个杠所获取的分数需要退回（退税，无呼叫转移）」, M-D3: the dealer
        # refunds 2 to each payer and pays 平和 + 杠上炮 = 1 fan = 2.
        ("mil_sbr_2025", [-2, 2, 0, 0]),
        # T/TFMJ (ES §9), TF-1: the kong income (6) goes to the winner, the payers are not refunded.
        ("tfmj_2024", [-2, 6, -2, -2]),
    ],
)
def test_kong_shot_after_a_concealed_kong(preset, scores):
    game = position(
        preset,
        seats=[seat(KONG_SHOT[0], void="s", turn=1, draws=0)] + [seat(h, void=v) for h, v in zip(KONG_SHOT[1:], "smm")],
        wall="5m5m",  # the replacement is a 5m from either end
        wall_len=2,
        pending=turn(0, "first"),
        claimed=False,
        win_reveal="immediate",  # the win paid at once, to read its points now (N18)
    )
    game.act(0, Action.kong("9m"))
    assert payments(game.events) == [(1, 0, 2, "kong"), (2, 0, 2, "kong"), (3, 0, 2, "kong")]
    game.act(0, Action.discard("9p"))
    game.act(1, Action.win())
    assert game.wins[0].score.fan == 1 and game.scores == scores


L = "111234567m2349p"  # waits 9p, 平胡 0
# Seats beside L that never touch its tiles.
BESIDE_L = [seat("1122334455667s", void="m"), seat("5566778899m556p", void="s")]


@pytest.mark.parametrize("preset", ["mil_sbr_2025", "tfmj_2024"])
def test_last_tile_self_draw(preset):
    # 海底捞月 (MIL Art.10-2(6)⑩, TF-25): L self-draws 9p, the wall's last tile: 1 fan, 2 + 1 from each.
    game = position(
        preset,
        seats=[seat(L + "9p", void="s"), *BESIDE_L, seat(QC, void="m")],
        wall_len=0,
        pending=turn(0, "draw", "9p"),
    )
    game.act(0, Action.win())
    bonuses = {b["name"] for b in game.wins[0].score.to_dict()["bonuses"]}
    assert bonuses == {"last_tile_self_draw"}
    assert payments(game.events) == [(p, 0, 3, "self_draw") for p in (1, 2, 3)]


@pytest.mark.parametrize("preset", ["mil_sbr_2025", "tfmj_2024"])
def test_last_discard_win(preset):
    # 海底炮 (MIL ⑩, TF-25): seat 3 drew the last tile and discards 9p; L wins on it: 1 fan = 2.
    game = position(
        preset,
        seats=[seat(L, void="s"), *BESIDE_L, seat(QC + "9p", void="m")],
        wall_len=0,
        pending=turn(3, "draw", "9p"),
    )
    game.act(3, Action.discard("9p"))
    game.act(0, Action.win())
    bonuses = {b["name"] for b in game.wins[0].score.to_dict()["bonuses"]}
    assert bonuses == {"last_discard_win"} and payments(game.events) == [(3, 0, 2, "win")]


@pytest.mark.parametrize("preset", ["mil_sbr_2025", "tfmj_2024"])
def test_a_flower_pig_pays_as_a_player_not_ready(preset):
    # MIL Art.10-3(3) 被动花猪 「仅按没叫处理」, T/TFMJ (ES §10) TF-6: at the drawn wall seat 0 still holds
    # a 9m of its void suit; seat 1 (L) is ready (平胡, 1); seats 2 and 3 are not. Seats 0, 2, 3 each
    # pay seat 1 one point; no fixed pig penalty.
    hands = ["99m123p456p789p11s2s", L, "13579m1357p2468p", "2468m123456789p"]
    game = position(
        preset,
        seats=[seat(h, void=v) for h, v in zip(hands, ["m", "s", "s", "s"])],
        wall_len=0,
        pending=turn(0, "draw", "2s"),
    )
    game.act(0, Action.discard("9m"))
    assert payments(game.events) == [(0, 1, 1, "not_ready"), (2, 1, 1, "not_ready"), (3, 1, 1, "not_ready")]
    assert game.scores == [-1, 3, -1, -1] and game.events[-1]["reason"] == "wall_empty"


@pytest.mark.parametrize(
    "preset, scores",
    [
        # MIL Art.10-3(2) Ex.1: the only wait is a "fifth" 9m against seat 0's own pong(999m), and it
        # counts: 大对子 1 + 根 1 (Art.10-3(4): the 9m's 根 once) = 2 fan, 4 from each not ready.
        ("mil_sbr_2025", [12, -4, -4, -4]),
        # T/TFMJ (ES §10) never waits on a fifth copy: nobody is ready, nobody pays.
        ("tfmj_2024", [0, 0, 0, 0]),
    ],
)
def test_a_fifth_copy_wait_at_a_drawn_wall(preset, scores):
    not_ready = [("1357m13579s2357s", "p"), ("2467m2468s12356s", "p"), ("3568m2357p23678p", "s")]
    game = position(
        preset,
        seats=[seat("9m111p5p", melds=["888m", "999m", "444p"], void="s")] + [seat(h, void=v) for h, v in not_ready],
        wall_len=0,
        pending=turn(0, "draw", "5p"),
    )
    game.act(0, Action.discard("5p"))
    assert game.events[-1]["reason"] == "wall_empty" and game.scores == scores


def winners_act(game, seats):
    for s in seats:
        assert "win" in legal(game, s), s
        game.act(s, Action.win())


BESIDE_A = [seat("1122334455667s", void="m"), seat("5566788p778899s", void="m")]


def test_tfmj_kong_shot_after_two_kongs_transfers_the_chain():
    # T/TFMJ (ES §9 「该次及连续杠的全部收入转给和家，原付款人不退款」), TF-2: the dealer kongs 1m (+6), kongs 2m
    # on its replacement (+6), discards the 9p drawn after it; seat 1 wins 平胡 + 杠上炮 = 1 fan (2) and
    # takes the chain's 12. Replacements come from the back: 5m, then 9p.
    game = position(
        "tfmj_2024",
        seats=[seat("11112222345m123p", void="s", turn=1, draws=0), seat("345678m2346789p", void="s"), *BESIDE_A],
        wall="5p9p5m",
        wall_len=3,
        pending=turn(0, "first"),
        claimed=False,
    )
    game.act(0, Action.kong("1m"))
    game.act(0, Action.kong("2m"))
    game.act(0, Action.discard("9p"))
    winners_act(game, [1])
    assert game.scores == [-2, 10, -4, -4]


def test_tfmj_kong_shot_on_three_winners_splits_the_chain_rounding_up():
    # TF-3 (ES §9 「每家取得 ceil(连续杠收入 / 荣家数)，不能整除的差额由放铳者补足」): seat 1 konges seat 0's 1m
    # (seat 0 pays 2), discards its replacement 9p, and seats 0, 2, 3 all win on it (1 fan each, 2);
    # the chain's 2 is split ⌈2/3⌉ = 1 to each, seat 1 paying 3.
    hands = [
        ("234567m234p678p9p1m", "s"),
        ("1112468m135678p", "s"),
        ("234567m345p567p9p", "s"),
        ("345678m234p678p9p", "s"),
    ]
    game = position(
        "tfmj_2024",
        seats=[seat(h, void=v) for h, v in hands],
        wall="5s9p",
        wall_len=2,
        pending=turn(0, "draw", "1m"),
    )
    game.act(0, Action.discard("1m"))
    game.act(1, Action.kong("1m"))
    game.act(1, Action.discard("9p"))
    winners_act(game, [2, 3, 0])
    assert game.scores == [1, -7, 3, 3]


# 过胡's refinements (N10, MIL Art.4-27 顺和, T/TFMJ ES §5), on positions.passed_win's hands.


@pytest.mark.parametrize("first, second, may_win", [("4m", "1m", False), ("1m", "4m", True)])
def test_mil_shunhe_a_win_no_higher_than_the_one_passed_is_refused(first, second, may_win):
    # M-D7 (Art.4-27 「和牌张番数小于等于未报和的牌张所对应的番数」): B passes a win and, before its next
    # draw, is offered one worth no more (refused: prevented rather than a −24 foul) or more (legal).
    game = passed_win("mil_sbr_2025", first)
    game.act(1, Action.pass_())
    game.act(3, Action.discard(second))
    assert ("win" in legal(game, 1)) == may_win


@pytest.mark.parametrize("compare, may_win", [("capped_fan", False), ("fan", True)])
def test_pass_win_compare_capped_or_not(compare, may_win):
    # With a 1-fan cap, 1m (1 fan) and 4m (2 fan) are equal capped: MIL compares 番数 uncapped
    # (`"fan"`), EllanServer payment tiers (`"capped_fan"`).
    game = passed_win("chengdu", "1m", pass_win_lock="until_draw_unless_higher", cap_fan=1, pass_win_compare=compare)
    game.act(1, Action.pass_())
    game.act(3, Action.discard("4m"))
    assert ("win" in legal(game, 1)) == may_win


# Seat 1 has drawn its winning 1m (23m444m789m999p11p waits on 1m and 4m); seat 2 holds a 1m and
# a 4m and will draw 8p.
SELF_DRAWN = ["88m99m123456789p", "123m444m789m999p11p", "14m556677m22p33p4p", "59m123p456p678p55p"]


@pytest.mark.parametrize("self_draw, second, may_win", [(True, "1m", False), (False, "1m", True), (True, "4m", True)])
def test_pass_win_lock_self_draw(self_draw, second, may_win):
    # MIL Art.4-27 「某一名选手（含 A 本身）打出 A 的和牌张，A 没有报和」: seat 1 discards its own winning
    # 1m instead of winning; before its next draw 下家 discards 1m (no more fan: refused) or 4m (a
    # root more: allowed).
    game = position(
        "chengdu",
        seats=[seat(h, void="s") for h in SELF_DRAWN],
        wall="8p",
        pending=turn(1, "draw", "1m"),
        pass_win_lock="until_draw_unless_higher",
        pass_win_lock_self_draw=self_draw,
    )
    assert "win" in legal(game, 1)
    game.act(1, Action.discard("1m"))
    assert game.to_act() == [2] and game.events[-1] == {"type": "draw", "seat": 2, "tile": "8p", "replacement": False}
    game.act(2, Action.discard(second))
    assert ("win" in legal(game, 1)) == may_win


# Seat 1 (123456789m11p45p) waits on 3p and 6p; it passes seat 2's 3p, then pongs seat 3's 1p.
PONG_AFTER_PASS = ["1122334455667s", "123456789m11p45p", "2233445566778s", "1m999m123456789p"]


@pytest.mark.parametrize(
    "after_pong, discard, declined",
    [
        ("kept_if_ready", "3m", None),  # 12m456m789m45p is not ready: the lock ends
        ("kept", "3m", 1),  # a pong draws no tile: the lock stands
        ("kept_if_ready", "4p", 1),  # 123456789m5p waits on 5p: still ready
    ],
)
def test_pass_win_lock_after_pong(after_pong, discard, declined):
    # MIL Art.4-27 「若 A 在碰牌后手牌未处于可和牌状态…不视为 A 顺和」; T/TFMJ 「到自己下一次摸牌前」.
    game = position(
        "chengdu",
        seats=[seat(h, void=v) for h, v in zip(PONG_AFTER_PASS, "msms")],
        river=[(2, "3p")],
        wall="5m",
        pending=respond(2, "3p"),
        pass_win_lock="until_draw_unless_higher",
        pass_win_lock_after_pong=after_pong,
    )
    game.act(1, Action.pass_())
    assert json.loads(game.to_json())["seats"][1]["declined"] == 1
    game.act(3, Action.discard("1p"))
    game.act(1, Action.pong())
    game.act(1, Action.discard(discard))
    assert json.loads(game.to_json())["seats"][1]["declined"] == declined


@pytest.mark.parametrize("preset", ["mil_sbr_2025", "tfmj_2024"])
def test_the_dealer_breaks_the_wall_with_two_dice(preset):
    # MIL Art.5-8 (T/TFMJ ES §1): two dice, thrown once by the dealer, logged; the wall is shuffled,
    # so the game is the one-die game's but for the second die, and a replay throws it again.
    for seed in range(5):
        two = Game(preset, seed=seed)
        one = Game(Rules.preset(preset, wall_break_dice=1), seed=seed)
        (dice,) = [e for e in two.events if e["type"] == "dice" and e["purpose"] == "wall"]
        (die,) = [e for e in one.events if e["type"] == "dice" and e["purpose"] == "wall"]
        assert dice["seat"] == two.dealer and len(dice["rolls"]) == 2 and dice["rolls"][0] == die["rolls"][0]
        rest = [e for e in two.events[1:] if e != dice]  # after the start, which names the rules
        assert rest == [e for e in one.events[1:] if e != die]
        assert Game.from_events(two.events).events == two.events


# The dealer holds pong(555p) and 9999m (the last 9m just drawn); the wall's next tile is the 5p.
# Seat 1 waits on 2p/5p with 平胡.
ROB_AFTER_KONG = [("12345679999m", "s"), ("111234567m3499p", "s"), ("1122334455667s", "m"), ("66778899p23456s", "m")]


@pytest.mark.parametrize(
    "kong_shot_on_rob, fan, scores",
    [
        # MIL ⑧ 「再次加杠的牌」 (N9): kong 9m (+2 from each), replacement 5p, add kong 5p, robbed: 平和 +
        # 抢杠 + 杠上炮 = 2 fan (4), and the 9m kong's 6 goes back to its payers (Art.10-1(4)).
        (True, 2, [-4, 4, 0, 0]),
        # Without it the robbing win is 抢杠 alone (1 fan, 2) and the 9m kong keeps its income.
        (False, 1, [4, 0, -2, -2]),
    ],
)
def test_mil_robbing_an_add_kong_made_after_a_kong_is_a_kong_shot(kong_shot_on_rob, fan, scores):
    arrival = [1] * 27
    arrival[8] = 3  # the 9m drawn now
    hands = [seat(h, void=v) for h, v in ROB_AFTER_KONG[1:]]
    game = position(
        "mil_sbr_2025",
        seats=[seat(ROB_AFTER_KONG[0][0], melds=["555p"], void="s", turn=3, arrival=arrival), *hands],
        wall="5p",
        pending=turn(0, "draw", "9m"),
        kong_shot_on_rob=kong_shot_on_rob,
        win_reveal="immediate",  # the win paid at once, to read its points now (N18)
    )
    game.act(0, Action.kong("9m"))
    game.act(0, Action.kong("5p"))
    assert legal(game, 1) == {"win", "pass"}
    # The open add kong remembers the kong before it: its snapshot passes the checks (trusted: a
    # crafted position has no seed to replay).
    assert Game.from_json(game.to_json(), trusted=True).to_json() == game.to_json()
    game.act(1, Action.win())
    (win,) = game.wins
    bonuses = {name for name, _ in win.score.bonuses}
    assert win.kind == "robbed_kong" and win.score.fan == fan
    assert bonuses == ({"rob_kong", "kong_shot"} if kong_shot_on_rob else {"rob_kong"})
    assert game.scores == scores


WIN_REASONS = ("win", "self_draw", "kong_flower_feeder")


def _hands_both_ways(seed: int, leave_after_first_win: bool):
    """One mil_sbr_2025 hand played by the same greedy bots under win_reveal "hand_end" (the
    preset's) and "immediate"; with `leave_after_first_win` a seat that has not won leaves (逃跑)
    right after the first win."""
    later = Game("mil_sbr_2025", seed=seed)
    now = Game(Rules.preset("mil_sbr_2025", win_reveal="immediate"), seed=seed)
    bots = [xueliu.Bot("greedy", seed=seed) for _ in range(4)]
    while not later.is_over:
        if leave_after_first_win and later.wins:
            leaver = next(s for s in range(4) if s not in {w.seat for w in later.wins})
            later.abandon(leaver)
            now.abandon(leaver)
            break
        seat = later.to_act()[0]
        action = bots[seat].choose(later, seat)
        later.act(seat, action)
        now.act(seat, action)
        for viewer in range(4):  # MIL Art.9-1(3),(5): another seat's win shows no score
            for e in later.events_for(viewer):
                if e["type"] == "win" and e["seat"] != viewer and not later.is_over:
                    assert e["score"] is None and (e["tile"] is None) == (e["kind"] == "self_draw")
        assert (
            not [e for e in later.public_events() if e["type"] == "payment" and e["reason"] in WIN_REASONS]
            or later.is_over
        )
    return later, now


@pytest.mark.parametrize("leave", [False, True])
def test_mil_wins_are_collected_when_the_hand_ends(leave):
    # MIL Art.10-2 「牌局结束时，和牌者收取分数」: the totals are the immediate game's; a win's own
    # payments come after a reveal that ends the hand (after a leaver's penalty too).
    played = 0
    for seed in range(12):
        later, now = _hands_both_ways(seed, leave)
        if not later.wins:
            continue
        played += 1
        assert later.scores == now.scores
        types = [e["type"] for e in later.events]
        reveal = types.index("reveal")
        assert types[-1] == "end" and "win" not in types[reveal:]
        paid_for_wins = [i for i, e in enumerate(later.events) if e["type"] == "payment" and e["reason"] in WIN_REASONS]
        assert paid_for_wins and min(paid_for_wins) > reveal
        if leave:
            assert types.index("abandon") < reveal
        # after the end each viewer's view holds every win in full, as the immediate game's
        for viewer in range(4):
            wins = [e for e in later.events_for(viewer) if e["type"] == "win"]
            assert wins == [e for e in now.events_for(viewer) if e["type"] == "win"]
        assert Game.from_events(later.events).scores == later.scores
    assert played >= 3
