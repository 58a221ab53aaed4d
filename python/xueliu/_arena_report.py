"""The arena's numbers, from the hands it played: pair margins, SPRT, pool ratings, bot statistics,
and their forms (JSON, Markdown, a SQLite ladder file). Pure functions of the played hands, so a
result is re-derived exactly from its seeds (:mod:`xueliu._arena` plays them).
"""

from __future__ import annotations

import hashlib
import json
import math
import sqlite3
import time
from dataclasses import dataclass, field, replace
from typing import Any, Optional

import numpy as np

from . import players as pl
from ._version import __version__
from ._xueliu import HAND_STAT_NAMES, ArgumentError, Rules

Z95 = 1.959963984540054
#: Normalised Elo per unit of μ/σ (fishtest's ``nelo_divided_by_nt``): 800 / ln 10.
NELO_PER_T = 800 / math.log(10)
#: SPRT looks at no fewer deals than this: σ must be estimated before a decision.
SPRT_MIN_DEALS = 20
_COL = {name: i for i, name in enumerate(HAND_STAT_NAMES)}


@dataclass(frozen=True)
class Sprt:
    """A sequential probability ratio test between the first two bots, counted on duplicate
    deals (each deal's margin is one observation, as fishtest counts game pairs). H0: the margin
    is ``lower``, H1: it is ``upper``, in normalised Elo (μ/σ × 800/ln 10) or, with
    ``points=True``, in points per game. Stops when the log-likelihood ratio leaves
    [ln(β/(1−α)), ln((1−β)/α)]."""

    lower: float
    upper: float
    points: bool = False
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not self.lower < self.upper:
            raise ArgumentError(f"SPRT bounds must be increasing (H0 below H1); got {self.lower}, {self.upper}")
        if not (0 < self.alpha < 1 and 0 < self.beta < 1):
            raise ArgumentError(f"SPRT alpha and beta are between 0 and 1; got {self.alpha}, {self.beta}")

    @property
    def bounds(self) -> tuple[float, float]:
        """Accept H0 at or below the first, H1 at or above the second."""
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    def llr(self, margins: np.ndarray) -> np.ndarray:
        """The log-likelihood ratio after each prefix of ``margins`` (a normal model, σ estimated
        from the prefix; NaN before ``SPRT_MIN_DEALS`` deals or while σ is 0)."""
        n = np.arange(1, len(margins) + 1, dtype=float)
        mean = np.cumsum(margins) / n
        var = np.maximum(np.cumsum(margins * margins) / n - mean * mean, 0.0) * n / np.maximum(n - 1, 1)
        with np.errstate(divide="ignore", invalid="ignore"):
            if self.points:
                llr = n * (self.upper - self.lower) * (mean - (self.lower + self.upper) / 2) / var
            else:
                t0, t1 = self.lower / NELO_PER_T, self.upper / NELO_PER_T
                llr = n * (t1 - t0) * (mean / np.sqrt(var) - (t0 + t1) / 2)
        llr = np.asarray(llr, dtype=float)
        llr[(n < SPRT_MIN_DEALS) | ~np.isfinite(llr)] = np.nan
        return llr

    def stop(self, margins: np.ndarray) -> Optional[tuple[int, str]]:
        """The deals after which the test first decides, and ``"H0"`` or ``"H1"``; None if not yet."""
        llr = self.llr(margins)
        low, high = self.bounds
        crossed = np.flatnonzero((llr <= low) | (llr >= high))
        if not len(crossed):
            return None
        i = int(crossed[0])
        return i + 1, "H1" if llr[i] >= high else "H0"

    def to_dict(self) -> dict[str, Any]:
        return {
            "lower": self.lower,
            "upper": self.upper,
            "unit": "points" if self.points else "nelo",
            "alpha": self.alpha,
            "beta": self.beta,
        }


@dataclass(frozen=True)
class Pair:
    """Bot ``a`` against bot ``b``: ``a``'s points per game minus ``b``'s, per deal. Its fields
    read as a ``Comparison``'s (``games``, ``mean``, ``std_error``, ``ci_low``, ``ci_high``)."""

    a: str
    b: str
    deals: int
    mean: float
    std_error: float
    sd: float

    @property
    def games(self) -> int:
        """Deals compared (as ``Comparison.games`` counts them)."""
        return self.deals

    @property
    def ci(self) -> tuple[float, float]:
        """The 95% interval of ``mean`` (normal approximation over deals)."""
        return self.mean - Z95 * self.std_error, self.mean + Z95 * self.std_error

    @property
    def ci_low(self) -> float:
        return self.ci[0]

    @property
    def ci_high(self) -> float:
        return self.ci[1]

    @property
    def mu_sigma(self) -> float:
        """The mean over the per-deal spread: comparable across presets with other point scales."""
        return self.mean / self.sd if self.sd > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        low, high = self.ci
        return {
            "a": self.a,
            "b": self.b,
            "deals": self.deals,
            "mean": self.mean,
            "std_error": self.std_error,
            "ci_low": low,
            "ci_high": high,
            "sd": self.sd,
            "mu_sigma": self.mu_sigma,
            "nelo": self.mu_sigma * NELO_PER_T,
        }


