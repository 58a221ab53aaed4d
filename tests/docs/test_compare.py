"""benches/compare.py keeps running: a tiny workload through every row this install can time."""

from __future__ import annotations

import importlib.util
import sys

import pytest
from helpers import ROOT

SCRIPT = ROOT / "benches" / "compare.py"


@pytest.fixture(scope="module")
def compare():
    spec = importlib.util.spec_from_file_location("compare", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules["compare"] = module  # dataclasses look their module up there
    sys.path.insert(0, str(SCRIPT.parent))  # as `python benches/compare.py` has it: its helpers
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(SCRIPT.parent))
    return module


def test_compare_times_hands_and_games_and_prints_a_table(compare):
    compare.REPEATS = 1
    rows = compare.hand_rows(40, 2) + compare.game_rows(2, 1, "chengdu")
    text = compare.table(rows)
    assert {("shanten", "xueliu"), ("shanten", "reference"), ("hands played", "reference")} <= {
        (r.group, r.engine) for r in rows
    }
    assert all(r.items > 0 and r.seconds > 0 for r in rows)
    assert text.count("\n") == len(rows) + 1 and "| 1.0 |" in text


def test_the_riichi_layouts_hold_the_same_tiles(compare):
    hand = compare.wall_hands(1)[0]
    assert sum(compare.riichi_34(hand)) == 14 and compare.riichi_34(hand)[27:] == [0] * 7
    assert sorted({t // 4 for t in compare.riichi_136(hand)}) == [t for t in range(27) if hand[t]]
