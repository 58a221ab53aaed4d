"""The competition rulebooks' worked examples as scoring tests: MIL 四川麻将（SBR）竞赛规则 2025's fan
examples (Art.10-2(6)) and 查大叫 examples (Art.10-3), and T/TFMJ 01—2024's cases as EllanServer's
tests give them, transcribed in the research note competition-presets.md §5. Expected fan and
points are the rulebooks' (P(f) = 2^min(f, 3)), never read from the engine."""

import pytest

import xueliu
from xueliu import Rules, ScoreError

MIL = Rules.preset("mil_sbr_2025")
TFMJ = Rules.preset("tfmj_2024")


def scored(rules, hand, tile, *, melds=(), concealed_kongs=(), void, **flags):
    return xueliu.score(hand, tile, rules=rules, melds=melds, concealed_kongs=concealed_kongs, void=void, **flags)


# id, melds (exposed), concealed kongs, concealed hand, winning tile, void, fan, points (a discard win)
MIL_FAN_EXAMPLES = [
    ("Art.10-2(6)① Ex.1 杠 ×2", ["9999m"], ["4444p"], "678m1237p", "7p", "s", 2, 4),
    ("② Ex.2 根 ×2 (3333s across a pong, 7777p)", ["333s"], [], "4577s677778p", "3s", "m", 2, 4),
    ("② Ex.3 根 + 七对", [], [], "333346677m5577s", "4m", "p", 3, 8),
    ("③ Ex.4 大对子 (a shanpon, no 金钩钓)", ["555m", "666m", "777p"], [], "99m88p", "9m", "s", 1, 2),
    ("④ Ex.5 杠 + 大对子 + 金钩钓", ["444p", "111s", "888s"], ["9999p"], "5s", "5s", "m", 3, 8),
    ("⑤ Ex.6 根 (5555m: pong and 567m) + 清一色", ["111m", "555m"], [], "2346788m", "5m", "p", 3, 8),
    ("⑤ Ex.7 大对子 + 清一色", ["111p", "222p", "444p"], [], "8889p", "9p", "m", 3, 8),
    ("⑤ Ex.8 清一色 + 七对 = 4, capped at 3", [], [], "1122445578899s", "7s", "m", 4, 8),
    ("⑥ Ex.9 七对", [], [], "4468899p778899s", "6p", "m", 2, 4),
]


@pytest.mark.parametrize("example, melds, kongs, hand, tile, void, fan, points", MIL_FAN_EXAMPLES)
def test_mil_fan_examples(example, melds, kongs, hand, tile, void, fan, points):
    score = scored(MIL, hand, tile, melds=melds, concealed_kongs=kongs, void=void)
    assert (score.fan, score.points) == (fan, points), example
    # A self-draw adds 1 per payer (Art.10-2(5) 自摸加底).
    assert scored(MIL, hand, tile, melds=melds, concealed_kongs=kongs, void=void, self_draw=True).points == points + 1


def test_mil_golden_hook_is_a_bonus_on_top_of_the_pattern():
    # Art.10-2(6)④: 金钩钓 「必然是大对子，故牌型至少 2 番」: all triplets 1 + 金钩钓 1, no kong.
    score = scored(MIL, "5s", "5s", melds=["444p", "999p", "111s", "888s"], void="m")
    bonuses = {b["name"]: b["fan"] for b in score.to_dict()["bonuses"]}
    assert score.pattern == "all_triplets" and bonuses == {"golden_hook": 1} and score.fan == 2


# 查大叫 (Art.10-3(4)): the best wait's points, no situational fan; melds, hand, void, points.
MIL_READY_EXAMPLES = [
    ("Art.10-3(4) Ex.1: best 3m = 大对子", ["111m", "888p", "999p"], "3444m", "s", 2),
    ("Ex.2: best 1s = 清一色 + 根", ["888s"], "1112233456s", "m", 8),
    ("Ex.3: every wait gives 根 5555p once", ["555p"], "34567p88899s", "m", 2),
    ("Ex.4: best 8p = 根 5555p + 根 8888p", ["555p"], "34567888p99s", "m", 4),
]


