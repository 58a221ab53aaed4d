"""The server's ladder: bot accounts, a validation game, and a ranked queue per preset whose
sets of duplicate games rate every bot on one scale with the reference bots (docs/ladder.md).

A bot connects over a WebSocket (:mod:`.ladder_routes`) and speaks the bot protocol v1
(docs/bot-protocol.md) exactly as a process does over stdin/stdout: :class:`SocketBot` is a
:class:`~xueliu.players.LineBot` whose lines travel over the socket, so requests, acks, defaults
and counts are the arena's. Games are played by :func:`xueliu.players.play_hand` on a worker
thread (at most ``LadderConfig.max_sets`` at once), which waits on the socket's lines with the
protocol's deadlines; the event loop only moves lines and keeps the queue.

A ranked set is one deal played four times, the four bots rotated through the seats, so each
meets the same tiles from every seat; a bot's result is its mean points per game. Waiting bots
are matched four at a time; a queue shorter than four for ``fill_seconds`` is filled with
reference bots (:data:`xueliu.ladder.REFERENCE_BOTS`). After each set the preset's ratings are
fitted again to every set stored, by the arena's least squares (pair margins, anchored at
``random`` = 0), and stored with the set in one transaction.
"""

from __future__ import annotations

import asyncio
import functools
import hmac
import itertools
import logging
import math
import queue
import re
import secrets
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Optional

from .. import bot_protocol as proto
from .. import players as pl
from .._arena_report import Pair, fit_ratings
from .._xueliu import Action, Game, Match, Rules
from ..ladder import REFERENCE_BOTS, reference_names
from .ladder_store import LadderStore, PlayedSet
from .ladder_tables import LadderTable
from .table import TableError, hash_token

if TYPE_CHECKING:
    from .hub import Server

log = logging.getLogger("xueliu.server")

BOT_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,23}")  # an account's name: 1-24 of these
MAX_WAITING_LINES = 256  # lines from a bot not yet read: past this, its further lines are dropped


@dataclass(frozen=True)
class LadderConfig:
    """What an operator sets for the ladder."""

    fill_seconds: float = 30.0  # a ranked queue shorter than four waits this long, then reference bots fill it
    time_ms: int = 5000  # wall time per decision for a connected bot
    max_bots: int = 10_000  # accounts
    max_sets: int = 4  # sets (and validation games) played at once, each on a thread of its own
    validation_bots: tuple[str, ...] = ("greedy", "ismcts:25", "random")  # the validation game's other seats
    spectator_delay: float = 0.0  # seconds spectators of a ranked game's table see it late (docs/server.md)


class LadderError(Exception):
    """A refused ladder request; ``code`` as the table server's error codes."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class SocketBot(pl.LineBot):
    """A bot connected over a WebSocket. The event loop feeds what the bot writes (:meth:`feed`,
    :meth:`hang_up`); the game's thread reads it with the protocol's deadlines, and writes through
    ``send`` (called on the loop: one message per line)."""

    def __init__(self, name: str, time_ms: int, loop: asyncio.AbstractEventLoop, send: Callable[[str], None]) -> None:
        super().__init__(name, time_ms)
        self._loop, self._send_text = loop, send
        self._lines: queue.Queue[Optional[bytes]] = queue.Queue()
        self._closed = False

    def feed(self, text: str) -> None:
        """A message from the bot: one line or several (a line past MAX_LINE is cut, and reads as unparseable)."""
        for line in text.split("\n"):
            if line.strip() and self._lines.qsize() < MAX_WAITING_LINES:
                self._lines.put(line.encode()[: proto.MAX_LINE])

    def hang_up(self) -> None:
        """The socket closed: every later read and write finds the bot gone."""
        self._closed = True
        self._lines.put(None)

    @property
    def _gone(self) -> bool:
        return self._closed

    def _write(self, data: bytes, deadline: float) -> bool:
        for line in data.decode().split("\n")[:-1]:  # each line ends in "\n"
            self._loop.call_soon_threadsafe(self._send_text, line)
        return True

    def _read_line(self, deadline: float) -> Optional[bytes]:
        if self._closed:
            return None
        try:
            line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            return None
        if line is None:
            self._lines.put(None)  # for the next read too
        return line

    def say(self, message: dict[str, Any]) -> None:
        """A message of the ladder's own (``validation``, ``rated``), sent now (on the loop)."""
        self._send_text(proto.encode(message).decode().rstrip("\n"))


