"""The rule presets in words, for ``xueliu rules``: what each preset is, the options grouped under
plain names, and how a preset settles a hand, written from its own option values.

docs/presets.md says the same at length; ``tests/rules/test_presets.py`` holds the one-line
descriptions to that page and the groups to every option of ``Rules.to_dict()``.
"""

from __future__ import annotations

from typing import Any

from ._xueliu import Rules

# What each preset is, where it is played and the source document it follows (by its title).
DESCRIPTIONS = {
    "dashiyou": "大师游血流成河, Yichang (Hubei): 血流成河 with the exchange, linear points, a 4-fan concealed "
    "hand and 杠进杠出; follows 《大師游血流成河》.",
    "sanxia": "三峡血流成河换三张, the Three Gorges (Hubei): 血流成河 with the exchange, linear points from a 1-fan "
    "basic hand, kongs that only add fan; follows 《三峽血流成河換三張》.",
    "sanxia_piao": "sanxia's 带漂 rooms: the same game with that document's higher fan table "
    "(basic 3, all triplets 6, full flush 8, flush triplets 12).",
    "chengdu": "Chengdu 血战到底 as the app rooms play it (Sichuan): no exchange, seven pairs and roots, "
    "6 × 2^(fan − 1) points, kongs paid at once; follows 《血流麻将》.",
    "chengdu_xueliu": "chengdu's scoring as 血流成河 with the exchange: winners play on; follows "
    "《血流成河换三张规则》 (the tax refund from 《血流麻将》).",
    "xuezhan": "血战到底换三张 (Sichuan): 血战到底 with the exchange, 2^fan points from a 0-fan basic hand, "
    "补差价 at a drawn wall; follows 《血战到底换三张麻将规则》.",
    "yaoji": "血战幺鸡 (Sichuan, from Leshan's 幺鸡麻将): xuezhan with the four 1s as wilds, capped at 5 fan; "
    "follows the 血战幺鸡 part of 《血战到底换三张麻将规则》.",
    "mil_sbr_2025": "MIL's tournament rules (国际麻将联盟, 2025): 血战到底 without the exchange, 2^fan points "
    "capped at 3 fan, 自摸加底, kongs paid at once and refunded after 杠上炮; follows 《四川麻将（SBR）竞赛规则 2025》.",
    "tfmj_2024": "the Sichuan association's standard (read second-hand): MIL's game with only the highest basic "
    "pattern counting, kongs scored as roots and replacements from the back; follows 《四川麻将竞赛规则》 "
    "(T/TFMJ 01—2024).",
}

