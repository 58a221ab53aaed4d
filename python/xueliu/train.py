"""Training the policy bot (``Bot("policy")``, docs/bots.md, "`policy`: a learned bot"): one command, a seed.

    python -m xueliu.train --seed 2 --games 400 --teacher ismcts:100 --rounds 1 --version 2 --out v2.xlpw

1. Data: hands played in Rust (``_policy_samples``, the GIL released, over every core) in each preset,
   a teacher bot labelling every decision of every seat (distillation).
2. A multilayer perceptron over the policy's features (``rust/xueliu-core/src/bots/policy/features.rs``:
   per tile the shanten and live waits each discard leaves, connections, safety, greedy's own choice, the
   seat's shanten, the wall, the rules planes), its output masked to the legal ids, trained in NumPy with Adam on the cross-entropy of the teacher's id. NumPy only: no ML
   framework, so ``pip install xueliu[train]`` pulls nothing large.
3. Optional rounds of DAgger (``--rounds``): the trained policy plays, the teacher labels the states it
   reaches, and training goes on over all the data.
4. Export (the weights format docs/bots.md describes, read by the Rust bot) and a rating: the weights
   are loaded with :func:`xueliu.load_policy` and compared with ``greedy`` by :func:`xueliu.compare_bots`.

Deterministic for a seed: the data depend on the seed alone (never on the thread count), and the
initial weights and batch order come from ``numpy.random.default_rng(seed)``.
"""

from __future__ import annotations

import argparse
import struct
import sys
import time
from dataclasses import dataclass, field
from typing import Optional, Sequence

import numpy as np

from ._xueliu import ACTION_COUNT, ArgumentError, Rules, _policy_samples, compare_bots, load_policy

# Every preset Rules.preset knows: the rules planes tell the network which one it plays.
PRESETS = (
    "chengdu",
    "chengdu_xueliu",
    "xuezhan",
    "yaoji",
    "dashiyou",
    "sanxia",
    "sanxia_piao",
    "mil_sbr_2025",
    "tfmj_2024",
)
OBS_SIZE = 71 * 27
# Bytes of the policy's features (version 2 on), the network's input.
FEATURES = 546
# The weights format (docs/bots.md): magic, format, version, layer count, shapes, values, FNV-1a 64.
MAGIC = b"XLPW"
FORMAT = 2
# Where greedy's choice (one byte per action id) starts in the features (features.rs).
GREEDY = 13 * 27
# The prior's start: greedy's choice gets +PRIOR/4 on its logit, so a new network plays greedy's hand.
PRIOR = 16.0
# A version loaded for rating when none is given: far from the shipped ones.
SCRATCH_VERSION = 1_000_000
# The presets the shipped policy is trained and measured in.
TRAINED = ("chengdu", "chengdu_xueliu", "xuezhan", "yaoji")


def inputs(raw: np.ndarray) -> np.ndarray:
    """The network input of feature (or observation) bytes, as the Rust bot computes it: min(v, 8) / 4."""
    x: np.ndarray = np.minimum(raw.reshape(len(raw), -1), 8).astype(np.float32)
    return x * np.float32(0.25)


@dataclass
class Data:
    """Labelled decisions: features ``uint8[n, 546]``, legal ids ``bool[n, 114]``, teacher ids."""

    features: np.ndarray
    legal: np.ndarray
    labels: np.ndarray

    def __len__(self) -> int:
        return len(self.labels)

    def join(self, other: Data) -> Data:
        return Data(
            *(
                np.concatenate([a, b])
                for a, b in ((self.features, other.features), (self.legal, other.legal), (self.labels, other.labels))
            )
        )


def generate(
    games: int,
    *,
    teacher: str,
    seed: int,
    players: Optional[str] = None,
    threads: int = 0,
    presets: Sequence[str] = PRESETS,
    first_game: int = 0,
) -> Data:
    """``games`` hands in each preset, labelled by ``teacher``, played by ``players`` (the teacher by default)."""
    parts = []
    for k, p in enumerate(presets):
        _, features, legal, labels = _policy_samples(
            games,
            Rules.preset(p),
            teacher=teacher,
            players=players,
            seed=seed + k,
            threads=threads,
            first_game=first_game,
        )
        parts.append(Data(features, legal, labels))
    data = parts[0]
    for part in parts[1:]:
        data = data.join(part)
    return data


