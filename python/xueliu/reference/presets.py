"""The seed presets of RULES.md §10, and the two competition presets (docs/presets.md: MIL SBR
2025, T/TFMJ 01—2024, cited by article), as plain rules dicts (the ``Rules.to_dict()`` schema).

This is the reference's own transcription of RULES.md, written without looking at the Rust
``rules`` module, so that a property test comparing ``Rules.preset(name).to_dict()`` with
``PRESETS[name]`` catches a slip in either. Every value carries the mark RULES.md gives it:
*s* a seed states it, *r* a reading of unclear seed text, *c* a convention where the seeds are
silent, *d* a default RULES.md states for options outside the §10 tables (§3, §11, §13), and
*u* a value the schema requires but the preset never reads (see the notes below).

Notes on *u* values (readings, not in RULES.md):

- ``fan_offset`` of the linear presets is "—" in RULES.md; it is unused by ``"linear"``
  scoring and set to ``0``.
- ``flower_pig_fan`` is only read by ``flower_pig_penalty = "fixed_fan"``; where the penalty is
  ``"double_ready_value"`` it is set to ``0``.
- ``exchange_redeal_if_unchanged`` is "—" in chengdu (no exchange); set to ``False``.
"""

from __future__ import annotations

import copy
from typing import Any, Dict

__all__ = ["PATTERNS", "PRESETS", "get_preset"]

#: Every pattern name of the schema's ``fan`` table, in RULES.md §8's order then §13's.
PATTERNS = (
    "basic",
    "concealed",
    "all_triplets",
    "full_flush",
    "terminals",
    "seven_pairs",
    "dragon_seven_pairs",
    "flush_triplets",
    "triplets_258",
    "flush_seven_pairs",
    "flush_dragon_seven_pairs",
    "flush_terminals",
    "heavenly",
    "earthly",
    "golden_hook",
    "eighteen_arhats",
)


def _no_seven_pairs_fan(
    basic: int, all_triplets: int, full_flush: int, flush_triplets: int, concealed: int | None = None
) -> Dict[str, int | None]:
    """The fan table of seeds 000/001: four patterns (five with 门清), every other one null.

    RULES.md §10's pattern table has "—" for every other pattern in these columns.
    """
    return {
        "basic": basic,
        "concealed": concealed,
        "all_triplets": all_triplets,
        "full_flush": full_flush,
        "terminals": None,
        "seven_pairs": None,
        "dragon_seven_pairs": None,
        "flush_triplets": flush_triplets,
        "triplets_258": None,
        "flush_seven_pairs": None,
        "flush_dragon_seven_pairs": None,
        "flush_terminals": None,
        "heavenly": None,
        "earthly": None,
        "golden_hook": None,  # §13 room pattern, null in every seed preset
        "eighteen_arhats": None,  # §13 room pattern, null in every seed preset
    }


def _sichuan_fan(basic: int) -> Dict[str, int | None]:
    """The full Sichuan fan ladder of seeds 002/003 (basic 1) and 004 (basic 0).

    RULES.md §10's table: the 004 column is the 002 column minus one everywhere (seed 004 §六
    lists 基本胡 0番 ... 天胡 5番; seed 002 計分規則 lists 平胡 一番 ... 六番).
    """
    return {
        "basic": basic,  # s: 平胡
        "concealed": None,  # 门清 only in seed 000
        "all_triplets": basic + 1,  # s: 对对胡
        "full_flush": basic + 2,  # s: 清一色
        "terminals": basic + 2,  # s: 带幺九
        "seven_pairs": basic + 2,  # s: 七对
        "dragon_seven_pairs": basic + 4,  # s: 龙七对
        "flush_triplets": basic + 3,  # s: 清对
        "triplets_258": basic + 3,  # s: 将对
        "flush_seven_pairs": basic + 4,  # s: 清七对
        "flush_dragon_seven_pairs": basic + 5,  # s: 清龙七对
        "flush_terminals": basic + 4,  # s: 清幺九
        "heavenly": basic + 5,  # s: 天胡
        "earthly": basic + 5,  # s: 地胡
        "golden_hook": None,  # §13 room pattern, null in every seed preset
        "eighteen_arhats": None,  # §13 room pattern, null in every seed preset
    }


