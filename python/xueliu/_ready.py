"""听牌: what a seat's ready hand waits on, how many of each tile it has not seen, and what each
win is worth, for ``xueliu play``. The engine answers (``_ready_waits``, as it does for the web
table's requests) from what the seat may see: its own hand and melds, and the table's public
tiles (every river, every meld, every win's tile the seat saw)."""

from __future__ import annotations

from dataclasses import dataclass

from ._xueliu import Game, _ready_waits


@dataclass(frozen=True)
class Wait:
    """One tile a ready hand waits on: ``unseen`` copies of it are in the wall or other hands as
    far as the seat knows, and winning on it is worth at least ``pattern`` at ``fan`` (capped) for
    ``points`` (查叫: the pattern, roots and the seat's own kongs; a situational bonus such as 自摸
    adds to it)."""

    tile: str
    unseen: int
    pattern: str
    fan: int
    points: int


def waits(game: Game, seat: int) -> list[Wait]:
    """The waits of ``seat``'s hand when it is ready (13 tiles less 3 per meld), else none."""
    return [Wait(*wait) for wait in _ready_waits(game, seat)]
