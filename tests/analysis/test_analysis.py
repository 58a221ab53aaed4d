"""Hand analysis (RULES.md §5, §8) on the seed documents' own hands."""

import numpy as np
import pytest

import xueliu
from xueliu import InvalidHandError

# Every example hand of seeds 001 and 004; all are complete.
SEED_WINS = [
    "23445677m345789p",  # basic
    "111333444m66677p",  # all triplets
    "11223345678999m",  # full flush
    "11133344555666m",  # flush triplets (seed 001)
    "22244455577799m",  # flush triplets
    "222555888m55588p",  # triplets of 2/5/8
    "11334466m557799p",  # seven pairs
    "11334466778899m",  # flush seven pairs
    "11222244m557788p",  # dragon seven pairs: a four inside
    "11224444557799m",  # flush dragon seven pairs
    "111222333m78999p",  # terminals
    "11123777888999m",  # flush terminals
    "123333m45566799s",  # one root
]


def names(tiles):
    return " ".join(str(t) for t in tiles)


@pytest.mark.parametrize("hand", SEED_WINS)
def test_seed_hands_win(hand):
    assert xueliu.is_win(hand)
    assert xueliu.shanten(hand) == -1
    assert xueliu.decompositions(hand)


def test_seed_001_ready_hand_waits_on_1p_and_4p():
    assert names(xueliu.waits("12334577m23345p")) == "1p 4p"
    assert xueliu.shanten("12334577m23345p") == 0


def test_hand_forms_agree():
    text = "12334577m23345p"
    tiles = xueliu.parse_tiles(text)
    counts = np.zeros(27, dtype=np.uint8)
    for t in tiles:
        counts[t.index] += 1
    forms = [text, tiles, [t.index for t in tiles], counts, counts.tolist()]
    assert all(xueliu.waits(form) == xueliu.waits(text) for form in forms)


def test_seven_pairs_only_when_allowed_and_concealed():
    assert not xueliu.is_win("11334466m557799p", seven_pairs=False)
    assert xueliu.is_win("11222244m557788p")
    # Four of a kind counts as two pairs.
    kinds = {d.kind for d in xueliu.decompositions("11222244m557788p")}
    assert kinds == {"seven_pairs"}


def test_winning_hand_uses_at_most_two_suits_and_no_void():
    assert not xueliu.is_win("123m456p789s11m456p")
    assert not xueliu.is_win("23445677m345789p", void="p")
    assert xueliu.is_win("23445677m345789p", void="s")
    assert xueliu.waits("2344567m345789p", void="p") == []


def test_melds_count_as_sets_and_as_suits():
    assert xueliu.is_win("123m99m234p567p", melds=["111m"])
    assert xueliu.is_win("99m234p567p888p", melds=["1111m"])
    assert not xueliu.is_win("99m234p567p888p", melds=["1111s"])  # three suits
    assert names(xueliu.waits("123m5p", melds=["999m", "999p", "888p"])) == "5p"


def test_waits_skip_tiles_whose_four_copies_are_held():
    assert names(xueliu.waits("2333m567p888p123p")) == "1m 2m 4m"
    assert names(xueliu.waits("2333m567p888p", melds=["1111m"])) == "2m 4m"
    # 1111m + 234p 567p 888p: 1m would be a fifth copy; no other tile completes it.
    assert xueliu.waits("1111m234p567p888p") == []
    assert xueliu.shanten("1111m234p567p888p") == 1


def test_shanten_is_tiles_to_replace_minus_one():
    hand = "147m258p369s1m2p3s4m"
    assert xueliu.shanten(hand) == 4  # seven pairs keep 11m 44m 22p 7m 5p 8p + 1
    assert xueliu.shanten(hand, seven_pairs=False) == 5  # 11m 444m 789m 222p + 5p
    assert xueliu.shanten("2345m", melds=["111m", "111p", "111s"]) == xueliu.UNREACHABLE


def test_shanten_never_counts_a_fifth_copy():
    # With 111m melded, the lone 1m cannot become a pair: 5s is in a third suit, so the best
    # complete hand keeps 234p 567p 888p and either 1m (in 123m) or nothing: one tile short.
    assert xueliu.shanten("1m234p567p888p5s", melds=["111m"]) == 1
    # With 999m melded instead, 11m is a pair: ready.
    assert xueliu.shanten("1m234p567p888p5s", melds=["999m"]) == 0