def _defaults() -> Dict[str, Any]:
    """Options outside RULES.md §10's tables, at the defaults RULES.md states for them."""
    return {
        "kong_draw_from": "front",  # d §3: seed 002 打牌規則 4, 从牌墙正常位置补牌
        "pong_last_discard": False,  # d §3
        "exchange_same_suit": True,  # d §13: true in every seed
        "gen_counts_kongs": False,  # d §8: seed 004 §七.1 (已杠牌除外)
        "self_draw_payers": "not_won",  # s §9: "every preset"
        "self_draw_bonus": "none",  # d §13: no seed has 自摸加底/加番
        "wilds": False,  # d §11: only yaoji
        "no_wild_fan": 0,  # d §11: only yaoji
        "heavenly_stacks": False,  # d §11: only yaoji
        "flower_pig_rule": "three_suits",  # s §9.1: seeds 000, 001, 004 三种花色
        "escape_penalty": 96,  # s §2 (seed 002 計分規則 11); c in the other presets
        # The competition rulebooks' options (research note competition-presets.md §4): none
        # in any seed.
        "golden_hook_fan": 0,  # N1 金钩钓 as a bonus
        "last_tile_self_draw_fan": 0,  # N2 海底捞月
        "last_discard_win_fan": 0,  # N2 海底炮
        "ready_wait_copies": "hand_and_melds",  # N6: RULES.md §9 (c), no fifth-copy wait
        "pass_win_lock_self_draw": False,  # N10: only a declined discard win locks
        "pass_win_lock_after_pong": "kept",  # N10: the lock lasts until the seat's draw
        "pass_win_compare": "capped_fan",  # N10
        "wall_break_dice": 1,  # N17: R§3, seed 000's one die
        "kong_shot_on_rob": False,  # N9: R§8 杠上炮 is a win on a discard only
        "win_reveal": "immediate",  # N18: R§12, a win is shown and paid at once
    }


def _dashiyou() -> Dict[str, Any]:
    """Seed 000, 大师游血流成河 (Yichang)."""
    rules = _defaults()
    rules.update(
        {
            "preset": "dashiyou",
            "mode": "xueliu",  # s
            "first_dealer": "east",  # s
            "dealer_rotation": "rotate",  # s: 轮庄
            "exchange": "dice",  # s: 打骰子换牌
            "exchange_redeal_if_unchanged": True,  # s
            "declare_void": True,  # c
            "allow_seven_pairs": False,  # r: seed 000 lists no 七对
            "rob_concealed_kong": True,  # s: 胡牌規則 8
            "late_kong": "full",  # c
            "pass_win_lock": "none",  # c
            "last_four": "forced",  # s: 胡牌規則 5
            # s: 結算番數計算 基本胡 3, 門清 4, 碰碰胡 6, 清一色 8, 清碰 12
            "fan": _no_seven_pairs_fan(basic=3, all_triplets=6, full_flush=8, flush_triplets=12, concealed=4),
            "gen_fan": 0,  # r: seed 000 has no 根
            "exposed_kong_fan": 1,  # s: 明槓 +1
            "concealed_kong_fan": 2,  # s: 暗槓 +2
            "kong_flower_fan": 0,  # r
            "kong_shot_fan": 0,  # r
            "rob_kong_fan": 0,  # r
            "rob_kong_scoring": "as_basic",  # s: 胡牌規則 8, 基本胡型
            "scoring": "linear",  # s
            "base_points": 1,  # s
            "fan_offset": 0,  # u: "—" in RULES.md, unused by linear scoring
            "cap_fan": None,  # s
            "kong_fan": "win_and_loss",  # s: 槓進槓出
            "kong_payments": False,  # r
            "kong_flower_after_direct_kong": "all_pay",  # c
            "kong_income_transfer": "none",  # RULES.md §10 (no mark)
            "flower_pig_penalty": "double_ready_value",  # s: 2倍自摸胡牌牌型
            "flower_pig_fan": 0,  # u: unused by double_ready_value
            "flower_pig_payees": "ready",  # s: 所有已聽牌玩家
            "tax_refund": False,  # RULES.md §10 (no mark)
            "ready_difference": False,  # RULES.md §10 (no mark)
        }
    )
    return rules


