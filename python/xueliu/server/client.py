"""A minimal seat client over WebSockets, as a developer would write one (docs/server.md): it
keeps its event stream, resumes it after a dropped connection (at the table's new address when
another server process took the table over), and answers each request with ``choose``. The
crash-safety and failover tests play with it.

Needs the ``websockets`` package (uvicorn's standard extra brings it).
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any, Callable, Iterable, Optional

import websockets
import websockets.exceptions

UNAVAILABLE_PAUSE = 1.0  # seconds before coming back to a server whose storage is failing


def simple_choice(request: dict[str, Any]) -> str:
    """Win when offered, else the request's default: deterministic, and every hand ends."""
    return "win" if "win" in request["actions"] else request["default"]


class SeatClient:
    """Plays one seat until the match is over, reconnecting (and resuming) when the server goes."""

    def __init__(
        self,
        url: str,
        token: str,
        choose: Callable[[dict[str, Any]], str] = simple_choice,
        *,
        on_broadcast: Optional[Callable[[float], None]] = None,
        servers: Iterable[str] = (),
    ) -> None:
        self.url, self.token, self.choose = url, token, choose
        # other server processes on the same database (their http://host:port), tried in turn
        # while this one is unreachable: whichever holds the table plays it, the others send us there
        self.servers = list(dict.fromkeys([_base(url), *(s.replace("http", "ws", 1) for s in servers)]))
        self.accepted: list[dict[str, Any]] = []  # every `accepted` this seat was sent
        self.hand = 0
        self.events: list[dict[str, Any]] = []
        self.totals: Optional[list[int]] = None
        self.results: dict[int, list[int]] = {}
        self.on_broadcast = on_broadcast  # called with seconds from an answer to its accepted
        self._retry_for = 30.0  # play()'s: seconds of retries allowed after the last welcome
        self._give_up = 0.0  # when retrying stops (monotonic seconds)
        self._sent_at: dict[int, float] = {}

    async def play(self, *, retry_for: float = 30.0) -> list[int]:
        """Plays to the match's end; a dropped connection is retried for ``retry_for`` seconds after
        the last welcome (a session cut by a killed server raises, so the count starts at the
        welcome, not at the session's end)."""
        self._retry_for = retry_for
        self._give_up = time.monotonic() + retry_for
        while self.totals is None:
            try:
                async with websockets.connect(self.url, open_timeout=5, max_size=1 << 22) as ws:
                    await self._session(ws)
            except (OSError, EOFError, asyncio.TimeoutError, websockets.exceptions.WebSocketException):
                # the server is gone, or went mid-handshake: try again until retry_for runs out
                if time.monotonic() > self._give_up:
                    raise
                self._go(self.servers[(self.servers.index(_base(self.url)) + 1) % len(self.servers)])
                await asyncio.sleep(0.05)
        return self.totals

    def _go(self, base: str) -> None:
        """Plays on at another server process (``ws://host:port``)."""
        self.url = base + "/" + self.url.split("://", 1)[1].split("/", 1)[1]
        if base not in self.servers:
            self.servers.append(base)

    async def _session(self, ws: Any) -> None:
        """Plays over one connection until it closes."""
        await ws.send(json.dumps({"type": "hello", "token": self.token, "hand": self.hand, "from": len(self.events)}))
        async for text in ws:
            m = json.loads(text)
            kind = m["type"]
            if kind == "welcome":
                self._give_up = time.monotonic() + self._retry_for
                if m["n"] == 0:  # the whole hand again (a new hand, or a resume point it did not keep)
                    self.events = []
                self._events(m["hand"], m["n"], m["events"])
                if m["request"] is not None:
                    await self._answer(ws, m["request"])
            elif kind == "events":
                self._events(m["hand"], m["n"], m["events"])
            elif kind == "request":
                await self._answer(ws, m)
            elif kind == "accepted":
                self.accepted.append(m)
                sent = self._sent_at.pop(m["decision"], None)
                if sent is not None and self.on_broadcast is not None:
                    self.on_broadcast(time.perf_counter() - sent)
            elif kind == "hand_over":
                self.results[m["hand"]] = m["scores"]
            elif kind == "match_over":
                self.totals = m["totals"]
                return
            elif kind == "error" and m["code"] == "unavailable":
                # the server's storage is failing and it changes nothing meanwhile: come back later
                # (the welcome then gives the open request again)
                await asyncio.sleep(UNAVAILABLE_PAUSE)
                return
            elif kind == "error" and m["code"] == "moved":  # another process plays the table: go there
                self._go(m["address"].replace("http", "ws", 1))
                return
            elif kind == "error" and m["code"] != "stale":
                raise RuntimeError(f"server refused: {m}")

    def _events(self, hand: int, n: int, events: list[dict[str, Any]]) -> None:
        if hand != self.hand:
            self.hand, self.events = hand, []
        if n != len(self.events):
            raise RuntimeError(f"event {n} arrived, {len(self.events)} expected")
        self.events += events

    async def _answer(self, ws: Any, request: dict[str, Any]) -> None:
        self._sent_at[request["decision"]] = time.perf_counter()
        await ws.send(json.dumps({"type": "act", "decision": request["decision"], "action": self.choose(request)}))


def _base(url: str) -> str:
    """``ws://host:port`` of a socket's URL."""
    scheme, rest = url.split("://", 1)
    return f"{scheme}://{rest.split('/', 1)[0]}"
