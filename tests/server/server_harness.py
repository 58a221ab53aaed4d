"""Drives a :class:`xueliu.server.Table` without a network: collects each viewer's messages and
answers requests like a player would (shared by the table-server tests)."""

from __future__ import annotations

from typing import Any, Callable, Optional

import orjson

from xueliu.server import FakeClock, Table, TableConfig
from xueliu.server.table import SPECTATORS


def simple_choice(request: dict[str, Any]) -> str:
    """Win when offered, else the request's default: deterministic, and it ends every hand."""
    return "win" if "win" in request["actions"] else request["default"]


class Harness:
    def __init__(self, settings: Optional[dict[str, Any]] = None, *, seats: int = 4) -> None:
        settings = {"seed": 7, "hands": 2, "next_hand_delay": 0, **(settings or {})}
        self.clock = FakeClock()
        self.table = Table("t", TableConfig.parse(settings), self.clock)
        self.inbox: dict[int, list[dict[str, Any]]] = {v: [] for v in range(5)}
        self.tokens: dict[int, str] = {}
        self.decisions: list[dict[str, Any]] = []
        self.table.begin()
        self.drain()
        for seat in range(4):
            if self.table.config.seats[seat] == "person":
                self.tokens[seat] = self.table.join(seat)
                self.table.connect(seat)
                self.drain()

    def drain(self) -> None:
        while self.table.resume_due:  # the bots yielded; a server resumes on its next turn
            self.table.resume()
        for viewer, message in self.table.outbox + self.table.scored_requests():  # as the server sends them
            self.inbox[viewer].append(orjson.loads(orjson.dumps(message)))
        self.table.outbox = []
        self.decisions += self.table.accepted
        self.table.accepted = []
        answered = [(d["hand"], d["decision"], d["seat"]) for d in self.decisions]
        assert len(answered) == len(set(answered)), "a seat answered one decision twice"

    def pending(self) -> dict[int, dict[str, Any]]:
        """Each person seat's open request, from the messages it was sent."""
        out = {}
        for seat in range(4):
            request = None
            for m in self.inbox[seat]:
                if m["type"] == "request":
                    request = m
                elif m["type"] == "accepted" and request is not None and m["decision"] == request["decision"]:
                    request = None
            if request is not None and request["decision"] == self.table.step:
                out[seat] = request
        return out

    def act(self, seat: int, decision: Any, action: Any) -> None:
        try:
            self.table.act(seat, decision, action)
        finally:
            self.drain()

    def play(self, choose: Callable[[dict[str, Any]], str] = simple_choice, *, limit: int = 100_000) -> None:
        """Answers every request until the match is over."""
        for _ in range(limit):
            if self.table.status == "over":
                return
            if self.table.status == "between":
                self.advance(self.table.config.next_hand_delay)
                continue
            pending = self.pending()
            assert pending, "the table waits on nobody"
            for seat, request in sorted(pending.items()):
                self.act(seat, request["decision"], choose(request))
        raise AssertionError("the match did not end")

    def advance(self, seconds: float) -> None:
        self.clock.advance(seconds)
        self.table.wake()
        self.drain()

    def events(self, viewer: int, hand: Optional[int] = None) -> list[dict[str, Any]]:
        """The events a viewer was sent for one hand (the last by default), checking their numbers."""
        messages = [m for m in self.inbox[viewer] if m["type"] == "events"]
        if hand is None:
            hand = max((m["hand"] for m in messages), default=0)
        out: list[dict[str, Any]] = []
        for m in messages:
            if m["hand"] == hand:
                assert m["n"] == len(out), "events numbered without gap or repeat"
                out += m["events"]
        return out


def spectator(h: Harness) -> list[dict[str, Any]]:
    return h.inbox[SPECTATORS]
