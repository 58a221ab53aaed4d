"""Hand analysis over many hands at once, with the GIL released.

Each function takes a ``uint8`` array of shape ``(N, 27)``: one row of tile counts per hand
(index 0–26 is ``1m..9m, 1p..9p, 1s..9s``). Rows are concealed hands with no melds. ``wilds=``
gives the wilds (幺鸡) each row holds besides its counts: one int for every row, or a ``uint8``
array (or any sequence of ints) with one count per row. A bad row raises
:class:`xueliu.InvalidHandError` naming the row.
"""

from ._xueliu import batch as _batch

is_win = _batch.is_win
shanten = _batch.shanten
waits = _batch.waits

__all__ = ["is_win", "shanten", "waits"]
