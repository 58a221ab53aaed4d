"""Self-play and duplicate evaluation past one process: shards mapped over an executor.

A shard is a range of game numbers, ``first_game .. first_game + games``. Every game is fixed by
``(seed, game number)`` alone (docs/bots.md, "Seeds"), so a shard plays exactly the games a
single run plays at those numbers, anywhere. Shards run on an executor — local processes
(:class:`Processes`, the default) or Ray (:class:`Ray`, ``pip install "xueliu[ray]"``) — and are
merged in game order, so the result (every hand's points, the histograms, ``digest()``) is the
one-process result whatever the number of shards, processes or machines::

    from xueliu import shards
    r = shards.simulate(100_000, "chengdu", bots="greedy", seed=1, executor=shards.Processes(2))
    r.digest() == xueliu.simulate(100_000, "chengdu", bots="greedy", seed=1).digest()   # True
    shards.compare_bots("greedy", "random", 20_000, executor=shards.Ray())  # RAY_ADDRESS or local

A duplicate deal's four seatings are played inside one shard (``compare_bots`` shards whole
deals). Each shard runs on one thread of its worker; the executor provides the parallelism.
"""

from __future__ import annotations

import concurrent.futures as futures
import logging
import multiprocessing
import os
from functools import reduce
from typing import Any, Callable, Iterable, Iterator, Optional, Protocol, Sequence, Union

from ._xueliu import ArgumentError, Bot, Comparison, SimulationResult
from ._xueliu import compare_bots as _compare_bots
from ._xueliu import simulate as _simulate

__all__ = ["Executor", "Processes", "Ray", "compare_bots", "in_order", "plan", "simulate", "simulate_shards"]

# Shards per worker by default: enough to balance uneven shards and move a progress bar.
SHARDS_PER_WORKER = 8


class Executor(Protocol):
    """Runs ``fn(*job)`` for each job and yields the results as they finish, in any order."""

    workers: int

    def run(self, fn: Callable[..., Any], jobs: Sequence[tuple[Any, ...]]) -> Iterator[Any]:
        """``fn(*job)`` for every job, yielded as each finishes."""
        ...


class Processes:
    """Local worker processes (``spawn``ed, so no thread state is forked; as with any spawned pool, a script using it guards its work with ``if __name__ == "__main__"``), ``workers`` of them
    (default: every core)."""

    def __init__(self, workers: Optional[int] = None):
        if workers is not None and workers < 1:
            raise ArgumentError(f"workers must be at least 1 worker process; got {workers}")
        self.workers = workers or os.cpu_count() or 1

    def run(self, fn: Callable[..., Any], jobs: Sequence[tuple[Any, ...]]) -> Iterator[Any]:
        """``fn(*job)`` for every job on the pool, yielded as each finishes; the pool ends with the run."""
        context = multiprocessing.get_context("spawn")
        with futures.ProcessPoolExecutor(self.workers, mp_context=context) as pool:
            pending = [pool.submit(fn, *job) for job in jobs]
            try:
                for done in futures.as_completed(pending):
                    yield done.result()
            finally:
                for f in pending:
                    f.cancel()

    def __repr__(self) -> str:
        return f"Processes({self.workers})"


class Ray:
    """Ray tasks, one CPU each. Joins the Ray already initialised in this process if any, else
    ``ray.init(address)``: ``address=None`` honours ``RAY_ADDRESS`` and otherwise starts a local
    Ray; ``"auto"`` or ``"HOST:6379"`` joins a running cluster (``ray start --head``)."""

    def __init__(self, address: Optional[str] = None):
        try:
            import ray
        except ImportError as e:
            raise ImportError('shards.Ray needs Ray: pip install "xueliu[ray]"') from e
        self._ray = ray
        if not ray.is_initialized():
            ray.init(address=address or None, include_dashboard=False, logging_level=logging.WARNING)
        self.workers = max(1, int(ray.cluster_resources().get("CPU", 1)))

    def run(self, fn: Callable[..., Any], jobs: Sequence[tuple[Any, ...]]) -> Iterator[Any]:
        """``fn(*job)`` for every job as a Ray task, yielded as each finishes."""
        ray = self._ray
        task = ray.remote(num_cpus=1)(fn)
        pending = [task.remote(*job) for job in jobs]
        try:
            while pending:
                (done,), pending = ray.wait(pending, num_returns=1)
                yield ray.get(done)
        finally:
            for ref in pending:
                ray.cancel(ref)

    def __repr__(self) -> str:
        return f"Ray({self.workers} CPUs)"


