"""Slow, obviously correct scoring of a winning hand (RULES.md §8–§9), to cross-check the Rust scorer.

Everything is brute force: every decomposition of the hand is enumerated, every pattern it meets is
listed by its definition, and the best (decomposition, pattern) is taken by the points it is worth.
Nothing here reads the Rust code; the rules come only from a rules dict in the ``Rules.to_dict()``
schema (docs/rules-schema.md), e.g. ``presets.PRESETS["chengdu"]``.

Readings where RULES.md leaves a choice (the Rust scorer must make the same ones):

1. *Highest pattern.* Each decomposition meets a set of patterns; only the available ones (fan not
   null) count, and of those only the ones with the highest pattern fan. Between equal-fan patterns
   (e.g. ``dragon_seven_pairs`` and ``flush_seven_pairs`` in a room without the flush dragon) the
   one worth more points is taken, so ties never cost a root.
2. *Seven pairs as a shape.* A seven-pairs decomposition also meets ``basic``, ``concealed`` and
   (one suit) ``full_flush``, so a room allowing seven pairs without pricing a seven-pairs pattern
   still scores the hand. It never meets ``terminals`` or the triplet patterns.
3. *Ties between decompositions.* The result with the most points wins; then the higher total fan
   (before the cap); then the higher ``pattern_fan``; then the pattern named first in RULES.md §8
   (``presets.PATTERNS`` order). Example, chengdu ``11223377889999m``: ``flush_terminals`` 5 + 1 根
   and ``flush_dragon_seven_pairs`` 6 + 0 根 are both 6 fan; ``flush_dragon_seven_pairs`` is reported.
4. *Roots (根).* Each tile kind held four times among concealed tiles + winning tile + exposed
   pongs, independent of the decomposition; declared kongs (exposed or concealed) only with
   ``gen_counts_kongs``. A dragon seven-pairs pattern removes exactly one root, however many fours
   the hand holds.
5. *门清 (``concealed``).* Met when the hand has no exposed meld (concealed kongs allowed); a win on
   a discard still counts (the winning discard is not a "claimed tile" here).
6. *天胡/地胡.* When flagged and priced: with ``heavenly_stacks`` they are a bonus added to the hand's
   own pattern; otherwise they are one more pattern the hand meets, so they replace a lower pattern
   (in every seed preset they are the top pattern, so they always replace). Roots and kongs still
   add. Where their fan is null (dashiyou, sanxia) the flag is ignored.
7. *Robbing a kong with ``rob_kong_scoring = "as_basic"``.* The hand must still be a win; the
   pattern is ``basic`` (never ``concealed``); roots, the winner's kongs and ``rob_kong_fan`` add.
8. *``self_draw_bonus``.* ``"add_fan"``: a ``self_draw`` bonus of 1 fan, inside the cap.
   ``"add_base"`` (自摸加底): ``base_points`` added to ``points`` after the cap and the fan curve;
   ``fan`` and ``capped_fan`` are unchanged.
9. *Wilds* (``rules["wilds"]``, docs/game-protocol.md §11). ``hand`` lists natural tiles only (a
   ``1s`` there is refused), ``wilds=`` counts the wilds held beside them, ``win_tile="1s"`` is a
   winning wild, and a meld may hold wilds written as ``1s`` (``"55m1s"``, ``"5m111s"``). Every
   assignment of the concealed wilds (the winning one included) to tile kinds of the suits the
   natural tiles allow is tried (a fifth copy too; the kind ``1s`` as well), and each assigned
   hand is scored as in 1–8; a meld's wilds stand for its tile. One suit and 2-5-8 only read the
   natural tiles of hand and melds; 根 counts four *natural* copies among hand and pongs (a pong's
   natural copies plus the hand's), never a four made with a wild, and a dragon seven pairs needs
   such a four. A kong holding wilds is a kong. ``no_wild`` (无鸡加番) is added when the concealed
   hand, winning tile included, holds no wild (wilds in melds do not count). Four wilds score
   ``basic`` plus one ``four_wilds`` bonus worth ``cap_fan`` and nothing else (no extra points).
10. *Points.* ``linear``: fan × base; ``exponential``: base × 2^(fan − fan_offset), and 2^0 when
    fan < fan_offset (cannot happen in a seed preset); ``multiplier_table``: base × 2^fan.
11. *Bonuses* are counted one unit at a time (each root, each kong) and listed as the engine's
    ``Score.to_dict()`` does: one ``{"name", "count", "fan"}`` per kind (``fan`` the kind's
    total) in a fixed order: heavenly or earthly (stacking), root, exposed_kong, concealed_kong,
    kong_flower, kong_shot, rob_kong, self_draw, no_wild, four_wilds, golden_hook (金钩钓: four
    melds, concealed kongs among them), last_tile_self_draw (海底捞月: ``last_tile`` and
    ``self_draw``), last_discard_win (海底炮: ``last_tile`` on a discard; neither in 查叫). Kinds
    worth 0 fan are left out
    (dashiyou's roots, sanxia's 杠开). A late kong under ``late_kong = "root_only"`` is a root, not
    a kong (``root_only_kongs``).
12. *Flags* must be consistent: ``kong_flower`` needs ``self_draw``; ``kong_shot`` and
    ``robbed_kong`` need a discard win and exclude each other but under ``kong_shot_on_rob`` (an
    add kong robbed right after a kong, MIL ⑧); ``heavenly`` excludes ``earthly``.
    Anything else is a ValueError.
13. *查叫 (``best_waits``).* Pattern + roots + own kongs, capped: no situational bonus, no
    ``self_draw`` bonus, no ``no_wild`` bonus, no heavenly/earthly. A tile whose four (natural)
    copies are all in the player's own hand and melds is not a wait; with wilds, ``1s`` itself is
    never listed, so a hand that only a drawn wild completes is not ready (protocol §11). Under
    ``ready_wait_copies = "hand_only"`` (MIL Art.10-3(2)) only the concealed hand's four rule a
    tile out, so a "fifth copy" against the player's own pong or kong is a wait (a hand holding
    wilds keeps the first rule); its tile's 根 counts once.
"""