@dataclass
class Mlp:
    """Dense layers with ReLU between them; ``weights[k]`` is input-major, as in the file. Over the features,
    ``prior[0]`` times greedy's choice's input is added to its logit: the network learns where to leave greedy."""

    weights: list[np.ndarray]
    biases: list[np.ndarray]
    prior: np.ndarray = field(default_factory=lambda: np.zeros(1, np.float32))

    @classmethod
    def new(cls, hidden: Sequence[int], rng: np.random.Generator, inputs: int = FEATURES) -> Mlp:
        """He-initialised layers over ``inputs`` bytes: the features, or ``OBS_SIZE`` for planes as version 1."""
        sizes = [inputs, *hidden, ACTION_COUNT]
        weights = [
            (rng.standard_normal((a, b)) * np.sqrt(2.0 / a)).astype(np.float32) for a, b in zip(sizes, sizes[1:])
        ]
        prior = np.full(1, PRIOR if inputs == FEATURES else 0.0, np.float32)
        return cls(weights, [np.zeros(b, np.float32) for b in sizes[1:]], prior)

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
        """The logits and each layer's input (for the backward pass)."""
        seen = []
        greedy = x[:, GREEDY : GREEDY + ACTION_COUNT] if self.prior[0] else None
        for k, (w, b) in enumerate(zip(self.weights, self.biases)):
            seen.append(x)
            x = x @ w + b
            if k + 1 < len(self.weights):
                x = np.maximum(x, 0)
        if greedy is not None:
            x = x + self.prior[0] * greedy
        return x, seen

    @classmethod
    def from_bytes(cls, data: bytes) -> Mlp:
        """The network of a weights file (its magic and checksum checked here, the rest by the Rust reader)."""
        if data[:4] != MAGIC or struct.unpack("<Q", data[-8:])[0] != fnv1a64(data[:-8]):
            raise ArgumentError("not a policy weights file: bad magic or checksum")
        form, _, count = struct.unpack_from("<III", data, 4)
        shapes = [struct.unpack_from("<II", data, 16 + 8 * k) for k in range(count)]
        at, weights, biases = 16 + 8 * count, [], []
        for rows, cols in shapes:
            weights.append(np.frombuffer(data, "<f4", rows * cols, at).reshape(rows, cols).astype(np.float32))
            biases.append(np.frombuffer(data, "<f4", cols, at + 4 * rows * cols).astype(np.float32))
            at += 4 * (rows * cols + cols)
        prior = np.frombuffer(data, "<f4", 1, at).astype(np.float32) if form >= 2 else np.zeros(1, np.float32)
        return cls(weights, biases, prior)

    def choose(self, raw: np.ndarray, legal: np.ndarray) -> np.ndarray:
        """The id the policy plays on each input: the legal id of highest logit, as the Rust bot."""
        logits = self.forward(inputs(raw))[0]
        best: np.ndarray = np.where(legal, logits, -np.inf).argmax(axis=1)
        return best

    def to_bytes(self, version: int) -> bytes:
        """The weights file the Rust bot reads."""
        head = MAGIC + struct.pack("<III", FORMAT, version, len(self.weights))
        head += b"".join(struct.pack("<II", *w.shape) for w in self.weights)
        body = b"".join(
            w.astype("<f4").tobytes() + b.astype("<f4").tobytes() for w, b in zip(self.weights, self.biases)
        )
        body += self.prior.astype("<f4").tobytes()
        return head + body + struct.pack("<Q", fnv1a64(head + body))


