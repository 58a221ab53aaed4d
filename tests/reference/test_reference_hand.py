"""Unit tests of the pure-Python reference alone; every expected value was worked out by hand from RULES.md."""

from __future__ import annotations

import itertools
import random

import pytest

import xueliu.reference as ref

M, P, S = 0, 9, 18  # index of 1m, 1p, 1s

SEED_WINS = [
    "23445677m345789p",  # 234m 456m 77m 345p 789p
    "111333444m66677p",  # 111m 333m 444m 666p 77p
    "11223345678999m",  # 123m 123m 456m 789m 99m
    "11133344555666m",  # 111m 333m 44m 555m 666m
    "22244455577799m",  # 222m 444m 555m 777m 99m
    "222555888m55588p",  # 222m 555m 888m 555p 88p
    "11334466m557799p",  # seven pairs
    "11334466778899m",  # seven pairs
    "11222244m557788p",  # seven pairs, 2222m as two pairs
    "11224444557799m",  # seven pairs, 4444m as two pairs
    "111222333m78999p",  # 111m 222m 333m (or 123m x3) 789p 99p
    "11123777888999m",  # 11m 123m 777m 888m 999m (or 789m x3)
    "123333m45566799s",  # 123m 333m 456s 567s 99s
]


def check_self_consistent(hand: str, **options: object) -> None:
    """is_win, waits and shanten must agree where their definitions meet.

    For N - 1 tiles, waits non-empty <=> shanten 0 holds without exception: shanten 0 means some
    complete c contains all of the hand plus one tile t, and c's cap (c[t] + melded copies <= 4) makes t a
    tile the player does not hold four of, so t is a wait. A hand whose only completion is a fifth copy
    is therefore not ready by the definition (see test_fifth_copy_is_not_a_wait).
    """
    melds = options.get("melds", ())
    full = 14 - 3 * len(melds)  # type: ignore[arg-type]
    size = len(ref.parse_tiles(hand))
    value = ref.shanten(hand, **options)
    if size == full:
        assert ref.is_win(hand, **options) == (value == -1)
        assert bool(ref.decompositions(hand, **options)) == (value == -1)
    else:
        assert size == full - 1
        assert bool(ref.waits(hand, **options)) == (value == 0)
        assert value >= 0


# --- tiles ------------------------------------------------------------------------------------


def test_tile_indices_and_names() -> None:
    assert ref.parse_tiles("1m9m1p9p1s9s") == [0, 8, 9, 17, 18, 26]
    assert [ref.tile_name(i) for i in (0, 4, 8, 9, 17, 18, 26)] == ["1m", "5m", "9m", "1p", "9p", "1s", "9s"]


