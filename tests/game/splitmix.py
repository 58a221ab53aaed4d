"""What the game tests need to check the engine's randomness against the documentation: the
reference's SplitMix64 (docs/game-protocol.md §1, written independently of the engine) and the
wall in index order before the shuffle."""

from xueliu.reference.rng import SplitMix64

SORTED_WALL = [f"{r}{s}" for s in "mps" for r in range(1, 10) for _ in range(4)]

__all__ = ["SORTED_WALL", "SplitMix64"]
