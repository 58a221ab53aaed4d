"""Scoring a win and a ready hand's waits (RULES.md §8–§10), on the seed documents' own hands for
every preset. Expected fan comes from the seeds' text or from RULES.md §10's table (transcribed in
rules_tables.py), never from the engine."""

import re
from collections import Counter

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from rules_tables import FAN, OPTIONS, SEED_PRESETS

import xueliu
from xueliu import InvalidHandError, Rules, ScoreError, Tile


def split_last(hand):
    """A 14-tile hand as (the 13 without the last-written tile, that tile)."""
    tiles = xueliu.parse_tiles(hand)
    return tiles[:-1], tiles[-1]


def win(hand, rules, **kwargs):
    rest, last = split_last(hand)
    return xueliu.score(rest, last, rules=rules, **kwargs)


def points(preset, fan):
    """RULES.md §9's curves, written out: linear fan × base, exponential base × 2^(fan − offset),
    counting fan below the offset as ×1."""
    o = OPTIONS[preset]
    capped = fan if o["cap_fan"] is None else min(fan, o["cap_fan"])
    if o["scoring"] == "linear":
        return capped * o["base_points"]
    return o["base_points"] * 2 ** max(capped - o["fan_offset"], 0)


# Seed 004 §六 and §七's example hands: the pattern in a room with every pattern (chengdu,
# xuezhan), in a seed 000/001 room with only basic, all triplets, full flush and flush triplets
# (None: seven pairs, not a win there), and the roots that count beside the pattern (a dragon's
# own four is not one).
SEED_004 = [
    ("23445677m345789p", "basic", "basic", 0),
    ("111333444m66677p", "all_triplets", "all_triplets", 0),
    ("11223345678999m", "full_flush", "full_flush", 0),
    ("22244455577799m", "flush_triplets", "flush_triplets", 0),
    ("222555888m55588p", "triplets_258", "all_triplets", 0),
    ("11334466m557799p", "seven_pairs", None, 0),
    ("11334466778899m", "flush_seven_pairs", None, 0),
    ("11222244m557788p", "dragon_seven_pairs", None, 0),
    ("11224444557799m", "flush_dragon_seven_pairs", None, 0),
    ("111222333m78999p", "terminals", "basic", 0),
    ("11123777888999m", "flush_terminals", "full_flush", 0),
    ("123333m45566799s", "basic", "basic", 1),
]


@pytest.mark.parametrize("preset", SEED_PRESETS)
@pytest.mark.parametrize("hand, full, limited, roots", SEED_004)
def test_seed_004_hands_in_every_preset(preset, hand, full, limited, roots):
    pattern = full if "terminals" in FAN[preset] else limited
    if pattern == "basic" and "concealed" in FAN[preset]:
        pattern = "concealed"  # dashiyou: a hand with no pong or exposed kong is 门清
    if pattern is None:
        with pytest.raises(ScoreError, match="seven pairs are not allowed"):
            win(hand, preset)
        return
    s = win(hand, preset)
    gen_fan = OPTIONS[preset]["gen_fan"]
    fan = FAN[preset][pattern] + (1 if preset == "yaoji" else 0) + roots * gen_fan
    assert (s.pattern, s.pattern_fan, s.fan) == (pattern, FAN[preset][pattern], fan)
    assert s.points == points(preset, fan)
    expected_bonuses = [("root", roots * gen_fan)] if roots * gen_fan else []
    if preset == "yaoji":
        expected_bonuses.append(("no_wild", 1))
    assert s.bonuses == expected_bonuses


# Seed 004's own numbers: 基本胡 0番 ×1 … 清龙七对 5番 ×32; 带根 +1番.
@pytest.mark.parametrize(
    "hand, fan, multiplier",
    [
        ("23445677m345789p", 0, 1),
        ("111333444m66677p", 1, 2),
        ("11223345678999m", 2, 4),
        ("22244455577799m", 3, 8),
        ("222555888m55588p", 3, 8),
        ("11334466m557799p", 2, 4),
        ("11334466778899m", 4, 16),
        ("11222244m557788p", 4, 16),
        ("11224444557799m", 5, 32),
        ("111222333m78999p", 2, 4),
        ("11123777888999m", 4, 16),
        ("123333m45566799s", 1, 2),
    ],
)
def test_seed_004_fan_and_multipliers_in_xuezhan(hand, fan, multiplier):
    s = win(hand, "xuezhan")
    assert (s.fan, s.multiplier, s.points) == (fan, multiplier, multiplier)


