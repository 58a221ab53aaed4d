"""Hypothesis strategies for hands: random tiles, melds, void suits, near-winning hands, and the same
with some tiles turned into wilds (幺鸡)."""

from __future__ import annotations

from dataclasses import dataclass, field

from hypothesis import assume
from hypothesis import strategies as st

SUITS = "mps"


def tile_text(t: int) -> str:
    return f"{t % 9 + 1}{SUITS[t // 9]}"


@dataclass
class Case:
    """A concealed hand as 27 counts (natural tiles), its melds as strings, the wilds held besides the
    counts, and the options of the call."""

    counts: list[int]
    melds: list[str] = field(default_factory=list)
    void: str | None = None
    seven_pairs: bool = True
    wilds: int = 0

    def kwargs(self) -> dict:
        return {"melds": self.melds, "void": self.void, "seven_pairs": self.seven_pairs, "wilds": self.wilds}


@st.composite
def melds(draw, max_melds: int = 4) -> tuple[list[str], list[int]]:
    """Up to `max_melds` pongs and kongs of distinct tiles, with the copies they use."""
    used = [0] * 27
    texts = []
    for tile in draw(st.lists(st.integers(0, 26), max_size=max_melds, unique=True)):
        size = draw(st.sampled_from([3, 4]))
        used[tile] = size
        texts.append(str(tile % 9 + 1) * size + SUITS[tile // 9])
    return texts, used


@st.composite
def fill(draw, used: list[int], size: int, suits: str = SUITS) -> list[int]:
    """`size` more tiles from `suits`, never more than four of a tile counting `used`."""
    counts = [0] * 27
    allowed = [t for t in range(27) if SUITS[t // 9] in suits]
    for _ in range(size):
        free = [t for t in allowed if counts[t] + used[t] < 4]
        counts[draw(st.sampled_from(free))] += 1
    return counts


options = st.fixed_dictionaries({"void": st.sampled_from([None, "m", "p", "s"]), "seven_pairs": st.booleans()})


@st.composite
def random_cases(draw, waiting: bool | None = None, max_melds: int = 4) -> Case:
    """Random tiles (often from few suits) with random melds; `waiting` picks 13 or 14 tiles."""
    meld_texts, used = draw(melds(max_melds))
    size = 14 - 3 * len(meld_texts) - (draw(st.booleans()) if waiting is None else int(waiting))
    suits = draw(st.sampled_from(["mps", "mps", "mp", "ps", "ms", "m", "p", "s"]))
    counts = draw(fill(used, size, suits))
    return Case(counts, meld_texts, **draw(options))


@st.composite
def complete_cases(draw, max_melds: int = 4) -> Case:
    """A complete hand in at most two suits (melds, a pair, sets), or seven pairs."""
    two_suits = draw(st.sampled_from(["mp", "ms", "ps", "m", "p", "s"]))
    tiles = [t for t in range(27) if SUITS[t // 9] in two_suits]
    if draw(st.integers(0, 5)) == 0:
        counts = [0] * 27
        for t in draw(st.lists(st.sampled_from(tiles), min_size=7, max_size=7)):
            counts[t] += 2
        if max(counts) <= 4:
            return Case(counts, **draw(options))
    meld_texts, used = draw(melds(max_melds))
    meld_texts = [m for m in meld_texts if m[-1] in two_suits]
    used = [u if SUITS[t // 9] in two_suits else 0 for t, u in enumerate(used)]
    counts = [0] * 27
    counts[draw(st.sampled_from(tiles))] += 2
    for _ in range(4 - len(meld_texts)):
        start = draw(st.sampled_from(tiles))
        if draw(st.booleans()) or start % 9 > 6:
            counts[start] += 3
        else:
            for t in range(start, start + 3):
                counts[t] += 1
    if any(c + u > 4 for c, u in zip(counts, used)):
        return draw(random_cases(waiting=False, max_melds=max_melds))
    return Case(counts, meld_texts, **draw(options))


@st.composite
def near_complete_cases(draw, waiting: bool = False) -> Case:
    """A complete hand with up to two tiles swapped for others (and one removed if `waiting`)."""
    case = draw(complete_cases())
    used = [0] * 27
    for m in case.melds:
        used[int(m[0]) - 1 + 9 * SUITS.index(m[-1])] = len(m) - 1
    held = [t for t in range(27) for _ in range(case.counts[t])]
    for _ in range(draw(st.integers(0, 2))):
        out = draw(st.sampled_from(held))
        free = [t for t in range(27) if case.counts[t] + used[t] < 4 and t != out]
        case.counts[out] -= 1
        held.remove(out)
        new = draw(st.sampled_from(free))
        case.counts[new] += 1
        held.append(new)
    if waiting:
        case.counts[draw(st.sampled_from(held))] -= 1
    return case


@st.composite
def with_wilds(draw, cases: st.SearchStrategy[Case], wilds: st.SearchStrategy[int]) -> Case:
    """A case with some of its natural tiles, picked at random, turned into wilds."""
    case = draw(cases)
    held = [t for t in range(27) for _ in range(case.counts[t])]
    count = min(draw(wilds), len(held))
    for t in draw(st.permutations(held))[:count]:
        case.counts[t] -= 1
    case.wilds = count
    assume(ones_fit(case))
    return case


def ones_fit(case: Case) -> bool:
    """At most four 1s counting wilds: the wilds of 幺鸡 are among the four 1s (issue 12.7)."""
    melded = sum(m.count("1") for m in case.melds if m.endswith("s") and set(m[:-1]) == {"1"})
    return not case.wilds or case.counts[18] + melded + case.wilds <= 4


@st.composite
def fifth_copy_cases(draw, waiting: bool = False) -> Case:
    """A complete hand in at most two suits that holds more than four of some tile (sets and a pair of
    any tiles, up to four kinds over and above their copies), with the copies beyond four, and maybe
    more, turned into wilds; one tile removed if `waiting`."""
    suits = draw(st.sampled_from(["mp", "ms", "ps", "m", "p", "s"]))
    tiles = [t for t in range(27) if SUITS[t // 9] in suits]
    counts = [0] * 27
    counts[draw(st.sampled_from(tiles))] += 2
    for _ in range(4):
        start = draw(st.sampled_from(tiles))
        if draw(st.booleans()) or start % 9 > 6:
            counts[start] += 3
        else:
            for t in range(start, start + 3):
                counts[t] += 1
    beyond = sum(max(0, c - 4) for c in counts)
    if beyond > 4:
        case = draw(with_wilds(complete_cases(max_melds=0), st.integers(1, 4)))
    else:
        wilds = draw(st.integers(beyond, 4))
        for t in range(27):
            counts[t] = min(counts[t], 4)
        held = [t for t in range(27) for _ in range(counts[t])]
        for t in draw(st.permutations(held))[: wilds - beyond]:
            counts[t] -= 1
        case = Case(counts, wilds=wilds, **draw(options))
    if waiting:
        held = [t for t in range(27) for _ in range(case.counts[t])]
        case.counts[draw(st.sampled_from(held))] -= 1
    assume(ones_fit(case))
    return case