from __future__ import annotations

import itertools
import operator
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

from .presets import PATTERNS

__all__ = ["score", "points_for_fan", "best_waits", "four_wilds_score"]

TileSpec = Union[str, int]
TilesSpec = Union[str, Iterable[int]]

_SUIT_OF_LETTER = {"m": 0, "p": 1, "s": 2, "万": 0, "萬": 0, "筒": 1, "条": 2, "條": 2}
_SUIT_LETTERS = "mps"
_WILD = 18  # 1s, 幺鸡
_DRAGON_PATTERNS = ("dragon_seven_pairs", "flush_dragon_seven_pairs")
_BONUS_ORDER = (
    "heavenly",
    "earthly",
    "root",
    "exposed_kong",
    "concealed_kong",
    "kong_flower",
    "kong_shot",
    "rob_kong",
    "self_draw",
    "no_wild",
    "four_wilds",
    "golden_hook",
    "last_tile_self_draw",
    "last_discard_win",
)

# A set in a decomposition: ("triplet", tile) or ("sequence", lowest tile). Kongs are triplets.
Set = Tuple[str, int]


# ---------------------------------------------------------------------------------------------
# Tiles


def _suit(tile: int) -> int:
    return tile // 9


def _rank(tile: int) -> int:
    """Rank 1–9."""
    return tile % 9 + 1


def _parse_tiles(spec: TilesSpec, what: str) -> List[int]:
    """Tile indices from a hand string (``"2344567m345p"``, also 万/筒/条) or a sequence of indices.

    Errors name the offending character and its position, as RULES.md §1 asks.
    """
    if not isinstance(spec, str):
        indices = [operator.index(t) for t in spec]
        for t in indices:
            if not 0 <= t < 27:
                raise ValueError(f"{what}: tile index {t} is outside 0–26")
        return indices
    tiles: List[int] = []
    ranks: List[int] = []
    for pos, ch in enumerate(spec):
        if ch in "123456789":
            ranks.append(int(ch))
        elif ch in _SUIT_OF_LETTER:
            if not ranks:
                raise ValueError(f"{what}: suit {ch!r} at position {pos} follows no digit in {spec!r}")
            tiles.extend(_SUIT_OF_LETTER[ch] * 9 + r - 1 for r in ranks)
            ranks = []
        elif ch.isspace():
            continue
        else:
            raise ValueError(f"{what}: unexpected character {ch!r} at position {pos} in {spec!r}")
    if ranks:
        raise ValueError(f"{what}: digits at the end of {spec!r} have no suit letter")
    return tiles


