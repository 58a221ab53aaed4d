"""The 幺鸡 variant (preset ``yaoji``, ``wilds = true``) in the pure-Python reference: scoring with
wilds and the game of docs/game-protocol.md §11.

Every expected value is worked out by hand from RULES.md §11, seed 004, docs/wilds.md and the
protocol (the comment beside each says how), never pasted from the module's output. yaoji prices
(docs/rules-implemented.md): basic 0, 对对胡 1, 清一色 2, 七对 2, 清对/将对 3, 龙七对/清七对 4, 清龙七对 5;
根 1, 明杠 1, 暗杠 2, 无鸡加番 1; exponential, base 1, offset 0: points = 2^min(fan, 5).
"""

from __future__ import annotations

import collections
import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from reference_positions import discard, kong, payments, play_checked, reference_position, since

from xueliu.reference import hand as analysis
from xueliu.reference.game import Game, IllegalActionError
from xueliu.reference.presets import PRESETS, get_preset
from xueliu.reference.scoring import best_waits, score
from xueliu.reference.tiles import parse_tiles, tile_name

YAOJI = PRESETS["yaoji"]
WILD = 18  # 1s


def brief(result):
    """(pattern, fan, points, [(bonus, fan)]) of a score dict."""
    return (result["pattern"], result["fan"], result["points"], [(b["name"], b["fan"]) for b in result["bonuses"]])


# --- scoring: the seed's melds --------------------------------------------------------------------


def test_a_pong_of_one_1m_and_a_wild_keeps_the_flush():
    # Seed 004 §四 碰: 一个一万 + 幺鸡 碰 the discarded 1m: the meld "11m1s" (two natural 1m and a
    # wild). The rest, 234 456 789m + 55m, is all m: the wild has no suit, so 清一色 2; the
    # concealed hand holds no wild, so 无鸡加番 1: 3 fan, ×8.
    assert brief(score("234456789m5m", "5m", melds=["11m1s"], rules=YAOJI)) == ("full_flush", 3, 8, [("no_wild", 1)])


def test_concealed_kongs_of_three_1m_and_a_wild_or_three_wilds_and_a_1m():
    # Seed 004 §四 杠: 三个一万 + 幺鸡 暗杠, and 三个幺鸡 + 一个一万. Either is a concealed kong (2
    # fan); 234 567 888 99p is basic 0; no wild in the concealed hand: +1. 3 fan, ×8.
    for concealed in ("111m1s", "1m111s"):
        assert brief(score("234p567p888p9p", "9p", concealed_kongs=[concealed], rules=YAOJI)) == (
            "basic",
            3,
            8,
            [("concealed_kong", 2), ("no_wild", 1)],
        )


def test_a_direct_kong_of_a_wild_two_1m_and_the_discard():
    # Seed 004 §四 杠: 一个幺鸡 + 两个一万 + 打出来的一万 点杠: an exposed kong "111m1s", 1 fan;
    # basic 0 + 无鸡 1: 2 fan, ×4.
    assert brief(score("234p567p888p9p", "9p", melds=["111m1s"], rules=YAOJI)) == (
        "basic",
        2,
        4,
        [("exposed_kong", 1), ("no_wild", 1)],
    )


# --- scoring: 根 and 无鸡加番 ---------------------------------------------------------------------


def test_a_four_made_with_a_wild_is_no_root():
    # 555m + 67m with the wild as 5m (or 8m) + 234p 678p 99p: three natural 5m, no 根; a wild in
    # hand, no 无鸡: basic 0, ×1.
    assert brief(score("55567m234p678p9p", "9p", wilds=1, rules=YAOJI)) == ("basic", 0, 1, [])
    # Four natural 5m is a 根 even beside a wild (555m + 5m 6m wild-as-7m): 1 fan, ×2.
    assert brief(score("5555m6m234p678p9p", "9p", wilds=1, rules=YAOJI)) == ("basic", 1, 2, [("root", 1)])


def test_a_pongs_natural_copies_and_the_hands_make_a_root():
    # Pong "55m1s" (two natural 5m) + 55m in hand: four natural 5m, one 根; no wild in hand: +1.
    assert brief(score("55m234p678p78p", "9p", melds=["55m1s"], rules=YAOJI)) == (
        "basic",
        2,
        4,
        [("root", 1), ("no_wild", 1)],
    )


def test_a_kong_holding_wilds_is_no_root_even_where_kongs_are():
    # gen_counts_kongs counts declared kongs as 根, but never a four made with a wild (§11).
    rules = dict(YAOJI, gen_counts_kongs=True)
    natural = score("234p567p888p9p", "9p", concealed_kongs=["1111m"], rules=rules)
    with_wild = score("234p567p888p9p", "9p", concealed_kongs=["111m1s"], rules=rules)
    assert [b["name"] for b in natural["bonuses"]] == ["root", "concealed_kong", "no_wild"]
    assert [b["name"] for b in with_wild["bonuses"]] == ["concealed_kong", "no_wild"]


