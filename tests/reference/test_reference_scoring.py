"""The pure-Python reference presets and scorer (RULES.md §8–§10) on the seeds' own examples.

Every expected value here was worked out by hand from RULES.md and the seed documents, never by
running the code; the comment beside each says how. The last test checks the reference's own
win check against the engine's hand analysis (``xueliu.waits``), never against its scorer.
"""

from __future__ import annotations

import re

import pytest
from helpers import ROOT
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import xueliu
from xueliu.reference.presets import PATTERNS, PRESETS, get_preset
from xueliu.reference.scoring import best_waits, points_for_fan, score

ORDER = ("dashiyou", "sanxia", "sanxia_piao", "chengdu", "chengdu_xueliu", "xuezhan", "yaoji")
SCHEMA = ROOT / "docs" / "rules-schema.md"

# ---------------------------------------------------------------------------------------------
# Presets


def schema_keys() -> set:
    """Every key named in the first column of docs/rules-schema.md's table."""
    keys = set()
    for line in SCHEMA.read_text(encoding="utf-8").splitlines():
        match = re.match(r"\| (`[a-z0-9_]+`(?:, `[a-z0-9_]+`)*) \|", line)
        if match:
            keys |= set(re.findall(r"`([a-z0-9_]+)`", match.group(1)))
    return keys


def test_presets_have_exactly_the_schema_keys_and_every_pattern():
    keys = schema_keys()
    assert "flower_pig_payees" in keys and "heavenly_stacks" in keys  # the parse found the table
    # RULES.md §10's seven, and the two competition rulebooks (docs/presets.md).
    assert set(PRESETS) == set(ORDER) | {"mil_sbr_2025", "tfmj_2024"}
    for name, rules in PRESETS.items():
        assert set(rules) == keys, name
        assert rules["preset"] == name
        assert tuple(rules["fan"]) == PATTERNS


# RULES.md §10's pattern table, re-read row by row; columns in ORDER. None is "—".
FAN_TABLE = {
    "basic": (3, 1, 3, 1, 1, 0, 0),
    "concealed": (4, None, None, None, None, None, None),
    "all_triplets": (6, 4, 6, 2, 2, 1, 1),
    "full_flush": (8, 6, 8, 3, 3, 2, 2),
    "flush_triplets": (12, 10, 12, 4, 4, 3, 3),
    "terminals": (None, None, None, 3, 3, 2, 2),
    "seven_pairs": (None, None, None, 3, 3, 2, 2),
    "triplets_258": (None, None, None, 4, 4, 3, 3),
    "dragon_seven_pairs": (None, None, None, 5, 5, 4, 4),
    "flush_seven_pairs": (None, None, None, 5, 5, 4, 4),
    "flush_terminals": (None, None, None, 5, 5, 4, 4),
    "flush_dragon_seven_pairs": (None, None, None, 6, 6, 5, 5),
    "heavenly": (None, None, None, 6, 6, 5, 5),
    "earthly": (None, None, None, 6, 6, 5, 5),
    "golden_hook": (None,) * 7,
    "eighteen_arhats": (None,) * 7,
}


@pytest.mark.parametrize("pattern", PATTERNS)
def test_preset_fan_tables_match_rules_md(pattern):
    assert tuple(PRESETS[p]["fan"][pattern] for p in ORDER) == FAN_TABLE[pattern]


