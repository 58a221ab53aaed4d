"""The policy bot's strength and speed, side by side in one run (docs/bots.md, "`policy`: a learned bot").

    python benches/policy.py [--policy policy] [--threads 2] [--scale 1.0]

Strength: duplicate deals (``compare_bots``) of the policy against random, greedy, ismcts:25 and
ismcts:100 in chengdu, chengdu_xueliu, xuezhan and yaoji, each with its 95% CI. Speed: whole hands per
second of ``simulate`` with four greedy bots and with four policy bots, one thread, alternately,
the median of five rounds each. Prints markdown rows.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np

import xueliu
from xueliu import train
from xueliu._xueliu import _policy_samples

PRESETS = ("chengdu", "chengdu_xueliu", "xuezhan", "yaoji")
# Deals per opponent at scale 1: the searching opponents cost far more per deal.
DEALS = {"random": 500, "greedy": 1000, "ismcts:25": 200, "ismcts:100": 150}


def strength(policy: str, threads: int, scale: float) -> None:
    print("| policy vs | preset | deals (×4 games) | mean (points/game) | 95% CI | seconds |")
    print("|---|---|---|---|---|---|")
    for rival, deals in DEALS.items():
        for preset in PRESETS:
            n = max(2, int(deals * scale))
            start = time.perf_counter()
            c = xueliu.compare_bots(policy, rival, n, preset, seed=26, threads=threads)
            print(
                f"| {rival} | {preset} | {n} | {c.mean:+.2f} | [{c.ci_low:+.2f}, {c.ci_high:+.2f}] | "
                f"{time.perf_counter() - start:.0f} |",
                flush=True,
            )


def speed(policy: str, scale: float) -> None:
    games = max(20, int(2000 * scale))
    print(f"\n| preset | greedy hands/s | {policy} hands/s | greedy ÷ policy |")
    print("|---|---|---|---|")
    for preset in PRESETS:
        rates: dict[str, list[float]] = {"greedy": [], policy: []}
        for _ in range(5):
            for bot in rates:
                rates[bot].append(xueliu.simulate(games, preset, bots=bot, seed=1, threads=1).games_per_second)
        g, p = (statistics.median(rates[b]) for b in rates)
        print(f"| {preset} | {g:,.0f} | {p:,.0f} | {g / p:.2f} |", flush=True)


# Action id blocks (docs/encoding.md §1), for the analysis by decision kind.
KINDS = {
    "void": range(27, 30),
    "discard": range(30, 57),
    "pong": range(57, 58),
    "kong": range(58, 85),
    "win": range(85, 86),
    "pass": range(86, 87),
    "swap": range(87, 114),
}


def kind_of(ids: np.ndarray) -> np.ndarray:
    out = np.empty(len(ids), dtype=object)
    for name, r in KINDS.items():
        out[(ids >= r.start) & (ids < r.stop)] = name
    return out


def analysis(weights: str, teacher: str, games: int) -> None:
    """On the states the policy reaches (it plays every seat), each decision labelled by the teacher
    and by greedy: how often the policy and greedy agree with the teacher, by the teacher's kind."""
    with open(weights, "rb") as f:
        mlp = train.Mlp.from_bytes(f.read())
    version = xueliu.load_policy(mlp.to_bytes(999_001))
    print(f"\n| preset | teacher's choice | decisions | policy = {teacher} | greedy = {teacher} | policy = greedy |")
    print("|---|---|---|---|---|---|")
    for preset in PRESETS:
        players = f"policy:{version}"
        obs, features, legal, taught = _policy_samples(games, preset, teacher=teacher, players=players, seed=7)
        greedy = _policy_samples(games, preset, teacher="greedy", players=players, seed=7)[3]
        mine = mlp.choose(features if mlp.weights[0].shape[0] == train.FEATURES else obs, legal)
        kinds = kind_of(taught)
        for name in [*KINDS, "all"]:
            rows = kinds == name if name != "all" else np.ones(len(kinds), bool)
            if rows.sum():
                agree = [(a[rows] == b[rows]).mean() for a, b in ((mine, taught), (greedy, taught), (mine, greedy))]
                print(f"| {preset} | {name} | {rows.sum()} | " + " | ".join(f"{x:.1%}" for x in agree) + " |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--policy", default="policy")
    parser.add_argument("--weights", help="play this weights file (loaded as version 999001) instead of --policy")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--scale", type=float, default=1.0, help="deals and games, relative to the defaults")
    parser.add_argument("--analysis", metavar="WEIGHTS", help="instead: agreement by decision kind of these weights")
    parser.add_argument("--teacher", default="ismcts:100", help="the analysis's reference bot")
    args = parser.parse_args()
    print(f"load average at the start: {os.getloadavg()}")
    if args.weights:
        with open(args.weights, "rb") as f:
            args.policy = f"policy:{xueliu.load_policy(train.Mlp.from_bytes(f.read()).to_bytes(999_001))}"
    if args.analysis:
        analysis(args.analysis, args.teacher, max(2, int(100 * args.scale)))
        return
    strength(args.policy, args.threads, args.scale)
    speed(args.policy, args.scale)
    print(f"load average at the end: {os.getloadavg()}")


if __name__ == "__main__":
    main()