@pytest.mark.parametrize("example, melds, hand, void, points", MIL_READY_EXAMPLES)
def test_mil_ready_value_examples(example, melds, hand, void, points):
    waits = xueliu.best_waits(hand, rules=MIL, melds=melds, void=void)
    assert max(s.points for _, s in waits) == points, example


@pytest.mark.parametrize(
    "example, melds, hand, void",
    [
        ("Art.10-3(2) Ex.2: the only wait needs a fifth 9m, all four in hand", ["888m", "111p", "444p"], "9999m", "s"),
        ("Ex.3: waits 1s and 4s, each held four times in hand", ["999p"], "1111234444s", "m"),
    ],
)
def test_mil_not_ready_when_the_hand_holds_all_four(example, melds, hand, void):
    assert xueliu.best_waits(hand, rules=MIL, melds=melds, void=void) == [], example


# ready_wait_copies = "hand_only" (N6): only the concealed hand's four rule a wait out.
@pytest.mark.parametrize(
    "example, melds, kongs, hand, void, wait, fan",
    [
        # 9m as the pair beside 111p: 大对子 1, and the pong's 9m with the hand's two one 根.
        (
            "Art.10-3(2) Ex.1: a fifth 9m against the own pong is a wait",
            ["888m", "999m", "444p"],
            [],
            "9m111p",
            "s",
            "9m",
            2,
        ),
        # 345s: 杠 1 for the concealed kong; its 4s and the hand's make no 根 (a kong is no root).
        ("Ex.4: a fifth 4s against the own concealed kong is a wait", ["999p"], ["4444s"], "34566p35s", "m", "4s", 1),
    ],
)
def test_mil_a_wait_against_ones_own_meld_counts(example, melds, kongs, hand, void, wait, fan):
    waits = xueliu.best_waits(hand, rules=MIL, melds=melds, concealed_kongs=kongs, void=void)
    assert [(str(t), s.capped_fan) for t, s in waits] == [(wait, fan)], example
    # T/TFMJ (ES §10) never waits on a fifth copy: the same hands are not ready.
    assert xueliu.best_waits(hand, rules=TFMJ, melds=melds, concealed_kongs=kongs, void=void) == [], example


def test_mil_a_fifth_copy_wait_counts_its_root_once():
    # Art.10-3(4) Ex.3: 「同一种牌的根或杠只计 1 番」: the fifth-5p wait (345p 567p beside pong(555p))
    # is worth the one 根 5555p, as the 2p and 8p waits are.
    waits = xueliu.best_waits("34567p88899s", rules=MIL, melds=["555p"], void="m")
    assert {str(t): s.capped_fan for t, s in waits} == {"2p": 1, "5p": 1, "8p": 1}


L = "111234567m2349p"  # waits 9p, 平胡 0 (EllanServer's helper hand)

# T/TFMJ via EllanServer's tests (research note §5.3): hand, tile, melds, void, fan after the cap.
TFMJ_FAN_EXAMPLES = [
    ("TF-12 平胡", L, "9p", [], "s", 0),
    ("TF-13 七对, no 根", "11223344m66779p", "9p", [], "s", 2),
    ("TF-14 七对 + 1 根", "11113344m66779p", "9p", [], "s", 3),
    ("TF-14 七对 + 2 根, capped", "11113333m66779p", "9p", [], "s", 3),
    ("TF-15 七对 + 根 (8888p), no 将对", "225588m2255888p", "8p", [], "s", 3),
    ("TF-16 对对胡 only (no 将对)", "222555m222555p8m", "8m", [], "s", 1),
    ("TF-17 清一色 and 七对 give max 2, + 根 ×3, capped", "1111222233334m", "4m", [], "p", 3),
    ("TF-20 根", "1111239m234567p", "9m", [], "s", 1),
    ("TF-21 对对胡", "222555m333555p9p", "9p", [], "s", 1),
    ("TF-22 清一色", "1112345677899m", "9m", [], "p", 2),
    ("TF-23 七对", "11223366m44556p", "6p", [], "s", 2),
    ("TF-24 金钩钓 + 对对胡", "2p", "2p", ["222m", "555m", "333p", "888p"], "s", 2),
    ("TF-26 七对 + 根, no 龙七对", "11112233m44556p", "6p", [], "s", 3),
]