# RULES.md §10's option table (plus the defaults the brief lists), re-read; columns in ORDER.
OPTION_TABLE = {
    "mode": ("xueliu", "xueliu", "xueliu", "xuezhan", "xueliu", "xuezhan", "xuezhan"),
    "first_dealer": ("east", "east", "east", "random", "random", "dice", "dice"),
    "dealer_rotation": ("rotate",) * 3 + ("first_winner",) * 4,
    "exchange": ("dice", "dice", "dice", None, "dice", "dice", "dice"),
    "exchange_redeal_if_unchanged": (True,) + (False,) * 6,
    "declare_void": (True,) * 7,
    "allow_seven_pairs": (False,) * 3 + (True,) * 4,
    "scoring": ("linear",) * 3 + ("exponential",) * 4,
    "base_points": (1, 1, 1, 6, 6, 1, 1),
    "cap_fan": (None,) * 6 + (5,),
    "gen_fan": (0, 0, 0, 1, 1, 1, 1),
    "exposed_kong_fan": (1,) * 7,
    "concealed_kong_fan": (2, 2, 2, 1, 1, 2, 2),
    "kong_flower_fan": (0, 0, 0, 1, 1, 1, 1),
    "kong_shot_fan": (0, 0, 0, 1, 1, 1, 1),
    "rob_kong_fan": (0, 0, 0, 1, 1, 1, 1),
    "rob_kong_scoring": ("as_basic",) * 3 + ("normal",) * 4,
    "rob_concealed_kong": (True,) + (False,) * 6,
    "late_kong": (
        "full",
        "kept_fourth_forbidden",
        "kept_fourth_forbidden",
        "root_only",
        "kept_fourth_forbidden",
        "full",
        "full",
    ),
    "pass_win_lock": ("none",) * 3 + ("until_draw_unless_higher",) * 2 + ("none",) * 2,
    "last_four": ("forced", "none", "none", "ron_forced", "ron_forced", "self_draw_forced", "self_draw_forced"),
    "kong_fan": ("win_and_loss",) * 3 + ("win_only",) * 4,
    "kong_payments": (False,) * 3 + (True,) * 4,
    "kong_flower_after_direct_kong": ("all_pay",) * 3 + ("feeder_pays_all",) * 2 + ("all_pay", "feeder_pays_all"),
    "kong_income_transfer": ("none",) * 3 + ("last_kong",) * 2 + ("none",) * 2,
    "flower_pig_penalty": ("double_ready_value",) * 3 + ("fixed_fan",) * 4,
    "flower_pig_payees": ("ready",) + ("ready_or_won",) * 4 + ("non_pigs",) * 2,
    "tax_refund": (False,) * 3 + (True,) * 4,
    "ready_difference": (False,) * 5 + (True,) * 2,
    "kong_draw_from": ("front",) * 7,
    "pong_last_discard": (False,) * 7,
    "gen_counts_kongs": (False,) * 7,
    "self_draw_payers": ("not_won",) * 7,
    "self_draw_bonus": ("none",) * 7,
    "exchange_same_suit": (True,) * 7,
    "wilds": (False,) * 6 + (True,),
    "no_wild_fan": (0,) * 6 + (1,),
    "heavenly_stacks": (False,) * 6 + (True,),
    "flower_pig_rule": ("three_suits",) * 7,
    "escape_penalty": (96,) * 7,
    "golden_hook_fan": (0,) * 7,
    "last_tile_self_draw_fan": (0,) * 7,
    "last_discard_win_fan": (0,) * 7,
    "ready_wait_copies": ("hand_and_melds",) * 7,
}


@pytest.mark.parametrize("option", sorted(OPTION_TABLE))
def test_preset_options_match_rules_md(option):
    assert tuple(PRESETS[p][option] for p in ORDER) == OPTION_TABLE[option]


def test_fixed_pig_fan_and_exponential_offsets():
    # §10: 5 fan in chengdu/chengdu_xueliu (seed 003), 4 in xuezhan/yaoji (seed 004 §四.7).
    assert [PRESETS[p]["flower_pig_fan"] for p in ORDER[3:]] == [5, 5, 4, 4]
    # §9: seed 002 offset 1, seed 004 offset 0.
    assert [PRESETS[p]["fan_offset"] for p in ORDER[3:]] == [1, 1, 0, 0]


def test_get_preset_copies_and_overrides():
    rules = get_preset("chengdu", cap_fan=3)
    assert rules["cap_fan"] == 3 and PRESETS["chengdu"]["cap_fan"] is None
    rules["fan"]["basic"] = 99
    assert PRESETS["chengdu"]["fan"]["basic"] == 1
    with pytest.raises(ValueError, match="valid presets"):
        get_preset("riichi")
    with pytest.raises(ValueError, match="valid options"):
        get_preset("chengdu", no_such_option=1)


# ---------------------------------------------------------------------------------------------
# Seed 004's example hands, in every preset

