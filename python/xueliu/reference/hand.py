"""Hand analysis by brute force, straight from the definitions of RULES.md sections 5 and 8.

Wins and decompositions come from trying every way to split the tiles; shanten from comparing the
hand with every complete hand the rules allow. Nothing here is clever, so it can judge the engine.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

import numpy as np

from .tiles import NUM_KINDS, SUIT_LETTERS, format_tiles, parse_tiles, tile_name, to_counts

UNREACHABLE = 99
"""Shanten of a hand that no tiles can complete: its melds already break the suit rules."""

Group = tuple[int, ...]
Split = tuple[Group, ...]
Label = tuple[int, int]


@dataclass(frozen=True)
class _Hand:
    """Validated inputs: concealed counts, melds as tile tuples, void as a suit index."""

    concealed: tuple[int, ...]
    melds: tuple[Group, ...]
    void: int | None
    seven_pairs: bool

    @property
    def melded(self) -> list[int]:
        return _counts_of(self.melds)

    @property
    def all_tiles(self) -> list[int]:
        return [c + m for c, m in zip(self.concealed, self.melded)]


# --- public API -------------------------------------------------------------------------------


def is_win(hand: Any, *, melds: Sequence[str] = (), void: str | None = None, seven_pairs: bool = True) -> bool:
    """Whether 14 tiles (counting melds) form a winning hand under RULES.md sections 5 and 8."""
    return _wins(_prepare(hand, melds, void, seven_pairs, missing=(0,), caller="is_win"))


def waits(hand: Any, *, melds: Sequence[str] = (), void: str | None = None, seven_pairs: bool = True) -> list[int]:
    """Tile indices that complete a 13-tile hand, leaving out tiles the player holds all four of."""
    h = _prepare(hand, melds, void, seven_pairs, missing=(1,), caller="waits")
    held = h.all_tiles
    found = []
    for tile in range(NUM_KINDS):
        if held[tile] < 4 and _wins(_with_tile(h, tile)):
            found.append(tile)
    return found


def shanten(hand: Any, *, melds: Sequence[str] = (), void: str | None = None, seven_pairs: bool = True) -> int:
    """N - 1 - (largest overlap with a complete concealed part the rules allow); -1 complete, 0 ready."""
    h = _prepare(hand, melds, void, seven_pairs, missing=(0, 1), caller="shanten")
    overlap = _best_overlap(h)
    if overlap is None:
        return UNREACHABLE
    return 13 - 3 * len(h.melds) - overlap


def decompositions(
    hand: Any, *, melds: Sequence[str] = (), void: str | None = None, seven_pairs: bool = True
) -> list[tuple[str, ...]]:
    """Every distinct split of a winning hand into named groups, melds last; empty when not a win."""
    h = _prepare(hand, melds, void, seven_pairs, missing=(0,), caller="decompositions")
    standard, pairs = _splits(h)
    meld_names = tuple(format_tiles(group) for group in h.melds)
    return sorted(tuple(format_tiles(group) for group in split) + meld_names for split in standard + pairs)


def hand_facts(
    hand: Any, *, melds: Sequence[str] = (), void: str | None = None, seven_pairs: bool = True
) -> dict[str, Any]:
    """The shape facts scoring needs (RULES.md section 8), each an existence claim over the splits."""
    h = _prepare(hand, melds, void, seven_pairs, missing=(0,), caller="hand_facts")
    standard, pairs = _splits(h)
    if not (standard or pairs):
        raise ValueError(f"hand_facts needs a winning hand, got {format_tiles(_tiles_of(h.concealed))}")
    full = [split + h.melds for split in standard]
    tiles = h.all_tiles
    return {
        "standard": bool(standard),
        "seven_pairs": bool(pairs),
        "all_triplets": any(all(_is_pair_or_triplet(g) for g in split) for split in full),
        "terminals": any(all(_has_terminal(g) for g in split) for split in full),
        "one_suit": len(_suits_of(tiles)) == 1,
        "only_258": all(t % 9 in (1, 4, 7) for t in range(NUM_KINDS) if tiles[t]),
        "roots": _roots(h),
        "kongs": sum(len(g) == 4 for g in h.melds),
    }


# --- input validation -------------------------------------------------------------------------


def _prepare(
    hand: Any, melds: Sequence[str], void: str | None, seven_pairs: bool, *, missing: tuple[int, ...], caller: str
) -> _Hand:
    """Check sizes, copies and the void letter once, so the analysis can trust its inputs."""
    groups = _parse_melds(melds)
    counts = to_counts(hand)
    full = 14 - 3 * len(groups)
    sizes = [full - m for m in missing]
    if sum(counts) not in sizes:
        wanted = " or ".join(str(s) for s in sizes)
        raise ValueError(f"{caller} needs {wanted} concealed tiles with {len(groups)} melds, got {sum(counts)}")
    h = _Hand(tuple(counts), groups, _parse_void(void), bool(seven_pairs))
    for tile, count in enumerate(h.all_tiles):
        if count > 4:
            raise ValueError(f"{tile_name(tile)} appears {count} times counting melds; there are only four copies")
    return h


def _parse_melds(melds: Sequence[str]) -> tuple[Group, ...]:
    if isinstance(melds, str):
        raise ValueError(f"melds must be a sequence of strings such as ['555m'], not the string {melds!r}")
    groups = tuple(_parse_meld(text) for text in melds)
    if len(groups) > 4:
        raise ValueError(f"a hand has at most 4 melds, got {len(groups)}")
    return groups


def _parse_meld(text: str) -> Group:
    """A pong ``"555m"`` or kong ``"5555m"``: three or four copies of one tile (there is no chow)."""
    tiles = parse_tiles(text)
    if len(tiles) not in (3, 4) or len(set(tiles)) != 1:
        raise ValueError(f"a meld is three or four copies of one tile, like '555m' or '5555m'; got {text!r}")
    return tuple(tiles)


def _parse_void(void: str | None) -> int | None:
    if void is None:
        return None
    if not isinstance(void, str) or void not in SUIT_LETTERS:
        raise ValueError(f"void must be None, 'm', 'p' or 's'; got {void!r}")
    return SUIT_LETTERS.index(void)


# --- wins and splits --------------------------------------------------------------------------


def _wins(h: _Hand) -> bool:
    standard, pairs = _splits(h)
    return bool(standard or pairs)


def _splits(h: _Hand) -> tuple[list[Split], list[Split]]:
    """(standard splits, seven-pairs splits) of the concealed tiles; both empty if the suits are illegal."""
    if not _suits_allowed(h):
        return [], []
    counts = list(h.concealed)
    standard = sorted(_standard_splits(counts))
    pairs = [_seven_pairs_split(counts)] if h.seven_pairs and not h.melds and _all_even(counts) else []
    return standard, pairs


def _suits_allowed(h: _Hand) -> bool:
    """At most two suits over hand and melds (缺一门), none of them the declared void (定缺)."""
    suits = _suits_of(h.all_tiles)
    return len(suits) <= 2 and h.void not in suits


def _standard_splits(counts: list[int]) -> set[Split]:
    """Every distinct pair + sets split: try each pair, then split the rest into sets."""
    found: set[Split] = set()
    for tile in range(NUM_KINDS):
        if counts[tile] >= 2:
            rest = _minus(counts, (tile, tile))
            for sets in _set_splits(rest):
                found.add(_canonical([(tile, tile)] + sets))
    return found


def _set_splits(counts: list[int]) -> list[list[Group]]:
    """Every way to split counts into sets; the lowest tile must start a triplet or a sequence."""
    lowest = next((t for t in range(NUM_KINDS) if counts[t]), None)
    if lowest is None:
        return [[]]
    return [[group] + rest for group in _sets_from(lowest, counts) for rest in _set_splits(_minus(counts, group))]


def _sets_from(tile: int, counts: list[int]) -> Iterator[Group]:
    if counts[tile] >= 3:
        yield (tile, tile, tile)
    if tile % 9 <= 6 and counts[tile + 1] and counts[tile + 2]:
        yield (tile, tile + 1, tile + 2)


def _seven_pairs_split(counts: list[int]) -> Split:
    """Seven pairs as groups; four of a kind is two pairs (RULES.md section 8)."""
    return tuple((t, t) for t in range(NUM_KINDS) for _ in range(counts[t] // 2))


def _canonical(groups: list[Group]) -> Split:
    """Groups sorted by (first tile, length); a triplet sorts before a sequence on the same tile."""
    return tuple(sorted(groups, key=lambda g: (g[0], len(g), g)))


# --- shanten ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class _SuitTable:
    """Every complete one-suit vector of 0-4 sets and 0-1 pair, rows grouped by (sets, pairs).

    ``levels`` holds each row in unary, column ``9 * (k - 1) + rank`` = [count >= k] for k = 1..4, because
    min(a, b) = sum over k of [a >= k][b >= k]: the overlap with every row is then one matrix product.
    """

    rows: np.ndarray
    levels: np.ndarray
    labels: list[Label]
    starts: np.ndarray


@cache
def _suit_table() -> _SuitTable:
    """Built once by adding up every multiset of sets and an optional pair; a row's total fixes its label."""
    shapes = [_vector((r, r, r)) for r in range(9)] + [_vector((r, r + 1, r + 2)) for r in range(7)]
    found: dict[tuple[int, ...], Label] = {}
    for sets in range(5):
        for chosen in itertools.combinations_with_replacement(shapes, sets):
            base = [sum(column) for column in zip(*chosen)] if chosen else [0] * 9
            for pair in [None, *range(9)]:
                row = list(base)
                if pair is not None:
                    row[pair] += 2
                if max(row) <= 4:
                    found[tuple(row)] = (sets, 0 if pair is None else 1)
    ordered = sorted(found.items(), key=lambda item: (item[1], item[0]))
    labels = sorted(set(found.values()))
    starts = [next(i for i, (_, label) in enumerate(ordered) if label == wanted) for wanted in labels]
    rows = np.array([row for row, _ in ordered], dtype=np.int64)
    return _SuitTable(rows, _unary(rows), labels, np.array(starts))


