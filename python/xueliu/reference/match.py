"""A match: hands played in order at one table (R§2), written from the specification.

Hand ``i`` (from 0) is dealt from the ``i + 1``-th output of SplitMix64 seeded with the match
seed (docs/game-protocol.md §13); the first hand's dealer comes from ``first_dealer``, every later
one from the hand before's ``next_dealer``.

A match is a session (盘, MIL Art.4-5): it ends after its hands or, once ``call_time()`` says the
clock ran out, after the hand in play; then ``placement_points`` ranks the seats by their totals
and gives the places' points (4/3/2/1 unless told), tied seats sharing them equally (Art.4-6).
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

    def __init__(self, rules: dict | str, seed: int, hands: int = 8, placement: tuple[int, ...] = (4, 3, 2, 1)) -> None:
        if not isinstance(hands, int) or not 1 <= hands <= 10_000:
            raise IllegalActionError(f"a match has 1 to 10000 hands, not {hands}")
        self.rules = resolve_rules(rules)
        self.seed = seed
        self.hands = hands
        self.placement = list(placement)
        self.time_called = False
        self.games = [Game(self.rules, hand_seed(seed, 0))]

    def call_time(self) -> None:
        """The session's time is up: the hand in play is the last (MIL Art.5-3)."""
        self.time_called = True

    @property
    def game(self) -> Game:
        return self.games[-1]

    @property
    def hands_played(self) -> int:
        return sum(g.is_over for g in self.games)

    @property
    def is_over(self) -> bool:
        return self.hands_played == self.hands or (self.time_called and self.game.is_over)

    @property
    def placement_points(self) -> list[float] | None:
        """Each seat's placement points once the match is over: a seat with ``above`` seats ahead
        and ``tied`` seats on its total (itself included) shares the points of places
        ``above`` to ``above + tied - 1``."""
        if not self.is_over:
            return None
        totals = self.totals
        out = []
        for total in totals:
            above = sum(t > total for t in totals)
            tied = sum(t == total for t in totals)
            out.append(sum(self.placement[above : above + tied]) / tied)
        return out

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
            why = f"all {self.hands} hands were played" if self.hands_played == self.hands else "time was called"
            raise IllegalActionError(f"the match is over: {why}")
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
            "placement": self.placement,
            "time_called": self.time_called,
            "rules": self.rules,
            "games": [g.events for g in self.games],
        }