# hand -> {preset: (pattern, fan, points)}; None: not a win there. Derivations:
# - linear presets (dashiyou, sanxia, sanxia_piao): points = fan (base 1).
# - chengdu: points = 6 × 2^(fan−1); xuezhan: 2^fan; yaoji: 2^min(fan, 5), and +1 fan 无鸡加番 on
#   every one of these hands (none holds a 1s).
# - dashiyou has no seven pairs (allow_seven_pairs false) and prices only basic 3, 门清 4,
#   碰碰胡 6, 清一色 8, 清碰 12; a hand with no meld is 门清 at least. sanxia/sanxia_piao: 1/4/6/10
#   and 3/6/8/12, no 门清.
SEED_004_HANDS = {
    # 234m 456m 77m 345p 789p: only a basic split.
    "23445677m345789p": {
        "dashiyou": ("concealed", 4, 4),
        "sanxia": ("basic", 1, 1),
        "sanxia_piao": ("basic", 3, 3),
        "chengdu": ("basic", 1, 6),
        "xuezhan": ("basic", 0, 1),
        "yaoji": ("basic", 1, 2),
    },
    # 111 333 444m 666p 77p: all triplets (no 2m, so no sequences).
    "111333444m66677p": {
        "dashiyou": ("all_triplets", 6, 6),
        "sanxia": ("all_triplets", 4, 4),
        "sanxia_piao": ("all_triplets", 6, 6),
        "chengdu": ("all_triplets", 2, 12),
        "xuezhan": ("all_triplets", 1, 2),
        "yaoji": ("all_triplets", 2, 4),
    },
    # 123 123 456 789 99m: the only split; 456 keeps it from terminals; 999 is three, no root.
    "11223345678999m": {
        "dashiyou": ("full_flush", 8, 8),
        "sanxia": ("full_flush", 6, 6),
        "sanxia_piao": ("full_flush", 8, 8),
        "chengdu": ("full_flush", 3, 24),
        "xuezhan": ("full_flush", 2, 4),
        "yaoji": ("full_flush", 3, 8),
    },
    # 222 444 555 777 99m.
    "22244455577799m": {
        "dashiyou": ("flush_triplets", 12, 12),
        "sanxia": ("flush_triplets", 10, 10),
        "sanxia_piao": ("flush_triplets", 12, 12),
        "chengdu": ("flush_triplets", 4, 48),
        "xuezhan": ("flush_triplets", 3, 8),
        "yaoji": ("flush_triplets", 4, 16),
    },
    # 222 555 888m 555p 88p: 将对 where priced, else 对对胡 (two suits, not a flush).
    "222555888m55588p": {
        "dashiyou": ("all_triplets", 6, 6),
        "sanxia": ("all_triplets", 4, 4),
        "sanxia_piao": ("all_triplets", 6, 6),
        "chengdu": ("triplets_258", 4, 48),
        "xuezhan": ("triplets_258", 3, 8),
        "yaoji": ("triplets_258", 4, 16),
    },
    # No standard split (11m must be the pair, then 3m has no 5m): seven pairs only.
    "11334466m557799p": {
        "dashiyou": None,
        "sanxia": None,
        "sanxia_piao": None,
        "chengdu": ("seven_pairs", 3, 24),
        "xuezhan": ("seven_pairs", 2, 4),
        "yaoji": ("seven_pairs", 3, 8),
    },
    "11334466778899m": {
        "dashiyou": None,
        "sanxia": None,
        "sanxia_piao": None,
        "chengdu": ("flush_seven_pairs", 5, 96),
        "xuezhan": ("flush_seven_pairs", 4, 16),
        "yaoji": ("flush_seven_pairs", 5, 32),
    },
    # 2222m is one root, taken away by 龙七对: 0 roots.
    "11222244m557788p": {
        "dashiyou": None,
        "sanxia": None,
        "sanxia_piao": None,
        "chengdu": ("dragon_seven_pairs", 5, 96),
        "xuezhan": ("dragon_seven_pairs", 4, 16),
        "yaoji": ("dragon_seven_pairs", 5, 32),
    },
    # 4444m likewise; yaoji 5 + 0 + 1 = 6 fan, capped at 5.
    "11224444557799m": {
        "dashiyou": None,
        "sanxia": None,
        "sanxia_piao": None,
        "chengdu": ("flush_dragon_seven_pairs", 6, 192),
        "xuezhan": ("flush_dragon_seven_pairs", 5, 32),
        "yaoji": ("flush_dragon_seven_pairs", 6, 32),
    },
    # 123 123 123m 789p 99p is 带幺九; where that is unpriced, the hand is a plain (concealed) win.
    "111222333m78999p": {
        "dashiyou": ("concealed", 4, 4),
        "sanxia": ("basic", 1, 1),
        "sanxia_piao": ("basic", 3, 3),
        "chengdu": ("terminals", 3, 24),
        "xuezhan": ("terminals", 2, 4),
        "yaoji": ("terminals", 3, 8),
    },
    # 11 123 789 789 789m is 清幺九; the other split 11 123 777 888 999m is only 清一色.
    "11123777888999m": {
        "dashiyou": ("full_flush", 8, 8),
        "sanxia": ("full_flush", 6, 6),
        "sanxia_piao": ("full_flush", 8, 8),
        "chengdu": ("flush_terminals", 5, 96),
        "xuezhan": ("flush_terminals", 4, 16),
        "yaoji": ("flush_terminals", 5, 32),
    },
    # 123 333m 456 567 99s, with 3333m one root: +1 where gen_fan is 1, +0 in dashiyou/sanxia.
    "123333m45566799s": {
        "dashiyou": ("concealed", 4, 4),
        "sanxia": ("basic", 1, 1),
        "sanxia_piao": ("basic", 3, 3),
        "chengdu": ("basic", 2, 12),
        "xuezhan": ("basic", 1, 2),
        "yaoji": ("basic", 2, 4),
    },
}
for _expected in SEED_004_HANDS.values():
    _expected["chengdu_xueliu"] = _expected["chengdu"]  # same pattern table, curve and bonuses


