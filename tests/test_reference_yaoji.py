"""The 幺鸡 variant (preset ``yaoji``, ``wilds = true``) in the pure-Python reference: scoring with
wilds and the game of docs/game-protocol.md §11.

Every expected value is worked out by hand from RULES.md §11, seed 004, docs/wilds.md and the
protocol (the comment beside each says how), never pasted from the module's output. yaoji prices
(docs/rules.md): basic 0, 对对胡 1, 清一色 2, 七对 2, 清对/将对 3, 龙七对/清七对 4, 清龙七对 5;
根 1, 明杠 1, 暗杠 2, 无鸡加番 1; exponential, base 1, offset 0: points = 2^min(fan, 5).
"""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from xueliu.reference import hand as analysis
from xueliu.reference.presets import PRESETS
from xueliu.reference.scoring import best_waits, score

YAOJI = PRESETS["yaoji"]
WILD = 18  # 1s


def brief(result):
    """(pattern, fan, points, [(bonus, fan)]) of a score dict."""
    return (result["pattern"], result["fan"], result["points"],
            [(b["name"], b["fan"]) for b in result["bonuses"]])


# --- scoring: the seed's melds --------------------------------------------------------------------


def test_a_pong_of_one_1m_and_a_wild_keeps_the_flush():
    # Seed 004 §四 碰: 一个一万 + 幺鸡 碰 the discarded 1m: the meld "11m1s" (two natural 1m and a
    # wild). The rest, 234 456 789m + 55m, is all m: the wild has no suit, so 清一色 2; the
    # concealed hand holds no wild, so 无鸡加番 1: 3 fan, ×8.
    assert brief(score("234456789m5m", "5m", melds=["11m1s"], rules=YAOJI)) == (
        "full_flush", 3, 8, [("no_wild", 1)])


def test_concealed_kongs_of_three_1m_and_a_wild_or_three_wilds_and_a_1m():
    # Seed 004 §四 杠: 三个一万 + 幺鸡 暗杠, and 三个幺鸡 + 一个一万. Either is a concealed kong (2
    # fan); 234 567 888 99p is basic 0; no wild in the concealed hand: +1. 3 fan, ×8.
    for kong in ("111m1s", "1m111s"):
        assert brief(score("234p567p888p9p", "9p", concealed_kongs=[kong], rules=YAOJI)) == (
            "basic", 3, 8, [("concealed_kong", 2), ("no_wild", 1)])


def test_a_direct_kong_of_a_wild_two_1m_and_the_discard():
    # Seed 004 §四 杠: 一个幺鸡 + 两个一万 + 打出来的一万 点杠: an exposed kong "111m1s", 1 fan;
    # basic 0 + 无鸡 1: 2 fan, ×4.
    assert brief(score("234p567p888p9p", "9p", melds=["111m1s"], rules=YAOJI)) == (
        "basic", 2, 4, [("exposed_kong", 1), ("no_wild", 1)])


# --- scoring: 根 and 无鸡加番 ---------------------------------------------------------------------


def test_a_four_made_with_a_wild_is_no_root():
    # 555m + 67m with the wild as 5m (or 8m) + 234p 678p 99p: three natural 5m, no 根; a wild in
    # hand, no 无鸡: basic 0, ×1.
    assert brief(score("55567m234p678p9p", "9p", wilds=1, rules=YAOJI)) == ("basic", 0, 1, [])
    # Four natural 5m is a 根 even beside a wild (555m + 5m 6m wild-as-7m): 1 fan, ×2.
    assert brief(score("5555m6m234p678p9p", "9p", wilds=1, rules=YAOJI)) == (
        "basic", 1, 2, [("root", 1)])


def test_a_pongs_natural_copies_and_the_hands_make_a_root():
    # Pong "55m1s" (two natural 5m) + 55m in hand: four natural 5m, one 根; no wild in hand: +1.
    assert brief(score("55m234p678p78p", "9p", melds=["55m1s"], rules=YAOJI)) == (
        "basic", 2, 4, [("root", 1), ("no_wild", 1)])


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
    assert brief(score("123456789m123m", "1s", wilds=1, self_draw=True, rules=YAOJI)) == (
        "full_flush", 2, 4, [])
    # The same shape with the pair natural: 无鸡 +1.
    assert brief(score("123456789m123m5m", "5m", rules=YAOJI)) == (
        "full_flush", 3, 8, [("no_wild", 1)])


# --- scoring: seven pairs and patterns read from natural tiles ------------------------------------


def test_seven_pairs_with_a_wild_and_the_dragon_needs_four_natural():
    # 11 1+wild 33 55m 99 22 44p: 七对 2; the four 1m is made with the wild, so no 龙七对. ×4.
    assert brief(score("1113355m99224p", "4p", wilds=1, rules=YAOJI)) == ("seven_pairs", 2, 4, [])
    # 1111 33m 5+wild 99 22 44p: four natural 1m, 龙七对 4, its own 根 taken off: ×16.
    assert brief(score("1111m33m5m99p22p4p", "4p", wilds=1, rules=YAOJI)) == (
        "dragon_seven_pairs", 4, 16, [])


def test_triplets_258_and_flush_read_the_natural_tiles():
    # 222m 555m 888m (one 8m a wild) 888p + 22p: all triplets, the natural tiles all 2/5/8: 将对 3;
    # two suits, no flush; no natural four; a wild in hand: 3 fan, ×8.
    assert brief(score("22255588m888p2p", "2p", wilds=1, rules=YAOJI)) == (
        "triplets_258", 3, 8, [])
    # 222 555 888 33m + three wilds: 清对 (3) with the wilds as a triplet, but better 清七对 (4):
    # 22 2+wild 55 5+wild 88 8+wild 33. Each four is made with a wild: no 龙, no 根. ×16.
    assert brief(score("222555888m3m", "3m", wilds=3, rules=YAOJI)) == (
        "flush_seven_pairs", 4, 16, [])


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
    expected = {"pattern": "basic", "pattern_fan": 0,
                "bonuses": [{"name": "four_wilds", "count": 1, "fan": 5}], "fan": 5,
                "capped_fan": 5, "multiplier": 32, "extra_points": 0, "points": 32}
    assert score("23456m678p89s", "1s", wilds=3, self_draw=True, void="s", rules=YAOJI) == expected
    assert score("2222m34p567p", "9p", wilds=4, self_draw=True, heavenly=True,
                 rules=YAOJI) == expected
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
        return sorted(draw(st.permutations(pool))[:13 - wilds]), wilds
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
    return sorted(kept[:13 - wilds]), wilds


@settings(max_examples=150, deadline=None)
@given(wild_hands(), st.sampled_from([None, "m", "p", "s"]))
def test_waits_agree_with_the_analysis_reference(case, void):
    tiles, wilds = case
    mine = [tile for tile, _ in best_waits(tiles, wilds=wilds, void=void, rules=YAOJI)]
    theirs = [t for t in analysis.waits(tiles, wilds=wilds, void=void) if t != WILD]
    assert mine == theirs