# Every option of Rules.to_dict() but "preset" and "fan", grouped, each with a plain name.
GROUPS: list[tuple[str, list[tuple[str, str]]]] = [
    (
        "The hand",
        [
            ("mode", "Mode: after a win the winner"),
            ("first_dealer", "First dealer"),
            ("wall_break_dice", "Dice thrown to break the wall"),
            ("dealer_rotation", "Next hand's dealer"),
            ("escape_penalty", "A player who leaves (逃跑) pays each seat not won"),
            ("kong_draw_from", "Kong replacement drawn from the wall's"),
            ("pong_last_discard", "The last discard may be ponged"),
            ("allow_seven_pairs", "Seven pairs win (七对)"),
        ],
    ),
    (
        "Exchange and void",
        [
            ("exchange", "Exchange three (换三张), direction"),
            ("exchange_redeal_if_unchanged", "Redeal when nothing changed hands"),
            ("exchange_same_suit", "The three are of one suit"),
            ("declare_void", "Declare a void suit (定缺)"),
        ],
    ),
    (
        "Claims and kongs",
        [
            ("rob_concealed_kong", "A concealed kong may be robbed"),
            ("late_kong", "A kong made later than it could have been"),
            ("pass_win_lock", "After passing a win on a discard (过胡)"),
            ("pass_win_lock_self_draw", "Passing a self-drawn win locks too"),
            ("pass_win_lock_after_pong", "The lock after a pong"),
            ("pass_win_compare", "Fan 过胡 compares"),
            ("kong_shot_on_rob", "Robbing an add kong made after a kong is 杠上炮 too"),
            ("last_four", "Wins forced in the wall's last four (海底)"),
        ],
    ),
    (
        "Fan bonuses",
        [
            ("gen_fan", "Root: four of a kind (根)"),
            ("gen_counts_kongs", "Kongs count as roots"),
            ("exposed_kong_fan", "Exposed kong (明杠)"),
            ("concealed_kong_fan", "Concealed kong (暗杠)"),
            ("kong_flower_fan", "Win on a kong's replacement (杠上花)"),
            ("kong_shot_fan", "Win on a discard after a kong (杠上炮)"),
            ("rob_kong_fan", "Win by robbing a kong (抢杠)"),
            ("rob_kong_scoring", "A robbed-kong win scores"),
            ("self_draw_bonus", "Self-draw bonus (自摸加底/加番)"),
            ("golden_hook_fan", "Four melds and a single wait (金钩钓)"),
            ("last_tile_self_draw_fan", "Self-draw on the wall's last tile (海底捞月)"),
            ("last_discard_win_fan", "Win on a discard after the last tile (海底炮)"),
        ],
    ),
    (
        "Points",
        [
            ("scoring", "Points from fan"),
            ("base_points", "Base points"),
            ("fan_offset", "Fan offset (exponential)"),
            ("cap_fan", "Fan cap (封顶)"),
            ("self_draw_payers", "A self-draw is paid by"),
            ("kong_fan", "Payers' own kongs (杠进杠出)"),
            ("win_reveal", "A win's score and payments reach the table"),
        ],
    ),
    (
        "Kong payments",
        [
            ("kong_payments", "Kongs paid at once (刮风下雨)"),
            ("kong_flower_after_direct_kong", "杠上花 after konging a discard (点杠花)"),
            ("kong_income_transfer", "Kong income after 杠上炮 (呼叫转移)"),
        ],
    ),
    (
        "A drawn wall (流局)",
        [
            ("flower_pig_penalty", "A flower pig (花猪) pays"),
            ("flower_pig_fan", "Flower pig fan"),
            ("flower_pig_payees", "A flower pig pays to"),
            ("flower_pig_rule", "A flower pig holds"),
            ("ready_wait_copies", "A wait's four copies are counted in"),
            ("tax_refund", "Not ready: kong income repaid (退税)"),
            ("ready_difference", "Ready hands pay the difference (补差价)"),
        ],
    ),
    (
        "Wilds (幺鸡)",
        [
            ("wilds", "The four 1s are wild"),
            ("no_wild_fan", "No wild in hand (无鸡加番)"),
            ("heavenly_stacks", "天胡/地胡 add to the pattern"),
        ],
    ),
]

# The fan patterns in the schema's order, with their Chinese names.
PATTERNS = {
    "basic": "平胡",
    "concealed": "门清",
    "all_triplets": "对对胡",
    "full_flush": "清一色",
    "terminals": "带幺九",
    "seven_pairs": "七对",
    "dragon_seven_pairs": "龙七对",
    "flush_triplets": "清对",
    "triplets_258": "将对",
    "flush_seven_pairs": "清七对",
    "flush_dragon_seven_pairs": "清龙七对",
    "flush_terminals": "清幺九",
    "heavenly": "天胡",
    "earthly": "地胡",
    "golden_hook": "金钩钓",
    "eighteen_arhats": "十八罗汉",
}


MODES = {"xuezhan": "leaves (血战)", "xueliu": "plays on (血流)"}


def show(value: Any) -> str:
    """An option's value as the tables print it: ``—`` for none, words apart (they wrap there)."""
    if value in MODES:
        return MODES[value]
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value).replace("_", " ")


def settlement(rules: Rules) -> list[str]:
    """How ``rules`` settle a hand, one sentence per step, from its option values."""
    return [_points(rules), _who_pays(rules), _kongs(rules), *_drawn_wall(rules)]


def _points(r: Rules) -> str:
    if r.scoring == "linear":
        curve = f"fan × {r.base_points}"
    elif r.scoring == "exponential":
        curve = f"{r.base_points} × 2^(fan − {r.fan_offset})" if r.fan_offset else f"{r.base_points} × 2^fan"
    else:
        curve = f"{r.base_points} × 2^fan (each bonus doubles)"
    low = min(f for f in r.fan.values() if f is not None)
    top = r.cap_fan if r.cap_fan is not None else low + 5
    examples = ", ".join(f"{f} fan {r.points(f)}" for f in range(low, top + 1))
    cap = f", capped at {r.cap_fan} fan" if r.cap_fan is not None else ", no cap"
    return f"A win scores its pattern's fan plus its bonuses{cap}; each payer pays {curve} points ({examples})."