def _parse_tile(spec: TileSpec, what: str) -> int:
    tiles = _parse_tiles(spec, what) if isinstance(spec, str) else _parse_tiles([spec], what)
    if len(tiles) != 1:
        raise ValueError(f"{what}: expected one tile, got {spec!r}")
    return tiles[0]


def _parse_void(void: Union[str, int, None]) -> Optional[int]:
    """The void suit as 0 (m), 1 (p), 2 (s), or None; accepts the letter or the number."""
    if void is None:
        return None
    if isinstance(void, str):
        if void not in _SUIT_OF_LETTER:
            raise ValueError(f"void: expected one of m, p, s, got {void!r}")
        return _SUIT_OF_LETTER[void]
    suit = operator.index(void)
    if suit not in (0, 1, 2):
        raise ValueError(f"void: expected suit 0, 1 or 2, got {void!r}")
    return suit


def _parse_meld(spec: TilesSpec, sizes: Tuple[int, ...], what: str, wild_rules: bool = False) -> Tuple[int, int, int]:
    """A meld as (tile, size, wilds): three (pong) or four (kong) tiles of one kind. Under the
    wild rules the ``1s`` among them are wilds standing for the kind, and at least one tile is
    natural (protocol §11: ``"55m1s"``, ``"5m111s"``)."""
    tiles = _parse_tiles(spec, what)
    natural = [t for t in tiles if not (wild_rules and t == _WILD)]
    if len(tiles) not in sizes or not natural or len(set(natural)) != 1:
        kinds = " or ".join({3: "three", 4: "four"}[n] for n in sizes)
        held = " (wilds written 1s, at least one natural tile)" if wild_rules else ""
        raise ValueError(f"{what}: {spec!r} is not {kinds} identical tiles{held}")
    return natural[0], len(tiles), len(tiles) - len(natural)


# ---------------------------------------------------------------------------------------------
# The tiles of one win, validated


class _Deal:
    """A player's tiles at the moment of a (possible) win: natural concealed tiles including the
    winning tile, the concealed wilds (the winning tile too if it is one), exposed melds as (tile,
    3 or 4, wilds), concealed kongs as (tile, wilds)."""

    def __init__(
        self,
        concealed: Sequence[int],
        melds: Sequence[Tuple[int, int, int]],
        concealed_kongs: Sequence[Tuple[int, int]],
        root_only: Sequence[int] = (),
        wilds: int = 0,
    ) -> None:
        self.counts = [0] * 27
        for t in concealed:
            self.counts[t] += 1
        self.wilds = wilds
        self.melds = list(melds)
        self.concealed_kongs = list(concealed_kongs)
        self.root_only = set(root_only)

    def all_counts(self) -> List[int]:
        """Every natural tile the player holds, melds and kongs included (their wilds are not)."""
        counts = list(self.counts)
        for tile, size, wilds in self.melds:
            counts[tile] += size - wilds
        for tile, wilds in self.concealed_kongs:
            counts[tile] += 4 - wilds
        return counts

    def wilds_held(self) -> int:
        """Every wild: concealed and inside melds."""
        return self.wilds + sum(w for _, _, w in self.melds) + sum(w for _, w in self.concealed_kongs)

    def suits(self) -> set:
        """Suits of the natural tiles (a wild has none)."""
        return {_suit(t) for t, n in enumerate(self.all_counts()) if n}

    def meld_sets(self) -> List[Set]:
        """Exposed melds and concealed kongs as triplets, for the hand's shape."""
        return [("triplet", t) for t, _, _ in self.melds] + [("triplet", t) for t, _ in self.concealed_kongs]

    def exposed_kongs(self) -> int:
        """Exposed kongs that score as kongs (a root-only late kong scores as a root instead)."""
        return sum(1 for t, size, _ in self.melds if size == 4 and t not in self.root_only)

    def scoring_concealed_kongs(self) -> int:
        return sum(1 for t, _ in self.concealed_kongs if t not in self.root_only)

    def roots(self, rules: Dict[str, Any]) -> int:
        """根: tile kinds held four times among natural concealed tiles and the natural tiles of
        exposed pongs (RULES.md §8; protocol §11: never a four made with a wild); declared kongs
        only with ``gen_counts_kongs`` (and then only all-natural ones), or when late under
        ``late_kong = "root_only"`` (seed 002 計分規則 12: 只算根), wilds or not."""
        counts = list(self.counts)
        for tile, size, wilds in self.melds:
            if size == 3:
                counts[tile] += 3 - wilds
        # A "fifth copy" wait against a pong (``ready_wait_copies = "hand_only"``) holds five:
        # still one 根 (MIL Art.10-3(4): 同一种牌的根或杠只计 1 番).
        roots = sum(1 for n in counts if n >= 4)
        kongs = [(t, w) for t, size, w in self.melds if size == 4] + self.concealed_kongs
        roots += sum(1 for t, w in kongs if t in self.root_only or (rules["gen_counts_kongs"] and w == 0))
        return roots