def play_set(
    rules: Rules, seed: int, bots: list[pl.Player], moved: Optional[Callable[[int, int, Action], None]] = None
) -> list[float]:
    """One deal played four times, bot ``b`` in seat ``(b + r) % 4`` of game ``r``: each bot's
    mean points per game. The deal is a one-hand match's from ``seed`` (as a table deals it);
    ``moved(r, seat, action)`` hears each action of game ``r``."""
    points = [0.0] * 4
    for r in range(4):
        order = [(s - r) % 4 for s in range(4)]  # the bot in each seat
        game = Match(rules, seed=seed, hands=1).game
        pl.play_hand(game, [bots[b] for b in order], None if moved is None else functools.partial(moved, r))
        for s, b in enumerate(order):
            points[b] += game.scores[s] / 4
    return points


def validation_game(rules: Rules, seed: int, bot: pl.LineBot, others: tuple[str, ...]) -> dict[str, Any]:
    """One hand with ``bot`` in seat 0 and the reference ``others`` in the rest; every answer is
    checked. The report says whether it passed and, if not, what was wrong."""
    game = Game(rules, seed=seed)
    pl.play_hand(game, [bot, *(pl.Builtin(name) for name in others)])
    c = bot.counts
    counts = {"decisions": c.decisions, "defaulted": c.defaulted, "rejected": c.rejected}
    counts |= {"unparseable": c.unparseable, "stale": c.stale, "errors": c.errors}
    passed = c.decisions > 0 and c.failures == 0 and c.stale == 0 and c.errors == 0
    return {"type": "validation", "passed": passed, "counts": counts, "problems": list(bot.problems)}


def ratings(sets: list[PlayedSet]) -> tuple[dict[str, dict[str, float]], dict[str, int]]:
    """The ratings fitted to ``sets`` (the arena's least squares on pair margins, anchored at
    ``random``), and each bot's count of sets. A pair's standard error is the spread of every
    margin of the preset over the root of the pair's count (one set alone has no spread of its own)."""
    margins: dict[tuple[str, str], list[float]] = {}
    played: dict[str, int] = {}
    for s in sets:
        for name in s.bots:
            played[name] = played.get(name, 0) + 1
        for i, j in itertools.combinations(range(4), 2):
            a, b = sorted((s.bots[i], s.bots[j]))
            sign = 1 if a == s.bots[i] else -1
            margins.setdefault((a, b), []).append(sign * (s.points[i] - s.points[j]))
    every = [m for values in margins.values() for m in values]
    mean = sum(every) / len(every) if every else 0.0
    spread = math.sqrt(sum((m - mean) ** 2 for m in every) / (len(every) - 1)) if len(every) > 1 else 1.0
    pairs = []
    for (a, b), values in margins.items():
        n = len(values)
        pairs.append(Pair(a, b, n, sum(values) / n, max(spread, 1e-6) / math.sqrt(n), spread))
    names = sorted(played, key=lambda name: (name != "random", name))
    return (fit_ratings(names, pairs) if pairs else {}), played


@dataclass
class _Waiting:
    bot: SocketBot
    since: float
    done: "asyncio.Future[dict[str, Any]]"