def tiles_of(hand14: str) -> list:
    """Tile indices of a hand string, parsed here independently of the scorer."""
    tiles, ranks = [], []
    for ch in hand14:
        if ch.isdigit():
            ranks.append(int(ch))
        else:
            tiles += ["mps".index(ch) * 9 + r - 1 for r in ranks]
            ranks = []
    return tiles


def win_splits(hand14: str):
    """(hand without the winning tile, winning tile) for each distinct tile of the hand: a fully
    concealed hand scores the same whichever of its tiles completed it."""
    tiles = tiles_of(hand14)
    for win in sorted(set(tiles)):
        rest = list(tiles)
        rest.remove(win)
        yield rest, win


SEED_CASES = [(hand, preset) for hand in SEED_004_HANDS for preset in ORDER]


@pytest.mark.parametrize("hand14, preset", SEED_CASES)
def test_seed_004_example_hands_in_every_preset(hand14, preset):
    expected = SEED_004_HANDS[hand14][preset]
    for hand, win in win_splits(hand14):
        if expected is None:
            with pytest.raises(ValueError, match="not a winning hand"):
                score(hand, win, rules=PRESETS[preset])
            continue
        result = score(hand, win, rules=PRESETS[preset])
        assert (result["pattern"], result["fan"], result["points"]) == expected
        assert result["pattern_fan"] == PRESETS[preset]["fan"][expected[0]]
        assert result["fan"] == result["pattern_fan"] + sum(b["fan"] for b in result["bonuses"])


def test_seed_004_bonus_lists():
    # 123333m45566799s: 带根 each root +1 (seed 004 §七.1).
    assert score("12333m45566799s", "3m", rules=PRESETS["xuezhan"])["bonuses"] == [
        {"name": "root", "count": 1, "fan": 1}
    ]
    # dashiyou's root is worth 0 fan and is not listed.
    assert score("12333m45566799s", "3m", rules=PRESETS["dashiyou"])["bonuses"] == []
    # yaoji: 无鸡加番 on top of the root.
    assert score("12333m45566799s", "3m", rules=PRESETS["yaoji"])["bonuses"] == [
        {"name": "root", "count": 1, "fan": 1},
        {"name": "no_wild", "count": 1, "fan": 1},
    ]
    # 龙七对 減1根: the only root is gone.
    assert score("1122224m557788p", "4m", rules=PRESETS["chengdu"])["bonuses"] == []


def test_yaoji_cap_keeps_uncapped_fan():
    # 清龙七对 5 + 无鸡 1 = 6 fan, capped to 5: ×32.
    result = score("1122444455779m", "9m", rules=PRESETS["yaoji"])
    assert (result["fan"], result["capped_fan"], result["points"]) == (6, 5, 32)


def test_seed_001_flush_triplets_is_ten_fan_in_sanxia():
    # seed 001 §四.4: 清一色碰碰胡 10翻, 牌型如 11133344555666萬 (111 333 555 666 44).
    assert score("1113334455566m", "6m", rules=PRESETS["sanxia"])["fan"] == 10
    assert score("1113334455566m", "6m", rules=PRESETS["sanxia"])["points"] == 10
    # 带漂房间: 清碰 12.
    assert score("1113334455566m", "6m", rules=PRESETS["sanxia_piao"])["points"] == 12


def test_seed_002_point_ladder():
    # 計分規則 2–3: 1番 1倍 ... 六番 32倍, base 6.
    assert [points_for_fan(f, PRESETS["chengdu"]) for f in range(1, 7)] == [6, 12, 24, 48, 96, 192]


def test_seed_004_point_ladder():
    # §六: 0番 底金×1, 1番 ×2, 2番 ×4, 3番 ×8, 4番 ×16, 5番 ×32.
    assert [points_for_fan(f, PRESETS["xuezhan"]) for f in range(6)] == [1, 2, 4, 8, 16, 32]


def test_points_for_fan_other_curves():
    assert points_for_fan(4, PRESETS["dashiyou"]) == 4  # linear, base 1
    assert points_for_fan(4, get_preset("dashiyou", base_points=5)) == 20
    assert points_for_fan(3, get_preset("chengdu", scoring="multiplier_table", base_points=1)) == 8
    # Below the offset the curve stays at 2^0 (our reading; no seed preset reaches it).
    assert points_for_fan(1, get_preset("chengdu", fan_offset=2)) == 6
    # points_for_fan never caps (a fixed pig fan is not capped).
    assert points_for_fan(6, PRESETS["yaoji"]) == 64


# ---------------------------------------------------------------------------------------------
# Kongs and situational fan: RULES.md §9–§10's worked arithmetic

BASIC_WITH_KONG = "234m345p678p9p"  # + a 5m kong + the winning 9p: 234m 5555m 345p 678p 99p