def _unary(counts: np.ndarray) -> np.ndarray:
    """Counts 0-4 as four 0/1 levels each (see _SuitTable); works on one vector or on rows."""
    return np.concatenate([counts >= k for k in range(1, 5)], axis=-1).astype(np.float32)


def _suit_overlaps(held: Sequence[int], caps: Sequence[int]) -> dict[Label, int]:
    """For one suit: (sets, pairs) -> largest overlap with a complete vector within the caps."""
    table = _suit_table()
    overlap = np.rint(table.levels @ _unary(np.array(held))).astype(np.int64)
    for rank, cap in enumerate(caps):
        if cap < 4:
            overlap[table.rows[:, rank] > cap] = -1
    best = np.maximum.reduceat(overlap, table.starts)
    return {label: int(value) for label, value in zip(table.labels, best) if value >= 0}


def _best_overlap(h: _Hand) -> int | None:
    """Largest overlap over every allowed suit pair and every split of sets and pair between them."""
    caps = [4 - m for m in h.melded]
    per_suit = [_suit_overlaps(h.concealed[9 * s : 9 * s + 9], caps[9 * s : 9 * s + 9]) for s in range(3)]
    sets_needed = 4 - len(h.melds)
    candidates = []
    for a, b in _suit_pairs(h):
        for sets_a, pair_a in itertools.product(range(sets_needed + 1), (0, 1)):
            part_a = per_suit[a].get((sets_a, pair_a))
            part_b = per_suit[b].get((sets_needed - sets_a, 1 - pair_a))
            if part_a is not None and part_b is not None:
                candidates.append(part_a + part_b)
        if h.seven_pairs and not h.melds:
            candidates.append(_seven_pairs_overlap(h.concealed, (a, b)))
    return max(candidates, default=None)


