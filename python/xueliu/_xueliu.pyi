"""Type stubs for the compiled extension. Kept equal to the runtime by tests/test_stubs.py."""

from typing import Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

HandLike = Union[str, Sequence[Union["Tile", int]], Sequence[int], npt.NDArray[np.integer]]
# Batch `wilds=`: one count for every row, or one per row.
BatchWilds = Union[int, Sequence[int], npt.NDArray[np.integer]]

UNREACHABLE: int

class XueliuError(ValueError): ...
class TileParseError(XueliuError): ...
class InvalidHandError(XueliuError): ...

class Tile:
    def __new__(cls, value: Union[int, str]) -> "Tile": ...
    @property
    def index(self) -> int: ...
    @property
    def suit(self) -> str: ...
    @property
    def rank(self) -> int: ...
    def __index__(self) -> int: ...
    def __int__(self) -> int: ...
    def __lt__(self, other: "Tile") -> bool: ...
    def __le__(self, other: "Tile") -> bool: ...
    def __gt__(self, other: "Tile") -> bool: ...
    def __ge__(self, other: "Tile") -> bool: ...
    def __hash__(self) -> int: ...
    def __getnewargs__(self) -> tuple[int]: ...

class Decomposition:
    @property
    def kind(self) -> str: ...
    @property
    def groups(self) -> list[str]: ...
    @property
    def pair(self) -> Optional[Tile]: ...
    @property
    def wilds(self) -> list[Tile]: ...
    def __hash__(self) -> int: ...

class HandFacts:
    @property
    def standard(self) -> bool: ...
    @property
    def seven_pairs(self) -> bool: ...
    @property
    def all_triplets(self) -> bool: ...
    @property
    def terminals(self) -> bool: ...
    @property
    def one_suit(self) -> bool: ...
    @property
    def only_258(self) -> bool: ...
    @property
    def roots(self) -> int: ...
    @property
    def kongs(self) -> int: ...
    def to_dict(self) -> dict[str, Union[bool, int]]: ...

def parse_tiles(text: str) -> list[Tile]: ...
def format_tiles(tiles: Sequence[Union[Tile, int]]) -> str: ...
def is_win(
    hand: HandLike,
    *,
    melds: Optional[Sequence[str]] = None,
    void: Optional[str] = None,
    seven_pairs: bool = True,
    wilds: int = 0,
) -> bool: ...
def waits(
    hand: HandLike,
    *,
    melds: Optional[Sequence[str]] = None,
    void: Optional[str] = None,
    seven_pairs: bool = True,
    wilds: int = 0,
) -> list[Tile]: ...
def shanten(
    hand: HandLike,
    *,
    melds: Optional[Sequence[str]] = None,
    void: Optional[str] = None,
    seven_pairs: bool = True,
    wilds: int = 0,
) -> int: ...
def decompositions(
    hand: HandLike,
    *,
    melds: Optional[Sequence[str]] = None,
    void: Optional[str] = None,
    seven_pairs: bool = True,
    wilds: int = 0,
) -> list[Decomposition]: ...
def hand_facts(
    hand: HandLike,
    *,
    melds: Optional[Sequence[str]] = None,
    void: Optional[str] = None,
    seven_pairs: bool = True,
    wilds: int = 0,
) -> HandFacts: ...

class batch:
    @staticmethod
    def is_win(
        counts: npt.NDArray[np.uint8],
        *,
        void: Optional[str] = None,
        seven_pairs: bool = True,
        wilds: BatchWilds = 0,
    ) -> npt.NDArray[np.bool_]: ...
    @staticmethod
    def shanten(
        counts: npt.NDArray[np.uint8],
        *,
        void: Optional[str] = None,
        seven_pairs: bool = True,
        wilds: BatchWilds = 0,
    ) -> npt.NDArray[np.int8]: ...
    @staticmethod
    def waits(
        counts: npt.NDArray[np.uint8],
        *,
        void: Optional[str] = None,
        seven_pairs: bool = True,
        wilds: BatchWilds = 0,
    ) -> npt.NDArray[np.uint32]: ...
