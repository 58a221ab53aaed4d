"""Hand analysis by brute force, straight from the definitions of RULES.md sections 5, 8 and 11.

Wins and decompositions come from trying every way to split the tiles; shanten from comparing the
hand with every complete hand the rules allow. Nothing here is clever, so it can judge the engine.

Wilds (幺鸡, section 11; docs/wilds.md): ``wilds=`` wilds held besides the natural tiles. A hand
with wilds is complete when some choice of tiles for the wilds makes it complete by the usual
rules, except that a tile may then appear more than four times (the wild is the extra copy); the
natural tiles and melds alone are held to 缺一门 and the void suit, and the chosen tiles keep to
the suits they allow. Four wilds win whatever the rest. Choices are tried per suit: every
multiset of ranks for the wilds a suit receives.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from functools import cache, lru_cache
from typing import Any

import numpy as np

from .tiles import NUM_KINDS, SUIT_LETTERS, format_tiles, parse_tiles, tile_name, to_counts

UNREACHABLE = 99
"""Shanten of a hand that no tiles can complete: its melds already break the suit rules."""

MAX_WILDS = 4
"""Four wilds in hand win at once, whatever the rest (RULES.md section 11)."""

_YAOJI = 18
"""The tile index of 1s: a wild of 幺鸡 is one of the four 1s (RULES.md section 11)."""


Group = tuple[int, ...]
Split = tuple[Group, ...]
Label = tuple[int, int]


@dataclass(frozen=True)
class _Hand:
    """Validated inputs: concealed counts, melds as tile tuples (a wild in a meld written as the
    meld's tile), each meld's wilds, void as a suit index."""

    concealed: tuple[int, ...]
    melds: tuple[Group, ...]
    void: int | None
    seven_pairs: bool
    wilds: int = 0
    meld_wilds: tuple[int, ...] = ()

    @property
    def melded(self) -> list[int]:
        """Natural tiles in melds: a meld's wilds are no copy of its tile."""
        counts = _counts_of(self.melds)
        for group, wilds in zip(self.melds, self.meld_wilds):
            counts[group[0]] -= wilds
        return counts

    @property
    def ones_held(self) -> int:
        """1s held, natural or wild, hand and melds together: the wilds of 幺鸡 are the four 1s."""
        return self.all_tiles[_YAOJI] + self.wilds + sum(self.meld_wilds)

    @property
    def all_tiles(self) -> list[int]:
        return [c + m for c, m in zip(self.concealed, self.melded)]


# --- public API -------------------------------------------------------------------------------


def is_win(
    hand: Any, *, melds: Sequence[str] = (), void: str | None = None, seven_pairs: bool = True, wilds: int = 0
) -> bool:
    """Whether 14 tiles (counting melds and wilds) form a winning hand under RULES.md sections 5, 8, 11."""
    return _wins(_prepare(hand, melds, void, seven_pairs, wilds, missing=(0,), caller="is_win"))


def waits(
    hand: Any, *, melds: Sequence[str] = (), void: str | None = None, seven_pairs: bool = True, wilds: int = 0
) -> list[int]:
    """Natural tile indices that complete a 13-tile hand, leaving out tiles the player holds all four of."""
    h = _prepare(hand, melds, void, seven_pairs, wilds, missing=(1,), caller="waits")
    held = h.all_tiles
    held[_YAOJI] = h.ones_held
    found = []
    for tile in range(NUM_KINDS):
        if held[tile] < 4 and _wins(_with_tile(h, tile)):
            found.append(tile)
    return found


def shanten(
    hand: Any, *, melds: Sequence[str] = (), void: str | None = None, seven_pairs: bool = True, wilds: int = 0
) -> int:
    """N - 1 - (largest overlap with a complete concealed part the rules allow); -1 complete, 0 ready.

    With wilds the overlap counts the wilds, and the complete part, reached by drawing natural tiles,
    may hold copies beyond four of a tile (counting melds) as long as the hand's wilds can be them.
    """
    h = _prepare(hand, melds, void, seven_pairs, wilds, missing=(0, 1), caller="shanten")
    if h.wilds == MAX_WILDS:  # every hand holding the four wilds is complete
        return 13 - 3 * len(h.melds) - (sum(h.concealed) + h.wilds)
    overlap = _best_overlap(h)
    if overlap is None:
        return UNREACHABLE
    return 13 - 3 * len(h.melds) - h.wilds - overlap


def decompositions(
    hand: Any, *, melds: Sequence[str] = (), void: str | None = None, seven_pairs: bool = True, wilds: int = 0
) -> list[tuple[str, ...]]:
    """Every distinct split of a winning hand into named groups, melds last; empty when not a win.

    With wilds, the groups show the tiles the wilds stand for; four wilds win even with no split.
    """
    h = _prepare(hand, melds, void, seven_pairs, wilds, missing=(0,), caller="decompositions")
    standard, pairs = _splits(h)
    meld_names = tuple(_meld_name(group, w) for group, w in zip(h.melds, h.meld_wilds))
    return sorted(tuple(format_tiles(group) for group in split) + meld_names for split in standard + pairs)


def hand_facts(
    hand: Any, *, melds: Sequence[str] = (), void: str | None = None, seven_pairs: bool = True, wilds: int = 0
) -> dict[str, Any]:
    """The shape facts scoring needs (RULES.md section 8), each an existence claim over the splits.

    One suit, only 2/5/8 and roots read the natural tiles and melds; a wild makes no root.
    """
    h = _prepare(hand, melds, void, seven_pairs, wilds, missing=(0,), caller="hand_facts")
    standard, pairs = _splits(h)
    if not _wins(h):
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
    hand: Any,
    melds: Sequence[str],
    void: str | None,
    seven_pairs: bool,
    wilds: int,
    *,
    missing: tuple[int, ...],
    caller: str,
) -> _Hand:
    """Check sizes, copies, wilds and the void letter once, so the analysis can trust its inputs."""
    parsed = _parse_melds(melds)
    groups = tuple(group for group, _ in parsed)
    counts = to_counts(hand)
    if isinstance(wilds, bool) or not isinstance(wilds, int) or not 0 <= wilds <= MAX_WILDS:
        raise ValueError(f"wilds must be an int from 0 to {MAX_WILDS}, got {wilds!r}")
    full = 14 - 3 * len(groups)
    sizes = [full - m for m in missing]
    if sum(counts) + wilds not in sizes:
        wanted = " or ".join(str(s) for s in sizes)
        raise ValueError(
            f"{caller} needs {wanted} concealed tiles with {len(groups)} melds, got {sum(counts)} + {wilds} wilds"
        )
    meld_wilds = tuple(w for _, w in parsed)
    h = _Hand(tuple(counts), groups, _parse_void(void), bool(seven_pairs), wilds, meld_wilds)
    for tile, count in enumerate(h.all_tiles):
        if count > 4:
            raise ValueError(f"{tile_name(tile)} appears {count} times counting melds; there are only four copies")
    every_wild = wilds + sum(meld_wilds)
    if every_wild > MAX_WILDS:
        raise ValueError(f"{every_wild} wilds in hand and melds, but there are only {MAX_WILDS} (the four 1s)")
    if every_wild and h.ones_held > 4:
        raise ValueError(f"{h.ones_held} 1s counting wilds in hand and melds; the wilds are among the four 1s")
    return h