def _build_deal(
    hand: TilesSpec,
    melds: Iterable[TilesSpec],
    concealed_kongs: Iterable[TilesSpec],
    extra: Optional[int],
    root_only_kongs: Iterable[TilesSpec] = (),
    *,
    rules: Dict[str, Any],
    wilds: int = 0,
    fifth_copy: bool = False,
) -> _Deal:
    """Parse and validate; ``extra`` is the winning tile (None for a 13-tile waiting hand), a
    wild when it is ``1s`` under the wild rules. ``fifth_copy`` lets ``extra`` be a copy beyond
    the four hand and melds may hold (a 查叫 wait under ``ready_wait_copies = "hand_only"``)."""
    wild_rules = bool(rules["wilds"])
    if isinstance(wilds, bool) or not isinstance(wilds, int) or not 0 <= wilds <= 4:
        raise ValueError(f"wilds: expected an int from 0 to 4, got {wilds!r}")
    if wilds and not wild_rules:
        raise ValueError("wilds: these rules have no wilds (rules['wilds'] is false)")
    concealed = _parse_tiles(hand, "hand")
    if wild_rules and _WILD in concealed:
        raise ValueError("hand: lists natural tiles only; count the wilds (1s) with wilds=")
    parsed_melds = [_parse_meld(m, (3, 4), "meld", wild_rules) for m in melds]
    parsed_kongs = [_parse_meld(k, (4,), "concealed kong", wild_rules) for k in concealed_kongs]
    root_only = [_parse_meld(k, (4,), "root-only kong", wild_rules)[0] for k in root_only_kongs]
    declared = {t for t, size, _ in parsed_melds if size == 4} | {t for t, _, _ in parsed_kongs}
    if not set(root_only) <= declared:
        raise ValueError("root_only_kongs must name kongs among melds or concealed_kongs")
    expected = 13 - 3 * (len(parsed_melds) + len(parsed_kongs))
    if expected < 1 or len(concealed) + wilds != expected:
        held = f" + {wilds} wilds" if wilds else ""
        raise ValueError(
            f"hand: {len(concealed)} concealed tiles{held} with "
            f"{len(parsed_melds) + len(parsed_kongs)} melds; expected {expected}"
        )
    if extra is not None:
        if wild_rules and extra == _WILD:
            wilds += 1
        else:
            concealed = concealed + [extra]
    deal = _Deal(concealed, parsed_melds, [(t, w) for t, _, w in parsed_kongs], root_only, wilds)
    for t, n in enumerate(deal.all_counts()):
        if n > 4 and not (fifth_copy and t == extra and deal.counts[t] <= 4):
            raise ValueError(f"{n} copies of {_rank(t)}{_SUIT_LETTERS[_suit(t)]}; at most 4 exist")
    if deal.wilds_held() > 4:
        raise ValueError(f"{deal.wilds_held()} wilds (1s); at most 4 exist")
    return deal


# ---------------------------------------------------------------------------------------------
# Decompositions


