"""Duplicate evaluation of a saved policy (examples/policy_gradient.py) against a bot, in the
manner of ``xueliu.compare_bots``: each deal is played four times, the policy in seat 0, 1, 2, 3
in turn and the bot (``--against``, greedy by default) in the other three, so the luck of the
tiles falls on both alike. A deal's value is the policy's points minus the mean of the bot
seats', averaged over its four seatings; the script prints the mean over deals with a 95%
interval (normal approximation), and the same figure for a uniformly random seat for scale.

    python examples/evaluate_policy.py policy.npz --deals 500 --against greedy
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Callable

import numpy as np

import xueliu

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from policy_gradient import Policy, features  # noqa: E402

Chooser = Callable[[np.ndarray, np.ndarray], int]


def policy_chooser(policy: Policy) -> Chooser:
    """One id from the policy, sampled within the mask."""
    return lambda obs, mask: int(policy.act(features(obs[None], mask[None]), mask[None])[0])


def random_chooser(rng: np.random.Generator) -> Chooser:
    return lambda obs, mask: int(rng.choice(np.flatnonzero(mask)))


def play(rules: str, deal: int, seat: int, choose: Chooser, against: str) -> list[int]:
    """The points of the hand dealt from ``deal`` with ``choose`` in ``seat`` and ``against`` bots elsewhere."""
    game = xueliu.Game(rules, seed=deal)
    bots = {s: xueliu.Bot(against, seed=(deal + s) % 2**64) for s in range(4) if s != seat}
    picks: list[int] = []
    while not game.is_over:
        s = game.to_act()[0]
        if s != seat:
            game.act(s, bots[s].choose(game, s))
            continue
        action_id = choose(game.observe(seat, picked=picks), game.action_mask(seat, picked=picks))
        if action_id < 27:  # one tile toward the exchange; the third plays it (docs/encoding.md §1)
            picks.append(action_id)
            if len(picks) == 3:
                game.act(seat, xueliu.Action.from_ids(picks))
                picks = []
        else:
            game.act(seat, xueliu.Action.from_id(action_id))
    return game.scores


def duplicate(rules: str, deals: int, seed: int, choose: Chooser, against: str) -> tuple[float, float]:
    """Mean over deals of the chooser's points minus the bots', and the 95% half-width."""
    values = []
    for deal in np.random.default_rng(seed).integers(2**63, size=deals):
        total = 0.0
        for seat in range(4):
            points = play(rules, int(deal), seat, choose, against)
            total += points[seat] - (sum(points) - points[seat]) / 3
        values.append(total / 4)
    values = np.array(values)
    return float(values.mean()), float(1.96 * values.std(ddof=1) / np.sqrt(deals))


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("policy", help="a .npz written by policy_gradient.py --save")
    parser.add_argument("--rules", default="chengdu")
    parser.add_argument("--against", default="greedy", help="the bot in the other three seats")
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    policy = Policy.load(args.policy)
    policy.rng = rng
    for name, choose in (("policy", policy_chooser(policy)), ("random", random_chooser(rng))):
        start = time.perf_counter()
        mean, half = duplicate(args.rules, args.deals, args.seed, choose, args.against)
        print(
            f"{name} - {args.against}, {args.deals} deals x 4 seatings, {args.rules}: {mean:+.2f} points/game, "
            f"95% CI [{mean - half:+.2f}, {mean + half:+.2f}] ({time.perf_counter() - start:.1f} s)"
        )


if __name__ == "__main__":
    main()
