"""VecEnv from Python: random legal ids chosen in numpy from the mask (the issue's goal:
≥ 1,000,000 steps/s on this 2-core machine), against the same hands stepped by ids one Game at a
time from Python, for the ratio. The Rust ceiling (ids chosen in Rust): `cargo bench -p
xueliu-core --bench env`. Each benchmark records the steps one call makes in
``extra_info["items"]``. `python benches/test_bench_env.py` prints wall-clock and CPU-time
rates side by side: on a shared machine the CPU-time rate says what the code costs, the wall
rate what the machine gave it."""

from __future__ import annotations

import os
import time

import numpy as np
import pytest
from random_ids import random_ids
from sizes import size

from xueliu import Action, Game, VecEnv

HANDS = size(1024, 64)  # 1,024 observations (1.8 MB) stay in cache between steps; 4,096 do not
STEPS = size(50, 5)


def vec_steps(env: VecEnv, state: dict, steps: int) -> int:
    mask, rng = state["mask"], state["rng"]
    for _ in range(steps):
        _, mask, _, _, _ = env.step(random_ids(mask, rng))
    state["mask"] = mask
    return steps * len(env)


@pytest.mark.benchmark(group="VecEnv steps (random legal ids from the mask in numpy)")
@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("preset", ["chengdu", "chengdu_xueliu"])
def test_vec_env_random_steps(benchmark, preset, threads):
    env = VecEnv(HANDS, preset, seed=1, threads=threads)
    _, mask, _ = env.reset()
    state = {"mask": mask, "rng": np.random.default_rng(2)}
    benchmark.extra_info["items"] = HANDS * STEPS
    benchmark(vec_steps, env, state, STEPS)


def game_steps(count: int, seed: int) -> int:
    """The same work without VecEnv: Game.action_mask + observe + act by id, in a Python loop."""
    rng = np.random.default_rng(seed)
    done, hand = 0, 0
    game, picks = Game("chengdu", seed=seed), [[] for _ in range(4)]
    while done < count:
        if game.is_over:
            hand += 1
            game, picks = Game("chengdu", seed=seed * 100_000 + hand), [[] for _ in range(4)]
        seat = game.to_act()[0]
        game.observe(seat, picked=picks[seat])
        i = int(rng.choice(np.flatnonzero(game.action_mask(seat, picked=picks[seat]))))
        if i < 27:
            picks[seat].append(i)
            if len(picks[seat]) == 3:
                game.act(seat, Action.from_ids(picks[seat]))
                picks[seat] = []
        else:
            game.act(seat, Action.from_id(i))
        done += 1
    return done


@pytest.mark.benchmark(group="VecEnv steps with opponents in seats 1-3 (seat 0: random ids in numpy)")
@pytest.mark.parametrize("opponents", ["random", "greedy"])
def test_vec_env_steps_with_opponents(benchmark, opponents):
    """A step is seat 0's id plus the opponents' replies, stepped in Rust; random against greedy
    opponents side by side gives the price of greedy play."""
    env = VecEnv(HANDS, "chengdu", seed=1, opponents=opponents, threads=2)
    _, mask, _ = env.reset()
    state = {"mask": mask, "rng": np.random.default_rng(2)}
    benchmark.extra_info["items"] = HANDS * STEPS
    benchmark(vec_steps, env, state, STEPS)


@pytest.mark.benchmark(group="VecEnv steps (random legal ids from the mask in numpy)")
def test_choosing_ids_in_numpy_alone(benchmark):
    """The numpy share of a VecEnv step: choosing the ids from a mid-hand mask."""
    env = VecEnv(HANDS, "chengdu", seed=1)
    _, mask, _ = env.reset()
    rng = np.random.default_rng(3)
    for _ in range(20):
        _, mask, _, _, _ = env.step(random_ids(mask, rng))
    mask = mask.copy()
    benchmark.extra_info["items"] = HANDS
    ids = benchmark(random_ids, mask, rng)
    assert mask[np.arange(HANDS), ids].all()


@pytest.mark.benchmark(group="VecEnv steps (random legal ids from the mask in numpy)")
def test_game_by_ids_from_python(benchmark):
    benchmark.extra_info["items"] = size(5_000, 200)
    benchmark(game_steps, size(5_000, 200), 1)


def main() -> None:
    """Steps/s by wall clock and per CPU-second, for a few sizes and thread counts."""
    print(f"{'preset':<16}{'hands':>7}{'threads':>8}{'steps/s':>14}{'steps/cpu-s':>14}  load")
    for preset in ["chengdu", "chengdu_xueliu"]:
        for n in [1024, 4096]:
            for threads in [1, 2]:
                env = VecEnv(n, preset, seed=1, threads=threads)
                _, mask, _ = env.reset()
                state = {"mask": mask, "rng": np.random.default_rng(2)}
                steps = 1_000_000 // n
                wall, cpu = time.perf_counter(), time.process_time()
                vec_steps(env, state, steps)
                wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
                rate, cpu_rate = steps * n / wall, steps * n / cpu
                print(f"{preset:<16}{n:>7}{threads:>8}{rate:>14,.0f}{cpu_rate:>14,.0f}  {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
