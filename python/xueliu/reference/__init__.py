"""A slow, brute-force reference of the rules, the oracle the Rust engine is tested against.

It shares no tables, parser or algorithm with the engine: wins and decompositions come from trying
every split, shanten from comparing the hand with every complete hand the rules allow, scores from
every split's patterns (``scoring``), presets transcribed again from RULES.md (``presets``), and
``Game`` (game.py, settlement.py) plays one hand from docs/game-protocol.md and ``Match``
(match.py) hands in a row. Pure Python plus
numpy; it never imports the compiled extension.
"""

from __future__ import annotations

from .game import Game, IllegalActionError
from .hand import UNREACHABLE, decompositions, hand_facts, is_win, shanten, waits
from .match import Match, hand_seed
from .presets import PRESETS, get_preset
from .scoring import best_waits, points_for_fan, score
from .tiles import format_tiles, parse_tiles, tile_name, to_counts

__all__ = [
    "Game",
    "IllegalActionError",
    "Match",
    "PRESETS",
    "UNREACHABLE",
    "best_waits",
    "get_preset",
    "hand_seed",
    "points_for_fan",
    "score",
    "decompositions",
    "format_tiles",
    "hand_facts",
    "is_win",
    "parse_tiles",
    "shanten",
    "tile_name",
    "to_counts",
    "waits",
]