def fit_ratings(names: list[str], pairs: list[Pair]) -> dict[str, dict[str, float]]:
    """Each bot's rating in points per game, fitted at once to every pair's margin by weighted
    least squares (weights 1/SE²), anchored at ``random`` = 0 (else the first bot), with a 95%
    interval from the fit's covariance. A bot linked to the anchor by no pair gets the
    minimum-norm solution (pseudo-inverse) and a wide interval. The arena and the server's
    ladder both rate with it."""
    anchor = names.index("random") if "random" in names else 0
    free = [i for i in range(len(names)) if i != anchor]
    x = np.zeros((len(pairs), len(free)))
    y = np.array([p.mean for p in pairs])
    w = np.array([1 / max(p.std_error, 1e-9) ** 2 for p in pairs])
    for row, p in enumerate(pairs):
        for name, sign in ((p.a, 1), (p.b, -1)):
            if names.index(name) != anchor:
                x[row, free.index(names.index(name))] = sign
    normal = x.T @ (x * w[:, None])
    cov = np.linalg.pinv(normal)
    fit = cov @ (x.T @ (w * y))
    out = {names[anchor]: {"rating": 0.0, "ci_low": 0.0, "ci_high": 0.0, "anchor": True}}
    for k, i in enumerate(free):
        se = math.sqrt(max(cov[k, k], 0.0))
        out[names[i]] = {
            "rating": float(fit[k]),
            "ci_low": float(fit[k] - Z95 * se),
            "ci_high": float(fit[k] + Z95 * se),
            "anchor": False,
        }
    return out


