"""The bot protocol's cost and the arena's, side by side in one run (BENCHMARKS.md, "Bring your own bot").

    python benches/arena.py            # about a minute
    python benches/arena.py --quick    # a few seconds
    taskset -c 1 python benches/arena.py   # host and bots on one core, as the goal is stated

1. The protocol's host overhead per decision: the same hands played by four process bots that
   answer at once with their first legal action (tests/bots/zoo.py ``echo``) and by four
   in-process bots making the same choice. The host's CPU time per decision (``process_time``,
   the bots' own processes excluded) of each, and their difference: what the protocol costs the
   host (encoding the events and request, the pipe, reading and checking the answer, the ack).
2. The arena with built-in bots against ``compare_bots`` on the same deals (greedy vs random,
   chengdu, one thread each): the same games, and their wall times.
Each row keeps its fastest of three runs: load from other processes only ever slows a run.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

import xueliu
from xueliu.players import InProcess, ProcessBot, play_hand

ZOO = str(Path(__file__).resolve().parents[1] / "tests" / "bots" / "zoo.py")


def first_legal(game: xueliu.Game, seat: int) -> xueliu.Action:
    return game.legal_actions(seat)[0]


def play(players: list, hands: int) -> tuple[float, float, int]:
    """(host CPU seconds, wall seconds, decisions) for ``hands`` hands."""
    cpu, wall = time.process_time(), time.perf_counter()
    for h in range(hands):
        play_hand(xueliu.Game("chengdu", seed=h), players)
    decisions = sum(p.counts.decisions for p in players)
    for p in players:
        p.counts = type(p.counts)()
    return time.process_time() - cpu, time.perf_counter() - wall, decisions


def protocol(hands: int) -> None:
    bots = [ProcessBot([sys.executable, ZOO, "echo"]) for _ in range(4)]
    local = [InProcess(first_legal) for _ in range(4)]
    play(bots, 1)  # start the processes
    best: dict[str, tuple[float, float, int]] = {}
    for _ in range(3):
        for name, players in (("process", bots), ("in-process", local)):
            run = play(players, hands)
            if name not in best or run[0] < best[name][0]:
                best[name] = run
    for b in bots:
        b.close()
    print(
        f"| protocol: {hands} hands, chengdu, 4 seats | host CPU µs/decision | decisions/s (host CPU) | wall decisions/s |"
    )
    print("|---|---:|---:|---:|")
    for name, (cpu, wall, n) in best.items():
        print(f"| {name} first-legal bots | {cpu / n * 1e6:.1f} | {n / cpu:,.0f} | {n / wall:,.0f} |")
    (pc, _, pn), (lc, _, ln) = best["process"], best["in-process"]
    overhead = pc / pn - lc / ln
    print(f"| the protocol's host overhead | {overhead * 1e6:.1f} | {1 / overhead:,.0f} | |")


def arena_vs_compare(deals: int) -> None:
    xueliu.simulate(0, "chengdu")  # tables built before timing
    best = {"compare_bots": np.inf, "arena": np.inf}
    for _ in range(3):
        start = time.perf_counter()
        c = xueliu.compare_bots("greedy", "random", deals, "chengdu", seed=1, threads=1)
        best["compare_bots"] = min(best["compare_bots"], time.perf_counter() - start)
        start = time.perf_counter()
        a = xueliu.arena(["greedy", "random"], deals, "chengdu", seed=1)
        best["arena"] = min(best["arena"], time.perf_counter() - start)
        assert np.array_equal(a._margins(0, 1), c.differences)  # the same games
    print(f"\n| greedy vs random, {deals} deals × 4 games, chengdu, 1 thread | s | games/s | × compare_bots |")
    print("|---|---:|---:|---:|")
    for name, s in best.items():
        print(f"| {name} | {s:.3f} | {deals * 4 / s:,.0f} | {s / best['compare_bots']:.2f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true")
    quick = parser.parse_args().quick
    protocol(5 if quick else 60)
    arena_vs_compare(200 if quick else 4000)


if __name__ == "__main__":
    main()
