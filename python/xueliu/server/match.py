"""The one place the server meets the engine's match: a seam until ``xueliu.Match`` lands.

The table plays ``match.game`` and calls ``next_hand()`` between hands; dealer rotation, hand
seeds and totals are the engine's business. Until ``xueliu.Match`` exists, :class:`_OneHand`
stands in for a one-hand match.
"""

from __future__ import annotations

import json
from typing import Any, Optional, Protocol

from .. import _xueliu as engine


class Match(Protocol):
    game: Any
    hands_played: int
    is_over: bool
    totals: list[int]

    def next_hand(self) -> None: ...
    def to_json(self) -> str: ...


class _OneHand:
    """One hand as a match, until the engine's Match lands (no dealer rotation of our own)."""

    def __init__(self, game: engine.Game) -> None:
        self.game = game

    hands_played = 0

    @property
    def is_over(self) -> bool:
        return self.game.is_over

    @property
    def totals(self) -> list[int]:
        return self.game.scores

    def next_hand(self) -> None:
        raise engine.IllegalActionError("this match has one hand")

    def to_json(self) -> str:
        return json.dumps({"one_hand": self.game.to_json()})


def new_match(rules: engine.Rules, seed: int, hands: int) -> Match:
    match_type = getattr(engine, "Match", None)
    if match_type is not None:
        return match_type(rules, seed=seed, hands=hands)
    return _OneHand(engine.Game(rules, seed=seed))


def restore_match(text: str) -> Match:
    data: Optional[dict] = None
    try:
        data = json.loads(text)
    except ValueError:
        pass
    if isinstance(data, dict) and set(data) == {"one_hand"}:
        return _OneHand(engine.Game.from_json(data["one_hand"]))
    return engine.Match.from_json(text)  # type: ignore[attr-defined]