def _sanxia(piao: bool) -> Dict[str, Any]:
    """Seed 001, 三峡血流成河换三张; ``piao`` is its 带漂房间 (basic 3, 碰碰胡 6, 清一色 8, 清碰 12)."""
    rules = _defaults()
    if piao:
        fan = _no_seven_pairs_fan(basic=3, all_triplets=6, full_flush=8, flush_triplets=12)  # s: 带漂
    else:
        fan = _no_seven_pairs_fan(basic=1, all_triplets=4, full_flush=6, flush_triplets=10)  # s: §四
    rules.update(
        {
            "preset": "sanxia_piao" if piao else "sanxia",
            "mode": "xueliu",  # s
            "first_dealer": "east",  # c
            "dealer_rotation": "rotate",  # c
            "exchange": "dice",  # c
            "exchange_redeal_if_unchanged": False,  # RULES.md §10 (no mark)
            "declare_void": True,  # c
            "allow_seven_pairs": False,  # r: seed 001 lists no 七对
            "rob_concealed_kong": False,  # RULES.md §10 (no mark)
            "late_kong": "kept_fourth_forbidden",  # s: 不能碰牌后补杠以前碰过的牌
            "pass_win_lock": "none",  # c
            "last_four": "none",  # c
            "fan": fan,
            "gen_fan": 0,  # r
            "exposed_kong_fan": 1,  # s: 补杠/直杠 加一番
            "concealed_kong_fan": 2,  # s: 暗杠 加两番
            "kong_flower_fan": 0,  # r: 杠开 = 一杠加自摸 (§六.5)
            "kong_shot_fan": 0,  # RULES.md §10 (no mark)
            "rob_kong_fan": 0,  # RULES.md §10 (no mark)
            "rob_kong_scoring": "as_basic",  # s: §六.4 基本胡型
            "scoring": "linear",  # s
            "base_points": 1,  # s
            "fan_offset": 0,  # u: "—" in RULES.md, unused by linear scoring
            "cap_fan": None,  # s
            "kong_fan": "win_and_loss",  # s: 杠进杠出
            "kong_payments": False,  # r
            "kong_flower_after_direct_kong": "all_pay",  # c
            "kong_income_transfer": "none",  # RULES.md §10 (no mark)
            "flower_pig_penalty": "double_ready_value",  # s: 最大番数2倍
            "flower_pig_fan": 0,  # u: unused by double_ready_value
            "flower_pig_payees": "ready_or_won",  # s: 已经下叫和胡牌的人
            "tax_refund": False,  # RULES.md §10 (no mark)
            "ready_difference": False,  # RULES.md §10 (no mark)
        }
    )
    return rules