def test_seed_001_sanxia_and_its_piao_room():
    # 基本胡 1番, 對對胡 4番, 清一色 6番, 清一色碰碰胡 10番 (底金 × fan); 帶漂: 3, 6, 8, 12.
    hands = ["23445677m345789p", "111333444m66677p", "11223345678999m", "11133344555666m"]
    assert [win(h, "sanxia").points for h in hands] == [1, 4, 6, 10]
    assert [win(h, "sanxia_piao").points for h in hands] == [3, 6, 8, 12]
    assert win("11133344555666m", "sanxia").pattern == "flush_triplets"


def test_seed_000_dashiyou_patterns_and_kongs():
    # 基本胡 3, 門清 4, 碰碰胡 6, 清一色 8, 清碰 12; 明槓 +1, 暗槓 +2.
    assert win("23445677m789p", "dashiyou", melds=["333p"]).fan == 3
    assert win("23445677m345789p", "dashiyou").pattern == "concealed"
    assert win("23445677m345789p", "dashiyou", self_draw=True).fan == 4
    assert win("111333444m66677p", "dashiyou", self_draw=True).fan == 6
    assert win("11223345678999m", "dashiyou").fan == 8
    assert win("22244455577799m", "dashiyou").fan == 12
    s = win("23445677m345p", "dashiyou", melds=["9999p"])
    assert (s.pattern, s.fan, s.bonuses) == ("basic", 4, [("exposed_kong", 1)])
    s = win("23445677m345p", "dashiyou", concealed_kongs=["9999p"])
    assert (s.pattern, s.fan, s.bonuses) == ("concealed", 6, [("concealed_kong", 2)])
    # A pong took another player's tile: no 門清 even when self-drawn.
    assert win("23445677m789p", "dashiyou", melds=["333p"], self_draw=True).pattern == "basic"


def test_seed_002_ladder_through_real_hands():
    # chengdu: 1 fan ×1 … 6 fan ×32, base 6 (計分規則 2-3).
    hands = [
        "23445677m345789p",  # basic 1
        "111333444m66677p",  # all triplets 2
        "11223345678999m",  # full flush 3
        "22244455577799m",  # flush triplets 4
        "11334466778899m",  # flush seven pairs 5
        "11224444557799m",  # flush dragon seven pairs 6
    ]
    assert [win(h, "chengdu").fan for h in hands] == [1, 2, 3, 4, 5, 6]
    assert [win(h, "chengdu").points for h in hands] == [6 * 2 ** (f - 1) for f in range(1, 7)]


def test_dragon_seven_pairs_take_one_root():
    # One four: it is the dragon; no root bonus. Two fours: the second is a root.
    assert win("11222244m557788p", "chengdu").bonuses == []
    s = win("11112222m557788p", "chengdu")
    assert (s.pattern, s.fan, s.bonuses) == ("dragon_seven_pairs", 6, [("root", 1)])
    # Plain seven pairs keep their roots, but a dragon is worth more here.
    assert win("11112222m557788p", "xuezhan").fan == 4 + 1


def test_split_worth_most_counts():
    # 11223344556677m: 123 123 456 456 77 (清一色 3) or seven pairs (清七对 5).
    assert win("11223344556677m", "chengdu").pattern == "flush_seven_pairs"
    assert win("11223344556677m", Rules.preset("chengdu", allow_seven_pairs=False)).pattern == "full_flush"


