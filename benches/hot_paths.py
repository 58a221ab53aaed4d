"""Hot paths from Python, for A/B runs of two builds side by side (put the old package first
on PYTHONPATH for the other run): greedy self-play (the bots' dispatch), ``shanten`` on a string
(argument conversion and analysis), ``waits`` on random 13-tile hands, and ``batch.shanten`` on
200,000 random 14-tile rows from numpy, per CPU-second of the process (so per core, whatever
the cores the batch spreads over and the load takes).

    PYTHONPATH=/tmp/oldpkg python benches/hot_paths.py old; python benches/hot_paths.py new
"""

from __future__ import annotations

import random
import statistics
import sys
import time

import numpy as np

import xueliu


def greedy_hands_per_second(rounds: int = 5, hands: int = 5000) -> float:
    xueliu.simulate(200, "chengdu", bots="greedy", threads=1)
    rates = []
    for _ in range(rounds):
        start = time.perf_counter()
        xueliu.simulate(hands, "chengdu", bots="greedy", seed=3, threads=1)
        rates.append(hands / (time.perf_counter() - start))
    return statistics.median(rates)


def ns_per_call(call, items: list, rounds: int = 7) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        for item in items:
            call(item)
        times.append((time.perf_counter() - start) / len(items) * 1e9)
    return statistics.median(times)


def batch_rows_per_cpu_second(rows: int = 200_000, rounds: int = 20) -> float:
    rng = np.random.default_rng(1)
    tiles = np.argsort(rng.random((rows, 108)), axis=1)[:, :14] // 4  # 14 tiles of a shuffled wall
    counts = np.zeros((rows, 27), np.uint8)
    np.add.at(counts, (np.repeat(np.arange(rows), 14), tiles.ravel()), 1)
    xueliu.batch.shanten(counts)
    start = time.process_time()
    for _ in range(rounds):
        xueliu.batch.shanten(counts)
    return rows * rounds / (time.process_time() - start)


if __name__ == "__main__":
    label = sys.argv[1] if len(sys.argv) > 1 else ""
    rng = random.Random(1)
    wall = [f"{r}{s}" for s in "mps" for r in range(1, 10) for _ in range(4)]
    hands = []
    for _ in range(2000):
        rng.shuffle(wall)
        hands.append("".join(sorted(wall[:13])))
    xueliu.best_waits("1112345678999m", rules="chengdu")  # the lookup tables, built once
    print(label, f"greedy hands/s {greedy_hands_per_second():,.0f}")
    print(label, f"shanten ns/call {ns_per_call(xueliu.shanten, ['23445677m345789p'] * 100_000):.0f}")
    print(label, f"waits ns/call {ns_per_call(xueliu.waits, hands):.0f}")
    print(label, f"batch.shanten rows per CPU-second {batch_rows_per_cpu_second():,.0f}")
