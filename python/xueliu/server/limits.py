"""What an operator bounds: the server's limits, rates and allowed origins (docs/server.md,
"Limits"), and the two checks that enforce the rates and the origins.

:class:`Limits` is what ``xueliu serve`` and :func:`xueliu.server.create_app` take; :mod:`.app`
applies it where requests and messages come in. Nothing here knows of tables or sockets.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable, Optional
from urllib.parse import urlsplit

LOOPBACK = ("localhost", "127.0.0.1", "::1")


@dataclass(frozen=True)
class Limits:
    """The operator's options, with the defaults ``xueliu serve`` uses."""

    max_tables: int = 100_000  # live tables (waiting, playing or between hands) in one process
    creates_per_minute: float = 20.0  # new tables per client address (0: no limit)
    messages_per_second: float = 50.0  # WebSocket messages read per socket, past a burst of as many
    queue_bytes: int = 1 << 20  # text waiting for one socket, or for one table's delayed spectators
    hello_seconds: float = 30.0  # a socket must say a valid hello within this, however much it sends
    waiting_expiry: float = 3600.0  # seconds a table may wait for people to join
    origins: tuple[str, ...] = ()  # origins allowed besides the server's own and loopback; "*": any

    def __post_init__(self) -> None:
        if self.max_tables < 1 or self.queue_bytes < 1:
            raise ValueError("max_tables and queue_bytes must be positive")
        for name in ("creates_per_minute", "messages_per_second", "hello_seconds", "waiting_expiry"):
            if not getattr(self, name) >= 0:
                raise ValueError(f"{name} must be 0 or more")


class RateLimit:
    """A token bucket per key: ``rate`` tokens a second, at most ``burst`` held. ``rate`` 0 lets
    everything through. Keys whose bucket is full are forgotten once there are ``max_keys``, so
    many clients cost memory only while they are busy."""

    def __init__(
        self, rate: float, burst: float, *, now: Callable[[], float] = time.monotonic, max_keys: int = 10_000
    ) -> None:
        self.rate, self.burst, self.now, self.max_keys = rate, burst, now, max_keys
        self.buckets: dict[str, tuple[float, float]] = {}  # key: (tokens, when counted)

    def wait(self, key: str = "") -> float:
        """Takes a token for ``key``: 0 if there was one, else the seconds until there is (none taken)."""
        if self.rate <= 0:
            return 0.0
        now = self.now()
        tokens, then = self.buckets.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.rate)
        if tokens < 1:
            self.buckets[key] = (tokens, now)
            return (1 - tokens) / self.rate
        if key not in self.buckets and len(self.buckets) >= self.max_keys:
            self._forget_idle(now)
        self.buckets[key] = (tokens - 1, now)
        return 0.0

    def _forget_idle(self, now: float) -> None:
        full = [k for k, (tokens, then) in self.buckets.items() if tokens + (now - then) * self.rate >= self.burst]
        for key in full:
            del self.buckets[key]


def origin_allowed(origin: Optional[str], host: Optional[str], allowed: tuple[str, ...]) -> bool:
    """Whether a request from a page at ``origin`` may create, join or play (docs/server.md,
    "Origins"). No ``Origin`` header (a program, not a browser) passes; a browser page passes
    when it is the server's own (``host``, the request's Host header), on a loopback address, or
    listed in ``allowed`` ("*" lists every origin)."""
    if origin is None or "*" in allowed or origin in allowed:
        return True
    try:
        parts = urlsplit(origin)
    except ValueError:
        return False
    return parts.hostname in LOOPBACK or (host is not None and parts.netloc == host)