def test_bonuses_stack_and_the_cap_limits():
    kong_flower = dict(melds=["9999m"], self_draw=True, kong_flower=True)
    # 清一色 3 + root 1 + 明杠 1 + 杠上花 1 = 6 fan → 6 × 2^5.
    s = win("11112345677m", "chengdu", **kong_flower)
    assert s.bonuses == [("root", 1), ("exposed_kong", 1), ("kong_flower", 1)]
    assert (s.fan, s.capped_fan, s.points) == (6, 6, 192)
    s = win("11112345677m", Rules.preset("chengdu", cap_fan=4), **kong_flower)
    assert (s.fan, s.capped_fan, s.multiplier, s.points) == (6, 4, 8, 48)
    # 杠上炮 and 抢杠 are discard wins: +1 each in chengdu.
    s = win("11112345677m", "chengdu", melds=["9999m"], kong_shot=True)
    assert s.bonuses == [("root", 1), ("exposed_kong", 1), ("kong_shot", 1)]
    # yaoji's required cap of 5: 清龙七对 5 + 无鸡 1 = 6 → 5.
    s = win("11224444557799m", "yaoji")
    assert (s.fan, s.capped_fan, s.points) == (6, 5, 32)


def test_section_10_worked_arithmetic():
    # sanxia 杠开: basic after a 直杠 = 1 + 1 = 2 fan (seed 001 §六.5).
    s = win("23445677m345p", "sanxia", melds=["9999p"], self_draw=True, kong_flower=True)
    assert (s.fan, s.points) == (2, 2)
    # xuezhan: basic, 暗杠 then 杠上花 = 0 + 2 + 1 = 3 fan, ×8 (seed 004: 下雨杠开 3番).
    s = win("23445677m345p", "xuezhan", concealed_kongs=["9999p"], self_draw=True, kong_flower=True)
    assert (s.fan, s.points) == (3, 8)
    # 刮风杠开 2番.
    s = win("23445677m345p", "xuezhan", melds=["9999p"], self_draw=True, kong_flower=True)
    assert (s.fan, s.points) == (2, 4)


def test_dashiyou_kong_fan_wins_and_loses():
    # RULES §9: A wins basic with one 明杠 (3 + 1 = 4 fan); B holds a 暗杠 and pays (4 + 2) × base;
    # C pays 4 × base.
    s = win("23445677m345p", "dashiyou", melds=["9999p"])
    assert (s.fan, s.points) == (4, 4)
    assert s.payment(concealed_kongs=1) == 6
    assert s.payment() == 4
    assert s.payment(exposed_kongs=1, concealed_kongs=1) == 7
    # win_only rooms ignore the payer's kongs.
    assert win("23445677m345p", "xuezhan", melds=["9999p"]).payment(concealed_kongs=2) == 2


def test_robbing_a_kong():
    # The robbed 4m completes 234m; the kong's owner holds the other three 4m.
    # sanxia 抢杠 … 算做一般的点炮，基本胡型: basic 1 + the robber's 明杠 1.
    s = win("1112356788m4m", "sanxia", melds=["9999m"], robbed_kong=True)
    assert (s.pattern, s.fan) == ("basic", 2)
    # chengdu: the hand's own pattern + 抢杠 1: 清一色 3 + 明杠 1 + 1.
    s = win("1112356788m4m", "chengdu", melds=["9999m"], robbed_kong=True)
    assert (s.pattern, s.fan, s.bonuses[-1]) == ("full_flush", 5, ("rob_kong", 1))


def test_heavenly_replaces_or_stacks():
    # xuezhan: 天胡 5 replaces the pattern. yaoji: 天胡地胡根据胡牌类型可以另加番 — it adds.
    s = win("11223345678999m", "xuezhan", heavenly=True)
    assert (s.pattern, s.fan) == ("heavenly", 5)
    s = win("11223345678999m", "yaoji", earthly=True)
    assert (s.pattern, s.fan, s.capped_fan) == ("full_flush", 2 + 5 + 1, 5)
    assert ("earthly", 5) in s.bonuses
    # dashiyou has no 天胡: scored as the self-drawn hand it is.
    assert win("11223345678999m", "dashiyou", heavenly=True).fan == 8


def test_self_draw_bonus_options():
    add_fan = Rules.preset("xuezhan", self_draw_bonus="add_fan")
    assert win("23445677m345789p", add_fan, self_draw=True).bonuses == [("self_draw", 1)]
    add_base = Rules.preset("xuezhan", self_draw_bonus="add_base", base_points=5)
    s = win("23445677m345789p", add_base, self_draw=True)
    assert (s.fan, s.extra_points, s.points) == (0, 5, 10)
    assert win("23445677m345789p", add_base).points == 5


