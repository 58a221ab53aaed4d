"""The four 1s, wherever they sit: natural 1s and wilds in the hand and in melds count toward
the four, in the engine and the reference alike (issue 12, item 7)."""

from __future__ import annotations

import pytest

import xueliu
from xueliu import (
    InvalidHandError,
)


def test_wilds_in_melds_count_toward_the_four():
    melds = ["5m111s", "6m111s", "7m111s", "8m111s"]
    for f in (xueliu.is_win, xueliu.shanten, xueliu.decompositions, xueliu.hand_facts):
        with pytest.raises(InvalidHandError, match="12 wilds"):
            f("99m", melds=melds)
    with pytest.raises(InvalidHandError, match="wilds"):
        xueliu.waits("9m", melds=melds)
    with pytest.raises(InvalidHandError, match="11 wilds"):
        xueliu.is_win("9m", melds=["5m111s", "6m111s", "7m111s", "888m"], wilds=2)


@pytest.mark.parametrize("module", ["engine", "reference"])
def test_natural_1s_beside_wilds_count_toward_the_four_1s(module):
    from xueliu import reference

    api = xueliu if module == "engine" else reference
    error = InvalidHandError if module == "engine" else ValueError
    # Three natural 1s in hand and three wilds: six 1s.
    with pytest.raises(error, match="1s"):
        api.is_win("111s234m567m99m", wilds=3)
    # A natural kong of 1s beside a kong holding three wilds: seven 1s.
    with pytest.raises(error, match="1s"):
        api.shanten("99m", melds=["1111s", "5m111s", "777m", "888m"])
    # One natural 1s beside three wilds in a meld: four 1s, allowed, and 1s is no wait then
    # (every 1 is held) though it would pair the 1s; a second natural 1s is a fifth.
    melds = ["5m111s", "777m", "888m", "999m"]
    assert api.is_win("12s", melds=melds) is False
    assert list(api.waits("1s", melds=melds)) == []
    assert api.is_win("22s", melds=melds) is True
    with pytest.raises(error, match="1s"):
        api.is_win("11s", melds=melds)


def test_the_reference_reads_melds_holding_wilds_as_the_engine_does():
    from xueliu import reference

    cases = [
        ("99m234p567p789p", dict(melds=["55m1s"]), "is_win"),
        ("99m234p567p789p", dict(melds=["5m111s"]), "decompositions"),
        ("55m234p567p789p", dict(melds=["55m1s"]), "hand_facts"),  # four natural 5m: a root
        ("9m234p567p789p", dict(melds=["55m1s"]), "waits"),
    ]
    for hand, kw, name in cases:
        engine, oracle = getattr(xueliu, name)(hand, **kw), getattr(reference, name)(hand, **kw)
        if name == "decompositions":
            engine = sorted(tuple(d.groups) for d in engine)
        elif name == "hand_facts":
            engine = engine.to_dict()
        elif name == "waits":
            engine = [t.index for t in engine]
        assert engine == oracle, (hand, kw, name)