def test_sanxia_kong_flower_is_kong_fan_plus_self_draw():
    # §10: sanxia 杠开 after a 直杠 = 1 (basic) + 1 (exposed kong), kong_flower_fan 0.
    result = score(BASIC_WITH_KONG, "9p", melds=["5555m"], rules=PRESETS["sanxia"], self_draw=True, kong_flower=True)
    assert result == {
        "pattern": "basic",
        "pattern_fan": 1,
        "bonuses": [{"name": "exposed_kong", "count": 1, "fan": 1}],
        "fan": 2,
        "capped_fan": 2,
        "multiplier": 2,
        "extra_points": 0,
        "points": 2,
    }


def test_xuezhan_kong_flower_after_concealed_kong():
    # §10: 0 + 2 + 1 = 3 fan, ×8 (seed 004 下雨杠开 3番).
    result = score(
        BASIC_WITH_KONG, "9p", concealed_kongs=["5555m"], rules=PRESETS["xuezhan"], self_draw=True, kong_flower=True
    )
    assert result == {
        "pattern": "basic",
        "pattern_fan": 0,
        "bonuses": [{"name": "concealed_kong", "count": 1, "fan": 2}, {"name": "kong_flower", "count": 1, "fan": 1}],
        "fan": 3,
        "capped_fan": 3,
        "multiplier": 8,
        "extra_points": 0,
        "points": 8,
    }


def test_xuezhan_kong_flower_after_exposed_kong():
    # seed 004 §七.5: 刮风杠开 2番 = 0 + 1 + 1, ×4.
    result = score(BASIC_WITH_KONG, "9p", melds=["5555m"], rules=PRESETS["xuezhan"], self_draw=True, kong_flower=True)
    assert (result["fan"], result["points"]) == (2, 4)


def test_dashiyou_kong_fan_example():
    # §9: A wins a basic hand holding one 明杠: 3 + 1 = 4 fan (an exposed kong is no 门清).
    result = score(BASIC_WITH_KONG, "9p", melds=["5555m"], rules=PRESETS["dashiyou"])
    assert (result["pattern"], result["fan"], result["points"]) == ("basic", 4, 4)
    # A 暗杠 keeps 门清: 4 + 2.
    result = score(BASIC_WITH_KONG, "9p", concealed_kongs=["5555m"], rules=PRESETS["dashiyou"])
    assert (result["pattern"], result["fan"], result["points"]) == ("concealed", 6, 6)
    # An exposed pong loses 门清: plain basic 3.
    result = score(BASIC_WITH_KONG, "9p", melds=["555m"], rules=PRESETS["dashiyou"])
    assert (result["pattern"], result["fan"]) == ("basic", 3)


def test_chengdu_kong_fan_is_one_for_both_kinds():
    # seed 002: 杠 加1番, whatever the kind; 1 + 1 → 6 × 2 = 12.
    for kind in ("melds", "concealed_kongs"):
        result = score(BASIC_WITH_KONG, "9p", rules=PRESETS["chengdu"], **{kind: ["5555m"]})
        assert (result["fan"], result["points"]) == (2, 12)


def test_robbing_a_kong_as_basic():
    # seeds 000 胡牌規則 8 / 001 §六.4: 基本胡型 whatever the hand; rob_kong_fan 0.
    assert score("111333444m6667p", "7p", rules=PRESETS["dashiyou"], robbed_kong=True)["fan"] == 3
    assert score("111333444m6667p", "7p", rules=PRESETS["sanxia"], robbed_kong=True)["fan"] == 1
    assert score("111333444m6667p", "7p", rules=PRESETS["sanxia_piao"], robbed_kong=True)["pattern"] == "basic"
    # The winner's own 暗杠 still counts (c): basic 3 + 2; unrobbed it is 对对胡 6 + 2.
    robbed = score("111444m6667p", "7p", concealed_kongs=["3333m"], rules=PRESETS["dashiyou"], robbed_kong=True)
    assert (robbed["pattern"], robbed["fan"]) == ("basic", 5)
    plain = score("111444m6667p", "7p", concealed_kongs=["3333m"], rules=PRESETS["dashiyou"])
    assert (plain["pattern"], plain["fan"]) == ("all_triplets", 8)


def test_robbing_a_kong_normal_adds_fan():
    # chengdu: 对对胡 2 + 抢杠 1 = 3 fan, 6 × 4 = 24.
    result = score("111333444m6667p", "7p", rules=PRESETS["chengdu"], robbed_kong=True)
    assert result["bonuses"] == [{"name": "rob_kong", "count": 1, "fan": 1}] and result["points"] == 24


def test_kong_shot():
    # xuezhan basic + 杠上炮 1 = 1 fan, ×2.
    result = score("2344567m345789p", "7m", rules=PRESETS["xuezhan"], kong_shot=True)
    assert (result["fan"], result["points"]) == (1, 2)


