"""Type stubs for the compiled extension's submodule ``xueliu._xueliu.batch`` (a one-file stub
cannot hold a submodule; ``_xueliu.pyi`` imports this one as ``batch``). No such module exists
at runtime: mypy.stubtest's allow-list (tests/stubs/stubtest-allowlist.txt) names it."""

from typing import Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

# Batch `wilds=`: one count for every row, or one per row.
BatchWilds = Union[int, Sequence[int], npt.NDArray[np.integer]]

def is_win(
    counts: npt.NDArray[np.uint8],
    *,
    void: Optional[str] = None,
    seven_pairs: bool = True,
    wilds: BatchWilds = 0,
) -> npt.NDArray[np.bool_]: ...
def shanten(
    counts: npt.NDArray[np.uint8],
    *,
    void: Optional[str] = None,
    seven_pairs: bool = True,
    wilds: BatchWilds = 0,
) -> npt.NDArray[np.int8]: ...
def waits(
    counts: npt.NDArray[np.uint8],
    *,
    void: Optional[str] = None,
    seven_pairs: bool = True,
    wilds: BatchWilds = 0,
) -> npt.NDArray[np.uint32]: ...
