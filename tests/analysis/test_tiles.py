"""Tiles and notation (RULES.md §1)."""

import pickle

import pytest

import xueliu
from xueliu import InvalidHandError, Tile, TileParseError, XueliuError


def test_tile_index_suit_rank_and_text():
    five_m = Tile(4)
    assert (five_m.index, five_m.suit, five_m.rank, str(five_m)) == (4, "m", 5, "5m")
    assert Tile("5m") == five_m and Tile("9s").index == 26 and Tile("1p").index == 9
    assert repr(Tile("7p")) == "Tile('7p')"
    assert int(Tile("2s")) == 19 and [10, 20][Tile(1)] == 20


def test_tiles_are_ordered_hashable_and_pickle():
    assert sorted([Tile("9s"), Tile("1m"), Tile("5p")]) == [Tile("1m"), Tile("5p"), Tile("9s")]
    assert len({Tile(3), Tile("4m")}) == 1
    assert pickle.loads(pickle.dumps(Tile("8p"))) == Tile("8p")


def test_parse_letters_chinese_and_spaces():
    tiles = xueliu.parse_tiles("23445677m345789p")
    assert [str(t) for t in tiles][:3] == ["2m", "3m", "4m"] and len(tiles) == 14
    assert xueliu.parse_tiles("23445677万 345789筒") == tiles
    assert xueliu.parse_tiles("19萬19條") == xueliu.parse_tiles("19m19s")


def test_format_sorts_and_groups_by_suit():
    assert xueliu.format_tiles(xueliu.parse_tiles("5p1m3m1s")) == "13m5p1s"
    assert xueliu.format_tiles([26, 0, Tile("5p")]) == "1m5p9s"


@pytest.mark.parametrize(
    "text, char, position",
    [("123x", "x", 3), ("120m", "0", 2), ("m", "m", 0), ("12m34", "4", 4)],
)
def test_parse_error_names_character_and_position(text, char, position):
    with pytest.raises(TileParseError) as info:
        xueliu.parse_tiles(text)
    message = str(info.value)
    assert repr(char) in message and f"position {position}" in message


def test_error_hierarchy():
    assert issubclass(TileParseError, XueliuError) and issubclass(InvalidHandError, XueliuError)
    assert issubclass(XueliuError, ValueError)
    with pytest.raises(InvalidHandError):
        Tile(27)
    with pytest.raises(InvalidHandError):
        Tile("55m")