def test_score_breakdown_reads_and_adds_up():
    s = win("11112345677m", Rules.preset("chengdu", cap_fan=4), melds=["9999m"], self_draw=True, kong_flower=True)
    assert str(s) == (
        "full_flush                3 fan  清一色\n"
        "root                      1 fan  根\n"
        "exposed_kong              1 fan  明杠\n"
        "kong_flower               1 fan  杠上花\n"
        "total                     6 fan\n"
        "capped                    4 fan  封顶\n"
        "points per payer        6 × 2^(4−1) = 48"
    )
    assert s.to_dict() == {
        "pattern": "full_flush",
        "pattern_fan": 3,
        "bonuses": [
            {"name": "root", "count": 1, "fan": 1},
            {"name": "exposed_kong", "count": 1, "fan": 1},
            {"name": "kong_flower", "count": 1, "fan": 1},
        ],
        "fan": 6,
        "capped_fan": 4,
        "multiplier": 8,
        "extra_points": 0,
        "points": 48,
    }
    assert repr(s) == "Score(pattern='full_flush', fan=6, capped_fan=4, points=48)"


def test_bad_wins_raise_and_say_why():
    with pytest.raises(ScoreError, match="holds its void suit"):
        xueliu.score("2344567m345789p", "7m", rules="chengdu", void="p")
    with pytest.raises(ScoreError, match="three suits"):
        xueliu.score("123m456p789s1m456p", "1m", rules="chengdu")
    with pytest.raises(ScoreError, match="not four sets and a pair"):
        xueliu.score("2344567m345788p", "7m", rules="chengdu")
    with pytest.raises(ScoreError, match="cannot be kong_shot"):
        xueliu.score("2344567m345789p", "7m", rules="chengdu", self_draw=True, kong_shot=True)
    with pytest.raises(ScoreError, match="pass self_draw too"):
        xueliu.score("2344567m345789p", "7m", rules="chengdu", kong_flower=True)
    with pytest.raises(ScoreError, match="need a kong"):
        xueliu.score("2344567m345789p", "7m", rules="chengdu", self_draw=True, kong_flower=True)
    with pytest.raises(ScoreError, match="wild"):
        xueliu.score("23445677m345p11s", "1s", rules="yaoji")
    with pytest.raises(InvalidHandError, match="without its winning tile"):
        xueliu.score("23445677m345789p", "7m", rules="chengdu")
    with pytest.raises(InvalidHandError, match="5 copies of 7m"):
        xueliu.score("7777m345p456p789p", "7m", rules="chengdu")
    with pytest.raises(TypeError, match="preset name"):
        xueliu.score("2344567m345789p", "7m", rules=3)
    with pytest.raises(xueliu.RulesError, match="unknown preset"):
        xueliu.score("2344567m345789p", "7m", rules="chengdoo")


def test_best_waits_value_each_wait():
    # Nine gates: 1m and 9m give 111 123 456 789 99 with four 1m or four 9m (清一色 3 + a root);
    # 2m–8m give 清一色 alone.
    waits = xueliu.best_waits("1112345678999m", rules="chengdu")
    assert [(str(t), s.fan) for t, s in waits] == [(f"{r}m", 4 if r in (1, 9) else 3) for r in range(1, 10)]
    # Seed 001's ready hand waits on 1p and 4p, basic either way.
    waits = xueliu.best_waits("12334577m23345p", rules="sanxia")
    assert [(str(t), s.pattern, s.points) for t, s in waits] == [("1p", "basic", 1), ("4p", "basic", 1)]
    # Own kongs count (xuezhan 暗杠 2); no situational bonus (yaoji's 无鸡).
    for preset in ("xuezhan", "yaoji"):
        waits = xueliu.best_waits("2344567m345p", rules=preset, concealed_kongs=["9999p"])
        assert [(str(t), s.fan) for t, s in waits] == [("1m", 2), ("4m", 2), ("7m", 2)]
    # dashiyou: a hand with no pong or exposed kong waits as 门清.
    assert {s.pattern for _, s in xueliu.best_waits("2344567m345789p", rules="dashiyou")} == {"concealed"}
    assert xueliu.best_waits("1357m2468p13579s", rules="xuezhan") == []
    assert xueliu.best_waits("2344567m345789p", rules="chengdu", void="m") == []


