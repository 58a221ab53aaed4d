"""Every seat's tiles, followed event by event through a game's log (``game.events``).

``xueliu replay`` shows hands while it steps through a log; the log records what changes them
(deals, the exchange, draws, discards, claims and wins), so the hands are rebuilt from it alone.
The protocol's readings matter here: a winning tile is set aside (it leaves the hand), a robbed
kong turns back into the pong it was added to and loses its tile.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from ._xueliu import Tile

Event = dict[str, Any]


@dataclass
class Seat:
    """What one seat holds: concealed tiles (sorted indices), melds as ``(kind, tile)``, its void."""

    hand: list[int] = field(default_factory=list)
    melds: list[tuple[str, int]] = field(default_factory=list)
    void: Optional[str] = None
    won: int = 0
    score: int = 0


class Tracker:
    """The four seats' tiles after each event applied so far."""

    def __init__(self) -> None:
        self.seats = [Seat() for _ in range(4)]

    def apply(self, event: Event) -> None:
        """Applies one event; events that change no tiles (dice, pass, beaten) are ignored."""
        handler = getattr(self, "_" + event["type"], None)
        if handler is not None:
            handler(event)

    def _deal(self, e: Event) -> None:
        self.seats[e["seat"]].hand = sorted(_tiles(e["tiles"] or []))
        self.seats[e["seat"]].melds = []

    def _exchange(self, e: Event) -> None:
        for seat, (given, received) in enumerate(zip(e["given"], e["received"])):
            for t in _tiles(given or []):
                self._take(seat, t)
            for t in _tiles(received or []):
                self._give(seat, t)

    def _void(self, e: Event) -> None:
        self.seats[e["seat"]].void = e["suit"]

    def _draw(self, e: Event) -> None:
        if e["tile"] is not None:
            self._give(e["seat"], Tile(e["tile"]).index)

    def _discard(self, e: Event) -> None:
        self._take(e["seat"], Tile(e["tile"]).index)

    def _pong(self, e: Event) -> None:
        t = Tile(e["tile"]).index
        self._take(e["seat"], t, 2)
        self.seats[e["seat"]].melds.append(("pong", t))

    def _kong(self, e: Event) -> None:
        seat, t, kind = e["seat"], Tile(e["tile"]).index, e["kind"]
        melds = self.seats[seat].melds
        if kind == "added":
            self._take(seat, t)
            melds[melds.index(("pong", t))] = ("kong", t)
        else:
            self._take(seat, t, 3 if kind == "direct" else 4)
            melds.append(("kong" if kind == "direct" else "concealed_kong", t))

    def _robbed(self, e: Event) -> None:
        """The robbed kong's tile goes to the robber: an added kong is a pong again, a concealed
        one (``rob_concealed_kong``) three tiles in hand."""
        seat, t = e["seat"], Tile(e["tile"]).index
        melds = self.seats[seat].melds
        if ("kong", t) in melds:
            melds[melds.index(("kong", t))] = ("pong", t)
        elif ("concealed_kong", t) in melds:
            melds.remove(("concealed_kong", t))
            for _ in range(3):
                self._give(seat, t)

    def _win(self, e: Event) -> None:
        seat = self.seats[e["seat"]]
        if e["hand"] is not None:
            seat.hand = sorted(_tiles(e["hand"]))
        seat.won += 1

    def _payment(self, e: Event) -> None:
        self.seats[e["payer"]].score -= e["amount"]
        self.seats[e["payee"]].score += e["amount"]

    def _give(self, seat: int, tile: int) -> None:
        self.seats[seat].hand.append(tile)
        self.seats[seat].hand.sort()

    def _take(self, seat: int, tile: int, copies: int = 1) -> None:
        hand = self.seats[seat].hand
        for _ in range(copies):
            if tile in hand:  # hidden logs hold no tiles to take
                hand.remove(tile)


def _tiles(names: list[str]) -> list[int]:
    return [Tile(n).index for n in names]
