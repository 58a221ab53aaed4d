"""A slow, brute-force reference for hand analysis, the oracle the Rust engine is tested against.

It shares no tables, parser or algorithm with the engine: wins and decompositions come from trying
every split, shanten from comparing the hand with every complete hand the rules allow. Pure Python
plus numpy; it never imports the compiled extension. ``Game`` (game.py, settlement.py) plays one
hand from docs/game-protocol.md, on top of ``scoring`` and ``presets``.
"""

from __future__ import annotations

from .game import Game, IllegalActionError
from .hand import UNREACHABLE, decompositions, hand_facts, is_win, shanten, waits
from .tiles import format_tiles, parse_tiles, tile_name, to_counts

__all__ = [
    "Game",
    "IllegalActionError",
    "UNREACHABLE",
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