def _chengdu(xueliu: bool) -> Dict[str, Any]:
    """Seed 002 (血流麻将, QQ 四川麻将, played 血战) or, with ``xueliu``, seed 003 (血流成河换三张).

    The two columns of RULES.md §10 differ only in mode, exchange, late_kong and the marks.
    """
    rules = _defaults()
    rules.update(
        {
            "preset": "chengdu_xueliu" if xueliu else "chengdu",
            "mode": "xueliu" if xueliu else "xuezhan",  # s (both)
            "first_dealer": "random",  # s: 打牌規則 3
            "dealer_rotation": "first_winner",  # s: 打牌規則 3
            "exchange": "dice" if xueliu else None,  # s (both)
            "exchange_redeal_if_unchanged": False,  # 003: RULES.md §10 (no mark); 002: u ("—")
            "declare_void": True,  # s: 打牌規則 7
            "allow_seven_pairs": True,  # s: 打牌規則 8, 7副对子可以和牌
            "rob_concealed_kong": False,  # RULES.md §10 (no mark)
            # s: 计分规则 12 (002) / 不能碰牌后补杠以前碰过的牌 (003)
            "late_kong": "kept_fourth_forbidden" if xueliu else "root_only",
            "pass_win_lock": "until_draw_unless_higher",  # s: 打牌規則 12
            "last_four": "ron_forced",  # s: 打牌規則 16
            "fan": _sichuan_fan(basic=1),  # s: 麻將番總, 平胡 一番 ... 六番
            "gen_fan": 1,  # s: 根 1番
            "exposed_kong_fan": 1,  # s: 杠 加1番
            "concealed_kong_fan": 1,  # s: 杠 加1番
            "kong_flower_fan": 1,  # s: 杠上花 1番
            "kong_shot_fan": 1,  # s: 杠上炮 1番
            "rob_kong_fan": 1,  # s: 抢杠 加1番
            "rob_kong_scoring": "normal",  # RULES.md §10 (no mark)
            "scoring": "exponential",  # s: 計分規則 2
            "base_points": 6,  # s: 計分規則 3
            "fan_offset": 1,  # s: 2的(番数减1)次方
            "cap_fan": None,  # RULES.md §10: null (per room)
            "kong_fan": "win_only",  # RULES.md §10 (no mark)
            "kong_payments": True,  # s: 刮风下雨
            "kong_flower_after_direct_kong": "feeder_pays_all",  # s: 打牌規則 10, 承包制
            "kong_income_transfer": "last_kong",  # s: 打牌規則 11
            "flower_pig_penalty": "fixed_fan",  # s (003): 最大番数的5番; 002 takes it from 003
            "flower_pig_fan": 5,  # s (003)
            "flower_pig_payees": "ready_or_won",  # s (003): 已经下叫和胡牌的人
            "tax_refund": True,  # s: 計分規則 4 (003 takes it from 002)
            "ready_difference": False,  # RULES.md §10 (no mark)
        }
    )
    return rules


def _xuezhan(yaoji: bool) -> Dict[str, Any]:
    """Seed 004, 血战到底; with ``yaoji`` its 血战幺鸡 variant (wild 1s, cap 5, 无鸡加番, 天胡 stacks)."""
    rules = _defaults()
    rules.update(
        {
            "preset": "yaoji" if yaoji else "xuezhan",
            "mode": "xuezhan",  # s
            "first_dealer": "dice",  # s: §二, 掷一次色子
            "dealer_rotation": "first_winner",  # s: §二
            "exchange": "dice",  # c
            "exchange_redeal_if_unchanged": False,  # RULES.md §10 (no mark)
            "declare_void": True,  # c
            "allow_seven_pairs": True,  # s: 或为七对子
            "rob_concealed_kong": False,  # RULES.md §10 (no mark)
            "late_kong": "full",  # s: 杠牌可随时进行
            "pass_win_lock": "none",  # c
            "last_four": "self_draw_forced",  # s: §五.1
            "fan": _sichuan_fan(basic=0),  # s: §六, 基本胡 0番 ... 天胡 5番
            "gen_fan": 1,  # s: §七.1 带根 每根+1番
            "exposed_kong_fan": 1,  # s: §七.2-3 刮风 每杠+1番
            "concealed_kong_fan": 2,  # s: §七.4 暗杠下雨 每杠+2番
            "kong_flower_fan": 1,  # r: §七.5 杠上花 +2或3番 read as kong fan + 1
            "kong_shot_fan": 1,  # s: §七.6
            "rob_kong_fan": 1,  # s: §七.7
            "rob_kong_scoring": "normal",  # RULES.md §10 (no mark)
            "scoring": "exponential",  # s
            "base_points": 1,  # c
            "fan_offset": 0,  # s: 0番 底金×1
            "cap_fan": 5 if yaoji else None,  # yaoji: c (required by the forced 4-wild win); xuezhan: s
            "kong_fan": "win_only",  # RULES.md §10 (no mark)
            "kong_payments": True,  # s: 刮风下雨
            "kong_flower_after_direct_kong": "feeder_pays_all"
            if yaoji
            else "all_pay",  # yaoji s: 血战幺鸡 另加番 1; xuezhan c
            "kong_income_transfer": "none",  # c
            "flower_pig_penalty": "fixed_fan",  # s: §四.7 赔4番
            "flower_pig_fan": 4,  # s: §四.7
            "flower_pig_payees": "non_pigs",  # s: 其余所有不是花猪的玩家（包括已经糊牌的）
            "tax_refund": True,  # s: §四.10
            "ready_difference": True,  # s: §四.9
            "wilds": yaoji,  # s (yaoji): 幺鸡属于任意牌
            "no_wild_fan": 1 if yaoji else 0,  # s (yaoji): 无鸡加番
            "heavenly_stacks": yaoji,  # s (yaoji): 天胡地胡根据胡牌类型可以另加番
        }
    )
    return rules