def test_root_from_a_pong_and_the_fourth_in_hand():
    # 555m ponged + 345m in hand: four 5m, not a declared kong → 1 root. chengdu 1 + 1 → 12.
    result = score("345m678m234p9p", "9p", melds=["555m"], rules=PRESETS["chengdu"])
    assert result["bonuses"] == [{"name": "root", "count": 1, "fan": 1}] and result["points"] == 12


def test_declared_kongs_are_roots_only_with_gen_counts_kongs():
    rules = get_preset("chengdu", gen_counts_kongs=True)
    # basic 1 + 暗杠 1 + 根 1 = 3 → 24; without the option 2 → 12.
    assert score(BASIC_WITH_KONG, "9p", concealed_kongs=["5555m"], rules=rules)["points"] == 24
    assert score(BASIC_WITH_KONG, "9p", concealed_kongs=["5555m"], rules=PRESETS["chengdu"])["points"] == 12


def test_dragon_seven_pairs_with_two_fours_loses_one_root():
    # 1111 2222m 33 55 77p: 龙七对, 2 roots − 1 = 1. chengdu 5 + 1 = 6 → 192; xuezhan 4 + 1 → 32.
    assert score("1111222m335577p", "2m", rules=PRESETS["chengdu"])["points"] == 192
    assert score("1111222m335577p", "2m", rules=PRESETS["xuezhan"])["fan"] == 5


def test_melds_count_for_patterns():
    # terminals through an exposed 111p: 111p 123m 789m 789p 99p → 3 fan, ×4 = 24.
    assert score("123m789m789p9p", "9p", melds=["111p"], rules=PRESETS["chengdu"])["pattern"] == "terminals"
    # a konged 1111p adds its fan: 3 + 1 → 48.
    assert score("123m789m789p9p", "9p", melds=["1111p"], rules=PRESETS["chengdu"])["points"] == 48
    # full flush with a 222m pong: 222 345 678 999 11m.
    assert score("345m678m999m1m", "1m", melds=["222m"], rules=PRESETS["chengdu"])["pattern"] == "full_flush"
    # all triplets across melds: 222m 555p pongs + 777m 888p 99m.
    assert score("777m888p9m", "9m", melds=["222m", "555p"], rules=PRESETS["chengdu"])["pattern"] == "all_triplets"
    # 将对 across melds: 222m 555p + 888m 888p 55m.
    assert score("888m888p5m", "5m", melds=["222m", "555p"], rules=PRESETS["chengdu"])["points"] == 48


def test_a_meld_in_a_third_suit_is_not_a_win():
    # the melds' suit counts for 缺一门: a 5s pong makes a third suit.
    with pytest.raises(ValueError, match="not a winning hand"):
        score("234m345p678p9p", "9p", melds=["555s"], rules=PRESETS["chengdu"])


def test_seven_pairs_needs_a_concealed_hand():
    # 11 33 44m + 5555p as a concealed kong + 77 99p is not seven pairs (and not standard).
    with pytest.raises(ValueError, match="not a winning hand"):
        score("113344m7799p", "1m", concealed_kongs=["5555p"], rules=PRESETS["chengdu"])


def test_best_split_and_tie_break():
    # 11223377889999m: 123 123 789 789 99 is 清幺九 5 + 1 root (9999m), seven pairs is 清龙七对
    # 6 + 0: both 6 fan; the bigger pattern is reported (our reading).
    result = score("1122337788999m", "9m", rules=PRESETS["chengdu"])
    assert (result["pattern"], result["fan"], result["bonuses"]) == ("flush_dragon_seven_pairs", 6, [])
    # 11223399m778899p: 带幺九 3 or 七对 3, equal in everything: RULES.md §8 lists terminals first.
    result = score("1122339m778899p", "9m", rules=PRESETS["chengdu"])
    assert (result["pattern"], result["fan"]) == ("terminals", 3)


# ---------------------------------------------------------------------------------------------
# Heavenly and earthly, self-draw bonus, caps


def test_heavenly_replaces_the_pattern():
    # chengdu 天胡 6, roots still add: basic hand → 6 → 192; with a root 7 → 384.
    assert score("2344567m345789p", "7m", rules=PRESETS["chengdu"], self_draw=True, heavenly=True)["points"] == 192
    result = score("12333m45566799s", "3m", rules=PRESETS["chengdu"], self_draw=True, heavenly=True)
    assert (result["pattern"], result["fan"], result["points"]) == ("heavenly", 7, 384)
    # earthly on a dragon seven pairs: 地胡 6 beats 龙七对 5, and the root is not taken away: 7.
    result = score("1122224m557788p", "4m", rules=PRESETS["chengdu"], self_draw=True, earthly=True)
    assert (result["pattern"], result["fan"]) == ("earthly", 7)
    # xuezhan: 天胡 5 replaces 清对 3.
    assert (
        score("2224445557779m", "9m", rules=PRESETS["xuezhan"], self_draw=True, heavenly=True)["pattern"] == "heavenly"
    )