def _suit_pairs(h: _Hand) -> list[tuple[int, int]]:
    """The two-suit sets a complete hand may use: no void suit, and every melded suit inside."""
    allowed = [s for s in range(3) if s != h.void]
    meld_suits = {g[0] // 9 for g in h.melds}
    return [pair for pair in itertools.combinations(allowed, 2) if meld_suits <= set(pair)]


def _seven_pairs_overlap(counts: Sequence[int], suits: tuple[int, int]) -> int:
    """Best overlap with seven pairs in two suits: exhaustive over 0, 1 or 2 pairs of each tile."""
    best = {0: 0}
    for tile in (t for t in range(NUM_KINDS) if t // 9 in suits):
        step: dict[int, int] = {}
        for used, overlap in best.items():
            for pairs in (0, 1, 2):
                if used + pairs <= 7:
                    value = overlap + min(counts[tile], 2 * pairs)
                    step[used + pairs] = max(step.get(used + pairs, -1), value)
        best = step
    return best[7]


# --- small helpers ----------------------------------------------------------------------------


def _roots(h: _Hand) -> int:
    """根: kinds with all four copies in hand and pongs; a declared kong is not a root."""
    pongs = _counts_of(g for g in h.melds if len(g) == 3)
    return sum(c + p == 4 for c, p in zip(h.concealed, pongs))


def _is_pair_or_triplet(group: Group) -> bool:
    return len(set(group)) == 1


def _has_terminal(group: Group) -> bool:
    return any(t % 9 in (0, 8) for t in group)


def _suits_of(counts: Sequence[int]) -> set[int]:
    return {t // 9 for t in range(NUM_KINDS) if counts[t]}


def _all_even(counts: Sequence[int]) -> bool:
    return all(c % 2 == 0 for c in counts)


def _with_tile(h: _Hand, tile: int) -> _Hand:
    counts = list(h.concealed)
    counts[tile] += 1
    return replace(h, concealed=tuple(counts))


def _minus(counts: list[int], group: Group) -> list[int]:
    rest = list(counts)
    for tile in group:
        rest[tile] -= 1
    return rest


def _counts_of(groups: Any) -> list[int]:
    counts = [0] * NUM_KINDS
    for group in groups:
        for tile in group:
            counts[tile] += 1
    return counts


def _tiles_of(counts: Sequence[int]) -> list[int]:
    return [t for t in range(NUM_KINDS) for _ in range(counts[t])]


def _vector(ranks: Group) -> tuple[int, ...]:
    row = [0] * 9
    for rank in ranks:
        row[rank] += 1
    return tuple(row)
