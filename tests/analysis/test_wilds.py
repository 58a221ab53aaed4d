"""Hand analysis with wilds (幺鸡, RULES.md §11, docs/wilds.md): the seed's shapes and cases worked
out by hand. Each expected value is reasoned in its comment; the reference must agree too."""

import numpy as np
import pytest

import xueliu
from xueliu import InvalidHandError, Tile, reference


def names(tiles):
    return " ".join(str(t) for t in tiles)


def both_win(hand, **kw):
    """The engine's answer, after checking the reference gives the same."""
    ours = xueliu.is_win(hand, **kw)
    assert ours == reference.is_win(hand, **kw)
    return ours


def splits_with_wilds(hand, **kw):
    return {(" ".join(d.groups), names(d.wilds)) for d in xueliu.decompositions(hand, **kw)}


# --- the seed's shapes (seed 004 §四: 碰, 杠 with 幺鸡) ----------------------------------------


def test_one_1m_and_a_wild_are_a_pair_of_1m():
    # 手里有一个一万，就可以用一个幺鸡来实现碰牌: 1m + a wild stand as two 1m.
    hand = "1m999m234p567p888p"
    assert both_win(hand, wilds=1)
    assert splits_with_wilds(hand, wilds=1) == {("11m 999m 234p 567p 888p", "1m")}


def test_three_1m_and_a_wild_are_four_1m():
    # 三个一万 + 一个幺鸡: four 1m, two of the seven pairs (11m 11m 22m 33m 44p 55p 66p).
    hand = "11122m33m44p55p66p"
    assert both_win(hand, wilds=1)
    assert ("11m 11m 22m 33m 44p 55p 66p", "1m") in splits_with_wilds(hand, wilds=1)


def test_one_1m_and_three_wilds_are_four_1m():
    # 三个幺鸡 + 一个一万: 1m with three wilds as 1m is two pairs; 22m 33m 44p 55p 66p the rest.
    hand = "1m22m33m44p55p66p"
    assert both_win(hand, wilds=3)
    assert ("11m 11m 22m 33m 44p 55p 66p", "1m 1m 1m") in splits_with_wilds(hand, wilds=3)


def test_a_wild_and_two_1m_wait_on_a_discarded_1m():
    # 一个幺鸡、两个一万和打出来的一万: with the wild as the second 9p, 11m and a drawn 1m make 111m.
    hand = "11m234p567p888p9p"
    assert xueliu.shanten(hand, wilds=1) == 0
    assert "1m" in names(xueliu.waits(hand, wilds=1)).split()
    assert both_win("111m234p567p888p9p", wilds=1)


# --- choices: fifth copies, suits, four wilds --------------------------------------------------


def test_a_wild_may_be_a_fifth_copy():
    # 5555m + a wild: 555m and a pair 55m, the wild the fifth 5m.
    assert both_win("5555m123p456p789p", wilds=1)
    assert splits_with_wilds("5555m123p456p789p", wilds=1) == {("55m 555m 123p 456p 789p", "5m")}
    # Once the wild pairs the fourth 5m, 12345678p waits on 3p, 6p and 9p.
    assert names(xueliu.waits("5555m123p456p78p", wilds=1)) == "3p 6p 9p"
    assert reference.waits("5555m123p456p78p", wilds=1) == [11, 14, 17]


def test_wilds_count_for_no_suit():
    # Natural tiles in three suits: no win short of four wilds.
    assert not both_win("123m456p789s1m4p", wilds=3)
    # Natural m and p, void s: the wilds never hold a void or a third-suit tile.
    assert both_win("123m456m11p789p", wilds=3, void="s")
    assert all("s" not in groups for groups, _ in splits_with_wilds("123m456m11p789p", wilds=3))
    # A natural tile of the void suit still blocks the win.
    assert not both_win("123m456m11p789p9s", wilds=2, void="s")


def test_four_wilds_win_whatever_the_rest():
    # 不管是否缺一门，不管是否组成胡牌类型: three suits, a void tile, no shape.
    hand = "1357m1357p29s"  # no natural 1s: the four wilds are the four 1s (issue 12.7)
    assert both_win(hand, wilds=4, void="s")
    assert xueliu.shanten(hand, wilds=4) == reference.shanten(hand, wilds=4) == -1
    assert xueliu.decompositions(hand, wilds=4) == []  # no split, yet a win
    facts = xueliu.hand_facts(hand, wilds=4)
    assert not facts.standard and not facts.seven_pairs
    # Thirteen tiles with four wilds: every tile completes them but 1s, all four held as wilds.
    assert len(xueliu.waits("1357m1357p2s", wilds=4)) == 26
    assert Tile("1s") not in xueliu.waits("1357m1357p2s", wilds=4)
    assert xueliu.shanten("1357m1357p2s", wilds=4) == 0


