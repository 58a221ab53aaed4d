"""The engine's scores against the pure-Python reference (xueliu.reference.scoring), which was
written independently from RULES.md and reads the rules only through `Rules.to_dict()`: random
winning and ready hands, every preset, random situations and option overrides."""

from __future__ import annotations

import pytest
from hypothesis import assume, event, given, note, settings
from hypothesis import strategies as st
from strategies import complete_cases, tile_text

import xueliu
from xueliu import reference

PRESETS = xueliu.Rules.presets()

overrides = st.fixed_dictionaries(
    {},
    optional={
        "cap_fan": st.one_of(st.none(), st.integers(1, 8)),
        "self_draw_bonus": st.sampled_from(["none", "add_base", "add_fan"]),
        "gen_counts_kongs": st.booleans(),
        "heavenly_stacks": st.booleans(),
        "rob_kong_scoring": st.sampled_from(["as_basic", "normal"]),
        "allow_seven_pairs": st.booleans(),
        "scoring": st.sampled_from(["linear", "exponential", "multiplier_table"]),
        "ready_wait_copies": st.sampled_from(["hand_and_melds", "hand_only"]),
    },
)


@st.composite
def wins(draw):
    """(rules, hand without the winning tile, winning tile, melds, concealed kongs, void)."""
    rules = xueliu.Rules.preset(draw(st.sampled_from(PRESETS)), **draw(overrides))
    case = draw(complete_cases())
    melds, kongs = [], []
    for m in case.melds:
        (kongs if len(m) == 5 and draw(st.booleans()) else melds).append(m)
    held = [t for t in range(27) for _ in range(case.counts[t])]
    win_tile = draw(st.sampled_from(held))
    held.remove(win_tile)
    hand = "".join(tile_text(t) for t in held)
    return rules, hand, tile_text(win_tile), melds, kongs, case.void


@st.composite
def situations(draw, has_kong: bool, has_melds: bool):
    """Flags a real win can have: how the tile came, and maybe the first draw."""
    kinds = ["discard", "self_draw", "kong_shot", "robbed_kong"] + (["kong_flower"] if has_kong else [])
    kind = draw(st.sampled_from(kinds))
    flags = {
        "self_draw": kind in ("self_draw", "kong_flower"),
        "kong_flower": kind == "kong_flower",
        "kong_shot": kind == "kong_shot",
        "robbed_kong": kind == "robbed_kong",
    }
    if kind == "self_draw" and not has_melds:
        first = draw(st.sampled_from([None, "heavenly", "earthly"]))
        if first:
            flags[first] = True
    return flags


def same(engine: xueliu.Score, ref: dict) -> None:
    assert engine.to_dict() == ref


@given(wins(), st.data())
def test_score_matches_the_reference(win, data):
    rules, hand, tile, melds, kongs, void = win
    flags = data.draw(situations(bool(kongs) or any(len(m) == 5 for m in melds), bool(melds or kongs)))
    kwargs = dict(melds=melds, concealed_kongs=kongs, void=void, **flags)
    try:
        expected = reference.score(hand, tile, rules=rules.to_dict(), **kwargs)
    except ValueError:  # not a win, or a 1s named as a natural tile under yaoji
        event("not a win")
        with pytest.raises(xueliu.XueliuError):
            xueliu.score(hand, tile, rules=rules, **kwargs)
        return
    event(f"scored {expected['pattern']}")
    same(xueliu.score(hand, tile, rules=rules, **kwargs), expected)


@given(wins(), st.integers(0, 13))
def test_best_waits_match_the_reference(win, drop):
    rules, hand, tile, melds, kongs, void = win
    tiles = xueliu.parse_tiles(hand + tile)
    del tiles[drop % len(tiles)]
    ready = "".join(str(t) for t in tiles)
    kwargs = dict(melds=melds, concealed_kongs=kongs, void=void)
    try:
        expected = reference.best_waits(ready, rules=rules.to_dict(), **kwargs)
    except ValueError:  # a 1s named as a natural tile under yaoji (wilds are counted apart)
        with pytest.raises(xueliu.ScoreError, match="wild"):
            xueliu.best_waits(ready, rules=rules, **kwargs)
        return
    found = xueliu.best_waits(ready, rules=rules, **kwargs)
    event(f"{min(len(found), 3)} waits")
    assert [t.index for t, _ in found] == [t for t, _ in expected]
    for (_, engine), (_, ref) in zip(found, expected):
        same(engine, ref)


def test_the_presets_are_the_references():
    for name in PRESETS:
        assert xueliu.Rules.preset(name).to_dict() == reference.PRESETS[name]


@settings(max_examples=300)
@given(wins(), st.data())
def test_wild_hands_match_the_reference(win, data):
    """幺鸡: some concealed tiles of a random win become wilds (a 1s always is one); the win's score
    and 查叫's best_waits of the hand less one tile agree with the reference (docs/wilds.md)."""
    _, hand, tile, melds, kongs, void = win
    assume(all(xueliu.parse_tiles(m)[0].index != 18 for m in melds + kongs))
    extra = data.draw(overrides)
    extra["cap_fan"] = extra.get("cap_fan") or 5  # four wilds score at the cap
    rules = xueliu.Rules.preset("yaoji", **extra)
    held = xueliu.parse_tiles(hand + tile)
    turned = data.draw(st.sets(st.sampled_from(range(len(held))), max_size=3))
    wild = [t.index == 18 or i in turned for i, t in enumerate(held)]
    assume(sum(wild) <= 4)
    natural = [str(t) for t, w in zip(held, wild) if not w]
    won = data.draw(st.sampled_from(range(len(held))))
    win_tile = "1s" if wild[won] else str(held[won])
    if not wild[won]:
        natural.remove(win_tile)
    kwargs = dict(melds=melds, concealed_kongs=kongs, void=void, wilds=sum(wild) - wild[won])
    flags = data.draw(situations(bool(kongs) or any(len(m) == 5 for m in melds), bool(melds or kongs)))
    try:
        expected = reference.score("".join(natural), win_tile, rules=rules.to_dict(), **kwargs, **flags)
    except ValueError:  # a win of another preset that yaoji's options refuse (seven pairs off)
        with pytest.raises(xueliu.XueliuError):
            xueliu.score("".join(natural), win_tile, rules=rules, **kwargs, **flags)
        return
    event(f"{sum(wild)} wilds, {expected['pattern']}")
    note(f"{''.join(natural)} {win_tile} {kwargs} {flags} {extra}")
    same(xueliu.score("".join(natural), win_tile, rules=rules, **kwargs, **flags), expected)
    # 查叫: the 13 tiles left when one natural tile (or, with none, a wild) goes
    natural = [str(t) for t, w in zip(held, wild) if not w]
    kwargs["wilds"] = sum(wild) - (not natural)
    if natural:
        natural.pop(data.draw(st.sampled_from(range(len(natural)))))
    ready = "".join(natural)
    found = xueliu.best_waits(ready, rules=rules, **kwargs)
    expected_waits = reference.best_waits(ready, rules=rules.to_dict(), **kwargs)
    assert [t.index for t, _ in found] == [t for t, _ in expected_waits]
    for (_, engine), (_, ref) in zip(found, expected_waits):
        same(engine, ref)
