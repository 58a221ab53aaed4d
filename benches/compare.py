"""xueliu against its peers, on the same fixed-seed hands and games, in one run.

    python benches/compare.py            # about two minutes
    python benches/compare.py --quick    # a few seconds: small workloads, one run each

Times shanten on the same 14-tile hands (xueliu one call at a time and batched, the pure-Python
reference, the `mahjong` package, and — when installed, `pip install ".[compare]"` — xiangting
and riichienv), then whole hands played by uniformly random legal moves (xueliu's Game driven
from Python, `xueliu.simulate` in Rust, `xueliu.VecEnv` when present, the reference game,
riichienv's env and rlcard's mahjong env). Missing packages are skipped with a note. Prints a
Markdown table of throughputs and, per group, each rate as a multiple of the group's baseline
(the pure-Python reference), with the CPU model. Ratios are what holds on a noisy, shared
machine; absolute rates move with the load. BENCHMARKS.md says which rows are like for like.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import platform
import random
import statistics
import time
from dataclasses import dataclass
from typing import Callable, Optional

import numpy as np
from random_ids import random_ids

import xueliu
import xueliu.reference as reference

SEED = 2026
REPEATS = 5  # each row reports the median of its runs and their spread (the load moves every run)


@dataclass
class Row:
    group: str
    engine: str
    what: str
    items: int
    runs: list[float]  # seconds of each run

    @property
    def seconds(self) -> float:
        return statistics.median(self.runs)

    @property
    def rate(self) -> float:
        return self.items / self.seconds

    @property
    def spread(self) -> str:
        """The slowest and the fastest run's rates."""
        return f"{self.items / max(self.runs):,.0f}–{self.items / min(self.runs):,.0f}"


def timed(group: str, engine: str, what: str, work: Callable[[], int]) -> Row:
    """Runs ``work`` (it returns how many items it did) ``REPEATS`` times."""
    runs = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        items = work()
        runs.append(time.perf_counter() - start)
    return Row(group, engine, what, items, runs)


def optional(module: str):
    try:
        return importlib.import_module(module)
    except ImportError:
        print(f"  (skipped: {module} is not installed; pip install '.[compare]')")
        return None


# ------------------------------------------------------------------------------------ hands


def wall_hands(count: int, size: int = 14) -> np.ndarray:
    """``count`` hands of ``size`` tiles, each from a freshly shuffled 108-tile wall (uint8[N, 27])."""
    rng = random.Random(SEED)
    wall = [t for t in range(27) for _ in range(4)]
    hands = np.zeros((count, 27), dtype=np.uint8)
    for row in range(count):
        rng.shuffle(wall)
        np.add.at(hands[row], wall[:size], 1)
    return hands


def riichi_34(counts: np.ndarray) -> list[int]:
    """The same tiles in the riichi 34-kind layout (1-9m, 1-9p, 1-9s, then seven honours, none held)."""
    return [int(c) for c in counts] + [0] * 7


def riichi_136(counts: np.ndarray) -> list[int]:
    """The same tiles as riichi tile ids (kind × 4 + copy)."""
    return [kind * 4 + copy for kind, c in enumerate(counts) for copy in range(int(c))]