def _who_pays(r: Rules) -> str:
    payers = "every seat that has not won" if r.self_draw_payers == "not_won" else "all three others"
    bonus = {
        "none": "",
        "add_base": f", each {r.base_points} more (自摸加底)",
        "add_fan": ", with one more fan (自摸加番)",
    }[r.self_draw_bonus]
    after = (
        "The winner leaves the hand (血战到底); it ends when three have won or the wall is empty."
        if r.mode == "xuezhan"
        else "Winners play on with their hands locked (血流成河) until the wall is empty."
    )
    return f"A win on a discard is paid by the discarder; a self-drawn win by {payers}{bonus}. {after}"


def _kongs(r: Rules) -> str:
    if not r.kong_payments:
        own = " and a payer's own kongs add to what it pays (杠进杠出)" if r.kong_fan == "win_and_loss" else ""
        return (
            f"Kongs pay nothing at once: they add fan to their owner's win (exposed {r.exposed_kong_fan}, "
            f"concealed {r.concealed_kong_fan}){own}."
        )
    flower = {
        "feeder_pays_all": "the discarder pays for every payer (承包)",
        "all_pay": "every seat that has not won pays (家家有)",
        "as_discard_win": "it is paid as a win on that discard",
    }[r.kong_flower_after_direct_kong]
    transfer = {
        "none": "",
        "last_kong": " A win on the discard right after a kong (杠上炮) takes that kong's income (呼叫转移).",
        "all_kongs": " A win on the discard right after a kong (杠上炮) takes all the discarder's "
        "kong income this hand (呼叫转移).",
        "refund_to_payers": " After 杠上炮 the kong's income goes back to whoever paid it.",
        "kong_chain": " A win on the discard right after a kong (杠上炮) takes the income of that kong and of "
        "the kongs made one after another before it, split among several winners rounding up (呼叫转移).",
    }[r.kong_income_transfer]
    unpaid = {
        "root_only": " A late added kong is paid nothing and counts as a root (只算根).",
        "add_kong_unpaid": " An added kong not made with the tile just drawn is paid nothing (及时雨).",
    }.get(r.late_kong, "")
    return (
        f"Kongs are paid at once (刮风下雨): a konged discard {2 * r.base_points} by the discarder, an added "
        f"kong {r.base_points} and a concealed kong {2 * r.base_points} by each seat that has not won."
        f"{unpaid} 杠上花 after konging a discard: {flower}.{transfer}"
    )


def _drawn_wall(r: Rules) -> list[str]:
    payees = {
        "ready": "each ready seat",
        "ready_or_won": "each ready or won seat",
        "non_pigs": "every seat that is not a pig, winners included",
    }[r.flower_pig_payees]
    pig = "still holding all three suits"
    if r.flower_pig_rule == "void_held":
        pig += ", or any tile of its void suit"
    if r.flower_pig_penalty == "as_not_ready":
        first = f"At a drawn wall (流局) a flower pig (花猪: {pig}) counts as not ready and pays no penalty."
    else:
        amount = {
            "double_ready_value": "twice the seat's best ready value",
            "fixed_fan": f"{r.flower_pig_fan} fan ({_fixed(r, r.flower_pig_fan)} points)",
            "cap": "the cap's value",
        }[r.flower_pig_penalty]
        first = f"At a drawn wall (流局) a flower pig (花猪: {pig}) pays {amount} to {payees}."
    steps = [
        first,
        "Then each seat that is not ready pays each ready seat still in the hand its best wait (查叫).",
    ]
    if r.ready_difference:
        steps.append("Each ready seat pays each ready seat with a larger best wait the difference (补差价).")
    if r.tax_refund:
        steps.append("A seat that is not ready repays every kong payment it received (退税).")
    return steps


def _fixed(r: Rules, fan: int) -> int:
    """A fixed fan's points: the curve without the cap (RULES.md §9 never caps a pig's fan)."""
    return r.replace(cap_fan=None).points(fan) if r.cap_fan is not None else r.points(fan)