def plan(games: int, shards: int, *, first_game: int = 0, minimum: int = 1) -> list[tuple[int, int]]:
    """``(first_game, games)`` of each shard: at most ``shards`` contiguous ranges covering
    ``games`` games from ``first_game``, each of at least ``minimum`` games."""
    n = max(1, min(shards, games // max(minimum, 1)))
    bounds = [games * k // n for k in range(n + 1)]
    return [(first_game + lo, hi - lo) for lo, hi in zip(bounds, bounds[1:])]


def _simulate_shard(games: int, rules: Any, bots: Any, seed: int, first_game: int, logs: bool) -> SimulationResult:
    return _simulate(games, rules, bots=bots, seed=seed, threads=1, first_game=first_game, logs=logs)


def _compare_shard(a: str, b: str, games: int, rules: Any, seed: int, first_game: int) -> Comparison:
    return _compare_bots(a, b, games, rules, seed=seed, threads=1, first_game=first_game)


def simulate_shards(
    games: int,
    rules: Any = "chengdu",
    *,
    bots: Union[str, Sequence[str]] = "greedy",
    seed: int = 0,
    first_game: int = 0,
    logs: bool = False,
    executor: Optional[Executor] = None,
    shards: Optional[int] = None,
) -> Iterator[SimulationResult]:
    """Each shard's :class:`SimulationResult` as it finishes, in any order (``first_game`` says
    where it goes): for progress bars and for writing logs without holding them all."""
    _simulate(0, rules, bots=bots, seed=seed, first_game=first_game)  # bad arguments fail here
    executor = executor or Processes()
    bots = (bots,) * 4 if isinstance(bots, str) else tuple(bots)
    ranges = plan(games, shards or SHARDS_PER_WORKER * executor.workers, first_game=first_game)
    jobs = [(n, rules, bots, seed, first, logs) for first, n in ranges]
    return executor.run(_simulate_shard, jobs)


def simulate(
    games: int,
    rules: Any = "chengdu",
    *,
    bots: Union[str, Sequence[str]] = "greedy",
    seed: int = 0,
    first_game: int = 0,
    logs: bool = False,
    executor: Optional[Executor] = None,
    shards: Optional[int] = None,
) -> SimulationResult:
    """:func:`xueliu.simulate` split into ``shards`` ranges of games (default: 8 per worker) run
    on ``executor`` (default: :class:`Processes` on every core) and merged in game order. Equal
    to ``xueliu.simulate`` with the same arguments, but for the timings (summed over shards)."""
    parts = simulate_shards(
        games, rules, bots=bots, seed=seed, first_game=first_game, logs=logs, executor=executor, shards=shards
    )
    merged: SimulationResult = in_order(parts, SimulationResult.merge)
    return merged


def in_order(parts: Iterable[Any], merge: Callable[[Any, Any], Any]) -> Any:
    """Shard results merged in game order, whatever order they came in."""
    return reduce(merge, sorted(parts, key=lambda part: part.first_game))


def compare_bots(
    a: str,
    b: str,
    games: int,
    rules: Any = "chengdu",
    *,
    seed: int = 0,
    first_game: int = 0,
    executor: Optional[Executor] = None,
    shards: Optional[int] = None,
) -> Comparison:
    """:func:`xueliu.compare_bots` split into shards of whole deals (each at least 2; every
    seating of a deal in one shard) on ``executor`` and merged in deal order: the same
    differences, mean and interval, bit for bit."""
    Bot(a), Bot(b), _simulate(0, rules, seed=seed, first_game=first_game)  # bad arguments fail here
    if games < 2:
        return _compare_bots(a, b, games, rules, seed=seed, first_game=first_game)
    executor = executor or Processes()
    shards = shards or SHARDS_PER_WORKER * executor.workers
    jobs = [(a, b, n, rules, seed, first) for first, n in plan(games, shards, first_game=first_game, minimum=2)]
    merged: Comparison = in_order(executor.run(_compare_shard, jobs), Comparison.merge)
    return merged