# --- Properties over random hands -----------------------------------------------------------


@st.composite
def ready_hands(draw):
    """A ready hand: four sets and a pair in at most two suits, some triplets melded, less one
    concealed tile. Returns (concealed tiles, pongs and exposed kongs, concealed kongs)."""
    suits = draw(st.lists(st.sampled_from("mps"), min_size=2, max_size=2))

    def tile():
        return draw(st.integers(1, 9)), draw(st.sampled_from(suits))

    rank, suit = tile()
    concealed, melds, kongs = [f"{rank}{suit}"] * 2, [], []
    for _ in range(4):
        rank, suit = tile()
        kind = draw(st.sampled_from(["sequence", "triplet", "pong", "kong", "concealed_kong"]))
        if kind == "sequence" and rank <= 7:
            concealed += [f"{rank + i}{suit}" for i in range(3)]
        elif kind in ("sequence", "triplet"):
            concealed += [f"{rank}{suit}"] * 3
        elif kind == "concealed_kong":
            kongs.append(f"{rank}" * 4 + suit)
        else:
            melds.append(f"{rank}" * (3 if kind == "pong" else 4) + suit)
    held = concealed + [m[0] + m[-1] for m in melds + kongs for _ in m[:-1]]
    assume(max(Counter(held).values()) <= 4)
    concealed.remove(draw(st.sampled_from(concealed)))
    return "".join(concealed), melds, kongs


def check_waits_score_as_self_drawn_wins(concealed, melds, kongs, rules):
    waits = xueliu.best_waits(concealed, rules=rules, melds=melds, concealed_kongs=kongs)
    assert [t for t, _ in waits] == xueliu.waits(concealed, melds=melds + kongs, seven_pairs=rules.allow_seven_pairs)
    for tile, value in waits:
        s = xueliu.score(concealed, tile, rules=rules, melds=melds, concealed_kongs=kongs, self_draw=True)
        # No preset but yaoji adds anything for a plain self-draw, so 查叫's value is the win's.
        assert s == value
        assert s.fan == s.pattern_fan + sum(fan for _, fan in s.bonuses)
        assert s.capped_fan == min(s.fan, rules.cap_fan or s.fan)
        assert s.points == rules.points(s.capped_fan) + s.extra_points
    return waits


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(ready_hands(), st.sampled_from([p for p in SEED_PRESETS if p != "yaoji"]), st.booleans())
def test_each_wait_scores_as_a_self_drawn_win(hand, preset, cap):
    concealed, melds, kongs = hand
    check_waits_score_as_self_drawn_wins(concealed, melds, kongs, Rules.preset(preset, cap_fan=3 if cap else None))


def test_the_wait_check_meets_roots_and_kongs():
    chengdu = Rules.preset("chengdu")
    waits = check_waits_score_as_self_drawn_wins("1112345678999m", [], [], chengdu)
    assert [s.bonuses for t, s in waits if str(t) in ("1m", "9m")] == [[("root", 1)]] * 2
    waits = check_waits_score_as_self_drawn_wins("2344567m345p", [], ["9999p"], chengdu)
    assert all(s.bonuses == [("concealed_kong", 1)] for _, s in waits) and len(waits) == 3
    waits = check_waits_score_as_self_drawn_wins("1m", ["222m", "333m", "444p", "5555p"], [], chengdu)
    assert [(str(t), s.pattern, s.bonuses) for t, s in waits] == [("1m", "all_triplets", [("exposed_kong", 1)])]


def test_breakdown_lines_sum_to_the_total():
    s = win("11112222m557788p", "chengdu")
    lines = str(s).splitlines()
    fans = [int(m.group(1)) for line in lines[:-2] if (m := re.search(r"(\d+) fan", line))]
    assert sum(fans) == s.fan
    assert lines[-2].split()[:2] == ["total", str(s.fan)]


