"""Tile notation for the reference: written apart from the engine's parser so the two can disagree.

Tile index 0-26: ``1m..9m`` = 0-8, ``1p..9p`` = 9-17, ``1s..9s`` = 18-26 (RULES.md section 1).
"""

from __future__ import annotations

import operator
from collections.abc import Iterable
from typing import Any

NUM_KINDS = 27
SUIT_LETTERS = "mps"
HAND_MAX = 14

_SUFFIXES = {"m": 0, "万": 0, "萬": 0, "p": 1, "筒": 1, "s": 2, "条": 2, "條": 2}
_DIGITS = "123456789"


def tile_name(index: int) -> str:
    """The short name of one tile, e.g. ``4 -> "5m"``."""
    index = _tile_index(index)
    return f"{index % 9 + 1}{SUIT_LETTERS[index // 9]}"


def parse_tiles(text: str) -> list[int]:
    """Tile indices, in the order written, of a string such as ``"23445677m345789p"``."""
    if not isinstance(text, str):
        raise ValueError(f"a hand string must be a str, not {type(text).__name__}")
    tiles: list[int] = []
    ranks: list[int] = []
    for position, char in enumerate(text):
        if char in _DIGITS:
            ranks.append(int(char))
        elif char in _SUFFIXES:
            if not ranks:
                raise ValueError(f"suit {char!r} at position {position} of {text!r} has no digits before it")
            tiles += [_SUFFIXES[char] * 9 + rank - 1 for rank in ranks]
            ranks = []
        elif char.isspace() and not ranks:
            continue
        elif char.isspace():
            raise ValueError(f"space at position {position} of {text!r} splits a group from its suit letter")
        else:
            raise ValueError(f"unexpected character {char!r} at position {position} of {text!r}")
    if ranks:
        raise ValueError(f"the digits at the end of {text!r} have no suit letter")
    _check_copies(_count(tiles))
    return tiles


def format_tiles(indices: Iterable[Any]) -> str:
    """The canonical string of some tiles: sorted, one suit letter per group, suits in m, p, s order."""
    tiles = sorted(_tile_index(value) for value in indices)
    groups = []
    for suit, letter in enumerate(SUIT_LETTERS):
        ranks = "".join(str(t % 9 + 1) for t in tiles if t // 9 == suit)
        if ranks:
            groups.append(ranks + letter)
    return "".join(groups)


def to_counts(hand: Any) -> list[int]:
    """A 27-entry count array from a hand string, up to 14 tile indices, or a 27-entry count array.

    A sequence of length 27 is a count array; anything shorter is a list of tile indices (a hand has
    at most 14 tiles, so the two can never be confused).
    """
    if isinstance(hand, str):
        counts = _count(parse_tiles(hand))
    else:
        values = _indices(hand)
        if len(values) == NUM_KINDS:
            counts = values
            if any(c < 0 for c in counts):
                raise ValueError(f"a count array cannot hold negative counts: {counts}")
        elif len(values) <= HAND_MAX:
            counts = _count(_tile_index(v) for v in values)
        else:
            raise ValueError(
                f"expected at most {HAND_MAX} tile indices or exactly {NUM_KINDS} counts, got {len(values)} values"
            )
    _check_copies(counts)
    return counts


def _indices(values: Any) -> list[int]:
    """Every element as an int via ``__index__``, so tile objects and numpy integers are accepted."""
    try:
        return [operator.index(v) for v in values]
    except TypeError as error:
        raise ValueError(f"a hand must be a string, tile indices or 27 counts: {error}") from None


def _tile_index(value: Any) -> int:
    try:
        index = operator.index(value)
    except TypeError:
        raise ValueError(f"a tile must be an integer index, not {value!r}") from None
    if not 0 <= index < NUM_KINDS:
        raise ValueError(f"tile index {index} is outside 0-{NUM_KINDS - 1}")
    return index


def _count(tiles: Iterable[int]) -> list[int]:
    counts = [0] * NUM_KINDS
    for tile in tiles:
        counts[tile] += 1
    return counts


def _check_copies(counts: list[int]) -> None:
    for tile, count in enumerate(counts):
        if count > 4:
            raise ValueError(f"{tile_name(tile)} appears {count} times; there are only four copies")