def test_heavenly_stacks_in_yaoji_and_is_unpriced_in_dashiyou():
    # yaoji: basic 0 + 天胡 5 + 无鸡 1 = 6, capped 5.
    result = score("2344567m345789p", "7m", rules=PRESETS["yaoji"], self_draw=True, heavenly=True)
    assert result == {
        "pattern": "basic",
        "pattern_fan": 0,
        "bonuses": [{"name": "heavenly", "count": 1, "fan": 5}, {"name": "no_wild", "count": 1, "fan": 1}],
        "fan": 6,
        "capped_fan": 5,
        "multiplier": 32,
        "extra_points": 0,
        "points": 32,
    }
    # dashiyou prices no 天胡: the hand is 门清 4.
    assert score("2344567m345789p", "7m", rules=PRESETS["dashiyou"], self_draw=True, heavenly=True)["fan"] == 4


def test_self_draw_bonus_options():
    add_fan = get_preset("chengdu", self_draw_bonus="add_fan")
    result = score("2344567m345789p", "7m", rules=add_fan, self_draw=True)
    assert (result["bonuses"], result["points"]) == ([{"name": "self_draw", "count": 1, "fan": 1}], 12)
    assert score("2344567m345789p", "7m", rules=add_fan)["points"] == 6
    add_base = get_preset("chengdu", self_draw_bonus="add_base")
    result = score("2344567m345789p", "7m", rules=add_base, self_draw=True)
    assert (result["fan"], result["points"]) == (1, 12)  # 6 + one base of 6
    # the default adds nothing.
    assert score("2344567m345789p", "7m", rules=PRESETS["chengdu"], self_draw=True)["points"] == 6


def test_cap_fan():
    capped = get_preset("chengdu", cap_fan=3)
    result = score("1112377788899m", "9m", rules=capped)  # 清幺九 5
    assert (result["fan"], result["capped_fan"], result["points"]) == (5, 3, 24)
    # below the cap nothing changes.
    assert score("2344567m345789p", "7m", rules=capped)["points"] == 6
    # add_base goes on after the cap: 24 + 6.
    capped_base = get_preset("chengdu", cap_fan=3, self_draw_bonus="add_base")
    assert score("1112377788899m", "9m", rules=capped_base, self_draw=True)["points"] == 30


# ---------------------------------------------------------------------------------------------
# 查叫: best_waits


def test_best_waits_nine_gates():
    # 1112345678999m waits on every 1m–9m, all 清一色 3; 1m and 9m make a fourth copy, a root: 4.
    waits = best_waits("1112345678999m", rules=PRESETS["chengdu"])
    assert [tile for tile, _ in waits] == list(range(9))
    assert [r["fan"] for _, r in waits] == [4, 3, 3, 3, 3, 3, 3, 3, 4]
    assert [r["points"] for _, r in waits] == [48, 24, 24, 24, 24, 24, 24, 24, 48]
    capped = best_waits("1112345678999m", rules=get_preset("chengdu", cap_fan=3))
    assert {r["points"] for _, r in capped} == {24}


def test_best_waits_three_sided_and_void():
    # 2344567m + 345789p: m needs one tile to make pair + two sets: 1m, 4m or 7m.
    waits = best_waits("2344567m345789p", rules=PRESETS["chengdu"])
    assert [tile for tile, _ in waits] == [0, 3, 6]
    assert all(r["pattern"] == "basic" and r["points"] == 6 for _, r in waits)
    assert best_waits("2344567m345789p", void="s", rules=PRESETS["chengdu"]) == waits
    assert best_waits("2344567m345789p", void="m", rules=PRESETS["chengdu"]) == []


def test_best_waits_has_no_situational_fan():
    # yaoji 查叫: no 无鸡加番, so a basic wait is 0 fan, ×1.
    waits = best_waits("2344567m345789p", rules=PRESETS["yaoji"])
    assert {r["points"] for _, r in waits} == {1}
    # own kong fan counts: xuezhan basic 0 + 暗杠 2 → ×4. 345678p + 9p waits on 3p, 6p and 9p
    # (33 456 789, 345 66 789, 345 678 99).
    waits = best_waits(BASIC_WITH_KONG, concealed_kongs=["5555m"], rules=PRESETS["xuezhan"])
    assert [(tile, r["fan"], r["points"]) for tile, r in waits] == [(11, 2, 4), (14, 2, 4), (17, 2, 4)]


def test_best_waits_seven_pairs_and_not_ready():
    waits = best_waits("11334466m55779p", rules=PRESETS["chengdu"])
    assert [(tile, r["pattern"], r["points"]) for tile, r in waits] == [(17, "seven_pairs", 24)]
    assert best_waits("11334466m55779p", rules=PRESETS["dashiyou"]) == []
    assert best_waits("1357m1357p13579p", rules=PRESETS["chengdu"]) == []


