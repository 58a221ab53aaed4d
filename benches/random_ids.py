"""One uniformly random legal id per row of a mask, drawn in numpy the fast way (the benches'
single home for it): all rows' legal ids as one flat list, then per row the k-th of its own."""

from __future__ import annotations

import numpy as np


def random_ids(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal id per row: the legal ids of all rows in one flat list, and
    per row the k-th of its own, k uniform below its count (no per-row Python or argmax)."""
    ids = mask.shape[1]
    flat = np.flatnonzero(mask)
    counts = np.bincount(flat // ids, minlength=len(mask))
    starts = np.cumsum(counts) - counts
    pick = starts + (rng.random(len(mask)) * counts).astype(np.int64)
    return (flat[pick] % ids).astype(np.int32)