def _competition_fan(flush_triplets: int, flush_seven_pairs: int) -> Dict[str, int | None]:
    """The closed fan list of both competition rulebooks (MIL Art.10-2(6), T/TFMJ 表 1): 平和 0,
    大对子 1, 清一色 2, 七对 2, and their flush combinations; every other pattern null."""
    fan: Dict[str, int | None] = {p: None for p in PATTERNS}
    fan.update(
        basic=0,
        all_triplets=1,
        full_flush=2,
        seven_pairs=2,
        flush_triplets=flush_triplets,
        flush_seven_pairs=flush_seven_pairs,
    )
    return fan


def _mil_sbr_2025() -> Dict[str, Any]:
    """MIL 四川麻将（SBR）竞赛规则 2025, as research/competition-presets.md §2 reads it (articles cited)."""
    rules = _defaults()
    rules.update(
        {
            "preset": "mil_sbr_2025",
            "mode": "xuezhan",  # Art.9-2
            "first_dealer": "east",  # Art.5-7: seating (or dice, the organiser's choice)
            "dealer_rotation": "first_winner",  # Art.9-2(5)
            "pong_last_discard": True,  # Art.7-4: 海底牌允许碰
            "exchange": None,  # no 换三张 in Art.5-6
            "exchange_redeal_if_unchanged": False,  # u
            "declare_void": True,  # Art.6-1
            "allow_seven_pairs": True,  # Art.9-1(1)
            "rob_concealed_kong": False,  # ⑨: only 加杠
            "late_kong": "add_kong_unpaid",  # Art.10-1(2)1: 及时雨
            "pass_win_lock": "until_draw_unless_higher",  # Art.4-27 顺和, prevented
            "last_four": "none",  # no such rule
            "fan": _competition_fan(flush_triplets=3, flush_seven_pairs=4),  # Art.10-2(6) Ex.7, Ex.8
            "gen_fan": 1,  # ②
            "exposed_kong_fan": 1,  # ① 杠 1 番（每组）
            "concealed_kong_fan": 1,  # ①
            "kong_flower_fan": 1,  # ⑦
            "kong_shot_fan": 1,  # ⑧
            "rob_kong_fan": 1,  # ⑨
            "rob_kong_scoring": "normal",  # ⑨
            "self_draw_bonus": "add_base",  # Art.10-2(5) 自摸加底
            "scoring": "exponential",  # Art.10-2(2): 1 × 2^番数
            "base_points": 1,
            "fan_offset": 0,
            "cap_fan": 3,  # Art.10-2(3)
            "kong_fan": "win_only",
            "kong_payments": True,  # Art.10-1(1), (2)
            "kong_flower_after_direct_kong": "all_pay",  # ⑦ 算自摸和牌
            "kong_income_transfer": "refund_to_payers",  # Art.10-1(4) 退税，无呼叫转移
            "flower_pig_penalty": "as_not_ready",  # Art.10-3(3) 被动花猪 仅按没叫处理
            "flower_pig_fan": 0,  # u
            "flower_pig_payees": "ready",  # u
            "flower_pig_rule": "void_held",  # Art.4-31
            "tax_refund": True,  # Art.10-1(3)
            "ready_difference": False,  # Art.10-3(4)
            "golden_hook_fan": 1,  # ④ 金钩钓
            "last_tile_self_draw_fan": 1,  # ⑩ 海底
            "last_discard_win_fan": 1,  # ⑩
            "ready_wait_copies": "hand_only",  # Art.10-3(2) Ex.1, Ex.4: a fifth copy against own melds
            "pass_win_lock_self_draw": True,  # Art.4-27 顺和: A discarding A's own winning tile
            "pass_win_lock_after_pong": "kept_if_ready",  # Art.4-27: not 顺和 if not ready after the pong
            "pass_win_compare": "fan",  # Art.4-27: 番数, no cap named
            "wall_break_dice": 2,  # Art.5-8: the dealer throws two dice once
            "kong_shot_on_rob": True,  # ⑧ 杠上炮 covers 「再次加杠的牌」, robbed
            "win_reveal": "hand_end",  # Art.9-1(3),(5) hidden, Art.10-2 「牌局结束时，和牌者收取分数」
        }
    )
    return rules