def _parse_melds(melds: Sequence[str]) -> tuple[tuple[Group, int], ...]:
    if isinstance(melds, str):
        raise ValueError(f"melds must be a sequence of strings such as ['555m'], not the string {melds!r}")
    groups = tuple(_parse_meld(text) for text in melds)
    if len(groups) > 4:
        raise ValueError(f"a hand has at most 4 melds, got {len(groups)}")
    return groups


def _parse_meld(text: str) -> tuple[Group, int]:
    """A pong ``"555m"`` or kong ``"5555m"``: three or four copies of one tile (there is no chow),
    and its wilds: ``1s`` beside another tile are wilds standing for it (``"55m1s"``, ``"5m111s"``)."""
    tiles = parse_tiles(text)
    kinds = set(tiles) - {_YAOJI} or {_YAOJI}
    if len(tiles) not in (3, 4) or len(kinds) != 1:
        raise ValueError(f"a meld is three or four copies of one tile, like '555m' or '5555m'; got {text!r}")
    (kind,) = kinds
    return (kind,) * len(tiles), sum(t != kind for t in tiles)


def _meld_name(group: Group, wilds: int) -> str:
    """A meld as the engine writes it: the natural tiles, then one ``1`` per wild (``"55m1s"``)."""
    natural = format_tiles(group[: len(group) - wilds])
    return natural + ("1" * wilds + "s" if wilds else "")


def _parse_void(void: str | None) -> int | None:
    if void is None:
        return None
    if not isinstance(void, str) or void not in SUIT_LETTERS:
        raise ValueError(f"void must be None, 'm', 'p' or 's'; got {void!r}")
    return SUIT_LETTERS.index(void)


