"""``python -m xueliu``: a short demo that analyses a few hands and times the engine."""

from __future__ import annotations

import time

import xueliu

DEMO_HANDS = [
    ("12334577m23345p", "seed 001's ready hand: waits on 1p and 4p"),
    ("1112345678999m", "nine gates shape: waits on every 1m-9m"),
    ("11334466m55779p", "seven pairs, one tile short"),
    ("147m258p369s1m2p3s4m", "a scattered hand"),
]


def main() -> None:
    print("xueliu hand analysis demo\n")
    for text, note in DEMO_HANDS:
        waits = " ".join(str(t) for t in xueliu.waits(text)) if len(text) > 0 else ""
        print(f"  {text:<22} shanten {xueliu.shanten(text):>2}   waits [{waits}]   ({note})")
    hands = [text for text, _ in DEMO_HANDS] * 25_000
    start = time.perf_counter()
    for text in hands:
        xueliu.shanten(text)
    elapsed = time.perf_counter() - start
    print(f"\n  {len(hands):,} shanten calls from Python in {elapsed:.3f} s "
          f"({len(hands) / elapsed / 1e6:.2f} M calls/s)")


if __name__ == "__main__":
    main()
