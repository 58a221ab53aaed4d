"""How an int or a count row is read (rust/xueliu-py/src/convert.rs): every integer kind a user
holds is accepted the same way, everything else is refused with a typed error."""

import numpy as np
import pytest

import xueliu
from xueliu import ArgumentError, ArgumentTypeError, Bot, Game, InvalidHandError, Tile

HAND = "23445677m345789p"
COUNTS = [xueliu.parse_tiles(HAND).count(Tile(i)) for i in range(27)]


class Seat(int):
    """An int subclass (an IntEnum member is one)."""


class Indexable:
    """Not an int, but a number with `__index__` (as numpy's integers are)."""

    def __index__(self):
        return 1


@pytest.mark.parametrize(
    "seat", [1, Seat(1), np.int64(1), np.uint8(1), np.int32(1), Indexable()], ids=lambda s: type(s).__name__
)
def test_every_integer_kind_is_a_seat(seat):
    game = Game("chengdu", seed=3)
    assert game.action_mask(seat).tolist() == game.action_mask(1).tolist()
    assert (game.observe(seat) == game.observe(1)).all()


@pytest.mark.parametrize(
    "seat",
    [True, np.True_, 1.0, "1", Tile(1), np.array([1]), np.array(1), [1], None],
    ids=lambda s: type(s).__name__ + ("" if np.ndim(s) == 0 else f"{np.ndim(s)}d"),
)
def test_what_is_no_int_is_refused_as_a_seat(seat):
    with pytest.raises(ArgumentTypeError, match="seat"):
        Game("chengdu", seed=3).action_mask(seat)


def test_an_int_out_of_range_is_an_argument_error_not_a_type_error():
    game = Game("chengdu", seed=3)
    for seat in (4, -1, 2**63, 2**64, 2**200):
        with pytest.raises(ArgumentError) as info:
            game.action_mask(seat)
        assert not isinstance(info.value, ArgumentTypeError)


def test_a_seed_takes_all_64_bits():
    # Seeds beyond i64 are read through the 128-bit path.
    assert Bot("greedy", seed=2**64 - 1).seed == 2**64 - 1
    assert Bot("greedy", seed=np.uint64(2**64 - 1)).seed == 2**64 - 1
    with pytest.raises(ArgumentError, match="seed"):
        Bot("greedy", seed=2**64)


@pytest.mark.parametrize("dtype", [np.uint8, np.int64, np.int8])
def test_a_numpy_row_of_counts_is_a_hand(dtype):
    row = np.array(COUNTS, dtype)
    assert xueliu.shanten(row) == xueliu.shanten(COUNTS) == xueliu.shanten(HAND)
    assert xueliu.is_win(row) and xueliu.hand_facts(row) == xueliu.hand_facts(HAND)
    assert xueliu.shanten(np.repeat(np.array(COUNTS, dtype), 2)[::2]) == xueliu.shanten(HAND)  # strided


@pytest.mark.parametrize("dtype", [np.uint8, np.int64])
def test_a_bad_count_in_a_numpy_row_names_the_tile(dtype):
    row = np.array(COUNTS, dtype)
    row[4] = 5
    with pytest.raises(InvalidHandError, match="count 5 for tile 5m"):
        xueliu.shanten(row)
    with pytest.raises(InvalidHandError, match="count 5 for tile 5m"):
        xueliu.shanten(row.tolist())


def test_a_numpy_row_of_tile_indices_is_a_hand():
    indices = np.array([t.index for t in xueliu.parse_tiles(HAND)], np.uint8)
    assert xueliu.shanten(indices) == xueliu.shanten(HAND)