def fnv1a64(data: bytes) -> int:
    """FNV-1a 64, the file's checksum (the Rust reader's ``weights::fnv1a64``)."""
    h = 0xCBF29CE484222325
    for byte in data:
        h = ((h ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def masked_loss(logits: np.ndarray, legal: np.ndarray, labels: np.ndarray) -> tuple[float, np.ndarray, float]:
    """Mean cross-entropy of the labels under the softmax over the legal ids, its gradient, and accuracy."""
    z = np.where(legal, logits, np.float32(-1e9))
    z = z - z.max(axis=1, keepdims=True)
    p = np.exp(z)
    p /= p.sum(axis=1, keepdims=True)
    rows = np.arange(len(labels))
    loss = float(-np.log(p[rows, labels] + 1e-12).mean())
    accuracy = float((z.argmax(axis=1) == labels).mean())
    p[rows, labels] -= 1
    return loss, p / len(labels), accuracy


@dataclass
class Adam:
    lr: float = 1e-3
    beta1: float = 0.9
    beta2: float = 0.999
    step: int = 0
    moments: list[tuple[np.ndarray, np.ndarray]] = field(default_factory=list)

    def update(self, params: list[np.ndarray], grads: list[np.ndarray]) -> None:
        if not self.moments:
            self.moments = [(np.zeros_like(p), np.zeros_like(p)) for p in params]
        self.step += 1
        c1, c2 = 1 - self.beta1**self.step, 1 - self.beta2**self.step
        for p, g, (m, v) in zip(params, grads, self.moments):
            m *= self.beta1
            m += (1 - self.beta1) * g
            v *= self.beta2
            v += (1 - self.beta2) * g * g
            p -= self.lr * (m / c1) / (np.sqrt(v / c2) + 1e-8)


def fit(
    mlp: Mlp, data: Data, *, epochs: int, batch: int, rng: np.random.Generator, adam: Adam, log: bool = True
) -> list[float]:
    """Trains in place; returns the mean loss of each epoch."""
    losses = []
    for epoch in range(epochs):
        order = rng.permutation(len(data))
        total, right, seen = 0.0, 0.0, 0
        for start in range(0, len(order), batch):
            rows = np.sort(order[start : start + batch])
            x = inputs(data.features[rows])
            logits, seen_inputs = mlp.forward(x)
            loss, grad, accuracy = masked_loss(logits, data.legal[rows], data.labels[rows].astype(np.int64))
            grad_prior = (grad * x[:, GREEDY : GREEDY + ACTION_COUNT]).sum(keepdims=True) if mlp.prior[0] else None
            grads_w, grads_b = [], []
            for k in range(len(mlp.weights) - 1, -1, -1):
                grads_w.append(seen_inputs[k].T @ grad)
                grads_b.append(grad.sum(axis=0))
                if k:
                    grad = (grad @ mlp.weights[k].T) * (seen_inputs[k] > 0)
            params, grads = mlp.weights + mlp.biases, grads_w[::-1] + grads_b[::-1]
            if grad_prior is not None:
                params, grads = [*params, mlp.prior], [*grads, grad_prior.reshape(1)]
            adam.update(params, grads)
            total += loss * len(rows)
            right += accuracy * len(rows)
            seen += len(rows)
        losses.append(total / seen)
        if log:
            print(f"epoch {epoch + 1}: loss {total / seen:.4f}, teacher agreement {right / seen:.3f}", flush=True)
    return losses


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m xueliu.train", description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=200, help="hands per preset and round of data")
    parser.add_argument("--teacher", default="ismcts:100", help="the bot whose choices label the data")
    parser.add_argument("--presets", default=",".join(TRAINED), help="comma-separated presets")
    parser.add_argument("--hidden", default="64,32", help="hidden layer widths")
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--rounds", type=int, default=0, help="DAgger rounds after the first fit")
    parser.add_argument("--version", type=int, default=SCRATCH_VERSION, help="the version the file carries")
    parser.add_argument("--out", default="policy.xlpw", help="where to write the weights")
    parser.add_argument("--rate", type=int, default=100, help="deals of the rating against greedy (0: none)")
    parser.add_argument("--threads", type=int, default=0, help="threads for the data and the rating (0: all)")
    args = parser.parse_args(argv)

    presets = args.presets.split(",")
    rng = np.random.default_rng(args.seed)
    start = time.perf_counter()
    data = generate(args.games, teacher=args.teacher, seed=args.seed, threads=args.threads, presets=presets)
    print(f"{len(data)} decisions labelled by {args.teacher} in {time.perf_counter() - start:.0f} s", flush=True)
    mlp = Mlp.new([int(h) for h in args.hidden.split(",")], rng)
    adam = Adam(lr=args.lr)
    fit(mlp, data, epochs=args.epochs, batch=args.batch, rng=rng, adam=adam)
    for r in range(args.rounds):
        version = load_policy(mlp.to_bytes(args.version))
        more = generate(
            args.games,
            teacher=args.teacher,
            players=f"policy:{version}",
            seed=args.seed + 1000 * (r + 1),
            threads=args.threads,
            presets=presets,
        )
        data = data.join(more)
        print(f"round {r + 1}: {len(more)} more decisions, {len(data)} in all", flush=True)
        fit(mlp, data, epochs=max(1, args.epochs // 2), batch=args.batch, rng=rng, adam=adam)
    weights = mlp.to_bytes(args.version)
    with open(args.out, "wb") as f:
        f.write(weights)
    print(f"wrote {args.out} ({len(weights)} bytes, version {args.version}) after {time.perf_counter() - start:.0f} s")
    if args.rate:
        version = load_policy(weights)
        for preset in presets:
            c = compare_bots(
                f"policy:{version}", "greedy", args.rate, Rules.preset(preset), seed=args.seed, threads=args.threads
            )
            print(f"{preset}: policy - greedy {c.mean:+.2f} points a deal, 95% CI [{c.ci_low:+.2f}, {c.ci_high:+.2f}]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
