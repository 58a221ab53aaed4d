"""Bit-packed observations back to planes (docs/encoding.md §2.1).

A packed observation is ``uint32[OBS_PACKED_SHAPE]``: each channel of the plain ``uint8[71, 27]``
observation takes ``OBS_PACKED_BITS[c]`` consecutive words (planes), bit ``t`` of a word for tile
``t``, least significant plane first. This is the reference for that layout, in numpy; the same
few lines unpack on a GPU.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ._xueliu import OBS_PACKED_BITS, OBS_SHAPE, ArgumentError, ArgumentTypeError

_BITS = np.asarray(OBS_PACKED_BITS)
_FIRST = np.cumsum(_BITS) - _BITS
_PLANES = int(_BITS.sum())
# Each plane's place value within its channel: 1, 2, 4, … from the channel's first plane.
_WEIGHT = (1 << (np.arange(_PLANES) - np.repeat(_FIRST, _BITS))).astype(np.uint8)
_TILES = np.arange(OBS_SHAPE[1], dtype=np.uint32)


def unpack_observations(packed: npt.ArrayLike) -> npt.NDArray[np.uint8]:
    """``uint32[..., planes]`` packed observations (``Game.observe_packed``, ``VecEnv(packed=True)``)
    as the ``uint8[..., 71, 27]`` planes ``Game.observe`` gives."""
    words = np.asarray(packed)
    if words.dtype != np.uint32:
        raise ArgumentTypeError(f"packed observations are uint32 arrays; got {words.dtype}")
    if words.shape[-1:] != (_PLANES,):
        raise ArgumentError(f"packed observations have {_PLANES} planes on their last axis; got shape {words.shape}")
    bits = ((words[..., :, None] >> _TILES) & 1).astype(np.uint8) * _WEIGHT[:, None]
    return np.add.reduceat(bits, _FIRST, axis=-2)