@pytest.mark.parametrize("example, hand, tile, melds, void, fan", TFMJ_FAN_EXAMPLES)
def test_tfmj_fan_examples(example, hand, tile, melds, void, fan):
    assert scored(TFMJ, hand, tile, melds=melds, void=void).capped_fan == fan, example


def test_tfmj_the_highest_basic_pattern_counts_not_their_sum():
    # ES §7 「基础牌型取最高一项」: a flush of triplets is 2 in T/TFMJ, 3 in MIL (Art.10-2(6)⑤ Ex.7).
    args = dict(melds=["111p", "222p", "444p"], void="m")
    assert scored(TFMJ, "8889p", "9p", **args).fan == 2
    assert scored(MIL, "8889p", "9p", **args).fan == 3


def test_tfmj_a_kong_is_a_root_not_a_kong_fan():
    # ES §7 「四张相同即一根」, kongs included; no 杠 fan (the same total as MIL's 杠 1).
    score = scored(TFMJ, "678m1237p", "7p", melds=["9999m"], concealed_kongs=["4444p"], void="s")
    bonuses = {b["name"]: b["count"] for b in score.to_dict()["bonuses"]}
    assert bonuses == {"root": 2} and score.fan == 2


def test_tfmj_dealt_flush_with_a_root_self_drawn():
    # TF-10: the dealer's fourteen 11112345677799m, self-drawn: 清一色 2 + 根 1 = 3, 8 + 1 from each.
    score = scored(TFMJ, "1111234567779m", "9m", void="p", self_draw=True)
    assert (score.fan, score.points) == (3, 9)


@pytest.mark.parametrize(
    "flags",
    [dict(kong_shot=True), dict(robbed_kong=True), dict(self_draw=True, last_tile=True), dict(last_tile=True)],
)
def test_tfmj_each_situation_adds_one_fan(flags):
    # TF-25: L + 9p won as 杠上炮 / 抢杠 / 海底 self-draw / 海底 last discard: 1 fan each.
    assert scored(TFMJ, L, "9p", void="s", **flags).fan == 1


def test_tfmj_kong_flower_adds_one_fan():
    # TF-25's 杠上花 needs a kong: L with its 111m konged wins on the replacement 9p: the kong's
    # 根 1 + 杠上花 1.
    assert scored(TFMJ, "234567m2349p", "9p", melds=["1111m"], void="s", self_draw=True, kong_flower=True).fan == 2


def test_tfmj_a_fifth_copy_is_no_win():
    # TF-18: pong(333p) and 3p123456m789p cannot win on a fifth 3p.
    with pytest.raises((ScoreError, xueliu.InvalidHandError)):
        scored(TFMJ, "3p123456m789p", "3p", melds=["333p"], void="s")


def test_tfmj_a_fifth_copy_is_no_wait():
    # TF-19 (contrast MIL Art.10-3(2) Ex.1): pong(333p) with 3p in hand does not wait on 3p.
    waits = xueliu.best_waits("3p123456m789p", rules=TFMJ, melds=["333p"], void="s")
    assert "3p" not in [str(t) for t, _ in waits]


def test_mil_kong_shot_stacks_with_rob_kong():
    # ⑧ 「再次加杠的牌」 (N9, kong_shot_on_rob): a robbed add kong made right after a kong is 杠上炮 and
    # 抢杠 at once, 1 fan each (平和 0). Where the option is off, the two flags contradict each other.
    assert scored(MIL, L, "9p", void="s", kong_shot=True, robbed_kong=True).fan == 2
    with pytest.raises(ScoreError, match="kong_shot_on_rob"):
        scored(TFMJ, L, "9p", void="s", kong_shot=True, robbed_kong=True)