def _set_splits(counts: List[int], start: int = 0) -> List[List[Set]]:
    """Every way to cut ``counts`` into triplets and sequences.

    The lowest remaining tile can only be a triplet or the start of a sequence (nothing lower is
    left to start one that contains it), so trying both finds every decomposition exactly once.
    """
    while start < 27 and counts[start] == 0:
        start += 1
    if start == 27:
        return [[]]
    splits: List[List[Set]] = []
    if counts[start] >= 3:
        counts[start] -= 3
        splits += [[("triplet", start)] + rest for rest in _set_splits(counts, start)]
        counts[start] += 3
    if _rank(start) <= 7 and counts[start + 1] and counts[start + 2]:
        for t in (start, start + 1, start + 2):
            counts[t] -= 1
        splits += [[("sequence", start)] + rest for rest in _set_splits(counts, start)]
        for t in (start, start + 1, start + 2):
            counts[t] += 1
    return splits


def _standard_splits(counts: List[int]) -> List[Tuple[int, List[Set]]]:
    """Every (pair tile, concealed sets) decomposition of the concealed tiles."""
    splits = []
    for pair in range(27):
        if counts[pair] >= 2:
            rest = list(counts)
            rest[pair] -= 2
            splits += [(pair, sets) for sets in _set_splits(rest)]
    return splits


def _is_seven_pairs(deal: _Deal, counts: List[int]) -> bool:
    """Seven pairs from a fully concealed hand (``counts``: the concealed tiles with the wilds
    assigned); four of a kind is two pairs (RULES.md §8), six three."""
    return not deal.melds and not deal.concealed_kongs and sum(counts) == 14 and all(n % 2 == 0 for n in counts)


# ---------------------------------------------------------------------------------------------
# Patterns met by one decomposition (definitions of RULES.md §8)


def _has_terminal(kind: str, tile: int) -> bool:
    """Does this set hold a 1 or a 9? A sequence starting at 1 or at 7 does."""
    if kind == "sequence":
        return _rank(tile) in (1, 7)
    return _rank(tile) in (1, 9)


def _standard_patterns(deal: _Deal, pair: int, concealed_sets: List[Set]) -> set:
    sets = deal.meld_sets() + concealed_sets
    flush = len(deal.suits()) == 1
    triplets = all(kind == "triplet" for kind, _ in sets)
    terminals = _has_terminal("triplet", pair) and all(_has_terminal(k, t) for k, t in sets)
    # 2-5-8 only reads the natural tiles of hand and melds (protocol §11; without wilds these
    # are exactly the split's tiles).
    all_258 = triplets and all(_rank(t) in (2, 5, 8) for t, n in enumerate(deal.all_counts()) if n)
    met = {"basic"}
    if not deal.melds:
        met.add("concealed")
    if triplets:
        met.add("all_triplets")
    if flush:
        met.add("full_flush")
    if flush and triplets:
        met.add("flush_triplets")
    if terminals:
        met.add("terminals")
    if flush and terminals:
        met.add("flush_terminals")
    if all_258:
        met.add("triplets_258")
    return met


def _seven_pairs_patterns(deal: _Deal) -> set:
    flush = len(deal.suits()) == 1
    dragon = 4 in deal.counts  # four natural copies (protocol §11: a wild makes no 根)
    met = {"basic", "concealed", "seven_pairs"}
    if flush:
        met |= {"full_flush", "flush_seven_pairs"}
    if dragon:
        met.add("dragon_seven_pairs")
    if flush and dragon:
        met.add("flush_dragon_seven_pairs")
    return met


def _highest(met: set, rules: Dict[str, Any]) -> List[str]:
    """The available patterns (fan not null) of ``met`` with the highest fan: only the highest
    counts (seeds 002/004: 不重复计算，只按最大番算)."""
    fan = rules["fan"]
    available = [p for p in met if fan.get(p) is not None]
    if not available:
        return []
    top = max(fan[p] for p in available)
    return [p for p in available if fan[p] == top]


# ---------------------------------------------------------------------------------------------
# Fan and points


def points_for_fan(fan: int, rules: Dict[str, Any]) -> int:
    """Points of ``fan`` through the room's curve (RULES.md §9, §13). Never caps: the caller caps
    win values, and a fixed pig fan or kong payment is not capped."""
    return rules["base_points"] * _multiplier(fan, rules)


def _multiplier(fan: int, rules: Dict[str, Any]) -> int:
    """How many times ``base_points`` ``fan`` is worth: ``fan`` itself when linear, else a power
    of two (below ``fan_offset`` counts as ×1)."""
    scoring = rules["scoring"]
    if scoring == "linear":
        return fan
    if scoring == "exponential":
        return 2 ** max(0, fan - rules["fan_offset"])
    if scoring == "multiplier_table":
        return 2**fan
    raise ValueError(f"scoring: {scoring!r} is not linear, exponential or multiplier_table")


