"""Single analysis calls from Python against the peers', side by side in one process (issue 31
item 7): rounds of each call over the same hands, alternated, and the median ns per call.

    python benches/peer_calls.py          # needs pip install ".[compare]" for the peers
    PYTHONPATH=/tmp/old python benches/peer_calls.py   # another build, for before/after

Like for like: xueliu's string call beside riichienv's only string path (``parse_hand`` then
``calculate_shanten``), and lists beside lists (xueliu's 27 counts, xiangting's 34 counts,
riichienv's 136-tile ids: each engine's own list form). Shanten on random 14-tile hands from a
shuffled 108-tile wall; waits on ready 13-tile hands (complete hands less a tile), where
xiangting's ``calculate_necessary_tiles`` is the tiles that complete them too: on random hands
xueliu's waits would time an early exit. The answers differ in rules (riichi has no 缺一门), so
the rows compare the cost of a call, not identical functions (BENCHMARKS.md)."""

from __future__ import annotations

import statistics
import sys
import time
from typing import Callable

from conftest import ready_hands, wall_hands

import xueliu

SEED = 2026
ROUNDS = 15


def text(counts: list[int]) -> str:
    return xueliu.format_tiles([t for t in range(27) for _ in range(counts[t])])


def ids_136(counts: list[int]) -> list[int]:
    return [kind * 4 + copy for kind, c in enumerate(counts) for copy in range(c)]


def counts_34(counts: list[int]) -> list[int]:
    return counts + [0] * 7


def ns_per_call(cases: dict[str, tuple[Callable, list]]) -> dict[str, float]:
    """Median ns per call of each case, its rounds alternated with the others'."""
    times: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(ROUNDS):
        for name, (call, items) in cases.items():
            start = time.perf_counter()
            for item in items:
                call(item)
            times[name].append((time.perf_counter() - start) / len(items) * 1e9)
    return {name: statistics.median(t) for name, t in times.items()}


def cases() -> dict[str, dict[str, tuple[Callable, list]]]:
    shanten_hands = [[int(c) for c in row] for row in wall_hands(14, 20_000, SEED)]
    ready = [[int(c) for c in row] for row in ready_hands(20_000, SEED)]
    groups: dict[str, dict[str, tuple[Callable, list]]] = {
        "shanten, random 14 tiles": {
            "xueliu string": (xueliu.shanten, [text(h) for h in shanten_hands]),
            "xueliu list of 27 counts": (xueliu.shanten, shanten_hands),
        },
        "waits, ready 13 tiles": {
            "xueliu string": (xueliu.waits, [text(h) for h in ready]),
            "xueliu list of 27 counts": (xueliu.waits, ready),
        },
    }
    try:
        import riichienv
    except ImportError:
        print("(riichienv not installed: pip install '.[compare]')")
    else:
        groups["shanten, random 14 tiles"]["riichienv string (parse_hand + calculate_shanten)"] = (
            lambda s: riichienv.calculate_shanten(riichienv.parse_hand(s)[0]),
            [text(h) for h in shanten_hands],
        )
        groups["shanten, random 14 tiles"]["riichienv list of 136-tile ids"] = (
            riichienv.calculate_shanten,
            [ids_136(h) for h in shanten_hands],
        )
    try:
        import xiangting
    except ImportError:
        print("(xiangting not installed: pip install '.[compare]')")
    else:
        four = xiangting.PlayerCount.FOUR
        groups["shanten, random 14 tiles"]["xiangting list of 34 counts"] = (
            lambda h: xiangting.calculate_replacement_number(h, four),
            [counts_34(h) for h in shanten_hands],
        )
        groups["waits, ready 13 tiles"]["xiangting list of 34 counts (necessary tiles)"] = (
            lambda h: xiangting.calculate_necessary_tiles(h, four),
            [counts_34(h) for h in ready],
        )
    return groups


def main() -> None:
    label = sys.argv[1] if len(sys.argv) > 1 else ""
    xueliu.shanten("123456789m12345p")  # the lookup tables, built once
    for group, members in cases().items():
        ns = ns_per_call(members)
        print(f"{label} {group}: ns per call, and how many times faster xueliu's string and list calls are")
        string, listed = ns["xueliu string"], ns["xueliu list of 27 counts"]
        for name, value in ns.items():
            print(f"  {name:<52}{value:7.0f} ns   string {value / string:5.2f}x   list {value / listed:5.2f}x")


if __name__ == "__main__":
    main()