@dataclass
class ArenaResult:
    """What an arena played and everything derived from it. ``hands`` holds every seat of every
    hand: ``int64[deals, seatings, 4, len(HAND_STAT_NAMES)]``, deal ``first_deal + i`` in row i."""

    names: list[str]
    seatings: list[tuple[int, ...]]
    rules: Rules
    seed: int
    first_deal: int
    sprt: Optional[Sprt]
    command: str
    hands: np.ndarray
    counts: list[pl.Counts]
    verdict: Optional[str] = None
    seconds: float = 0.0
    _started: float = field(default_factory=time.perf_counter, repr=False)

    @staticmethod
    def empty(
        names: list[str], seatings: list[Any], rules: Rules, seed: int, first: int, sprt: Optional[Sprt], command: str
    ) -> "ArenaResult":
        hands = np.zeros((0, len(seatings), 4, len(HAND_STAT_NAMES)), dtype=np.int64)
        return ArenaResult(names, seatings, rules, seed, first, sprt, command, hands, [pl.Counts() for _ in names])

    @property
    def deals(self) -> int:
        return len(self.hands)

    @property
    def decided(self) -> bool:
        return self.verdict is not None

    def extend(self, shard: Any) -> "ArenaResult":
        """This result followed by the next shard's deals; cut where the SPRT decides."""
        hands = np.concatenate([self.hands, shard.hands])
        counts = [c.merge(d) for c, d in zip(self.counts, shard.counts)]
        verdict = None
        if self.sprt is not None:
            stop = self.sprt.stop(self._margins(0, 1, hands))
            if stop is not None:
                hands, verdict = hands[: stop[0]], stop[1]
        return replace(self, hands=hands, counts=counts, verdict=verdict)

    def finished(self) -> "ArenaResult":
        return replace(self, seconds=time.perf_counter() - self._started)

    # ---- pairs, ratings, statistics

    def _margins(self, i: int, j: int, hands: Optional[np.ndarray] = None) -> np.ndarray:
        """Per deal: the mean over the seatings holding both bots of i's points per seat minus j's."""
        hands = self.hands if hands is None else hands
        points = hands[..., _COL["points"]].astype(float)
        values = []
        for k, seating in enumerate(self.seatings):
            si, sj = [s for s in range(4) if seating[s] == i], [s for s in range(4) if seating[s] == j]
            if si and sj:
                values.append(points[:, k, si].mean(axis=1) - points[:, k, sj].mean(axis=1))
        return np.mean(values, axis=0) if values else np.zeros(len(hands))

    def pair(self, i: int, j: int) -> Pair:
        m = self._margins(i, j)
        n = len(m)
        sd = float(m.std(ddof=1)) if n > 1 else 0.0
        return Pair(self.names[i], self.names[j], n, float(m.mean()) if n else 0.0, sd / math.sqrt(n) if n else 0.0, sd)

    def pairs(self) -> list[Pair]:
        """Every pair of bots that met, in the order of the bots given."""
        n = len(self.names)
        met = {(min(a, b), max(a, b)) for s in self.seatings for a in s for b in s if a != b}
        return [self.pair(i, j) for i in range(n) for j in range(i + 1, n) if (i, j) in met]

    def ratings(self) -> dict[str, dict[str, float]]:
        """Each bot's rating in points per game, fitted at once to every pair's margin by weighted
        least squares (weights 1/SE²), anchored at ``random`` = 0 (else the first bot), with a
        95% interval from the fit's covariance."""
        return fit_ratings(self.names, self.pairs())

    def bot_stats(self) -> dict[str, dict[str, float]]:
        """Per bot, over every seat it held: the figures users compare bots by."""
        out = {}
        for i, name in enumerate(self.names):
            mask = np.array([[b == i for b in s] for s in self.seatings])
            rows = self.hands[:, mask].reshape(-1, len(HAND_STAT_NAMES))
            hands = max(len(rows), 1)
            total = rows.sum(axis=0)
            wins = max(int(total[_COL["wins"]]), 1)
            seconds = np.array(self.counts[i].seconds)
            c = self.counts[i]
            out[name] = {
                "hands": len(rows),
                "points_per_hand": total[_COL["points"]] / hands,
                "win_rate": total[_COL["won"]] / hands,
                "wins_per_hand": total[_COL["wins"]] / hands,
                "self_draw_share": total[_COL["self_draws"]] / wins,
                "deal_in_rate": total[_COL["deal_ins"]] / hands,
                "mean_fan": total[_COL["fan"]] / wins,
                "flower_pig_rate": total[_COL["flower_pig"]] / hands,
                "not_ready_rate": total[_COL["not_ready"]] / hands,
                "kongs_per_hand": total[_COL["kongs"]] / hands,
                "decisions": c.decisions,
                "decision_ms_mean": float(seconds.mean() * 1000) if len(seconds) else None,
                "decision_ms_p99": float(np.percentile(seconds, 99) * 1000) if len(seconds) else None,
                "defaulted": c.defaulted,
                "rejected": c.rejected,
                "unparseable": c.unparseable,
                "stale": c.stale,
                "errors": c.errors,
                "restarts": c.restarts,
            }
        return {k: {s: (float(v) if isinstance(v, np.floating) else v) for s, v in d.items()} for k, d in out.items()}

    def digest(self) -> str:
        """SHA-256 over the bots, rules, seed and every hand's figures: equal for equal runs
        however they were split over processes."""
        h = hashlib.sha256(b"xueliu.arena\0")
        h.update(json.dumps([self.names, self.rules.to_dict(), self.seed, self.first_deal]).encode())
        h.update(np.ascontiguousarray(self.hands, dtype="<i8").tobytes())
        return h.hexdigest()

    # ---- forms

    def to_dict(self) -> dict[str, Any]:
        """Plain values for JSON: the run, its pairs, ratings and bot statistics."""
        return {
            "engine": __version__,
            "bots": self.names,
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "first_deal": self.first_deal,
            "deals": self.deals,
            "games": self.deals * len(self.seatings),
            "seatings": [list(s) for s in self.seatings],
            "sprt": None if self.sprt is None else {**self.sprt.to_dict(), "verdict": self.verdict},
            "pairs": [p.to_dict() for p in self.pairs()],
            "ratings": self.ratings(),
            "stats": self.bot_stats(),
            "seconds": self.seconds,
            "command": self.command,
            "digest": self.digest(),
        }

    def to_markdown(self) -> str:
        """The report as Markdown tables."""
        d = self.to_dict()
        preset = self.rules.preset_name or "custom rules"
        lines = [
            f"# Arena: {', '.join(self.names)} ({preset})",
            "",
            f"{self.deals} deals × {len(self.seatings)} seatings = {d['games']} games, seed {self.seed}"
            f" (first deal {self.first_deal}), xueliu {__version__}, digest `{d['digest'][:16]}`.",
            "",
        ]
        if self.command:
            lines += [f"Reproduce: `{self.command}`", ""]
        if self.sprt is not None:
            s = self.sprt
            unit = "points" if s.points else "normalised Elo"
            lines += [
                f"SPRT [{s.lower}, {s.upper}] {unit}, α={s.alpha}, β={s.beta}: "
                f"{self.verdict or 'undecided'} after {self.deals} deals.",
                "",
            ]
        lines += [
            "| a | b | deals | a − b (points/game) | 95% CI | σ per deal | μ/σ |",
            "|---|---|---|---|---|---|---|",
        ]
        for p in self.pairs():
            low, high = p.ci
            lines.append(
                f"| {p.a} | {p.b} | {p.deals} | {p.mean:+.2f} | [{low:+.2f}, {high:+.2f}] | {p.sd:.2f} | {p.mu_sigma:+.3f} |"
            )
        lines += ["", "| bot | rating (points/game) | 95% CI |", "|---|---|---|"]
        for name, r in sorted(self.ratings().items(), key=lambda kv: -kv[1]["rating"]):
            ci = "anchor" if r["anchor"] else f"[{r['ci_low']:+.2f}, {r['ci_high']:+.2f}]"
            lines.append(f"| {name} | {r['rating']:+.2f} | {ci} |")
        lines += [
            "",
            "| bot | hands | win rate | self-draw share | deal-in rate | mean fan | 花猪 | 查叫 | kongs/hand "
            "| decision ms (mean / p99) | defaults | errors |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|",
        ]
        for name, st in self.bot_stats().items():
            ms = (
                "—" if st["decision_ms_mean"] is None else f"{st['decision_ms_mean']:.2f} / {st['decision_ms_p99']:.2f}"
            )
            defaults = st["defaulted"] + st["rejected"] + st["unparseable"]
            lines.append(
                f"| {name} | {st['hands']} | {st['win_rate']:.3f} | {st['self_draw_share']:.3f} | "
                f"{st['deal_in_rate']:.3f} | {st['mean_fan']:.2f} | {st['flower_pig_rate']:.4f} | "
                f"{st['not_ready_rate']:.3f} | {st['kongs_per_hand']:.3f} | {ms} | {defaults} | "
                f"{st['errors'] + st['stale']} |"
            )
        return "\n".join(lines) + "\n"

    def save(self, path: str) -> int:
        """Appends this run to the SQLite ladder file at ``path`` (created if new); returns its id."""
        d = self.to_dict()
        with sqlite3.connect(path) as db:
            db.executescript(LADDER_SCHEMA)
            cur = db.execute(
                "INSERT INTO runs (created, engine, rules, seed, first_deal, deals, bots, sprt, command, digest, result)"
                " VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                (
                    time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                    __version__,
                    json.dumps(d["rules"]),
                    str(self.seed),
                    self.first_deal,
                    self.deals,
                    json.dumps(self.names),
                    json.dumps(d["sprt"]),
                    self.command,
                    d["digest"],
                    json.dumps(d),
                ),
            )
            run = int(cur.lastrowid or 0)
            db.executemany(
                "INSERT INTO ratings VALUES (?,?,?,?,?)",
                [(run, b, r["rating"], r["ci_low"], r["ci_high"]) for b, r in d["ratings"].items()],
            )
            db.executemany(
                "INSERT INTO pairs VALUES (?,?,?,?,?,?,?,?,?)",
                [
                    (run, p["a"], p["b"], p["deals"], p["mean"], p["ci_low"], p["ci_high"], p["sd"], p["mu_sigma"])
                    for p in d["pairs"]
                ],
            )
        return run


LADDER_SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY, created TEXT NOT NULL, engine TEXT NOT NULL, rules TEXT NOT NULL,
    seed TEXT NOT NULL, first_deal INTEGER NOT NULL, deals INTEGER NOT NULL, bots TEXT NOT NULL,
    sprt TEXT, command TEXT, digest TEXT NOT NULL, result TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS ratings (
    run INTEGER NOT NULL REFERENCES runs(id), bot TEXT NOT NULL, rating REAL NOT NULL,
    ci_low REAL NOT NULL, ci_high REAL NOT NULL);
CREATE TABLE IF NOT EXISTS pairs (
    run INTEGER NOT NULL REFERENCES runs(id), a TEXT NOT NULL, b TEXT NOT NULL, deals INTEGER NOT NULL,
    mean REAL NOT NULL, ci_low REAL NOT NULL, ci_high REAL NOT NULL, sd REAL NOT NULL, mu_sigma REAL NOT NULL);
"""