class _Situation:
    """How the hand was won; ``ready_only`` is the 查叫 valuation with no situational fan at all."""

    def __init__(
        self,
        *,
        self_draw: bool = False,
        kong_flower: bool = False,
        kong_shot: bool = False,
        robbed_kong: bool = False,
        heavenly: bool = False,
        earthly: bool = False,
        last_tile: bool = False,
        ready_only: bool = False,
    ) -> None:
        self.self_draw = self_draw
        self.kong_flower = kong_flower
        self.kong_shot = kong_shot
        self.robbed_kong = robbed_kong
        self.heavenly = heavenly
        self.earthly = earthly
        self.last_tile = last_tile
        self.ready_only = ready_only

    def check(self, rules: Dict[str, Any]) -> None:
        if self.kong_flower and not self.self_draw:
            raise ValueError("kong_flower (杠上花) is a self-drawn win: pass self_draw=True")
        if (self.kong_shot or self.robbed_kong) and self.self_draw:
            raise ValueError("kong_shot and robbed_kong are wins on another player's tile")
        if self.kong_shot and self.robbed_kong and not rules["kong_shot_on_rob"]:
            raise ValueError("kong_shot and robbed_kong cannot both hold without kong_shot_on_rob")
        if self.heavenly and self.earthly:
            raise ValueError("heavenly and earthly cannot both hold")

    def special(self, rules: Dict[str, Any]) -> Optional[str]:
        """``"heavenly"`` or ``"earthly"`` when flagged and priced in this room, else None."""
        for name, flagged in (("heavenly", self.heavenly), ("earthly", self.earthly)):
            if flagged and not self.ready_only and rules["fan"].get(name) is not None:
                return name
        return None


def _bonuses(pattern: str, deal: _Deal, rules: Dict[str, Any], situation: _Situation) -> List[Dict[str, Any]]:
    """Every bonus added to ``pattern``, one entry per unit, zero-fan entries left out."""
    units: List[Tuple[str, int]] = []
    special = situation.special(rules)
    if special and rules["heavenly_stacks"]:
        units.append((special, rules["fan"][special]))
    roots = deal.roots(rules) - (1 if pattern in _DRAGON_PATTERNS else 0)
    units += [("root", rules["gen_fan"])] * roots
    units += [("exposed_kong", rules["exposed_kong_fan"])] * deal.exposed_kongs()
    units += [("concealed_kong", rules["concealed_kong_fan"])] * deal.scoring_concealed_kongs()
    if len(deal.meld_sets()) == 4:  # 金钩钓: four melds, the last tile a single wait on its pair
        units.append(("golden_hook", rules["golden_hook_fan"]))
    if not situation.ready_only:
        if situation.kong_flower:
            units.append(("kong_flower", rules["kong_flower_fan"]))
        if situation.kong_shot:
            units.append(("kong_shot", rules["kong_shot_fan"]))
        if situation.robbed_kong:
            units.append(("rob_kong", rules["rob_kong_fan"]))
        if situation.self_draw and rules["self_draw_bonus"] == "add_fan":
            units.append(("self_draw", 1))
        if rules["wilds"] and deal.wilds == 0:  # 无鸡加番: no wild in hand (melds aside)
            units.append(("no_wild", rules["no_wild_fan"]))
        if situation.last_tile and situation.self_draw:  # 海底捞月
            units.append(("last_tile_self_draw", rules["last_tile_self_draw_fan"]))
        elif situation.last_tile:  # 海底炮
            units.append(("last_discard_win", rules["last_discard_win_fan"]))
    return _grouped([(name, fan) for name, fan in units if fan != 0])


def _grouped(units: List[Tuple[str, int]]) -> List[Dict[str, Any]]:
    """Bonus units as the engine's ``Score.to_dict()`` lists them: one entry per kind, in
    ``_BONUS_ORDER``, with how many units and their total fan."""
    names = sorted({name for name, _ in units}, key=_BONUS_ORDER.index)
    return [
        {"name": name, "count": sum(1 for n, _ in units if n == name), "fan": sum(f for n, f in units if n == name)}
        for name in names
    ]


