"""Shared fixtures for the benchmarks, and a closing table of rates and ratios.

Run with ``pytest benches --benchmark-enable``. The normal test run executes each benchmark once
with timing disabled and small sizes (benches/sizes.py), so the benchmarks cannot rot. Rates are per hand (or per decision): each
benchmark records how many items one call processes in ``extra_info["items"]``. Each rate is also
given as a multiple of the slowest in its group, all measured in the same run.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
import sizes


def pytest_configure(config: pytest.Config) -> None:
    sizes.SMOKE = config.getoption("benchmark_disable") and not config.getoption("benchmark_enable")


def hands() -> int:
    """Hands per batch case: batch calls split rows across threads; large arrays amortise that."""
    return sizes.size(200_000, 2_000)


def wall_hands(size: int, count: int, seed: int) -> np.ndarray:
    """`count` hands of `size` tiles, each drawn from a freshly shuffled 108-tile wall."""
    rng = random.Random(seed)
    wall = [t for t in range(27) for _ in range(4)]
    hands = np.zeros((count, 27), dtype=np.uint8)
    for row in range(count):
        rng.shuffle(wall)
        for t in wall[:size]:
            hands[row, t] += 1
    return hands


def ready_hands(count: int, seed: int) -> np.ndarray:
    """Random complete hands in two suits, less one tile: hands that wait on something."""
    rng = random.Random(seed)
    hands = []
    while len(hands) < count:
        suits = rng.sample(range(3), 2)
        counts = [0] * 27
        base = 9 * rng.choice(suits)
        counts[base + rng.randrange(9)] += 2
        for _ in range(4):
            base = 9 * rng.choice(suits)
            if rng.random() < 0.5:
                counts[base + rng.randrange(9)] += 3
            else:
                r = rng.randrange(7)
                for x in range(r, r + 3):
                    counts[base + x] += 1
        if max(counts) > 4:
            continue
        tiles = [t for t in range(27) for _ in range(counts[t])]
        counts[rng.choice(tiles)] -= 1
        hands.append(counts)
    return np.array(hands, dtype=np.uint8)


YAOJI = 18  # 1s, the tile whose four copies are the wilds


def with_wilds(hands: np.ndarray, seed: int, most: int = 3) -> tuple[np.ndarray, np.ndarray]:
    """The same hands with 1 to `most` tiles of each turned into wilds (幺鸡): its natural 1s first,
    then tiles picked at random. The wilds are 1s, so natural 1s beside them count toward four
    (RULES.md §11); taking the 1s first keeps every row within that."""
    rng = random.Random(seed)
    out = hands.copy()
    wilds = np.zeros(len(hands), dtype=np.uint8)
    for row in range(len(out)):
        wilds[row] = rng.randint(1, most)
        ones = min(int(out[row, YAOJI]), int(wilds[row]))
        out[row, YAOJI] -= ones
        tiles = [t for t in range(27) for _ in range(out[row, t])]
        for t in rng.sample(tiles, int(wilds[row]) - ones):
            out[row, t] -= 1
    return out, wilds


@pytest.fixture(scope="session")
def hands14() -> np.ndarray:
    return wall_hands(14, hands(), seed=1)


@pytest.fixture(scope="session")
def hands13() -> np.ndarray:
    return wall_hands(13, hands(), seed=2)


@pytest.fixture(scope="session")
def ready13() -> np.ndarray:
    return ready_hands(hands(), seed=3)


def pytest_terminal_summary(terminalreporter, config):
    session = getattr(config, "_benchmarksession", None)
    if session is None or session.disabled or not session.benchmarks:
        return
    groups: dict[str, list] = {}
    for bench in session.benchmarks:
        groups.setdefault(bench.group or "", []).append(bench)
    write = terminalreporter.write_line
    write("")
    write("rates measured side by side in this run (items per second; × the group's slowest)")
    for group, benches in groups.items():
        write(f"  {group}")
        rates = {b.name: b.extra_info.get("items", 1) / b.stats.median for b in benches}
        slowest = min(rates.values())
        for name, rate in rates.items():
            write(f"    {name:<44} {rate:>14,.0f}/s   ×{rate / slowest:,.1f}")


@pytest.fixture(scope="session")
def wild_ready13(ready13) -> tuple[np.ndarray, np.ndarray]:
    """Ready hands with one to three of their tiles turned into wilds: still ready."""
    return with_wilds(ready13, seed=4)


@pytest.fixture(scope="session")
def wild_hands14(hands14) -> tuple[np.ndarray, np.ndarray]:
    return with_wilds(hands14, seed=5)