def test_parse_accepts_chinese_suffixes_and_spaces_between_groups() -> None:
    expected = ref.parse_tiles("23445677m345789p")
    assert ref.parse_tiles("23445677万345789筒") == expected
    assert ref.parse_tiles("23445677萬 345789筒") == expected
    assert ref.parse_tiles(" 23445677m  345789p ") == expected
    assert ref.parse_tiles("123条456條") == [S, S + 1, S + 2, S + 3, S + 4, S + 5]
    assert ref.parse_tiles("") == []


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("123x", r"'x' at position 3"),
        ("102m", r"'0' at position 1"),
        ("123", "no suit letter"),
        ("m123p", "no digits"),
        ("12 3m", "position 2"),
        ("11111m", "only four"),
        ("123m4z", r"'z' at position 5"),
    ],
)
def test_parse_errors_name_the_problem(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ref.parse_tiles(text)


def test_format_sorts_and_groups() -> None:
    assert ref.format_tiles([S + 8, M + 1, P + 2, M + 0]) == "12m3p9s"
    assert ref.format_tiles(ref.parse_tiles("345789p 23445677m")) == "23445677m345789p"
    assert ref.format_tiles([]) == ""
    with pytest.raises(ValueError, match="outside"):
        ref.format_tiles([27])


class _Tile:
    def __init__(self, index: int) -> None:
        self.index = index

    def __index__(self) -> int:
        return self.index


def test_to_counts_accepts_strings_indices_objects_and_count_arrays() -> None:
    counts = [0] * 27
    counts[M + 1] = 2
    counts[S + 8] = 1
    assert ref.to_counts("22m9s") == counts
    assert ref.to_counts([M + 1, S + 8, M + 1]) == counts
    assert ref.to_counts((_Tile(M + 1), _Tile(M + 1), _Tile(S + 8))) == counts
    assert ref.to_counts(counts) == counts
    assert ref.to_counts([]) == [0] * 27


@pytest.mark.parametrize(
    ("hand", "message"),
    [
        (list(range(15)), "at most 14"),
        ([0] * 5, "only four"),
        ([5] + [0] * 26, "only four"),
        ([-1] + [0] * 26, "negative"),
        ([27], "outside"),
        ([1.5], "tile indices"),
    ],
)
def test_to_counts_errors(hand: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ref.to_counts(hand)


# --- wins -------------------------------------------------------------------------------------


@pytest.mark.parametrize("hand", SEED_WINS)
def test_seed_hands_win(hand: str) -> None:
    assert ref.is_win(hand)
    assert ref.shanten(hand) == -1
    check_self_consistent(hand)


@pytest.mark.parametrize("hand", ["11334466m557799p", "11334466778899m", "11222244m557788p", "11224444557799m"])
def test_seven_pairs_only_hands_need_the_option(hand: str) -> None:
    assert not ref.is_win(hand, seven_pairs=False)
    assert ref.shanten(hand, seven_pairs=False) >= 0
    check_self_consistent(hand, seven_pairs=False)


def test_void_suit_blocks_the_win() -> None:
    assert not ref.is_win("23445677m345789p", void="p")
    assert ref.is_win("23445677m345789p", void="s")
    # Only the eight m tiles can stay (234m 456m 77m), so the best overlap is 8.
    assert ref.shanten("23445677m345789p", void="p") == 13 - 8
    check_self_consistent("23445677m345789p", void="p")


@pytest.mark.parametrize("hand", ["123m456p789s11m222m", "1122m3344p5566s77s"])
def test_three_suits_never_win(hand: str) -> None:
    assert not ref.is_win(hand)
    assert ref.decompositions(hand) == []
    check_self_consistent(hand)


def test_three_suit_shanten_drops_the_cheapest_suit() -> None:
    # 123m 11m 222m plus one three-tile set of p or s: three tiles to replace, so shanten 2.
    assert ref.shanten("123m456p789s11m222m") == 2


def test_win_with_a_pong() -> None:
    # The brief's "1m99m234p567p888p" has 12 tiles; with one meld a hand has 11.
    with pytest.raises(ValueError, match="needs 11"):
        ref.is_win("1m99m234p567p888p", melds=["111m"])
    assert ref.is_win("99m234p567p888p", melds=["111m"])
    assert ref.shanten("99m234p567p888p", melds=["111m"]) == -1
    check_self_consistent("99m234p567p888p", melds=["111m"])


def test_melds_never_make_seven_pairs() -> None:
    hand, melds = "1122m3344p", ["555p", "666p"]
    assert not ref.is_win(hand, melds=melds)
    check_self_consistent(hand, melds=melds)


# --- waits ------------------------------------------------------------------------------------


def test_waits_two_sided() -> None:
    # 123m 345m 77m + 23345p: 1p makes 123p 345p, 4p makes 234p 345p.
    assert ref.waits("12334577m23345p") == [P + 0, P + 3]
    check_self_consistent("12334577m23345p")


def test_waits_on_2333m() -> None:
    # 2333m: 1m (123m 33m), 2m (22m 333m), 4m (234m 33m).
    assert ref.waits("2333m567p888p123p") == [M + 0, M + 1, M + 3]
    check_self_consistent("2333m567p888p123p")


def test_waits_leave_out_tiles_all_in_a_kong() -> None:
    assert ref.waits("2333m567p888p", melds=["1111m"]) == [M + 1, M + 3]
    assert ref.shanten("2333m567p888p", melds=["1111m"]) == 0
    check_self_consistent("2333m567p888p", melds=["1111m"])


def test_fifth_copy_is_not_a_wait() -> None:
    # 111m 234p 567p 888p + 1m waits only on a fifth 1m. No allowed complete hand holds all 13
    # tiles (four 1m take 111m + a pair of 1m, five copies), so the best overlap is 12: shanten 1.
    assert ref.waits("1111m234p567p888p") == []
    assert ref.shanten("1111m234p567p888p") == 1
    check_self_consistent("1111m234p567p888p")


# --- shanten ----------------------------------------------------------------------------------


def test_shanten_with_and_without_seven_pairs() -> None:
    # Each suit's tiles are three ranks apart, so every group meets one tile kind. Seven pairs keep
    # 11m 44m 22p + 7m 5p 8p (overlap 9); standard keeps the three pairs + two singles (overlap 8).
    hand = "147m258p369s1m2p3s4m"
    assert ref.shanten(hand) == 4
    assert ref.shanten(hand, seven_pairs=False) == 5
    check_self_consistent(hand)
    check_self_consistent(hand, seven_pairs=False)


@pytest.mark.parametrize(
    ("hand", "melds", "void"),
    [
        ("2345m", ["111m", "111p", "111s"], None),
        ("23456m", ["111m", "111p", "111s"], None),
        ("23456789m99m", ["555p"], "p"),
    ],
)
def test_unreachable(hand: str, melds: list, void: str | None) -> None:
    assert ref.shanten(hand, melds=melds, void=void) == ref.UNREACHABLE == 99
    check_self_consistent(hand, melds=melds, void=void)


def test_shanten_accepts_both_sizes_only() -> None:
    with pytest.raises(ValueError, match="14 or 13"):
        ref.shanten("123m")
    with pytest.raises(ValueError, match="needs 13"):
        ref.waits("23445677m345789p")


# --- decompositions ---------------------------------------------------------------------------


def test_decompositions_list_every_split_and_seven_pairs() -> None:
    # Pair 11m, 44m or 77m works; 22m, 33m, 55m, 66m strand a tile.
    assert ref.decompositions("11223344556677m") == [
        ("11m", "22m", "33m", "44m", "55m", "66m", "77m"),
        ("11m", "234m", "234m", "567m", "567m"),
        ("123m", "123m", "44m", "567m", "567m"),
        ("123m", "123m", "456m", "456m", "77m"),
    ]


def test_decompositions_of_triplets_or_sequences() -> None:
    assert ref.decompositions("11123777888999m") == [
        ("11m", "123m", "777m", "888m", "999m"),
        ("11m", "123m", "789m", "789m", "789m"),
    ]


def test_decompositions_order_by_tile_index_then_melds() -> None:
    assert ref.decompositions("99m234p567p888p", melds=["111m"]) == [("99m", "234p", "567p", "888p", "111m")]
    assert ref.decompositions("234m567p88p", melds=["1111m", "999p"]) == [("234m", "567p", "88p", "1111m", "999p")]


def test_four_of_a_kind_gives_two_equal_pairs() -> None:
    assert ref.decompositions("11222244m557788p") == [("11m", "22m", "22m", "44m", "55p", "77p", "88p")]


def test_decompositions_empty_when_not_a_win() -> None:
    assert ref.decompositions("23445677m345789p", void="p") == []
    assert ref.decompositions("11334466m557799p", seven_pairs=False) == []


# --- hand facts -------------------------------------------------------------------------------


def test_facts_all_triplets() -> None:
    assert ref.hand_facts("111333444m66677p") == {
        "standard": True,
        "seven_pairs": False,
        "all_triplets": True,
        "terminals": False,
        "one_suit": False,
        "only_258": False,
        "roots": 0,
        "kongs": 0,
    }


def test_facts_terminals_from_one_of_two_splits() -> None:
    # 111m 222m 333m fails (222m), 123m x3 + 789p + 99p holds a 1 or 9 everywhere.
    facts = ref.hand_facts("111222333m78999p")
    assert facts["terminals"] and facts["standard"]
    assert not facts["all_triplets"]  # 78999p needs 789p


def test_facts_terminals_count_melds() -> None:
    assert ref.hand_facts("123m789m11m123p", melds=["999p"])["terminals"]
    assert not ref.hand_facts("123m789m11m123p", melds=["555p"])["terminals"]


def test_facts_only_258_triplets() -> None:
    facts = ref.hand_facts("222555888m55588p")
    assert facts["only_258"] and facts["all_triplets"] and not facts["one_suit"]


def test_facts_root_in_hand() -> None:
    assert ref.hand_facts("123333m45566799s")["roots"] == 1


def test_facts_dragon_seven_pairs_in_one_suit() -> None:
    facts = ref.hand_facts("11224444557799m")
    assert facts["seven_pairs"] and facts["one_suit"] and facts["roots"] == 1
    assert not facts["standard"]


def test_facts_pong_plus_fourth_in_hand_is_a_root_but_a_kong_is_not() -> None:
    assert ref.hand_facts("567m234p22p789p", melds=["555m"])["roots"] == 1
    facts = ref.hand_facts("234m567p88p", melds=["1111m", "999p"])
    assert facts["roots"] == 0 and facts["kongs"] == 1
    assert ref.hand_facts("234m567p88p", melds=["1111m", "999p"])["all_triplets"] is False


def test_facts_need_a_win() -> None:
    with pytest.raises(ValueError, match="winning hand"):
        ref.hand_facts("123m456p789s11m222m")


# --- wilds (幺鸡) -----------------------------------------------------------------------------


def test_a_wild_completes_a_pair_a_triplet_or_a_sequence() -> None:
    assert ref.is_win("1m999m234p567p888p", wilds=1)  # 1m + wild: 11m
    assert ref.is_win("11m999m234p567p88p", wilds=1)  # 11m + wild: 111m
    assert ref.is_win("13m999m234p567p88p", wilds=1)  # 13m + wild: 123m
    assert not ref.is_win("14m999m234p567p88p", wilds=1)  # one wild joins 1m or 4m, not both


def test_a_wild_may_be_a_fifth_copy() -> None:
    # 555m + 5m and the wild as a fifth 5m.
    assert ref.decompositions("5555m123p456p789p", wilds=1) == [("55m", "555m", "123p", "456p", "789p")]
    # 12345678p waits on 3p, 6p, 9p once the wild pairs the fourth 5m.
    assert ref.waits("5555m123p456p78p", wilds=1) == [P + 2, P + 5, P + 8]
    # Five groups keep 111m + 1m of 123m, 999m, 555p + 5p with the wild: 11 + 1 of 14.
    assert ref.shanten("1111m9999m5555p", wilds=1, seven_pairs=False) == 1


def test_wilds_never_stand_for_a_third_or_void_suit() -> None:
    assert not ref.is_win("123m456p789s1m4p", wilds=3)
    splits = ref.decompositions("123m456m11p789p", wilds=3)
    assert splits and not any(group.endswith("s") for split in splits for group in split)
    splits = ref.decompositions("123m456m789m123m", wilds=2, void="p")
    assert splits and not any(group.endswith("p") for split in splits for group in split)


def test_four_wilds_win_whatever_the_rest() -> None:
    assert ref.is_win("1357m1357p29s", wilds=4, void="s")
    assert ref.shanten("1357m1357p29s", wilds=4) == -1
    assert ref.decompositions("1357m1357p29s", wilds=4) == []
    assert not ref.hand_facts("1357m1357p29s", wilds=4)["standard"]
    assert ref.shanten("1357m1357p2s", wilds=4) == 0
    assert len(ref.waits("1357m1357p2s", wilds=4)) == 26  # every tile but 1s: the wilds are the 1s


def test_seven_pairs_pair_a_wild_with_a_tile_or_a_wild() -> None:
    # 2p + a wild, and a pair of wilds as any of the 18 m and p tiles.
    sevens = [split for split in ref.decompositions("11335577m99p2p", wilds=3) if len(split) == 7]
    assert len(sevens) == 18
    assert not ref.is_win("1133557m6699p24p", wilds=1)  # three tiles held once, one wild


def test_wilds_count_in_the_size_and_are_0_to_4() -> None:
    with pytest.raises(ValueError, match="wilds must be"):
        ref.is_win("5555m123p456p78p", wilds=5)
    with pytest.raises(ValueError, match=r"\+ 2 wilds"):
        ref.is_win("5555m123p456p789p", wilds=2)


# --- validation -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "melds", "void", "message"),
    [
        ("11m234p567p888p", ["111m"], None, "only four"),
        ("23445677m345789p", ["123m"], None, "three or four copies"),
        ("23445677m345789p", "555m", None, "sequence of strings"),
        ("23445677m345789p", (), "x", "void"),
        ("2m", ["111m", "222m", "333m", "444m", "555m"], None, "at most 4 melds"),
        ("23445677m34578p", (), None, "needs 14"),
    ],
)
def test_bad_input_is_named(hand: str, melds: object, void: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ref.is_win(hand, melds=melds, void=void)  # type: ignore[arg-type]


# --- the reference against itself on random near-complete hands -------------------------------


def random_complete(rng: random.Random) -> tuple[list[int], list[str]]:
    """A random complete hand in at most two suits: 0-2 triplets melded (some as kongs), four copies at most."""
    while True:
        suits = rng.sample([M, P, S], 2)
        groups = [random_set(rng, suits) for _ in range(4)]
        meld_count = rng.randrange(3)
        concealed = [rng.choice(suits) + rng.randrange(9)] * 2
        melds = []
        for i, group in enumerate(groups):
            if i < meld_count and group[0] == group[1]:
                melds.append(group + group[:1] * rng.randrange(2))
            else:
                concealed += group
        tiles = concealed + [t for meld in melds for t in meld]
        if max(tiles.count(t) for t in tiles) <= 4:
            return concealed, [ref.format_tiles(meld) for meld in melds]


def random_set(rng: random.Random, suits: list[int]) -> list[int]:
    base = rng.choice(suits)
    if rng.random() < 0.5:
        start = base + rng.randrange(7)
        return [start, start + 1, start + 2]
    return [base + rng.randrange(9)] * 3


def nearby(rng: random.Random, tiles: list[int], melds: list[str], changes: int) -> list[int]:
    """Replace a few tiles at random, keeping at most four copies counting melds."""
    held = tiles[:]
    melded = [t for m in melds for t in ref.parse_tiles(m)]
    for _ in range(changes):
        held.pop(rng.randrange(len(held)))
        choices = [t for t in range(27) if held.count(t) + melded.count(t) < 4]
        held.append(rng.choice(choices))
    return held


def random_options(rng: random.Random, melds: list[str]) -> dict:
    return {"melds": melds, "void": rng.choice([None, "m", "p", "s"]), "seven_pairs": rng.random() < 0.7}


def test_random_complete_hands_win_and_shanten_agrees() -> None:
    rng = random.Random(20240601)
    for _ in range(200):
        tiles, melds = random_complete(rng)
        assert ref.is_win(tiles, melds=melds), (ref.format_tiles(tiles), melds)
        assert ref.shanten(tiles, melds=melds) == -1
        options = random_options(rng, melds)
        hand = nearby(rng, tiles, melds, rng.randrange(4))
        check_self_consistent(ref.format_tiles(hand), **options)
        ready = hand[:]
        ready.pop(rng.randrange(len(ready)))
        check_self_consistent(ref.format_tiles(ready), **options)


def test_shanten_one_step_away_through_waits() -> None:
    # Independent of the shanten table: a 14-tile hand has shanten <= 0 exactly when it wins or
    # some discard leaves a hand with a wait (remove a tile outside the overlap, the missing tile is a wait).
    rng = random.Random(7)
    for _ in range(60):
        tiles, melds = random_complete(rng)
        options = random_options(rng, melds)
        hand = nearby(rng, tiles, melds, rng.randrange(3))
        discards = [hand[:i] + hand[i + 1 :] for i in range(len(hand))]
        close = ref.is_win(hand, **options) or any(ref.waits(d, **options) for d in discards)
        assert (ref.shanten(hand, **options) in (-1, 0)) == close, (ref.format_tiles(hand), options)


def test_suit_table_is_exactly_the_splittable_vectors() -> None:
    # The shanten table is built by adding shapes up; the split search takes hands apart. Both must
    # find the same one-suit vectors for every (sets, pairs).
    from xueliu.reference import hand as internals

    table = internals._suit_table(0)
    ends = list(table.starts[1:]) + [len(table.rows)]
    built = {
        tuple(int(x) for x in row): label
        for label, start, end in zip(table.labels, table.starts, ends)
        for row in table.rows[start:end]
    }
    split = {}
    for counts in itertools.product(range(5), repeat=9):
        total = sum(counts)
        if total % 3 == 1 or total > 14:
            continue
        full = list(counts) + [0] * 18
        pairs = total % 3 == 2
        if internals._standard_splits(full) if pairs else internals._set_splits(full):
            split[counts] = (total // 3, int(pairs))
    assert built == split


def test_drawing_or_discarding_changes_shanten_by_one_at_most() -> None:
    rng = random.Random(11)
    for _ in range(60):
        tiles, melds = random_complete(rng)
        hand = nearby(rng, tiles, melds, 1 + rng.randrange(5))
        here = ref.shanten(hand, melds=melds)
        after = [ref.shanten(hand[:i] + hand[i + 1 :], melds=melds) for i in range(len(hand))]
        # Some discard keeps every overlapping tile; none can lower the overlap by more than one.
        assert min(after) == max(here, 0) and max(after) <= here + 1