def _result(pattern: str, deal: _Deal, rules: Dict[str, Any], situation: _Situation) -> Dict[str, Any]:
    """The score dict of ``deal`` read as ``pattern``."""
    pattern_fan = rules["fan"][pattern]
    bonuses = _bonuses(pattern, deal, rules, situation)
    fan = pattern_fan + sum(b["fan"] for b in bonuses)
    cap = rules["cap_fan"]
    capped = fan if cap is None else min(fan, cap)
    extra = 0
    if situation.self_draw and not situation.ready_only and rules["self_draw_bonus"] == "add_base":
        extra = rules["base_points"]
    multiplier = _multiplier(capped, rules)
    return {
        "pattern": pattern,
        "pattern_fan": pattern_fan,
        "bonuses": bonuses,
        "fan": fan,
        "capped_fan": capped,
        "multiplier": multiplier,
        "extra_points": extra,
        "points": rules["base_points"] * multiplier + extra,
    }


def _rank_key(result: Dict[str, Any]) -> tuple:
    """Most points, then most fan, then the bigger pattern, then RULES.md §8's order."""
    return (result["points"], result["fan"], result["pattern_fan"], -PATTERNS.index(result["pattern"]))


def _wild_assignments(deal: _Deal, void: Optional[int]) -> List[List[int]]:
    """The concealed tiles once more for each way to read the concealed wilds: every multiset of
    tile kinds (a fifth copy and the kind ``1s`` too) that keeps the hand within two suits, none
    of them the void suit (docs/wilds.md). Without wilds, just the tiles."""
    natural = deal.suits()
    kinds = [t for t in range(27) if len(natural | {_suit(t)}) <= 2 and _suit(t) != void]
    found = []
    for chosen in itertools.combinations_with_replacement(kinds, deal.wilds):
        if len(natural | {_suit(t) for t in chosen}) > 2:
            continue
        counts = list(deal.counts)
        for t in chosen:
            counts[t] += 1
        found.append(counts)
    return found


def _candidate_patterns(deal: _Deal, rules: Dict[str, Any], situation: _Situation, void: Optional[int]) -> List[str]:
    """Every pattern some decomposition, under some reading of the wilds, can be scored as
    (each decomposition's highest ones)."""
    met_sets = []
    for counts in _wild_assignments(deal, void):
        met_sets += [_standard_patterns(deal, pair, sets) for pair, sets in _standard_splits(counts)]
        if rules["allow_seven_pairs"] and _is_seven_pairs(deal, counts):
            met_sets.append(_seven_pairs_patterns(deal))
    special = situation.special(rules)
    if special and not rules["heavenly_stacks"]:
        for met in met_sets:
            met.add(special)
    if not met_sets:
        return []
    if situation.robbed_kong and rules["rob_kong_scoring"] == "as_basic":
        if rules["fan"].get("basic") is None:
            raise ValueError("rob_kong_scoring is as_basic but the room has no basic fan")
        return ["basic"]
    return sorted({p for met in met_sets for p in _highest(met, rules)}, key=PATTERNS.index)


def four_wilds_score(rules: Dict[str, Any]) -> Dict[str, Any]:
    """Four wilds (protocol §11, seed 004 四个幺鸡…最大番): ``basic`` plus one ``four_wilds`` bonus
    worth ``cap_fan``, and nothing else."""
    cap = rules["cap_fan"]
    if cap is None:
        raise ValueError("four wilds win at cap_fan, and these rules have no cap_fan")
    pattern_fan = rules["fan"]["basic"]
    fan = pattern_fan + cap
    multiplier = _multiplier(min(fan, cap), rules)
    return {
        "pattern": "basic",
        "pattern_fan": pattern_fan,
        "bonuses": [{"name": "four_wilds", "count": 1, "fan": cap}],
        "fan": fan,
        "capped_fan": min(fan, cap),
        "multiplier": multiplier,
        "extra_points": 0,
        "points": rules["base_points"] * multiplier,
    }