def hand_rows(count: int, slow: int) -> list[Row]:
    hands = wall_hands(count)
    lists = [[int(c) for c in row] for row in hands]
    texts = [xueliu.format_tiles([t for t in range(27) for _ in range(row[t])]) for row in lists]  # "1245m36p"
    rows = [
        timed(
            "shanten",
            "xueliu",
            "one call per hand (text form)",
            lambda: sum(1 for h in texts if xueliu.shanten(h) < 99),
        ),
        timed(
            "shanten",
            "xueliu",
            "one call per hand (list of 27 counts, as the peers' lists)",
            lambda: sum(1 for h in lists if xueliu.shanten(h) < 99),
        ),
        timed("shanten", "xueliu", "batch (uint8[N, 27])", lambda: len(xueliu.batch.shanten(hands))),
        timed(
            "shanten",
            "reference",
            "pure Python (baseline)",
            lambda: sum(1 for h in lists[:slow] if reference.shanten(h) < 99),
        ),
    ]
    mahjong = optional("mahjong.shanten")
    if mahjong is not None:
        calc, tiles = mahjong.Shanten(), [riichi_34(h) for h in hands[: count // 10]]
        rows.append(
            timed(
                "shanten",
                "mahjong",
                "riichi rules, Python (a tenth of the hands)",
                lambda: sum(1 for t in tiles if calc.calculate_shanten(t) < 99),
            )
        )
    xiangting = optional("xiangting")
    if xiangting is not None:
        tiles, four = [riichi_34(h) for h in hands], xiangting.PlayerCount.FOUR
        rows.append(
            timed(
                "shanten",
                "xiangting",
                "riichi rules, Rust",
                lambda: sum(1 for t in tiles if xiangting.calculate_replacement_number(t, four) < 99),
            )
        )
    riichienv = optional("riichienv")
    if riichienv is not None:
        tiles = [riichi_136(h) for h in hands]
        rows.append(
            timed(
                "shanten",
                "riichienv",
                "riichi rules, Rust",
                lambda: sum(1 for t in tiles if riichienv.calculate_shanten(t) < 99),
            )
        )
    return rows


def agreement(count: int) -> str:
    """How often the riichi `mahjong` shanten equals xueliu's on the hands where the rules can
    agree: those already in at most two suits (Sichuan wins need 缺一门, riichi does not)."""
    hands = wall_hands(count)
    two_suit = [h for h in hands if sum(1 for s in range(3) if h[9 * s : 9 * s + 9].any()) <= 2]
    mahjong = optional("mahjong.shanten")
    if mahjong is None or not two_suit:
        return ""
    calc = mahjong.Shanten()
    same = sum(xueliu.shanten([int(c) for c in h]) == calc.calculate_shanten(riichi_34(h)) for h in two_suit)
    return f"{same}/{len(two_suit)} two-suit hands get the same shanten from xueliu and mahjong"


# ------------------------------------------------------------------------------------ games


def python_loop(game_type, make: Callable[[int], object], games: int) -> int:
    """Plays ``games`` hands by uniformly random legal actions from Python; returns decisions."""
    rng, decisions = random.Random(SEED), 0
    for i in range(games):
        game = make(i)
        while not game.is_over:
            seat = game.to_act()[0]
            game.act(seat, rng.choice(game.legal_actions(seat)))
            decisions += 1
    return decisions


def game_rows(games: int, slow: int, preset: str) -> list[Row]:
    rows = [
        timed(
            "hands played",
            "xueliu",
            "Game driven from Python",
            lambda: (python_loop(xueliu.Game, lambda i: xueliu.Game(preset, seed=SEED + i), games), games)[1],
        ),
        timed(
            "hands played",
            "reference",
            "pure-Python Game (baseline)",
            lambda: (python_loop(reference.Game, lambda i: reference.Game(preset, SEED + i), slow), slow)[1],
        ),
    ]
    if not hasattr(xueliu, "simulate"):
        print("  (skipped: xueliu.simulate is not in this build)")
    for bot, threads in (("random", 1), ("random", 0), ("greedy", 1)) if hasattr(xueliu, "simulate") else ():
        label = f"simulate, {bot} bots, " + ("1 thread" if threads == 1 else "all cores")
        rows.append(
            timed(
                "hands played",
                "xueliu",
                label,
                lambda b=bot, t=threads: xueliu.simulate(games * 10, preset, bots=b, seed=SEED, threads=t).games,
            )
        )
    vec = vecenv_row(games, preset)
    if vec is not None:
        rows.append(vec)
    riichienv = optional("riichienv")
    if riichienv is not None:
        rows.append(
            timed(
                "hands played",
                "riichienv",
                "riichi env, random legal moves",
                lambda: riichienv_hands(riichienv, max(slow, games // 10)),
            )
        )
    rlcard = optional("rlcard")
    if rlcard is not None:
        rows.append(timed("hands played", "rlcard", "mahjong env, random agents", lambda: rlcard_hands(rlcard, slow)))
    return rows


def vecenv_row(games: int, preset: str) -> Optional[Row]:
    """``xueliu.VecEnv`` when this build has it: 256 hands stepped together, every seat's move a
    uniformly random legal id drawn in numpy by the flat pick (``random_ids``: an argmax over a
    random matrix would be half the row's time), until ``5 × games`` hands have ended (enough
    that the hands still in flight at the end hardly count)."""
    if not hasattr(xueliu, "VecEnv"):
        print("  (skipped: xueliu.VecEnv is not in this build)")
        return None
    return timed(
        "hands played",
        "xueliu",
        "VecEnv(256), random ids from numpy",
        lambda: vecenv_hands(xueliu.VecEnv(256, preset, seed=SEED), 5 * games),
    )


def vecenv_hands(env, hands: int) -> int:
    rng = np.random.default_rng(SEED)
    _, mask, _ = env.reset()
    done = 0
    while done < hands:
        _, mask, _, terminated, _ = env.step(random_ids(mask, rng))
        done += int(terminated.sum())
    return done


def riichienv_hands(riichienv, hands: int) -> int:
    rng = random.Random(SEED)
    for i in range(hands):
        env = riichienv.RiichiEnv(seed=SEED + i, skip_mjai_logging=True)  # no log, as xueliu's rows
        obs = env.reset()
        while not env.done():
            obs = env.step({pid: rng.choice(ob.legal_actions()) for pid, ob in obs.items()})
    return hands


def rlcard_hands(rlcard, hands: int) -> int:
    from rlcard.agents import RandomAgent

    env = rlcard.make("mahjong", config={"seed": SEED})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
    for _ in range(hands):
        env.run(is_training=False)
    return hands


# ----------------------------------------------------------------------------------- report


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def versions() -> str:
    found = []
    for name in ("xueliu", "mahjong", "xiangting", "riichienv", "rlcard"):
        try:
            found.append(f"{name} {importlib.metadata.version(name)}")
        except importlib.metadata.PackageNotFoundError:
            pass
    return ", ".join(found)


def table(rows: list[Row]) -> str:
    lines = [
        "| group | engine | what | items | seconds (median) | per second (median) | slowest–fastest run | × baseline |",
        "|---|---|---|---:|---:|---:|---:|---:|",
    ]
    for group in dict.fromkeys(r.group for r in rows):
        members = [r for r in rows if r.group == group]
        base = next(r for r in members if r.engine == "reference").rate
        for r in members:
            lines.append(
                f"| {r.group} | {r.engine} | {r.what} | {r.items:,} | {r.seconds:.3f} | "
                f"{r.rate:,.0f} | {r.spread} | {r.rate / base:,.1f} |"
            )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small workloads: a smoke test")
    parser.add_argument("--rules", default="chengdu", help="the preset the games are played under")
    args = parser.parse_args()
    global REPEATS
    REPEATS = 1 if args.quick else REPEATS
    hands, slow_hands, games, slow_games = (2_000, 50, 20, 2) if args.quick else (200_000, 500, 1_000, 10)
    xueliu.shanten("123456789m12345p")  # builds the tables before any timing
    print(f"CPU: {cpu_model()} ({platform.machine()}), Python {platform.python_version()}")
    print(f"Packages: {versions()}")
    rows = hand_rows(hands, slow_hands) + game_rows(games, slow_games, args.rules)
    print()
    print(table(rows))
    note = agreement(min(hands, 20_000))
    if note:
        print(f"\nAgreement: {note}.")


if __name__ == "__main__":
    main()