# --- wins and splits --------------------------------------------------------------------------


def _wins(h: _Hand) -> bool:
    """Four wilds; or, within the suit rules, some way to share the wilds among the suits and, inside
    each suit, some ranks for them, that completes the hand as sets and a pair, or as seven pairs."""
    if h.wilds == MAX_WILDS:
        return True
    if not _suits_allowed(h):
        return False
    suits = [h.concealed[9 * s : 9 * s + 9] for s in range(3)]
    for share in _shares(h.wilds):
        if not _wild_suits_allowed(h, {s for s in range(3) if share[s]}):
            continue
        if any(all(_suit_fills(suits[s], share[s], s == p) for s in range(3)) for p in range(3)):
            return True
        if h.seven_pairs and not h.melds and all(_suit_pairs_fill(suits[s], share[s]) for s in range(3)):
            return True
    return False


def _shares(wilds: int) -> Iterator[tuple[int, int, int]]:
    """Every way to give `wilds` wilds to the three suits."""
    for m in range(wilds + 1):
        for p in range(wilds - m + 1):
            yield m, p, wilds - m - p


def _wild_suits_allowed(h: _Hand, suits: set[int]) -> bool:
    """Tiles the wilds stand for keep the hand within two suits, none of them void."""
    used = _suits_of(h.all_tiles) | suits
    return len(used) <= 2 and h.void not in used


@cache
def _suit_fills(ranks: tuple[int, ...], wilds: int, with_pair: bool) -> bool:
    """Some ranks for `wilds` wilds complete one suit as sets (and a pair); counts may pass four."""
    return any(_suit_splits(_plus(ranks, extra), with_pair) for extra in _rank_choices(wilds))


@cache
def _suit_pairs_fill(ranks: tuple[int, ...], wilds: int) -> bool:
    """Some ranks for `wilds` wilds leave every count of one suit even."""
    return any(_all_even(_plus(ranks, extra)) for extra in _rank_choices(wilds))


def _rank_choices(wilds: int) -> Iterator[tuple[int, ...]]:
    return itertools.combinations_with_replacement(range(9), wilds)


@cache
def _suit_splits(ranks: tuple[int, ...], with_pair: bool) -> bool:
    """One suit splits into sets, plus one pair if asked: the whole-hand search on that suit alone."""
    counts = list(ranks) + [0] * (NUM_KINDS - 9)
    return bool(_standard_splits(counts)) if with_pair else bool(_set_splits(counts))


def _plus(ranks: tuple[int, ...], extra: tuple[int, ...]) -> tuple[int, ...]:
    counts = list(ranks)
    for rank in extra:
        counts[rank] += 1
    return tuple(counts)