def _evaluate(
    deal: _Deal, rules: Dict[str, Any], void: Optional[int], situation: _Situation
) -> Optional[Dict[str, Any]]:
    """The best score of ``deal`` (14 tiles counting melds and wilds), or None if it is not a win."""
    if rules["wilds"] and deal.wilds == 4:
        return four_wilds_score(rules)
    suits = deal.suits()
    if len(suits) > 2 or (void is not None and void in suits):
        return None
    results = [_result(p, deal, rules, situation) for p in _candidate_patterns(deal, rules, situation, void)]
    return max(results, key=_rank_key) if results else None


# ---------------------------------------------------------------------------------------------
# Public API


def score(
    hand: TilesSpec,
    win_tile: TileSpec,
    *,
    melds: Iterable[TilesSpec] = (),
    concealed_kongs: Iterable[TilesSpec] = (),
    void: Union[str, int, None] = None,
    rules: Dict[str, Any],
    self_draw: bool = False,
    kong_flower: bool = False,
    kong_shot: bool = False,
    robbed_kong: bool = False,
    heavenly: bool = False,
    earthly: bool = False,
    last_tile: bool = False,
    root_only_kongs: Iterable[TilesSpec] = (),
    wilds: int = 0,
) -> Dict[str, Any]:
    """Score a win (RULES.md §8–§9) by trying every decomposition and keeping the most points.

    ``hand`` is the concealed tiles without ``win_tile``; ``melds`` are exposed pongs ("555m") and
    kongs ("5555m"); ``concealed_kongs`` are "5555m". ``void`` is the declared void suit ("m", "p",
    "s" or 0–2). ``root_only_kongs`` names kongs (among the two lists) that score as roots
    (``late_kong = "root_only"``). Under ``rules["wilds"]``: ``hand`` lists natural tiles,
    ``wilds`` counts the wilds held beside them, ``win_tile="1s"`` is a winning wild, and melds
    write their wilds as ``1s`` ("55m1s"). Returns the engine's ``Score.to_dict()`` form:
    ``{"pattern", "pattern_fan", "bonuses": [{"name", "count", "fan"}, ...], "fan",
    "capped_fan", "multiplier", "extra_points", "points"}``. Raises ValueError for malformed input
    or a hand that is not a win (more than two suits, a tile of ``void``, no decomposition, seven
    pairs where not allowed). See the module docstring for every reading this makes.
    """
    situation = _Situation(
        self_draw=self_draw,
        kong_flower=kong_flower,
        kong_shot=kong_shot,
        robbed_kong=robbed_kong,
        heavenly=heavenly,
        earthly=earthly,
        last_tile=last_tile,
    )
    situation.check(rules)
    deal = _build_deal(
        hand, melds, concealed_kongs, _parse_tile(win_tile, "win_tile"), root_only_kongs, rules=rules, wilds=wilds
    )
    result = _evaluate(deal, rules, _parse_void(void), situation)
    if result is None:
        raise ValueError("not a winning hand under these rules")
    return result


def best_waits(
    hand13: TilesSpec,
    *,
    melds: Iterable[TilesSpec] = (),
    concealed_kongs: Iterable[TilesSpec] = (),
    void: Union[str, int, None] = None,
    rules: Dict[str, Any],
    root_only_kongs: Iterable[TilesSpec] = (),
    wilds: int = 0,
) -> List[Tuple[int, Dict[str, Any]]]:
    """查叫: each natural tile that completes the hand, with its best score from pattern + roots +
    own kongs only, capped (RULES.md §9). An empty list means the hand is not ready. ``wilds`` as
    in ``score``; a drawn wild is never a wait (protocol §11)."""
    melds = list(melds)
    concealed_kongs = list(concealed_kongs)
    void_suit = _parse_void(void)
    root_only_kongs = list(root_only_kongs)
    waiting = _build_deal(hand13, melds, concealed_kongs, None, root_only_kongs, rules=rules, wilds=wilds)
    hand_only = rules["ready_wait_copies"] == "hand_only" and wilds == 0
    held = waiting.counts if hand_only else waiting.all_counts()
    waits = []
    for tile in range(27):
        if held[tile] == 4 or (rules["wilds"] and tile == _WILD):
            continue
        deal = _build_deal(
            hand13, melds, concealed_kongs, tile, root_only_kongs, rules=rules, wilds=wilds, fifth_copy=hand_only
        )
        result = _evaluate(deal, rules, void_suit, _Situation(ready_only=True))
        if result is not None:
            waits.append((tile, result))
    return waits
