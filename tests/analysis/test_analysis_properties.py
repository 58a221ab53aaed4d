"""The Rust engine against the brute-force reference (xueliu.reference) on generated hands:
random tiles, near-complete hands, with and without melds, void suits and seven pairs."""

from __future__ import annotations

from hypothesis import given
from strategies import Case, complete_cases, near_complete_cases, random_cases

import xueliu
from xueliu import reference


def same_analysis_of_14(case: Case) -> None:
    kw = case.kwargs()
    win = xueliu.is_win(case.counts, **kw)
    assert win == reference.is_win(case.counts, **kw)
    assert xueliu.shanten(case.counts, **kw) == reference.shanten(case.counts, **kw)
    ours = sorted(tuple(d.groups) for d in xueliu.decompositions(case.counts, **kw))
    assert ours == sorted(tuple(d) for d in reference.decompositions(case.counts, **kw))
    if win:
        assert xueliu.hand_facts(case.counts, **kw).to_dict() == reference.hand_facts(case.counts, **kw)


def same_analysis_of_13(case: Case) -> None:
    kw = case.kwargs()
    assert [t.index for t in xueliu.waits(case.counts, **kw)] == reference.waits(case.counts, **kw)
    assert xueliu.shanten(case.counts, **kw) == reference.shanten(case.counts, **kw)


@given(random_cases(waiting=False))
def test_random_14_tile_hands(case):
    same_analysis_of_14(case)


@given(random_cases(waiting=True))
def test_random_13_tile_hands(case):
    same_analysis_of_13(case)


@given(complete_cases())
def test_complete_hands(case):
    same_analysis_of_14(case)


@given(near_complete_cases())
def test_near_complete_14_tile_hands(case):
    same_analysis_of_14(case)


@given(near_complete_cases(waiting=True))
def test_near_complete_13_tile_hands(case):
    same_analysis_of_13(case)
