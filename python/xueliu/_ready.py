"""听牌: what a seat's ready hand waits on, how many of each tile it has not seen, and what each
win is worth, for ``xueliu play`` and the web table. Only what the seat may see goes in: its own
hand and melds, and the table's public tiles (every river, every meld, every win's tile)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from ._xueliu import Game, Meld, Rules, Score, Tile, best_waits

WILD = 18  # 1s, a wild (幺鸡) when the rules have wilds


@dataclass(frozen=True)
class Wait:
    """One tile a ready hand waits on: ``unseen`` copies of it are in the wall or other hands as
    far as the seat knows, and winning on it is worth at least ``score`` (查叫: the pattern, roots
    and the seat's own kongs, capped; a situational bonus such as 自摸 adds to it)."""

    tile: str
    unseen: int
    score: Score


class Waits:
    """A table's 听牌 finder. A seat's waits change only when its hand, melds or void do, so
    ``best_waits`` runs once per such change, not on every discard the seat is asked about; the
    unseen counts are recounted each time (the rivers grow)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self._found: dict[int, tuple[Any, list[tuple[Tile, Score]]]] = {}

    def of(self, game: Game, seat: int) -> list[Wait]:
        """The waits of ``seat``'s hand when it is ready (13 tiles less 3 per meld), else none."""
        hand = game.hand(seat)
        if len(hand) % 3 != 1:
            return []
        melds = game.melds(seat)
        key = (tuple(t.index for t in hand), tuple((m.kind, str(m)) for m in melds), game.void(seat))
        known = self._found.get(seat)
        if known is None or known[0] != key:
            known = self._found[seat] = (key, self._best_waits(hand, melds, key[2]))
        found = known[1]
        if not found:
            return []
        seen = seen_by(game, seat)
        return [Wait(str(t), 4 - seen[t.index], score) for t, score in found]

    def _best_waits(self, hand: list[Tile], melds: list[Meld], void: Optional[str]) -> list[tuple[Tile, Score]]:
        naturals = [t for t in hand if not (self.rules.wilds and t.index == WILD)]
        return best_waits(
            naturals,
            rules=self.rules,
            melds=[str(m) for m in melds if m.kind != "concealed_kong"],
            concealed_kongs=[str(m) for m in melds if m.kind == "concealed_kong"],
            void=void,
            wilds=len(hand) - len(naturals),
        )


def seen_by(game: Game, seat: int) -> list[int]:
    """How many of each of the 27 tiles ``seat`` has seen: in its hand, in every river, in every
    meld (a wild as a 1s), and every win's tile."""
    seen = [0] * 27
    for t in game.hand(seat):
        seen[t.index] += 1
    for s in range(4):
        for t in game.discards(s):
            seen[t.index] += 1
        for m in game.melds(s):
            seen[m.tile.index] += (4 if "kong" in m.kind else 3) - m.wilds
            seen[WILD] += m.wilds
    for w in game.wins:  # (the tile a win took leaves the winner's hand and the river)
        seen[w.tile.index] += 1
    return seen


def to_dict(wait: Wait) -> dict[str, Any]:
    """A wait as the web table's request carries it (docs/server.md)."""
    score = wait.score
    return {
        "tile": wait.tile,
        "unseen": wait.unseen,
        "pattern": score.pattern,
        "fan": score.capped_fan,
        "points": score.points,
    }
