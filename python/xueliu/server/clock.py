"""Clocks for the table server: the time now and a callback at a time.

Deadlines are wall-clock seconds (``time.time()``), so a restored table can still name them. The
server takes a clock so that tests drive time by hand (:class:`FakeClock`) and never sleep.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from typing import Callable, Protocol


class Timer(Protocol):
    def cancel(self) -> None: ...


class Clock(Protocol):
    def now(self) -> float: ...

    def call_at(self, when: float, callback: Callable[[], None]) -> Timer:
        """Runs ``callback`` (in the event loop's thread) at ``when`` or soon after."""
        ...


class SystemClock:
    """The real time; callbacks run on the running asyncio loop."""

    def now(self) -> float:
        return time.time()

    def call_at(self, when: float, callback: Callable[[], None]) -> Timer:
        return asyncio.get_running_loop().call_later(max(0.0, when - time.time()), callback)


class _FakeTimer:
    __slots__ = ("cancelled",)

    def __init__(self) -> None:
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class FakeClock:
    """Time that moves only when :meth:`advance` is called; due callbacks run inside ``advance``,
    in deadline order (call it on the server's loop, e.g. through the test client's portal)."""

    def __init__(self, start: float = 1_000_000.0) -> None:
        self._now = start
        self._queue: list[tuple[float, int, _FakeTimer, Callable[[], None]]] = []
        self._order = itertools.count()

    def now(self) -> float:
        return self._now

    def call_at(self, when: float, callback: Callable[[], None]) -> Timer:
        timer = _FakeTimer()
        heapq.heappush(self._queue, (when, next(self._order), timer, callback))
        return timer

    def advance(self, seconds: float) -> None:
        target = self._now + seconds
        while self._queue and self._queue[0][0] <= target:
            when, _, timer, callback = heapq.heappop(self._queue)
            if not timer.cancelled:
                self._now = max(self._now, when)
                callback()
        self._now = target