@dataclass
class Ladder:
    """Accounts, queues and sets of one server process (see the module docstring)."""

    store: LadderStore
    config: LadderConfig = field(default_factory=LadderConfig)
    tables: Optional["Server"] = None  # the server whose tables show the ranked games (create_app sets it)

    def __post_init__(self) -> None:
        self.pool = ThreadPoolExecutor(self.config.max_sets, thread_name_prefix="xueliu-ladder")
        self.queues: dict[str, list[_Waiting]] = {}
        self.connected: set[str] = set()  # accounts with a socket open: one each
        self.timers: dict[str, asyncio.TimerHandle] = {}
        self.playing: set[asyncio.Future[None]] = set()  # sets being played: held, or the loop may drop them

    # ---------------------------------------------------------------- accounts

    def create_bot(self, name: Any) -> str:
        """A new account's secret token (kept only as its digest); :class:`LadderError` for a
        bad or taken name, or when the server holds ``max_bots`` accounts."""
        if not isinstance(name, str) or not BOT_NAME.fullmatch(name):
            raise LadderError(
                "bad_name", "a bot's name is 1-24 letters, digits, '_', '.' or '-', starting with a letter or digit"
            )
        if name in reference_names():
            raise LadderError("name_taken", f"{name!r} is a reference bot's name")
        if self.store.bots() >= self.config.max_bots:
            raise LadderError("full", f"this server holds at most {self.config.max_bots} bot accounts")
        token = secrets.token_urlsafe(24)
        if not self.store.add_bot(name, hash_token(token)):
            raise LadderError("name_taken", f"a bot named {name!r} exists already")
        return token

    def authenticate(self, name: Any, token: Any) -> bool:
        """Whether ``token`` is the account ``name``'s (compared as digests)."""
        account = self.store.account(name) if isinstance(name, str) else None
        digest = hash_token(token) if isinstance(token, str) else ""
        return account is not None and hmac.compare_digest(account.token, digest)

    # ---------------------------------------------------------------- games

    async def validate(self, bot: SocketBot, preset: str) -> dict[str, Any]:
        """Plays the bot's validation game, records its result on the account, and returns the report."""
        seed = secrets.randbits(63)
        loop = asyncio.get_running_loop()
        report = await loop.run_in_executor(
            self.pool, validation_game, Rules.preset(preset), seed, bot, self.config.validation_bots
        )
        report |= {"preset": preset, "seed": seed}
        self.store.validated(bot.name, preset, report["passed"], report)
        return report

    async def ranked(self, bot: SocketBot, preset: str) -> dict[str, Any]:
        """Queues the bot for one ranked set under ``preset``; the set's result once played."""
        loop = asyncio.get_running_loop()
        waiting = _Waiting(bot, loop.time(), loop.create_future())
        self.queues.setdefault(preset, []).append(waiting)
        self._match(preset)
        if self.queues.get(preset) and preset not in self.timers:
            self.timers[preset] = loop.call_later(self.config.fill_seconds, self._fill, preset)
        try:
            return await waiting.done
        finally:
            if waiting in self.queues.get(preset, []):
                self.queues[preset].remove(waiting)  # the socket went while it waited

    def _match(self, preset: str) -> None:
        waiting = self.queues.get(preset, [])
        while len(waiting) >= 4:
            four, waiting[:] = waiting[:4], waiting[4:]
            self._start(preset, four)

    def _fill(self, preset: str) -> None:
        """The queue waited ``fill_seconds``: reference bots take the empty seats."""
        self.timers.pop(preset, None)
        waiting = self.queues.get(preset, [])
        if not waiting:
            return
        loop = asyncio.get_running_loop()
        oldest = loop.time() - waiting[0].since
        if oldest < self.config.fill_seconds:
            self.timers[preset] = loop.call_later(self.config.fill_seconds - oldest, self._fill, preset)
            return
        taken, waiting[:] = waiting[:], []
        self._start(preset, taken)

    def _start(self, preset: str, entries: list[_Waiting]) -> None:
        task = asyncio.ensure_future(self._play(preset, entries))
        self.playing.add(task)
        task.add_done_callback(self.playing.discard)

    async def _play(self, preset: str, entries: list[_Waiting]) -> None:
        fills = [bot.name for bot in REFERENCE_BOTS if bot.fills][: 4 - len(entries)]
        bots: list[pl.Player] = [e.bot for e in entries] + [pl.Builtin(name) for name in fills]
        names = [bot.name for bot in bots]
        seed = secrets.randbits(63)
        try:
            loop = asyncio.get_running_loop()
            shown = self._tables(preset, seed, names)

            def moved(r: int, seat: int, action: Action) -> None:  # on the set's thread
                loop.call_soon_threadsafe(shown[r].play, seat, str(action))

            rules = Rules.preset(preset)
            try:
                points = await loop.run_in_executor(self.pool, play_set, rules, seed, bots, moved if shown else None)
            finally:
                for table in shown:  # only now may a table of the set end (.ladder_tables)
                    table.finish()
            played = PlayedSet(names, points)
            fitted, counts = ratings([*self.store.sets(preset), played])
            self.store.record(preset, seed, played, fitted, counts)
        except Exception as e:  # storage refusing: the set is lost, its bots are told and may queue again
            log.error("ladder set under %s lost: %s", preset, e)
            for entry in entries:
                if not entry.done.done():
                    entry.done.set_exception(LadderError("unavailable", f"the set could not be recorded: {e}"))
            return
        log.info("ladder set under %s: %s", preset, ", ".join(f"{n} {p:+.1f}" for n, p in zip(names, points)))
        for entry, mine in zip(entries, points):
            result = {"type": "rated", "preset": preset, "seed": seed, "bots": names, "points": points}
            result["tables"] = [t.id for t in shown]
            result |= {"mine": mine, "rating": fitted.get(entry.bot.name)}
            if not entry.done.done():
                entry.done.set_result(result)

    def _tables(self, preset: str, seed: int, names: list[str]) -> list[LadderTable]:
        """A table for each game of the set, game ``r`` seating bot ``b`` in seat ``(b + r) % 4``
        (:mod:`.ladder_tables`); none without a server, or when it holds no more tables."""
        if self.tables is None:
            return []
        delay = self.config.spectator_delay
        try:
            return [
                LadderTable(self.tables, preset, seed, [names[(s - r) % 4] for s in range(4)], delay) for r in range(4)
            ]
        except TableError as e:  # full or storage failing: the set is played all the same, unseen
            log.warning("ladder set under %s is not shown at tables: %s", preset, e)
            return []

    def close(self) -> None:
        for timer in self.timers.values():
            timer.cancel()
        self.pool.shutdown(wait=False, cancel_futures=True)