def test_tile_forms_for_the_winning_tile():
    a = xueliu.score("2344567m345789p", "7m", rules="chengdu")
    assert xueliu.score("2344567m345789p", Tile("7m"), rules="chengdu") == a
    assert xueliu.score("2344567m345789p", 6, rules="chengdu") == a
    assert xueliu.score("2344567m345789p", "7m", rules=Rules.preset("chengdu")) == a


def test_best_waits_under_yaoji_never_list_the_wild_1s():
    # 123m 456m 789m 55s + 23s waits on 1s or 4s; under 幺鸡 a drawn 1s is a wild, not a wait.
    hand = "123456789m2355s"
    plain = xueliu.best_waits(hand, rules=xueliu.Rules.preset("chengdu"))
    assert [str(t) for t, _ in plain] == ["1s", "4s"]
    wild = xueliu.best_waits(hand, rules=xueliu.Rules.preset("yaoji"))
    assert [str(t) for t, _ in wild] == ["4s"]


# --- 幺鸡 (docs/game-protocol.md §11) ---------------------------------------------------------


def test_wild_hands_score_their_best_split_and_lose_no_wild():
    # 234m 456m 77m 345p 78p + a wild (6p or 9p): yaoji basic 0; the wild forfeits 无鸡加番.
    s = xueliu.score("23445677m3457p", "8p", rules="yaoji", wilds=1)
    assert (s.pattern, s.fan, s.bonuses, s.points) == ("basic", 0, [], 1)
    # The same hand with a natural 9p: basic 0 + 无鸡 1.
    s = xueliu.score("23445677m34579p", "8p", rules="yaoji")
    assert (s.fan, s.bonuses) == (1, [("no_wild", 1)])
    # 111 234 567 8+W+9 99m: one suit, 清一色 2 fan ×4, the wild standing for 7m.
    s = xueliu.score("111234567899m", "9m", rules="yaoji", wilds=1)
    assert (s.pattern, s.fan, s.points) == ("full_flush", 2, 4)
    # Winning on a drawn wild: win_tile "1s".
    s = xueliu.score("23445677m34578p", "1s", rules="yaoji", self_draw=True)
    assert (s.pattern, s.fan) == ("basic", 0)


def test_wild_roots_melds_and_four_wilds():
    # A pong of 5m holding a wild and 55m in hand: four natural 5m, a root; no wild in hand: 无鸡.
    s = xueliu.score("55m123p456p78p", "9p", rules="yaoji", melds=["55m1s"])
    assert s.bonuses == [("root", 1), ("no_wild", 1)]
    # A concealed kong of 5m with three wilds is a 暗杠: 2 fan.
    s = xueliu.score("55p123p456p78p", "9p", rules="yaoji", concealed_kongs=["5m111s"])
    assert s.bonuses == [("concealed_kong", 2), ("no_wild", 1)]
    # Four wilds: basic + four_wilds at the cap (5), whatever the rest; ×32.
    s = xueliu.score("1357m2468p35s", "1s", rules="yaoji", wilds=3, self_draw=True)
    assert (s.fan, s.capped_fan, s.bonuses, s.points) == (5, 5, [("four_wilds", 5)], 32)


def test_wilds_need_the_wild_rules():
    with pytest.raises(ScoreError, match="wilds = false"):
        xueliu.score("23445677m3457p", "8p", rules="xuezhan", wilds=1)
    with pytest.raises(ScoreError, match="meld of 1s"):
        xueliu.score("2344567m345p", "7m", rules="yaoji", melds=["111s"])
    with pytest.raises(InvalidHandError, match="wilds=5"):
        xueliu.score("23445677m3457p", "8p", rules="yaoji", wilds=5)


def test_best_waits_with_wilds():
    # 123m 456m 789m 555p + a wild: the wild pairs with any m or p tile (bamboo would be a third
    # suit); 5p makes four natural 5p, a root.
    waits = xueliu.best_waits("123m456m789m555p", rules="yaoji", wilds=1)
    expected = [(f"{r}{s}", int(s == "p" and r == 5)) for s in "mp" for r in range(1, 10)]
    assert [(str(t), s.fan) for t, s in waits] == expected
    # Only a wild, as a fifth 5m, completes this hand: not ready.
    assert xueliu.best_waits("5555m123p456p789p", rules="yaoji") == []
