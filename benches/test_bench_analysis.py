"""Hand analysis from Python: xueliu single and batch calls, the pure-Python reference, and the
riichi `mahjong` package on the same hands (standard form plus seven pairs in both; riichi's
thirteen orphans cannot occur without honours)."""

from __future__ import annotations

import pytest
from mahjong.shanten import Shanten
from sizes import size

import xueliu
from xueliu import reference

SLOW = size(200, 20)  # hands per round for the slow implementations
SINGLE = size(20_000, 500)  # hands per round for single calls


def per_hand(benchmark, items: int, fn, *args):
    benchmark.extra_info["items"] = items
    return benchmark(fn, *args)


def single_calls(fn, rows):
    return [fn(row) for row in rows]


@pytest.mark.benchmark(group="shanten, random 14-tile hands")
def test_shanten_batch(benchmark, hands14):
    per_hand(benchmark, len(hands14), xueliu.batch.shanten, hands14)


@pytest.mark.benchmark(group="shanten, random 14-tile hands")
def test_shanten_single_count_lists(benchmark, hands14):
    rows = hands14[:SINGLE].tolist()
    per_hand(benchmark, len(rows), single_calls, xueliu.shanten, rows)


@pytest.mark.benchmark(group="shanten, random 14-tile hands")
def test_shanten_single_strings(benchmark, hands14):
    rows = [xueliu.format_tiles([t for t in range(27) for _ in range(row[t])]) for row in hands14[:SINGLE].tolist()]
    per_hand(benchmark, len(rows), single_calls, xueliu.shanten, rows)


@pytest.mark.benchmark(group="shanten, random 14-tile hands")
def test_shanten_mahjong_package(benchmark, hands14):
    shanten = Shanten()
    rows = [row + [0] * 7 for row in hands14[: SLOW * 10].tolist()]
    per_hand(benchmark, len(rows), single_calls, shanten.calculate_shanten, rows)


@pytest.mark.benchmark(group="shanten, random 14-tile hands")
def test_shanten_reference(benchmark, hands14):
    rows = hands14[:SLOW].tolist()
    per_hand(benchmark, len(rows), single_calls, reference.shanten, rows)


@pytest.mark.benchmark(group="is_win, random 14-tile hands")
def test_is_win_batch(benchmark, hands14):
    per_hand(benchmark, len(hands14), xueliu.batch.is_win, hands14)


@pytest.mark.benchmark(group="is_win, random 14-tile hands")
def test_is_win_single(benchmark, hands14):
    rows = hands14[:SINGLE].tolist()
    per_hand(benchmark, len(rows), single_calls, xueliu.is_win, rows)


@pytest.mark.benchmark(group="is_win, random 14-tile hands")
def test_is_win_reference(benchmark, hands14):
    rows = hands14[:SLOW].tolist()
    per_hand(benchmark, len(rows), single_calls, reference.is_win, rows)


@pytest.mark.benchmark(group="waits, ready 13-tile hands")
def test_waits_batch(benchmark, ready13):
    per_hand(benchmark, len(ready13), xueliu.batch.waits, ready13)


@pytest.mark.benchmark(group="waits, ready 13-tile hands")
def test_waits_single(benchmark, ready13):
    rows = ready13[:SINGLE].tolist()
    per_hand(benchmark, len(rows), single_calls, xueliu.waits, rows)


@pytest.mark.benchmark(group="waits, ready 13-tile hands")
def test_waits_reference(benchmark, ready13):
    rows = ready13[:SLOW].tolist()
    per_hand(benchmark, len(rows), single_calls, reference.waits, rows)


@pytest.mark.benchmark(group="with 1-3 wilds (幺鸡)")
def test_wild_is_win_batch(benchmark, wild_hands14):
    counts, wilds = wild_hands14
    per_hand(benchmark, len(counts), lambda: xueliu.batch.is_win(counts, wilds=wilds))


def wild_calls(fn, rows, wilds):
    return [fn(row, wilds=int(w)) for row, w in zip(rows, wilds)]


@pytest.mark.benchmark(group="with 1-3 wilds (幺鸡)")
def test_wild_is_win_single(benchmark, wild_hands14):
    counts, wilds = wild_hands14
    per_hand(benchmark, SINGLE, wild_calls, xueliu.is_win, counts[:SINGLE].tolist(), wilds[:SINGLE])


@pytest.mark.benchmark(group="with 1-3 wilds (幺鸡)")
def test_wild_is_win_reference(benchmark, wild_hands14):
    counts, wilds = wild_hands14
    per_hand(benchmark, SLOW, wild_calls, reference.is_win, counts[:SLOW].tolist(), wilds[:SLOW])


@pytest.mark.benchmark(group="with 1-3 wilds (幺鸡)")
def test_wild_shanten_batch(benchmark, wild_hands14):
    counts, wilds = wild_hands14
    per_hand(benchmark, len(counts), lambda: xueliu.batch.shanten(counts, wilds=wilds))


@pytest.mark.benchmark(group="with 1-3 wilds (幺鸡)")
def test_wild_waits_batch(benchmark, wild_ready13):
    counts, wilds = wild_ready13
    per_hand(benchmark, len(counts), lambda: xueliu.batch.waits(counts, wilds=wilds))


def test_the_benchmarked_implementations_agree(hands14, ready13):
    """Benchmarks compare like with like: on these hands all three give the same answers."""
    shanten = Shanten()
    rows = hands14[:SLOW].tolist()
    ours = [xueliu.shanten(r) for r in rows]
    assert ours == [reference.shanten(r) for r in rows]
    assert list(xueliu.batch.shanten(hands14[:SLOW])) == ours
    assert list(xueliu.batch.is_win(hands14[:SLOW])) == [reference.is_win(r) for r in rows]
    masks = xueliu.batch.waits(ready13[:SLOW])
    assert [[t for t in range(27) if m >> t & 1] for m in masks] == [
        reference.waits(r) for r in ready13[:SLOW].tolist()
    ]
    # Riichi shanten ignores the two-suit limit (缺一门); it can only be lower or equal.
    assert all(shanten.calculate_shanten(r + [0] * 7) <= s for r, s in zip(rows, ours))


def test_the_benchmarked_wild_calls_agree(wild_hands14, wild_ready13):
    counts, wilds = wild_hands14
    rows, some = counts[:SLOW].tolist(), wilds[:SLOW]
    assert list(xueliu.batch.is_win(counts[:SLOW], wilds=some)) == wild_calls(reference.is_win, rows, some)
    assert list(xueliu.batch.shanten(counts[:SLOW], wilds=some)) == wild_calls(reference.shanten, rows, some)
    ready, ready_wilds = wild_ready13
    masks = xueliu.batch.waits(ready[:SLOW], wilds=ready_wilds[:SLOW])
    assert all(m != 0 for m in masks)  # a ready hand stays ready when tiles become wilds
