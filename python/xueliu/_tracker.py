"""Every seat's tiles, followed event by event through a game's log (``game.events``).

``xueliu replay`` shows hands while it steps through a log; the log records what changes them
(deals, the exchange, draws, discards, claims and wins), so the hands are rebuilt from it alone.
The protocol's readings matter here: a winning tile is set aside (it leaves the hand), a robbed
kong turns back into the pong it was added to and loses its tile. With 幺鸡 (§11) a meld takes
natural copies first and wilds (``1s``) for the rest, as its event's ``wilds`` field counts, and
a ``swap`` trades a natural tile in hand for one of its kong's wilds.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from ._xueliu import Tile

Event = dict[str, Any]
WILD = 18  # 1s: a wild in 幺鸡 games


@dataclass
class Seat:
    """What one seat holds: concealed tiles (sorted indices), melds as ``[kind, tile, wilds]``
    (kind ``pong``, ``kong`` or ``concealed_kong``; ``wilds`` of its tiles are 幺鸡), its void."""

    hand: list[int] = field(default_factory=list)
    melds: list[list[Any]] = field(default_factory=list)
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
        seat, t, wilds = e["seat"], Tile(e["tile"]).index, e.get("wilds", 0)
        self._take(seat, t, 2 - wilds)
        self._take(seat, WILD, wilds)
        self.seats[seat].melds.append(["pong", t, wilds])

    def _kong(self, e: Event) -> None:
        seat, t, kind, wilds = e["seat"], Tile(e["tile"]).index, e["kind"], e.get("wilds", 0)
        if kind == "added":
            meld = self._meld(seat, t)
            self._take(seat, WILD if wilds > meld[2] else t)
            meld[0], meld[2] = "kong", wilds
            return
        held = 3 if kind == "direct" else 4
        self._take(seat, t, held - wilds)
        self._take(seat, WILD, wilds)
        self.seats[seat].melds.append(["kong" if kind == "direct" else "concealed_kong", t, wilds])

    def _robbed(self, e: Event) -> None:
        """The robbed kong's natural tile goes to the robber: an added kong is a pong again (its
        wilds stay), a concealed one (``rob_concealed_kong``) gives its other three tiles back."""
        seat, t = e["seat"], Tile(e["tile"]).index
        meld = self._meld(seat, t)
        if meld[0] == "kong":
            meld[0] = "pong"
        else:
            self.seats[seat].melds.remove(meld)
            for tile in [t] * (3 - meld[2]) + [WILD] * meld[2]:
                self._give(seat, tile)

    def _swap(self, e: Event) -> None:
        seat, t = e["seat"], Tile(e["tile"]).index
        self._meld(seat, t)[2] -= 1
        self._take(seat, t)
        self._give(seat, WILD)

    def _win(self, e: Event) -> None:
        seat = self.seats[e["seat"]]
        if e["hand"] is not None:
            seat.hand = sorted(_tiles(e["hand"]))
        seat.won += 1

    def _payment(self, e: Event) -> None:
        self.seats[e["payer"]].score -= e["amount"]
        self.seats[e["payee"]].score += e["amount"]

    def _meld(self, seat: int, tile: int) -> list[Any]:
        """The seat's meld of ``tile``: a seat never holds two melds of one tile."""
        return next(m for m in self.seats[seat].melds if m[1] == tile)

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