def _tfmj_2024() -> Dict[str, Any]:
    """T/TFMJ 01—2024, second-hand through EllanServer (research note §3): MIL's game but for these."""
    rules = _mil_sbr_2025()
    rules.update(
        {
            "preset": "tfmj_2024",
            "kong_draw_from": "back",  # ES §1
            "pong_last_discard": False,  # not covered: RULES.md's default
            "gen_counts_kongs": True,  # ES §7: 四张相同即一根, kongs included
            "late_kong": "add_kong_drawn_only",  # ES §3
            "fan": _competition_fan(flush_triplets=2, flush_seven_pairs=2),  # ES §7: the highest counts
            "exposed_kong_fan": 0,  # a kong is a 根 instead
            "concealed_kong_fan": 0,
            "kong_income_transfer": "kong_chain",  # ES §9: 该次及连续杠的全部收入转给和家
            "ready_wait_copies": "hand_and_melds",  # ES §10: 不会把物理上不存在的第五张牌当成等待
            "pass_win_lock_self_draw": False,  # ES §5 names declined discards only
            "pass_win_lock_after_pong": "kept",  # ES §5: 到自己下一次摸牌前, a pong draws nothing
            "pass_win_compare": "capped_fan",  # ES §5's code compares payment tiers
            "kong_shot_on_rob": False,  # not stated: the seeds' reading
            "win_reveal": "immediate",  # no deferred collection read in T/TFMJ (R§12)
        }
    )
    return rules


#: Every preset of RULES.md §10, by name. Treat as read-only; ``get_preset`` returns a copy.
PRESETS: Dict[str, Dict[str, Any]] = {
    "dashiyou": _dashiyou(),
    "sanxia": _sanxia(piao=False),
    "sanxia_piao": _sanxia(piao=True),
    "chengdu": _chengdu(xueliu=False),
    "chengdu_xueliu": _chengdu(xueliu=True),
    "xuezhan": _xuezhan(yaoji=False),
    "yaoji": _xuezhan(yaoji=True),
    # The competition rulebooks (docs/presets.md), outside RULES.md §10.
    "mil_sbr_2025": _mil_sbr_2025(),
    "tfmj_2024": _tfmj_2024(),
}


def get_preset(name: str, **overrides: Any) -> Dict[str, Any]:
    """A fresh copy of preset ``name`` with ``overrides`` applied (RULES.md §10: "every option can be
    set on top of a preset"), so a test can change one option without touching ``PRESETS``.

    An unknown preset or option name is a ValueError listing the valid ones.
    """
    if name not in PRESETS:
        raise ValueError(f"unknown preset {name!r}; valid presets: {', '.join(PRESETS)}")
    rules = copy.deepcopy(PRESETS[name])
    for key, value in overrides.items():
        if key not in rules:
            raise ValueError(f"unknown option {key!r}; valid options: {', '.join(sorted(rules))}")
        rules[key] = copy.deepcopy(value)
    return rules
