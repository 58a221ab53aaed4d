"""A match: hands played in order at one table (R§2), written from the specification.

Hand ``i`` (from 0) is dealt from the ``i + 1``-th output of SplitMix64 seeded with the match
seed (docs/game-protocol.md §13); the first hand's dealer comes from ``first_dealer``, every later
one from the hand before's ``next_dealer``.
"""

from __future__ import annotations

from .game import Game, IllegalActionError, resolve_rules
from .rng import SplitMix64


def hand_seed(seed: int, hand: int) -> int:
    """The seed of hand ``hand`` of a match seeded ``seed``."""
    rng = SplitMix64(seed)
    for _ in range(hand):
        rng.next_u64()
    return rng.next_u64()


class Match:
    """``hands`` hands in order; ``game`` is the hand in play."""

    def __init__(self, rules: dict | str, seed: int, hands: int = 8) -> None:
        if not isinstance(hands, int) or not 1 <= hands <= 10_000:
            raise IllegalActionError(f"a match has 1 to 10000 hands, not {hands}")
        self.rules = resolve_rules(rules)
        self.seed = seed
        self.hands = hands
        self.games = [Game(self.rules, hand_seed(seed, 0))]

    @property
    def game(self) -> Game:
        return self.games[-1]

    @property
    def hands_played(self) -> int:
        return sum(g.is_over for g in self.games)

    @property
    def is_over(self) -> bool:
        return self.hands_played == self.hands

    @property
    def dealers(self) -> list[int]:
        return [g.dealer for g in self.games]

    @property
    def next_dealer(self) -> int | None:
        return None if self.is_over else self.game.next_dealer

    @property
    def results(self) -> list[list[int]]:
        return [g.scores for g in self.games if g.is_over]

    @property
    def totals(self) -> list[int]:
        return [sum(r[i] for r in self.results) for i in range(4)]

    def next_hand(self) -> None:
        if self.is_over:
            raise IllegalActionError(f"the match is over: all {self.hands} hands were played")
        dealer = self.game.next_dealer
        if dealer is None:
            raise IllegalActionError(f"hand {len(self.games)} is still in play")
        self.games.append(Game(self.rules, hand_seed(self.seed, len(self.games)), dealer=dealer))

    def log(self) -> dict:
        """Every hand's events, in order (docs/game-protocol.md §13)."""
        return {
            "type": "match",
            "version": 1,
            "seed": self.seed,
            "hands": self.hands,
            "rules": self.rules,
            "games": [g.events for g in self.games],
        }