# --- seven pairs, shanten, facts ----------------------------------------------------------------


def test_seven_pairs_pair_a_wild_with_a_tile_or_a_wild():
    # 2p pairs with one wild; the other two wilds pair as any m or p tile: 18 seven-pairs splits.
    hand = "11335577m99p2p"
    assert both_win(hand, wilds=3)
    sevens = [d for d in xueliu.decompositions(hand, wilds=3) if d.kind == "seven_pairs"]
    assert len(sevens) == 18
    # Three tiles held once (7m 2p 4p) need three wilds.
    assert not both_win("1133557m6699p24p", wilds=1)


def test_shanten_counts_the_wilds_and_their_fifth_copies():
    # No seven pairs: five groups keep at most 111m + the 1m of 123m, 999m, and 555p + 5p paired
    # with the wild as a fifth 5p: 11 naturals + the wild of 14, so 14 - 1 - 12 = 1.
    assert xueliu.shanten("1111m9999m5555p", wilds=1, seven_pairs=False) == 1
    assert reference.shanten("1111m9999m5555p", wilds=1, seven_pairs=False) == 1
    # As seven pairs the twelve naturals are six pairs: ready.
    assert xueliu.shanten("1111m9999m5555p", wilds=1) == 0
    # A wild is never worse than the natural tile it replaces: 23445677m345789p less 7m.
    assert xueliu.shanten("2344567m345789p", wilds=1) == -1


def test_facts_let_each_split_choose_the_wilds():
    # 111m 22m+W 333m 44p+W 55p: all triplets; also 1111m 22m 3333m 44p 55p as seven pairs.
    facts = xueliu.hand_facts("11122333m4455p", wilds=2)
    assert facts.all_triplets and facts.seven_pairs and not facts.one_suit
    assert facts.to_dict() == reference.hand_facts("11122333m4455p", wilds=2)
    # 11m 1_3m 777m 888m 999m: the wild as 2m gives terminals in every group; one suit.
    facts = xueliu.hand_facts("1113777888999m", wilds=1)
    assert facts.terminals and facts.one_suit
    # 555p + two wilds may be four 5p, but roots count natural tiles only.
    assert xueliu.hand_facts("555p123m456m789m", wilds=2).roots == 0


# --- batch and errors ---------------------------------------------------------------------------


def counts_of(*hands):
    rows = np.zeros((len(hands), 27), dtype=np.uint8)
    for row, hand in enumerate(hands):
        for t in xueliu.parse_tiles(hand):
            rows[row, t.index] += 1
    return rows


def test_batch_takes_one_wilds_count_or_one_per_row():
    full = ["5555m123p456p789p", "11m123m456m789m", "1357m1357p29s"]
    wilds = [1, 3, 4]
    expected = [xueliu.is_win(h, wilds=w) for h, w in zip(full, wilds)]
    assert expected == [True, True, True]
    assert xueliu.batch.is_win(counts_of(*full), wilds=np.array(wilds, dtype=np.uint8)).tolist() == expected
    assert xueliu.batch.is_win(counts_of(*full), wilds=wilds).tolist() == expected
    assert xueliu.batch.shanten(counts_of(*full), wilds=wilds).tolist() == [-1, -1, -1]
    ready = ["5555m123p456p78p", "11m234p567p888p9p"]
    masks = xueliu.batch.waits(counts_of(*ready), wilds=1).tolist()
    assert masks == [sum(1 << t.index for t in xueliu.waits(h, wilds=1)) for h in ready]


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: xueliu.is_win("5555m123p456p789p", wilds=5), "wilds=5"),
        (lambda: xueliu.is_win("5555m123p456p789p", wilds=-1), "wilds=-1"),
        (lambda: xueliu.is_win("5555m123p456p789p", wilds=2), "counting 2 wild"),
        (lambda: xueliu.batch.is_win(counts_of("11m123m456m789m"), wilds=[3, 3]), "2 entries for 1 rows"),
        (lambda: xueliu.batch.is_win(counts_of("11m123m456m789m"), wilds=[9]), "wilds=9"),
        (lambda: xueliu.batch.is_win(counts_of("11m123m456m789m"), wilds=1), "row 0"),
    ],
)
def test_bad_wilds_raise_a_clear_error(call, message):
    with pytest.raises(InvalidHandError, match=message):
        call()
