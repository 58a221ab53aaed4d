"""SplitMix64 exactly as docs/game-protocol.md §1 and `xueliu_core::rng` describe it, to check the
engine's use of randomness from the documentation alone."""

M = 1 << 64


class SplitMix64:
    def __init__(self, seed: int):
        self.state = seed % M

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) % M
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % M
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % M
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        threshold = (M - n) % n
        while True:
            m = self.next() * n
            if m % M >= threshold:
                return m >> 64

    def die(self) -> int:
        return self.below(6) + 1

    def shuffle(self, items: list) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


SORTED_WALL = [f"{r}{s}" for s in "mps" for r in range(1, 10) for _ in range(4)]
