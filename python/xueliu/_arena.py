"""The arena: rates any bots against each other by duplicate play, with SPRT and pool ratings.

Each deal (dealt from ``game_seed(seed, i)``, as ``simulate`` deals) is played once per seating
of the bots (:func:`seatings`), so every bot meets the same tiles in the same seats and the luck
of the deal cancels out of their differences. Seatings whose four bots are all built-in run in
Rust (``_arena_hands``, the games ``simulate`` plays); the others are played here, seat by seat,
through :mod:`xueliu.players`. Shards of deals run on a :mod:`xueliu.shards` executor and merge in
deal order, so every figure is the one-process figure. :mod:`xueliu._arena_report` turns the
played hands into the numbers users compare (docs/bot-protocol.md, "The arena").
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Mapping, Optional, Sequence, Union, overload

import numpy as np

from . import players as pl
from ._arena_report import ArenaResult, Pair, Sprt
from ._xueliu import (
    HAND_STAT_NAMES,
    ArgumentError,
    Comparison,
    Game,
    Rules,
    SimulationResult,
    _arena_hands,
    _hand_stats,
)
from ._xueliu import compare_bots as _compare_bots
from ._xueliu import simulate as _simulate

__all__ = ["Played", "arena", "compare_bots", "seatings", "simulate"]

Seating = tuple[int, ...]  # the bot index in each of the four seats


def seatings(bots: int) -> list[Seating]:
    """The seatings each deal is played in, by bot index. Two bots: bot 0 alone against three of
    bot 1, in each seat in turn (``compare_bots``' four games). Three: every order in which each
    bot holds one or two seats (36: each bot doubled in turn, all 12 orders of each). Four: all 24
    orders. More: every pair's two-bot seatings (a round robin)."""
    if bots < 2:
        raise ArgumentError(f"an arena needs at least 2 bots; got {bots}")
    if bots == 2:
        return [tuple(0 if s == k else 1 for s in range(4)) for k in range(4)]
    if bots in (3, 4):
        orders = itertools.product(range(bots), repeat=4)
        return [o for o in orders if len(set(o)) == bots]
    pairs = itertools.combinations(range(bots), 2)
    return [tuple(i if s == k else j for s in range(4)) for i, j in pairs for k in range(4)]


@dataclass
class _Plan:
    """What every shard plays: picklable, so worker processes build their own players from it."""

    rules: Rules
    seed: int
    bots: list[Any]  # each a built-in name, a ProcessBot or an in-process bot
    names: list[str]
    seatings: list[Seating]


@dataclass
class Shard:
    """Deals ``first .. first + len(hands)`` played: the stats of every seat of every hand
    (``int64[deals, seatings, 4, stats]``) and each bot's decision counts."""

    first: int
    hands: np.ndarray
    counts: list[pl.Counts] = field(default_factory=list)


class _Table:
    """One process's players: a player per bot and seat (a bot may hold three seats at once,
    and a process bot needs a process per seat), kept across the shards this process plays."""

    def __init__(self, plan: _Plan) -> None:
        self.plan = plan
        _simulate(0, plan.rules)  # the analysis tables, built now rather than in a bot's first decision
        self.by_seat = [[pl.player(bot).clone() for _ in range(4)] for bot in plan.bots]
        self.python_seatings = [
            k for k, s in enumerate(plan.seatings) if not all(isinstance(plan.bots[b], str) for b in s)
        ]

    def play(self, first: int, deals: int) -> Shard:
        plan = self.plan
        builtin = [k for k in range(len(plan.seatings)) if k not in self.python_seatings]
        hands = np.zeros((deals, len(plan.seatings), 4, len(HAND_STAT_NAMES)), dtype=np.int64)
        if builtin:
            names = [[plan.bots[b] for b in plan.seatings[k]] for k in builtin]
            hands[:, builtin] = _arena_hands(plan.rules, names, plan.seed, first, deals)
        for d in range(deals):
            deal_seed = pl.game_seed(plan.seed, first + d)
            for k in self.python_seatings:
                game = Game(plan.rules, seed=deal_seed)
                pl.play_hand(game, [self.by_seat[b][s] for s, b in enumerate(plan.seatings[k])])
                hands[d, k] = _hand_stats(game)
        counts = [_take_counts(row) for row in self.by_seat]
        return Shard(first, hands, counts)

    def close(self) -> None:
        for row in self.by_seat:
            for p in row:
                p.close()


def _take_counts(players: Sequence[pl.Player]) -> pl.Counts:
    """The players' counts summed, and theirs started afresh (each shard reports its own)."""
    total = pl.Counts()
    for p in players:
        total, p.counts = total.merge(p.counts), pl.Counts()
    return total


def _play_shard(plan: _Plan, first: int, deals: int) -> Shard:
    """A worker's job: the shard's deals with players of its own, closed at the end."""
    table = _Table(plan)
    try:
        return table.play(first, deals)
    finally:
        table.close()


def _label(bot: Any) -> str:
    if isinstance(bot, str):
        return pl.Builtin(bot).name
    return pl.player(bot).name if not isinstance(bot, pl.Player) else bot.name


def arena(
    bots: Union[Sequence[Any], Mapping[str, Any]],
    deals: int = 1000,
    rules: Any = "chengdu",
    *,
    seed: int = 0,
    first_deal: int = 0,
    sprt: Optional[Sprt] = None,
    executor: Any = None,
    shards: Optional[int] = None,
    progress: Optional[Callable[[ArenaResult], None]] = None,
    command: str = "",
) -> ArenaResult:
    """Rates ``bots`` against each other on ``deals`` duplicate deals (docs/bot-protocol.md, "The
    arena"). ``bots``: built-in names (``"greedy"``, ``"ismcts:100"``), :class:`~xueliu.ProcessBot`
    s and in-process bots (``choose(game, seat)`` or a callable), as a list or a ``{name: bot}``
    mapping. ``sprt`` (:class:`Sprt`) stops as soon as it decides between the first two bots.
    ``executor`` (``xueliu.shards.Processes(n)`` or ``shards.Ray()``) plays shards of deals
    elsewhere; the result is the same. ``progress`` is called with the result so far after each
    shard."""
    named = dict(bots) if isinstance(bots, Mapping) else {_label(b): b for b in bots}
    if len(named) != (len(bots)):
        raise ArgumentError(f"two bots share a name; give them names with a mapping: {list(named)}")
    if deals < 1:
        raise ArgumentError(f"deals must be at least 1; got {deals}")
    rules = rules if isinstance(rules, Rules) else Rules.preset(rules)
    names = list(named)
    plan = _Plan(rules, seed, list(named.values()), names, seatings(len(names)))
    result = ArenaResult.empty(plan.names, plan.seatings, rules, seed, first_deal, sprt, command)
    for part in _run(plan, deals, first_deal, executor, shards):
        result = result.extend(part)
        if progress is not None:
            progress(result)
        if result.decided:
            break
    return result.finished()


#: Seconds of play a chunk of deals aims at in one process: a progress bar moves, SPRT looks often.
CHUNK_SECONDS = 0.25


def _chunks(table: _Table, deals: int, first: int, shards: Optional[int]) -> Iterator[Shard]:
    """Consecutive chunks of deals played here: ``shards`` equal ones, or ones sized from the
    last chunk's speed to take about CHUNK_SECONDS each (the first is one deal)."""
    from .shards import plan as ranges

    if shards is not None:
        for start, n in ranges(deals, shards, first_game=first):
            yield table.play(start, n)
        return
    done, size = 0, 1
    while done < deals:
        n = min(size, deals - done)
        started = time.perf_counter()
        yield table.play(first + done, n)
        done += n
        size = max(1, min(4 * n, int(n * CHUNK_SECONDS / max(time.perf_counter() - started, 1e-6))))


def _run(plan: _Plan, deals: int, first: int, executor: Any, shards: Optional[int]) -> Iterator[Shard]:
    """Shards in deal order, from this process or an executor (reordered as they come back)."""
    from .shards import plan as ranges

    if executor is None:
        table = _Table(plan)
        try:
            yield from _chunks(table, deals, first, shards)
        finally:
            table.close()
        return
    jobs = [(plan, start, n) for start, n in ranges(deals, shards or 8 * executor.workers, first_game=first)]
    waiting: dict[int, Shard] = {}
    expect = first
    results = executor.run(_play_shard, jobs)
    try:
        for shard in results:
            waiting[shard.first] = shard
            while expect in waiting:
                ready = waiting.pop(expect)
                expect += len(ready.hands)
                yield ready
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()


@overload
def compare_bots(
    a: str, b: str, games: int, rules: Any = None, *, seed: int = 0, threads: int = 0, first_game: int = 0
) -> Comparison: ...
@overload
def compare_bots(
    a: Any, b: Any, games: int, rules: Any = None, *, seed: int = 0, threads: int = 0, first_game: int = 0
) -> Union[Comparison, Pair]: ...
def compare_bots(
    a: Any, b: Any, games: int, rules: Any = None, *, seed: int = 0, threads: int = 0, first_game: int = 0
) -> Union[Comparison, Pair]:
    """Duplicate evaluation of bot ``a`` against bot ``b`` (docs/bots.md): each deal played four
    times, ``a`` in each seat in turn and ``b`` in the other three. Two built-in names play in
    Rust across ``threads`` and give a :class:`Comparison`; any other bot (an object with
    ``choose(game, seat)``, a callable, a :class:`~xueliu.ProcessBot`) plays the same games
    through the arena and gives its :class:`Pair`, read the same way (``mean``, ``std_error``,
    ``ci_low``, ``ci_high``, ``games``)."""
    if isinstance(a, str) and isinstance(b, str):
        return _compare_bots(a, b, games, rules, seed=seed, threads=threads, first_game=first_game)
    result = arena({"a": a, "b": b}, games, "chengdu" if rules is None else rules, seed=seed, first_deal=first_game)
    return result.pair(0, 1)


@dataclass
class Played:
    """``simulate`` with bots played from Python: every game's points (``int64[games, 4]``), the
    arena's per-seat figures of each hand (``hands``: ``int64[games, 4, len(HAND_STAT_NAMES)]``),
    wins per seat, and each seat's decision counts and failures."""

    games: int
    bots: list[str]
    seed: int
    first_game: int
    points: np.ndarray
    hands: np.ndarray
    counts: list[pl.Counts]

    @property
    def wins(self) -> list[int]:
        """Wins per seat (a 血流 seat may win several times a hand)."""
        return [int(n) for n in self.hands[:, :, HAND_STAT_NAMES.index("wins")].sum(axis=0)]


@overload
def simulate(
    games: int,
    rules: Any = None,
    *,
    bots: Union[str, Sequence[str], None] = None,
    seed: int = 0,
    threads: int = 0,
    first_game: int = 0,
    logs: bool = False,
) -> SimulationResult: ...
@overload
def simulate(
    games: int,
    rules: Any = None,
    *,
    bots: Any = None,
    seed: int = 0,
    threads: int = 0,
    first_game: int = 0,
    logs: bool = False,
) -> Union[SimulationResult, Played]: ...
def simulate(
    games: int,
    rules: Any = None,
    *,
    bots: Any = None,
    seed: int = 0,
    threads: int = 0,
    first_game: int = 0,
    logs: bool = False,
) -> Union[SimulationResult, Played]:
    """Plays ``games`` hands with four bots (docs/bots.md). Built-in names play in Rust across
    ``threads`` and give a :class:`SimulationResult`; with any other bot (an object with
    ``choose(game, seat)``, a callable, a :class:`~xueliu.ProcessBot`) in a seat, the same games
    (game ``i`` dealt from ``game_seed(seed, i)``, seat bots seeded alike) are played from Python
    and give a :class:`Played`."""
    seats = [bots] * 4 if bots is None or isinstance(bots, str) or not isinstance(bots, Sequence) else list(bots)
    if all(b is None or isinstance(b, str) for b in seats):
        return _simulate(games, rules, bots=bots, seed=seed, threads=threads, first_game=first_game, logs=logs)
    if len(seats) != 4 or logs:
        raise ArgumentError("bots played from Python: give four bots, one per seat (and no logs=: use events)")
    rules = Rules.preset("chengdu") if rules is None else rules if isinstance(rules, Rules) else Rules.preset(rules)
    players = [pl.player(b).clone() for b in seats]
    hands = np.zeros((games, 4, len(HAND_STAT_NAMES)), dtype=np.int64)
    try:
        for i in range(games):
            game = Game(rules, seed=pl.game_seed(seed, first_game + i))
            pl.play_hand(game, players)
            hands[i] = _hand_stats(game)
    finally:
        for p in players:
            p.close()
    names = [p.name for p in players]
    points = hands[:, :, HAND_STAT_NAMES.index("points")].copy()
    return Played(games, names, seed, first_game, points, hands, [p.counts for p in players])