def test_a_fifth_copy_is_not_a_wait():
    # 1111m 234p 567p 888p only "waits" on a fifth 1m.
    assert best_waits("1111m234567888p", rules=PRESETS["chengdu"]) == []


# ---------------------------------------------------------------------------------------------
# Input handling


def test_indices_strings_and_chinese_suffixes_agree():
    by_string = score("2344567m345789p", "7m", rules=PRESETS["chengdu"])
    by_index = score([1, 2, 3, 3, 4, 5, 6, 11, 12, 13, 15, 16, 17], 6, rules=PRESETS["chengdu"])
    by_chinese = score("2344567万 345789筒", "7万", rules=PRESETS["chengdu"])
    assert by_string == by_index == by_chinese


@pytest.mark.parametrize(
    "hand, win, message",
    [
        ("2344567m345789x", "7m", "'x' at position 14"),
        ("2344567m3457890p", "7m", "'0' at position 14"),
        ("2344567m34578", "7m", "no suit"),
        ("2344567m345789p", "7m7m", "one tile"),
        ("234567m345789p", "7m", "expected 13"),
        ("1111m234567888p", "1m", "5 copies"),
    ],
)
def test_bad_input_is_a_clear_value_error(hand, win, message):
    with pytest.raises(ValueError, match=message):
        score(hand, win, rules=PRESETS["chengdu"])


def test_bad_melds_and_flags():
    with pytest.raises(ValueError, match="identical"):
        score("234m345p678p9p", "9p", melds=["456m"], rules=PRESETS["chengdu"])
    with pytest.raises(ValueError, match="four identical"):
        score("234m345p678p9p", "9p", concealed_kongs=["555m"], rules=PRESETS["chengdu"])
    with pytest.raises(ValueError, match="self_draw"):
        score("2344567m345789p", "7m", rules=PRESETS["chengdu"], kong_flower=True)
    with pytest.raises(ValueError):
        score("2344567m345789p", "7m", rules=PRESETS["chengdu"], self_draw=True, kong_shot=True)
    with pytest.raises(ValueError):
        score("2344567m345789p", "7m", rules=PRESETS["chengdu"], heavenly=True, earthly=True)


def test_void_and_three_suits():
    assert score("2344567m345789p", "7m", void="s", rules=PRESETS["chengdu"])["points"] == 6
    with pytest.raises(ValueError, match="not a winning hand"):
        score("2344567m345789p", "7m", void="p", rules=PRESETS["chengdu"])
    with pytest.raises(ValueError, match="not a winning hand"):
        score("234m345p678s99s45m", "6m", rules=PRESETS["chengdu"])


def test_a_natural_1s_is_refused_under_wilds():
    # Under wilds a 1s is a wild: hand lists natural tiles and wilds= counts the wilds
    # (docs/game-protocol.md §11); the wild tests are in test_reference_yaoji.py.
    with pytest.raises(ValueError, match="natural tiles only"):
        score("2344567m123789s", "7m", rules=PRESETS["yaoji"])
    with pytest.raises(ValueError, match="no wilds"):
        score("2344567m23789s", "7m", rules=PRESETS["xuezhan"], wilds=1)
    # the same tiles are an ordinary hand where 1s is not wild: basic 0 → ×1.
    assert score("2344567m123789s", "7m", rules=PRESETS["xuezhan"])["points"] == 1


# ---------------------------------------------------------------------------------------------
# The reference's own win check against the engine's hand analysis (not its scorer)


@st.composite
def near_wins(draw):
    """13 tiles of two suits: four sets and a pair minus one tile (mostly ready), or random."""
    suits = draw(st.sampled_from([(0, 1), (0, 2), (1, 2)]))
    tile = st.builds(lambda s, r: s * 9 + r, st.sampled_from(suits), st.integers(0, 8))
    if draw(st.booleans()):
        pool = [t for t in range(27) if t // 9 in suits for _ in range(4)]
        return draw(st.permutations(pool))[:13]
    tiles = []
    for _ in range(4):
        start = draw(tile)
        if draw(st.booleans()) and start % 9 <= 6:
            tiles += [start, start + 1, start + 2]
        else:
            tiles += [start] * 3
    tiles += [draw(tile)] * 2
    assume(all(tiles.count(t) <= 4 for t in tiles))
    tiles.pop(draw(st.integers(0, 13)))
    return tiles


@settings(max_examples=300, deadline=None)
@given(near_wins(), st.booleans())
def test_waits_agree_with_engine_analysis(hand, seven_pairs):
    rules = get_preset("chengdu", allow_seven_pairs=seven_pairs)
    mine = [tile for tile, _ in best_waits(hand, rules=rules)]
    assert mine == [int(t) for t in xueliu.waits(hand, seven_pairs=seven_pairs)]
