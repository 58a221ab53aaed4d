"""VecEnv's outputs byte for byte: a digest of every observation (plain and packed), mask, reward,
end flag and seat over seeded episodes in every preset, against the digests the encoder wrote
before the step was made faster (issue 31 item 6). A faster step must write the same bytes; a
deliberate change of the encoding re-records these digests in the same commit, and says so."""

import hashlib

import numpy as np
import pytest

import xueliu
from xueliu import VecEnv

HANDS, STEPS = 24, 160  # every hand ends and restarts at least once in each preset

# Recorded with the build of c3f0236 (before issue 31's VecEnv work); one per (preset, packed).
# mil_sbr_2025's re-recorded for win_reveal = "hand_end" (issue 28, N18: a win's points, so its
# reward, arrive at the hand's end, and another seat's self-drawn tile is unseen until then); with
# win_reveal = "immediate" it writes the bytes recorded before.
DIGESTS = {
    ("chengdu", False): "4273e242439cedd9f28ba1a8fadd0160aec5bd859a5ad69fd1f7df9cfd077193",
    ("chengdu", True): "38515ce4dbc91480c028e54cb4c0c48707d9dfbe96e4f68a115f02969be90e20",
    ("chengdu_xueliu", False): "93a3ff9608cec8f46ff0f8cab558ddf3d251ef0e8ab0eda04310e0b334a7a34a",
    ("chengdu_xueliu", True): "94c97389f60c12b3afd1c728c5268ea5975eab23b3bf0c8bd8b39762effe4b4e",
    ("xuezhan", False): "7942df0f5def8c7755ba17b81164d773950657aa1badb7c49f41f686d409f68f",
    ("xuezhan", True): "a05a3f36b0650d1e20f980974b62f8379bc9c5c02c9366690e6a4c6339786ecd",
    ("dashiyou", False): "999755d17c61a42b22e5a87a6b7fc9724451004376fde2507da845b42b0d64d7",
    ("dashiyou", True): "eeca5cb1d200c969f377f7fb87ea31aef12064980e62e273e1d39df1b101ff1f",
    ("sanxia", False): "55b0959a2485c7694064bf749eed3d80615d89ab47cbcdf0aa3e9e1d199f88c2",
    ("sanxia", True): "c57a4a020646935df1fae4d369637f92dcad676c37473e2aff0a346155036ddc",
    ("sanxia_piao", False): "f4482488b4c8eef8aaffc0b53432829ed2df67e1fc2218403794b69ce3b67a12",
    ("sanxia_piao", True): "3297999ee6cd94f8e4ff54d1f3b688051c57a6543ae1f3c2d8b93fe73719f600",
    ("yaoji", False): "a02f88f7018a6ca9f1d209df89413544da6ba76a8e8a0ee3252b04a450607625",
    ("yaoji", True): "4e09abf5f98720ec33e9a0920e9147229acea79f0aaa5f0a119b084456a74b46",
    ("mil_sbr_2025", False): "292ee61044f317a864e7b399fdcd4adc3b6e00b1b4d5cb600e8e9e9b4cdfbc77",
    ("mil_sbr_2025", True): "b259c40944f0b22284f84ddd7bdc55038a35c2d975314021f7b80f72c69a1401",
    ("tfmj_2024", False): "25c1e08538030e0761a9dae7b7aa8cd1585ec8eb72f5f27e1a74d43e13051be3",
    ("tfmj_2024", True): "0644e19b06cd260dab803a1b466d0dafe1269615e2442dbb9c53da39d68fead9",
}


def random_ids(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One random legal id per row, from numpy's seeded generator (stable across numpy versions)."""
    return (rng.random(mask.shape) * mask).argmax(axis=1).astype(np.int32)


def episode_digest(preset: str, packed: bool, threads: int) -> str:
    env = VecEnv(HANDS, preset, seed=11, threads=threads, packed=packed)
    digest = hashlib.sha256()
    obs, mask, seat = env.reset()
    rng, ends = np.random.default_rng(5), 0
    for _ in range(STEPS):
        for array in (obs, mask, seat):
            digest.update(np.ascontiguousarray(array).tobytes())
        obs, mask, rewards, terminated, seat = env.step(random_ids(mask, rng))
        digest.update(rewards.tobytes())
        digest.update(terminated.tobytes())
        ends += int(terminated.sum())
    assert ends >= HANDS, "hands ended and were replaced"
    return digest.hexdigest()


@pytest.mark.parametrize("preset, packed", sorted(DIGESTS))
def test_vec_env_writes_the_recorded_bytes(preset, packed):
    assert set(xueliu.Rules.presets()) == {p for p, _ in DIGESTS}, "a digest for every preset"
    assert episode_digest(preset, packed, threads=1) == DIGESTS[preset, packed]
    assert episode_digest(preset, packed, threads=2) == DIGESTS[preset, packed]