def test_decomposition_groups_list_pair_sets_then_melds():
    splits = xueliu.decompositions("111222333m78999p")
    groups = sorted(tuple(d.groups) for d in splits)
    assert all(d.kind == "standard" for d in splits)
    # Concealed groups come ordered by first tile, then size.
    assert groups == [
        ("111m", "222m", "333m", "789p", "99p"),
        ("123m", "123m", "123m", "789p", "99p"),
    ]
    with_meld = xueliu.decompositions("123m99m234p567p", melds=["111m"])
    assert [d.groups[-1] for d in with_meld] == ["111m"]


def test_hand_facts_of_seed_patterns():
    assert xueliu.hand_facts("111333444m66677p").all_triplets
    assert xueliu.hand_facts("111222333m78999p").terminals
    facts = xueliu.hand_facts("222555888m55588p")
    assert facts.all_triplets and facts.only_258
    assert xueliu.hand_facts("123333m45566799s").roots == 1
    facts = xueliu.hand_facts("11224444557799m")
    assert facts.seven_pairs and facts.one_suit and facts.roots == 1
    # A pong plus the fourth tile in hand is a root; a kong is not.
    assert xueliu.hand_facts("123m99m234p567p", melds=["111m"]).roots == 1
    assert xueliu.hand_facts("99m234p567p888p", melds=["1111m"]).to_dict()["roots"] == 0


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: xueliu.is_win("55555m123p456p789p"), "5 copies of 5m"),
        (lambda: xueliu.is_win("23445677m34578p"), "a complete hand has 14 tiles"),
        (lambda: xueliu.waits("23445677m345789p"), "a waiting hand has 13 tiles"),
        (lambda: xueliu.is_win("5m99m234p567p888p", melds=["555m", "55m"]), 'meld "55m"'),
        (lambda: xueliu.is_win("5m99m234p567p888p", melds=["555m"], void="x"), 'void "x"'),
        (lambda: xueliu.is_win("55m99m234p567p888p", melds=["555m"]), "5 copies of 5m"),
        (lambda: xueliu.hand_facts("23445677m345788p"), "not a complete hand"),
    ],
)
def test_bad_input_raises_a_clear_error(call, message):
    with pytest.raises(InvalidHandError) as info:
        call()
    assert message in str(info.value)


def test_batch_matches_single_calls():
    hands = ["23445677m345789p", "11334466m557799p", "11223345678999m", "123m456p789s11m456p"]
    counts = np.zeros((len(hands), 27), dtype=np.uint8)
    for row, hand in enumerate(hands):
        for t in xueliu.parse_tiles(hand):
            counts[row, t.index] += 1
    assert xueliu.batch.is_win(counts).tolist() == [xueliu.is_win(h) for h in hands]
    assert xueliu.batch.shanten(counts).tolist() == [xueliu.shanten(h) for h in hands]
    ready = counts.copy()
    ready[:, 0:9] = 0
    ready[:, 9:18] = 0
    ready[:, 18:27] = 0
    for row, hand in enumerate(["12334577m23345p", "1112345678999m", "11334466m55779p", "147m258p369s1m2p3s4m"]):
        for t in xueliu.parse_tiles(hand):
            ready[row, t.index] += 1
    masks = xueliu.batch.waits(ready).tolist()
    for row, hand in enumerate(["12334577m23345p", "1112345678999m", "11334466m55779p", "147m258p369s1m2p3s4m"]):
        assert masks[row] == sum(1 << t.index for t in xueliu.waits(hand))


def test_batch_names_the_bad_row():
    counts = np.zeros((2, 27), dtype=np.uint8)
    counts[:, 0] = 2
    with pytest.raises(InvalidHandError, match="row 0"):
        xueliu.batch.is_win(counts)
    with pytest.raises(InvalidHandError, match=r"shape \(N, 27\)"):
        xueliu.batch.is_win(np.zeros((2, 26), dtype=np.uint8))