@lru_cache(maxsize=64)  # decompositions and hand_facts of one hand share the work
def _splits(h: _Hand) -> tuple[list[Split], list[Split]]:
    """(standard splits, seven-pairs splits) of the concealed tiles, for every choice of tiles for the
    wilds (each distinct choice is a distinct multiset, so no split repeats); both empty if the suits
    are illegal."""
    if not _suits_allowed(h):
        return [], []
    standard: set[Split] = set()
    pairs = []
    kinds = [t for t in range(NUM_KINDS) if _wild_suits_allowed(h, {t // 9})]
    for extra in itertools.combinations_with_replacement(kinds, h.wilds):
        counts = list(h.concealed)
        for tile in extra:
            counts[tile] += 1
        if not _wild_suits_allowed(h, _suits_of(counts)):
            continue
        if _suits_could_split(counts):  # a quick per-suit test before the whole-hand search
            standard |= _standard_splits(counts)
        if h.seven_pairs and not h.melds and _all_even(counts):
            pairs.append(_seven_pairs_split(counts))
    return sorted(standard), sorted(pairs)


def _suits_could_split(counts: list[int]) -> bool:
    """Each suit splits into sets, one of them with the pair: necessary for a standard split."""
    suits = [tuple(counts[9 * s : 9 * s + 9]) for s in range(3)]
    return any(all(_suit_splits(suits[s], s == p) for s in range(3)) for p in range(3))


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
    """Every complete one-suit vector of 0-4 sets and 0-1 pair, rows grouped by (sets, pairs); a row may
    pass four of a rank by a few copies in all (wilds standing for fifth copies)."""

    rows: np.ndarray
    labels: list[Label]
    starts: np.ndarray


@cache
def _suit_table(max_excess: int) -> _SuitTable:
    """Built once per `max_excess` by adding up every multiset of sets and an optional pair; a row's total
    fixes its label."""
    shapes = [_vector((r, r, r)) for r in range(9)] + [_vector((r, r + 1, r + 2)) for r in range(7)]
    found: dict[tuple[int, ...], Label] = {}
    for sets in range(5):
        for chosen in itertools.combinations_with_replacement(shapes, sets):
            base = [sum(column) for column in zip(*chosen)] if chosen else [0] * 9
            for pair in [None, *range(9)]:
                row = list(base)
                if pair is not None:
                    row[pair] += 2
                if sum(max(0, c - 4) for c in row) <= max_excess:
                    found[tuple(row)] = (sets, 0 if pair is None else 1)
    ordered = sorted(found.items(), key=lambda item: (item[1], item[0]))
    labels = sorted(set(found.values()))
    starts = [next(i for i, (_, label) in enumerate(ordered) if label == wanted) for wanted in labels]
    rows = np.array([row for row, _ in ordered], dtype=np.int8)
    return _SuitTable(rows, labels, np.array(starts))


def _suit_overlaps(held: Sequence[int], caps: Sequence[int], wilds: int) -> dict[tuple[int, int, int], int]:
    """For one suit: (sets, pairs, excess) -> largest overlap with a complete vector that passes the caps
    by at most `excess` copies in all (copies only wilds can be), for excess 0 to `wilds`."""
    table = _suit_table(wilds)
    overlap = np.minimum(table.rows, np.array(held, dtype=np.int8)).sum(axis=1, dtype=np.int64)
    beyond = np.maximum(table.rows - np.array(caps, dtype=np.int8), 0).sum(axis=1, dtype=np.int64)
    found = {}
    for excess in range(wilds + 1):
        best = np.maximum.reduceat(np.where(beyond <= excess, overlap, -1), table.starts)
        found.update({(*label, excess): int(v) for label, v in zip(table.labels, best) if v >= 0})
    return found


def _best_overlap(h: _Hand) -> int | None:
    """Largest overlap over every allowed suit pair, every split of sets and pair between them and every
    split of the copies beyond the caps that the wilds stand for."""
    caps = [4 - m for m in h.melded]
    per_suit = [_suit_overlaps(h.concealed[9 * s : 9 * s + 9], caps[9 * s : 9 * s + 9], h.wilds) for s in range(3)]
    sets_needed = 4 - len(h.melds)
    candidates = []
    for a, b in _suit_pairs(h):
        for sets_a, pair_a, excess_a in itertools.product(range(sets_needed + 1), (0, 1), range(h.wilds + 1)):
            part_a = per_suit[a].get((sets_a, pair_a, excess_a))
            part_b = per_suit[b].get((sets_needed - sets_a, 1 - pair_a, h.wilds - excess_a))
            if part_a is not None and part_b is not None:
                candidates.append(part_a + part_b)
        if h.seven_pairs and not h.melds:
            candidates.append(_seven_pairs_overlap(h.concealed, (a, b), h.wilds))
    return max(candidates, default=None)


def _suit_pairs(h: _Hand) -> list[tuple[int, int]]:
    """The two-suit sets a complete hand may use: no void suit, and every melded suit inside."""
    allowed = [s for s in range(3) if s != h.void]
    meld_suits = {g[0] // 9 for g in h.melds}
    return [pair for pair in itertools.combinations(allowed, 2) if meld_suits <= set(pair)]


def _seven_pairs_overlap(counts: Sequence[int], suits: tuple[int, int], wilds: int) -> int:
    """Best overlap with seven pairs in two suits: exhaustive over 0-3 pairs of each tile (four copies
    are two pairs; a third pair is two copies beyond four), at most `wilds` copies beyond four."""
    best = {(0, 0): 0}
    for tile in (t for t in range(NUM_KINDS) if t // 9 in suits):
        step: dict[tuple[int, int], int] = {}
        for (used, excess), overlap in best.items():
            for pairs in range(4):
                state = (used + pairs, excess + max(0, 2 * pairs - 4))
                if state[0] <= 7 and state[1] <= wilds:
                    step[state] = max(step.get(state, -1), overlap + min(counts[tile], 2 * pairs))
        best = step
    return max(value for (used, _), value in best.items() if used == 7)


# --- small helpers ----------------------------------------------------------------------------


def _roots(h: _Hand) -> int:
    """根: kinds with all four natural copies in hand and pongs; a declared kong is not a root."""
    pongs = _counts_of(g[: len(g) - w] for g, w in zip(h.melds, h.meld_wilds) if len(g) == 3)
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
