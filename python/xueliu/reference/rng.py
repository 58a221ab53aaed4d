"""SplitMix64, the game's only source of randomness, reproduced bit for bit (docs/game-protocol.md §1).

Every value is masked to 64 bits, since Python integers do not wrap. ``below`` is Lemire's
multiply-shift with rejection; ``shuffle`` is Fisher-Yates from the last index down.
"""

from __future__ import annotations

_MASK = (1 << 64) - 1


class SplitMix64:
    """The generator of ``xueliu_core::rng``: same state, same outputs, same order of use."""

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def next_u64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in 0..n-1 (n > 0): draw again while the low half is under (2^64 - n) mod n."""
        if n <= 0:
            raise ValueError(f"below needs a positive bound, got {n}")
        threshold = ((1 << 64) - n) % n
        while True:
            m = self.next_u64() * n
            if (m & _MASK) >= threshold:
                return m >> 64

    def die(self) -> int:
        """A die roll, 1-6."""
        return self.below(6) + 1

    def shuffle(self, items: list) -> None:
        """In place: for i from len-1 down to 1, swap item i with item below(i + 1)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