def test_no_wild_fan_reads_the_concealed_hand_and_the_winning_tile():
    # A drawn wild as the winning tile: the hand holds a wild, no 无鸡. 123 456 789 123m + a pair
    # of wilds is 清一色 (the natural tiles are all m): 2 fan, ×4.
    assert brief(score("123456789m123m", "1s", wilds=1, self_draw=True, rules=YAOJI)) == ("full_flush", 2, 4, [])
    # The same shape with the pair natural: 无鸡 +1.
    assert brief(score("123456789m123m5m", "5m", rules=YAOJI)) == ("full_flush", 3, 8, [("no_wild", 1)])


# --- scoring: seven pairs and patterns read from natural tiles ------------------------------------


def test_seven_pairs_with_a_wild_and_the_dragon_needs_four_natural():
    # 11 1+wild 33 55m 99 22 44p: 七对 2; the four 1m is made with the wild, so no 龙七对. ×4.
    assert brief(score("1113355m99224p", "4p", wilds=1, rules=YAOJI)) == ("seven_pairs", 2, 4, [])
    # 1111 33m 5+wild 99 22 44p: four natural 1m, 龙七对 4, its own 根 taken off: ×16.
    assert brief(score("1111m33m5m99p22p4p", "4p", wilds=1, rules=YAOJI)) == ("dragon_seven_pairs", 4, 16, [])


def test_triplets_258_and_flush_read_the_natural_tiles():
    # 222m 555m 888m (one 8m a wild) 888p + 22p: all triplets, the natural tiles all 2/5/8: 将对 3;
    # two suits, no flush; no natural four; a wild in hand: 3 fan, ×8.
    assert brief(score("22255588m888p2p", "2p", wilds=1, rules=YAOJI)) == ("triplets_258", 3, 8, [])
    # 222 555 888 33m + three wilds: 清对 (3) with the wilds as a triplet, but better 清七对 (4):
    # 22 2+wild 55 5+wild 88 8+wild 33. Each four is made with a wild: no 龙, no 根. ×16.
    assert brief(score("222555888m3m", "3m", wilds=3, rules=YAOJI)) == ("flush_seven_pairs", 4, 16, [])


def test_the_void_reads_natural_tiles():
    # 123 456 789m + 222p + a pair of wilds: basic 0, ×1; with p void the natural 2p break it.
    assert brief(score("123456789m22p", "2p", wilds=2, rules=YAOJI)) == ("basic", 0, 1, [])
    with pytest.raises(ValueError, match="not a winning hand"):
        score("123456789m22p", "2p", wilds=2, void="p", rules=YAOJI)
    # s void: a wild is never a tile of the void suit, so holding two does not matter.
    assert score("123456789m22p", "2p", wilds=2, void="s", rules=YAOJI)["points"] == 1


# --- scoring: four wilds --------------------------------------------------------------------------


def test_four_wilds_score_basic_plus_the_cap_and_nothing_else():
    # Seed 004 §三.2: four wilds win whatever the rest (three suits, a void tile) at the room's
    # maximum: basic 0 + four_wilds 5 = 5, ×32; no 无鸡, no root, no kong, no 天胡.
    assert score("23456m678p89s", "1s", wilds=3, self_draw=True, void="s", rules=YAOJI) == FOUR_WILDS
    assert score("2222m34p567p", "9p", wilds=4, self_draw=True, heavenly=True, rules=YAOJI) == FOUR_WILDS
    # Another cap: the bonus is worth that cap.
    assert score("23456m678p89s", "1s", wilds=3, self_draw=True, rules=dict(YAOJI, cap_fan=3))["points"] == 8


# --- 查叫 with wilds ------------------------------------------------------------------------------


def test_best_waits_with_a_wild():
    # 234m 567m 345p + 88p 9p + a wild: 88p + 9p-wild-X as 789p or 999p (X = 7p, 8p, 9p), or 888p
    # + 9p-wild pair (X = 8p). Never 1s. Each is basic 0 with no 无鸡 in 查叫: 1 point.
    waits = best_waits("234m567m345p88p9p", wilds=1, rules=YAOJI)
    assert [tile for tile, _ in waits] == [15, 16, 17]
    assert {r["points"] for _, r in waits} == {1}


def test_a_hand_only_a_wild_completes_is_not_ready():
    # §11: 5555m 123p 456p 789p is completed only by a fifth 5m, i.e. a drawn wild: not ready.
    assert best_waits("5555m123p456p789p", rules=YAOJI) == []


def test_bad_wild_input():
    with pytest.raises(ValueError, match="natural tiles only"):
        score("1s344567m345789p", "7m", rules=YAOJI)
    with pytest.raises(ValueError, match="identical"):
        score("234p567p888p9p", "9p", melds=["11s1s"], rules=YAOJI)  # no natural tile
    with pytest.raises(ValueError, match="5 wilds"):
        score("234p567p8p", "1s", melds=["111m1s"], wilds=3, self_draw=True, rules=YAOJI)


# --- the scorer's win check and waits against the analysis reference (another algorithm) --------


