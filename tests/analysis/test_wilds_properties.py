"""The Rust engine against the brute-force reference with wilds (幺鸡): complete, near-complete and
random hands with some of their tiles turned into wilds, and complete hands that hold more than
four of a tile, the extra copies being wilds. With and without melds, void suits, seven pairs."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import Case, complete_cases, fifth_copy_cases, near_complete_cases, random_cases, with_wilds

import xueliu
from xueliu import reference

# The reference tries every choice of tiles for the wilds, so these examples cost more than the
# wild-free ones: 3,100 in all keep the added CI time near half a minute. Positive cases (complete
# and fifth-copy hands) get the most.
FEW_WILDS = st.integers(1, 3)
ANY_WILDS = st.sampled_from([1, 1, 2, 2, 3, 4])


def same_analysis_of_14(case: Case) -> None:
    kw = case.kwargs()
    win = xueliu.is_win(case.counts, **kw)
    assert win == reference.is_win(case.counts, **kw)
    assert xueliu.shanten(case.counts, **kw) == reference.shanten(case.counts, **kw)
    if case.wilds < 4:  # the reference lists four wilds' splits too, but slowly: see below
        same_decompositions(case)
        if win:
            assert xueliu.hand_facts(case.counts, **kw).to_dict() == reference.hand_facts(case.counts, **kw)


def same_decompositions(case: Case) -> None:
    kw = case.kwargs()
    splits = xueliu.decompositions(case.counts, **kw)
    ours = sorted(tuple(d.groups) for d in splits)
    assert ours == sorted(tuple(d) for d in reference.decompositions(case.counts, **kw))
    natural = Counter({t: c for t, c in enumerate(case.counts) if c})
    for d in splits:
        concealed = d.groups[: len(d.groups) - len(case.melds)]
        used = Counter(t.index for g in concealed for t in xueliu.parse_tiles(g))
        assert sorted(t.index for t in d.wilds) == sorted((used - natural).elements())
        assert sum(used.values()) == sum(case.counts) + case.wilds


def same_analysis_of_13(case: Case) -> None:
    kw = case.kwargs()
    assert [t.index for t in xueliu.waits(case.counts, **kw)] == reference.waits(case.counts, **kw)
    assert xueliu.shanten(case.counts, **kw) == reference.shanten(case.counts, **kw)


@settings(max_examples=600)
@given(with_wilds(complete_cases(), ANY_WILDS))
def test_complete_hands_with_wilds(case):
    same_analysis_of_14(case)


@settings(max_examples=500)
@given(with_wilds(near_complete_cases(), FEW_WILDS))
def test_near_complete_14_tile_hands_with_wilds(case):
    same_analysis_of_14(case)


@settings(max_examples=500)
@given(with_wilds(near_complete_cases(waiting=True), ANY_WILDS))
def test_near_complete_13_tile_hands_with_wilds(case):
    same_analysis_of_13(case)


@settings(max_examples=300)
@given(with_wilds(random_cases(waiting=False), FEW_WILDS))
def test_random_14_tile_hands_with_wilds(case):
    same_analysis_of_14(case)


@settings(max_examples=300)
@given(with_wilds(random_cases(waiting=True), ANY_WILDS))
def test_random_13_tile_hands_with_wilds(case):
    same_analysis_of_13(case)


@settings(max_examples=500)
@given(fifth_copy_cases())
def test_complete_hands_with_fifth_copies(case):
    same_analysis_of_14(case)


@settings(max_examples=400)
@given(fifth_copy_cases(waiting=True))
def test_ready_hands_with_fifth_copies(case):
    same_analysis_of_13(case)


@settings(max_examples=60)
@given(with_wilds(complete_cases(), st.just(4)).filter(lambda case: case.wilds == 4))
def test_splits_and_facts_of_four_wilds(case):
    """Four wilds win whatever the shape; the splits they also make, and the facts, still agree."""
    kw = case.kwargs()
    assert xueliu.is_win(case.counts, **kw) and reference.is_win(case.counts, **kw)
    same_decompositions(case)
    assert xueliu.hand_facts(case.counts, **kw).to_dict() == reference.hand_facts(case.counts, **kw)