@st.composite
def wild_hands(draw):
    """13 tiles: natural tiles of two suits (never 1s) and 0–3 wilds; half of them four sets and
    a pair with tiles taken out (mostly ready), half random."""
    wilds = draw(st.integers(0, 3))
    suits = draw(st.sampled_from([(0, 1), (0, 2), (1, 2)]))
    kinds = [t for t in range(27) if t // 9 in suits and t != WILD]
    if draw(st.booleans()):
        pool = [t for t in kinds for _ in range(4)]
        return sorted(draw(st.permutations(pool))[: 13 - wilds]), wilds
    tiles = []
    for _ in range(4):
        start = draw(st.sampled_from(kinds))
        sequence = start % 9 <= 6 and draw(st.booleans())
        tiles += [start, start + 1, start + 2] if sequence else [start] * 3
    tiles += [draw(st.sampled_from(kinds))] * 2
    kept: list = []
    for tile in draw(st.permutations(tiles)):
        if kept.count(tile) < 4:
            kept.append(tile)
    assume(len(kept) >= 13 - wilds)
    return sorted(kept[: 13 - wilds]), wilds


@settings(max_examples=150, deadline=None)
@given(wild_hands(), st.sampled_from([None, "m", "p", "s"]))
def test_waits_agree_with_the_analysis_reference(case, void):
    tiles, wilds = case
    mine = [tile for tile, _ in best_waits(tiles, wilds=wilds, void=void, rules=YAOJI)]
    theirs = [t for t in analysis.waits(tiles, wilds=wilds, void=void) if t != WILD]
    assert mine == theirs


# ==================================================================================================
# The game (docs/game-protocol.md §11, "P§11"). yaoji: base 1; kong payments direct 2 by the
# discarder, added 1 and concealed 2 by each seat not won; points = 2^min(fan, 5).

WIN, PASS, PONG = {"kind": "win"}, {"kind": "pass"}, {"kind": "pong"}
FOUR_WILDS = {
    "pattern": "basic",
    "pattern_fan": 0,
    "bonuses": [{"name": "four_wilds", "count": 1, "fan": 5}],
    "fan": 5,
    "capped_fan": 5,
    "multiplier": 32,
    "extra_points": 0,
    "points": 32,
}


def swap(tile):
    return {"kind": "swap", "tile": tile}


def position(hands, wall, **kwargs):
    """A checked yaoji test position; melds as in ``Game.from_position``, wilds written 1s."""
    return reference_position("yaoji", hands, wall, **kwargs)


def texts(actions):
    """Actions as sorted short strings: "discard 5m", "kong 1m", "swap 1m", "win", …"""
    return sorted(a["kind"] + (" " + a["tile"] if "tile" in a else "") for a in actions)


def tiles(text):
    return [tile_name(t) for t in sorted(parse_tiles(text))]


# --- the seed's melds (seed 004 §四) --------------------------------------------------------------

DEALER = "1234567m99m234p5p6p"  # holds one 1m to discard
QUIET = ["234567s999s456p8p", "88m6p234s567s789s5s"]  # seats 2 and 3: no 1m, no claim on it
# Hands of 13 that claim nothing in the tests below (void m): seats 0, 2 and 3 around seat 1.
FILLERS = ["22s33s44s55s66s77s8s", "11m55m11p44p66p88s9s", "88p99p22p33p6p7s8s9s9s"]


def test_one_1m_and_a_wild_pong_a_discarded_1m():
    # 碰: 手里有一个一万，就可以用一个幺鸡来实现碰牌. n = 1 natural 1m, w = 1: a pong (n + w >= 2),
    # no kong (n + w < 3); the pong takes the 1m and the wild.
    game = position([DEALER, "1m345m7m234p678p9p1s", *QUIET], "2m3m", voids=["s", "s", "m", "p"])
    game.act(0, discard("1m"))
    assert game.to_act() == [1] and game.legal_actions(1) == [PONG, PASS]
    mark = len(game.events)
    game.act(1, PONG)
    assert since(game, mark) == [{"type": "pong", "seat": 1, "tile": "1m", "from": 0, "wilds": 1}]
    assert game.melds(1) == [{"kind": "pong", "tile": "1m", "from": 0, "kong": None, "late": False, "wilds": 1}]
    assert game.hand(1) == tiles("345m7m234p678p9p")
    # void s: the wild is no tile of the void suit and is never discarded
    assert texts(game.legal_actions(1)) == texts(discard(t) for t in tiles("345m7m234p678p9p"))


def test_a_pong_takes_natural_copies_first():
    # Two natural 1m and a wild: the pong takes both 1m and keeps the wild; a direct kong is legal
    # too (n + w = 3).
    game = position([DEALER, "11m1s258m3569p478p", *QUIET], "2m3m", voids=["s", "s", "m", "p"])
    game.act(0, discard("1m"))
    assert texts(game.legal_actions(1)) == ["kong 1m", "pass", "pong"]
    game.act(1, PONG)
    assert game.events[-1]["wilds"] == 0 and "1s" in game.hand(1) and "1m" not in game.hand(1)


@pytest.mark.parametrize("held, wilds", [("111m1s", 1), ("11m1s1s", 2), ("1m1s1s1s", 3)])
def test_concealed_kongs_with_wilds(held, wilds):
    # 暗杠: 三个一万 + 幺鸡, or 三个幺鸡 + 一个一万 (and two of each, n + w >= 4): natural 1m first,
    # the rest wilds; paid 2 by each other seat (下雨); the replacement comes from the front.
    hands = ["2345678m99m234p5p", held + "234p678p55p9p", *QUIET]
    game = position(hands, "3m4m5m6m7m", voids=["s", "s", "m", "p"], first_draw=1)
    assert kong("1m") in game.legal_actions(1)
    mark = len(game.events)
    game.act(1, kong("1m"))
    assert since(game, mark) == [
        {"type": "kong", "seat": 1, "tile": "1m", "kind": "concealed", "from": None, "late": False, "wilds": wilds},
        {"type": "payment", "payer": 0, "payee": 1, "amount": 2, "reason": "kong"},
        {"type": "payment", "payer": 2, "payee": 1, "amount": 2, "reason": "kong"},
        {"type": "payment", "payer": 3, "payee": 1, "amount": 2, "reason": "kong"},
        {"type": "draw", "seat": 1, "tile": "4m", "replacement": True},
    ]
    assert game.melds(1) == [
        {"kind": "kong", "tile": "1m", "from": None, "kong": "concealed", "late": False, "wilds": wilds}
    ]
    assert game.hand(1) == tiles("3m4m234p678p55p9p")
    assert game.scores == [-2, 6, -2, -2]


def test_three_wilds_kong_any_tile_held_and_only_those():
    # A meld holds at least one natural tile of its kind (P§11): with three wilds every natural
    # tile held makes a concealed kong (n >= 1, n + w >= 4), and no other tile does.
    game = position(
        ["2345678m99m234p5p", "1s1s1s234p678p55p9p7m", *QUIET], "3m4m5m6m7m", voids=["s", "s", "m", "p"], first_draw=1
    )
    konged = [a["tile"] for a in game.legal_actions(1) if a["kind"] == "kong"]
    assert konged == ["3m", "7m", "2p", "3p", "4p", "5p", "6p", "7p", "8p", "9p"]


def test_a_wild_two_1m_and_the_discarded_1m_make_a_direct_kong():
    # 点杠: 手里有一个幺鸡，两个一万和打出来的一万: a direct kong holding one wild, paid 2 by the
    # discarder (刮风).
    game = position([DEALER, "11m1s7m234p678p55p9p", *QUIET], "2m3m", voids=["s", "s", "m", "p"])
    game.act(0, discard("1m"))
    assert texts(game.legal_actions(1)) == ["kong 1m", "pass", "pong"]
    mark = len(game.events)
    game.act(1, kong("1m"))
    assert since(game, mark) == [
        {"type": "kong", "seat": 1, "tile": "1m", "kind": "direct", "from": 0, "late": False, "wilds": 1},
        {"type": "payment", "payer": 0, "payee": 1, "amount": 2, "reason": "kong"},
        {"type": "draw", "seat": 1, "tile": "2m", "replacement": True},
    ]
    assert game.hand(1) == tiles("2m7m234p678p55p9p")


ROBBER = "123456789m46p11p"  # waits on 5p (123 456 789m 456p 11p)


@pytest.mark.parametrize("drawn, wilds, robbable", [("7p", 1, False), ("5p", 0, True)])
def test_added_kongs_with_a_wild_or_a_natural_tile(drawn, wilds, robbable):
    # 巴杠: 已经碰牌的情况下可以用幺鸡进行巴杠. A natural 5p in hand goes in first; an added wild adds
    # no natural tile, so no one may rob it (P§11); the natural one may be robbed as ever.
    hands = [FILLERS[0], "1s234m678m99m3p", ROBBER, FILLERS[2]]
    game = position(
        hands, drawn + "2m3m4m5m6m7m", voids=["m", "s", "s", "m"], melds=[[], ["555p"], [], []], first_draw=1
    )
    assert kong("5p") in game.legal_actions(1)
    mark = len(game.events)
    game.act(1, kong("5p"))
    assert since(game, mark)[0] == {
        "type": "kong",
        "seat": 1,
        "tile": "5p",
        "kind": "added",
        "from": None,
        "late": False,
        "wilds": wilds,
    }
    if robbable:
        assert game.to_act() == [2] and game.legal_actions(2) == [WIN, PASS]
        return
    assert payments(since(game, mark)) == [(0, 1, 1, "kong"), (2, 1, 1, "kong"), (3, 1, 1, "kong")]
    assert game.events[-1] == {"type": "draw", "seat": 1, "tile": "2m", "replacement": True}
    assert game.melds(1)[0]["wilds"] == 1 and "1s" not in game.hand(1)


def test_a_robbed_concealed_kong_gives_its_wilds_back():
    # rob_concealed_kong: the robber takes one natural 5p; the other two 5p and the wild go back to
    # the owner's hand. The robber: basic 0 + 抢杠 1 + 无鸡 1 = 2 fan, 4 points from the owner.
    hands = [FILLERS[0], "555p1s1122m7788p3p", ROBBER, FILLERS[2]]
    game = position(hands, "9m2m3m4m5m6m", voids=["m", "s", "s", "m"], first_draw=1, rob_concealed_kong=True)
    game.act(1, kong("5p"))
    assert game.events[-1]["wilds"] == 1 and game.legal_actions(2) == [WIN, PASS]
    mark = len(game.events)
    game.act(2, WIN)
    new = since(game, mark)
    assert new[0] == {"type": "robbed", "seat": 1, "tile": "5p"}
    assert (new[1]["tile"], new[1]["from"], new[1]["kind"], new[1]["score"]["points"]) == ("5p", 1, "robbed_kong", 4)
    assert payments(new) == [(1, 2, 4, "win")]
    assert game.melds(1) == [] and game.hand(1) == tiles("1122m9m3p55p7788p1s")


def test_no_second_meld_of_a_tile():
    # A seat with a pong of 5m (holding a wild) may not pong or kong another discarded 5m, even with
    # a natural 5m and a wild in hand; its own turn offers the added kong instead.
    hands = ["5m234m67m99m234p5p6p8p", "5m1s234p678p9p7m", "234567s999s456p8p", "88m6p234s567s789s9p"]
    game = position(hands, "2m3m4m5s6s", voids=["s", "s", "m", "p"], melds=[[], ["55m1s"], [], []])
    game.act(0, discard("5m"))
    assert game.to_act() == [1] and game.events[-1] == {"type": "draw", "seat": 1, "tile": "2m", "replacement": False}
    assert kong("5m") in game.legal_actions(1)


def test_a_pong_never_leaves_only_wilds():
    # After a pong the seat must discard, and a wild can't go (P§11): with 55m and two wilds the
    # pong would leave two wilds: no pong (the kong and the win stay). With 5m 7m and two wilds it
    # leaves 7m and a wild: a pong.
    melds = [[], ["222m", "333p", "444p"], [], []]
    for held, expected in (("55m1s1s", ["kong 5m", "pass", "win"]), ("5m7m1s1s", ["kong 5m", "pass", "pong", "win"])):
        game = position(
            ["5m234567m99m567p8p9p", held, "234567s999s456p8p", "88m6p234s567s789s9p"],
            "3m4m",
            voids=["s", "s", "m", "p"],
            melds=melds,
        )
        game.act(0, discard("5m"))
        assert texts(game.legal_actions(1)) == expected


@pytest.mark.parametrize("first_draw, taker, beaten, wilds", [(None, 1, 3, 1), (2, 3, 1, 0)])
def test_several_claims_on_one_discard_go_to_the_first_after_the_discarder(first_draw, taker, beaten, wilds):
    # With wilds two seats may pong one discard (P§11): seat 1 with 5p and a wild, seat 3 with 55p.
    # The first claimer after the discarder takes it; the other is logged beaten; the order of
    # the act calls does not matter.
    seat1, seat3 = "5p1s234m678m99m3p7m8m", "55p88p99p22p33p7s8s9s"
    for order in ((1, 3), (3, 1)):
        if first_draw is None:  # the dealer, seat 0, discards 5p
            hands = [FILLERS[0] + "5p", seat1, FILLERS[1], seat3]
            game = position(hands, "2m3m4m5m6m", voids=None)
        else:  # seat 2 draws 5p and discards it
            hands = [FILLERS[0], seat1, FILLERS[1], seat3]
            game = position(hands, "5p2m3m4m5m6m", voids=None, first_draw=2)
        game.act(game.to_act()[0], discard("5p"))
        assert game.to_act() == [1, 3] and game.legal_actions(1) == game.legal_actions(3) == [PONG, PASS]
        mark = len(game.events)
        for seat in order:
            game.act(seat, PONG)
        assert since(game, mark) == [
            {"type": "beaten", "seat": beaten, "claim": "pong"},
            {"type": "pong", "seat": taker, "tile": "5p", "from": 0 if first_draw is None else 2, "wilds": wilds},
        ]


# --- discards, void and exchange ------------------------------------------------------------------


def test_a_wild_is_never_discarded_nor_a_void_tile():
    # void s, holding a wild and a natural 5s: only 5s may (must) go.
    game = position(["1s8s234567m99m234p8p", "1m345m7m234p678p9p1s", *QUIET], "2m3m", voids=["s", "s", "m", "p"])
    assert texts(game.legal_actions(0)) == ["discard 8s"]
    game.act(0, discard("8s"))
    # Seat 1, void s, holds a wild and no s tile: every natural tile may go, never the wild.
    assert game.to_act() == [1]
    assert texts(game.legal_actions(1)) == texts(discard(t) for t in tiles("1m2m345m7m234p678p9p"))


def test_a_hand_of_only_wilds_may_discard_one_and_no_one_claims_it():
    # Four melds in three suits (declare_void off) and two wilds: no win, so a wild may go (P§11);
    # the added kongs with a wild are legal too. Seat 2 would win with a wild, but no one may claim
    # a discarded wild: seat 2 draws.
    melds = [[], ["222m", "333p", "444s", "555m"], [], []]
    hands = ["66778899p66s3s7m9m", "1s", "1s234m567m888m99m4p", "22p6p234s567s789s9p"]
    game = position(hands, "1s6m2p2p3s3s", voids=None, melds=melds, first_draw=1, declare_void=False)
    assert texts(game.legal_actions(1)) == ["discard 1s", "kong 2m", "kong 3p", "kong 4s", "kong 5m"]
    mark = len(game.events)
    game.act(1, discard("1s"))
    assert since(game, mark) == [
        {"type": "discard", "seat": 1, "tile": "1s"},
        {"type": "draw", "seat": 2, "tile": "6m", "replacement": False},
    ]
    # Melds in two suits: the two wilds are the pair: a win, and no discard.
    melds = [[], ["222m", "333p", "444p", "555m"], [], []]
    game = position(hands, "1s6m2p2p3s3s", voids=None, melds=melds, first_draw=1, declare_void=False)
    assert texts(game.legal_actions(1)) == ["kong 2m", "kong 3p", "kong 4p", "kong 5m", "win"]


def test_exchange_and_void_never_read_a_wild():
    # 不能把幺鸡换出去: no exchange pick holds a wild, and the default picks and voids count natural
    # tiles only.
    checked = 0
    for seed in range(40):
        game = Game("yaoji", seed)
        for seat in range(4):
            if "1s" not in game.hand(seat):
                continue
            checked += 1
            picks = game.legal_actions(seat)
            assert picks and all("1s" not in a["tiles"] for a in picks)
            natural = [parse_tiles(t)[0] for t in game.hand(seat) if t != "1s"]
            counts = [sum(1 for t in natural if t // 9 == s) for s in range(3)]
            suit = min((s for s in range(3) if counts[s] >= 3), key=lambda s: (counts[s], s))
            lowest = sorted(t for t in natural if t // 9 == suit)[:3]
            assert game.default_action(seat) == {"kind": "exchange", "tiles": [tile_name(t) for t in lowest]}
    assert checked > 20


# --- 幺鸡换 (swap) ---------------------------------------------------------------------------------

SWAP_HANDS = [FILLERS[0], "234m678m99m34p", FILLERS[1], FILLERS[2]]  # seat 1 holds a kong
SWAP_VOIDS = ["m", "s", "s", "m"]


def test_swap_a_drawn_tile_into_a_kong_for_its_wild():
    # 用幺鸡杠的牌，在摸到相同的牌后，点幺鸡换. Seat 1's concealed kong of 5p holds a wild; it draws
    # 5p: swap 5p is legal beside the win (234m 678m 99m 345p). It is seat 1's first draw: 地胡 5
    # fan, so a cap of 10 lets the other fans show.
    game = position(
        SWAP_HANDS, "5p2m3m4m5m6m", voids=SWAP_VOIDS, melds=[[], ["[555p1s]"], [], []], first_draw=1, cap_fan=10
    )
    assert texts(game.legal_actions(1)) == sorted(
        ["win", "swap 5p"] + [f"discard {t}" for t in ("2m", "3m", "4m", "6m", "7m", "8m", "9m", "3p", "4p", "5p")]
    )
    mark = len(game.events)
    game.act(1, swap("5p"))
    assert since(game, mark) == [{"type": "swap", "seat": 1, "tile": "5p"}]  # no payment
    assert game.melds(1) == [
        {"kind": "kong", "tile": "5p", "from": None, "kong": "concealed", "late": False, "wilds": 0}
    ]
    assert game.hand(1) == tiles("234m678m99m34p1s")
    # The turn goes on: the wild (as 2p or 5p) still wins; no more swap; the wild can't go.
    assert texts(game.legal_actions(1)) == sorted(
        ["win"] + [f"discard {t}" for t in ("2m", "3m", "4m", "6m", "7m", "8m", "9m", "3p", "4p")]
    )
    game.act(1, WIN)
    win = next(e for e in game.events if e["type"] == "win")
    # The drawn 5p is in the kong now: the win names the wild. basic 0 + 地胡 5 + 暗杠 2, no 无鸡
    # (a wild in hand): 7 fan, 128 points from each other seat.
    assert (win["tile"], win["kind"], win["hand"]) == ("1s", "self_draw", tiles("234m678m99m34p"))
    assert (win["score"]["fan"], win["score"]["points"]) == (7, 128)
    assert payments(game.events) == [(0, 1, 128, "self_draw"), (2, 1, 128, "self_draw"), (3, 1, 128, "self_draw")]
    # Without the swap: + 无鸡 1 = 8 fan, 256 points.
    game = position(
        SWAP_HANDS, "5p2m3m4m5m6m", voids=SWAP_VOIDS, melds=[[], ["[555p1s]"], [], []], first_draw=1, cap_fan=10
    )
    game.act(1, WIN)
    assert next(e for e in game.events if e["type"] == "win")["score"]["points"] == 256


def test_swap_only_from_a_kong_and_only_after_a_draw():
    # A pong's wild can't be swapped (用幺鸡杠的牌); the dealer's first turn has no swap (P§11).
    game = position(SWAP_HANDS, "5p2m3m4m5m6m", voids=SWAP_VOIDS, melds=[[], ["55p1s"], [], []], first_draw=1)
    actions = texts(game.legal_actions(1))
    assert "kong 5p" in actions and not any(a.startswith("swap") for a in actions)
    game = position(
        ["5p" + SWAP_HANDS[1], *FILLERS], "2m3m4m5m6m", voids=["s", "m", "s", "m"], melds=[["[555p1s]"], [], [], []]
    )
    assert not any(a.startswith("swap") for a in texts(game.legal_actions(0)))


# --- four wilds ------------------------------------------------------------------------------------


def test_drawing_the_fourth_wild_wins_at_the_cap():
    # 在游戏中摸齐四个幺鸡，也会强制胡牌: win is the only action whatever the hand (three suits and a
    # void tile here); basic + four_wilds worth cap_fan 5: 32 from each seat not won.
    hands = ["2345678m99m234p5p", "1s1s1s2m5m8m3p6p9p4s7s9s5m", FILLERS[0], FILLERS[2]]
    game = position(hands, "1s2m3m4m6m7m", voids=["s", "s", "m", "m"], first_draw=1)
    assert game.legal_actions(1) == [WIN]
    mark = len(game.events)
    game.act(1, WIN)
    new = since(game, mark)
    assert new[0] == {
        "type": "win",
        "seat": 1,
        "tile": "1s",
        "from": None,
        "kind": "self_draw",
        "hand": tiles(hands[1]),
        "score": FOUR_WILDS,
    }
    assert payments(new) == [(0, 1, 32, "self_draw"), (2, 1, 32, "self_draw"), (3, 1, 32, "self_draw")]
    assert new[-1] == {"type": "draw", "seat": 2, "tile": "2m", "replacement": False}


def test_four_wilds_dealt_to_a_non_dealer_win_before_the_dealers_first_turn():
    # 起手摸到四个幺鸡，系统强制胡牌: seat 2's own turn (no draw) with win its only action; the win
    # names 1s and win.hand holds the other 12; then the dealer's first turn, 14 tiles.
    hands = ["2345678m99m234p5p6p", "1m345m7m234p678p9p5s", "1s1s1s1s234p678p7m8m9m", "88m6p234s567s789s5s"]
    game = position(hands, "2m3m", voids=["s", "s", "m", "p"])
    assert game.to_act() == [2] and game.legal_actions(2) == [WIN]
    mark = len(game.events)
    game.act(2, WIN)
    new = since(game, mark)
    assert new[0] == {
        "type": "win",
        "seat": 2,
        "tile": "1s",
        "from": None,
        "kind": "self_draw",
        "hand": tiles("1s1s1s234p678p7m8m9m"),
        "score": FOUR_WILDS,
    }
    assert payments(new) == [(0, 2, 32, "self_draw"), (1, 2, 32, "self_draw"), (3, 2, 32, "self_draw")]
    assert [e["type"] for e in new] == ["win", "payment", "payment", "payment"]  # no draw
    assert game.to_act() == [0] and len(game.hand(0)) == 14
    assert "discard 2m" in texts(game.legal_actions(0))
    # The dealer's own four wilds: its first turn offers only the win.
    hands = ["1s1s1s1s2345678m99m5p", "1m345m7m234p678p9p5s", "2345678s99s56p78p", "88m6p234s567s789s5s"]
    game = position(hands, "2m3m", voids=["s", "s", "m", "p"])
    assert game.to_act() == [0] and game.legal_actions(0) == [WIN]


def test_heavenly_win_with_a_wild_names_the_highest_natural_tile():
    # 天胡's named tile is the highest natural tile of the fourteen (P§11): 5p, not the wild.
    hands = ["1s234m567m888m99m45p", FILLERS[0], FILLERS[2], "11p44p66p77p33m6m9m9p"]
    game = position(hands, "2s", voids=["s", "m", "m", "s"])
    game.act(0, WIN)
    win = next(e for e in game.events if e["type"] == "win")
    assert (win["tile"], win["hand"]) == ("5p", tiles("1s234m567m888m99m4p"))


# --- late kongs with wilds (P§5, P§11) ----------------------------------------------------------------


@pytest.mark.parametrize(
    "second, late_kong, offered, late",
    [
        ("6s", "forbidden", False, None),  # 3p and the wild both arrived on turn 1: late
        ("6s", "full", True, True),
        ("1s", "forbidden", True, False),  # the wild it takes arrived on this turn
        ("3p", "forbidden", True, False),  # four natural 3p, the fourth drawn now
    ],
)
def test_a_kong_with_a_wild_is_late_when_both_kinds_it_takes_arrived_earlier(second, late_kong, offered, late):
    # Everyone is void in s and draws s tiles, which must go and which no one may claim, until
    # seat 1's second turn.
    hands = ["1122m55667799p8m", "333p1s234m678m99m5p", "4455m8899p44p6m7m1p", "33m66m22p88p1p1p5p8m9m"]
    game = position(
        hands, "2s3s4s5s" + second + "6s7s8s9s2s3s", voids=["s", "s", "s", "s"], first_draw=1, late_kong=late_kong
    )
    assert kong("3p") in game.legal_actions(1)
    for seat in (1, 2, 3, 0):
        drawn = game.events[-1]["tile"]
        game.act(seat, discard(drawn))
        assert game.to_act() == [(seat + 1) % 4]
    assert (kong("3p") in game.legal_actions(1)) == offered
    if offered:
        game.act(1, kong("3p"))
        kong_event = next(e for e in reversed(game.events) if e["type"] == "kong")
        assert kong_event["late"] == late


# --- random games --------------------------------------------------------------------------------


def policy(game, seat, rnd):
    """Random but eager: wins mostly, claims, swaps and kongs often, else any legal action."""
    actions = game.legal_actions(seat)
    for kind, chance in (("win", 0.9), ("swap", 0.6), ("kong", 0.6), ("pong", 0.5)):
        some = [a for a in actions if a["kind"] == kind]
        if some and rnd.random() < chance:
            return rnd.choice(some)
    discards = [a for a in actions if a["kind"] == "discard"]
    if discards and rnd.random() < 0.85:
        return min(discards, key=lambda a: (_neighbours(game.hand(seat), a["tile"]), rnd.random()))
    if rnd.random() < 0.5:
        return game.default_action(seat)
    return rnd.choice(actions)


def _neighbours(hand, tile):
    """How well ``tile`` fits the hand: copies and tiles one or two ranks away in its suit."""
    rank, suit = int(tile[0]), tile[1]
    return (
        sum(
            3 if int(t[0]) == rank else 2 if abs(int(t[0]) - rank) == 1 else 1
            for t in hand
            if t[1] == suit and t != "1s" and abs(int(t[0]) - rank) <= 2
        )
        - 3
    )


def check_wild_actions(game, seat, legal):
    """No exchange gives a wild, a wild is discarded only from a hand of nothing else, and no
    discarded wild waits to be claimed."""
    hand = game.hand(seat)
    for a in legal:
        if a["kind"] == "exchange":
            assert "1s" not in a["tiles"]
        if a == discard("1s"):  # only from a hand of nothing but wilds
            assert set(hand) == {"1s"}
    last = game.events[-1]
    assert not (last["type"] == "discard" and last["tile"] == "1s"), "a discarded wild is claimable"


def check_wild_wins(game, events):
    """A win holds 14 tiles, or 13 for a non-dealer's dealt four wilds; melds hold 0-1 (pong) or
    0-3 (kong) wilds."""
    for event in events:
        if event["type"] == "win":
            w = event["seat"]
            size = len(event["hand"]) + 1 + 3 * len(game.melds(w))
            four = event["score"]["bonuses"][-1:] == FOUR_WILDS["bonuses"]
            assert size == 14 or (four and size == 13)  # a non-dealer's dealt four wilds
            assert four == (event["hand"].count("1s") == 3 and event["tile"] == "1s")
    for s in range(4):
        assert all(1 <= m["wilds"] + 1 <= (2 if m["kind"] == "pong" else 4) for m in game.melds(s))


@pytest.mark.parametrize(
    "overrides",
    [
        {},
        dict(exchange=None, declare_void=False, rob_concealed_kong=True),
        dict(late_kong="root_only", kong_draw_from="back"),
    ],
)
def test_random_yaoji_games_keep_the_invariants_and_replay(overrides):
    rules = get_preset("yaoji", **overrides)
    rnd = random.Random(repr(overrides))
    seen = collections.Counter()
    for seed in range(50):
        game, actions = play_checked(rules, seed, rnd, policy, before=check_wild_actions, after=check_wild_wins)
        seen.update(e["type"] for e in game.events)
        seen.update("wild " + e["type"] for e in game.events if e.get("wilds"))
        if seed < 5:
            again = Game.replay(rules, seed, actions)
            assert again.events == game.events and again.scores == game.scores
    assert seen["win"] > 30 and seen["wild pong"] > 10 and seen["wild kong"] > 10 and seen["swap"] > 0


def test_illegal_wild_actions_change_nothing():
    game = position(SWAP_HANDS, "5p2m3m4m5m6m", voids=SWAP_VOIDS, melds=[[], ["[555p1s]"], [], []], first_draw=1)
    before = (list(game.events), game.hand(1), game.melds(1))
    for action in (discard("1s"), swap("2m"), kong("1s"), {"kind": "swap"}):
        with pytest.raises(IllegalActionError):
            game.act(1, action)
    assert (game.events, game.hand(1), game.melds(1)) == before
