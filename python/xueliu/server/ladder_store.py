"""Where the ladder keeps its bots and results: bot accounts (a name and a token's digest, as
seats keep theirs), every ranked set played, and the ratings fitted to them, per preset.

The rows live beside the tables', in the same database (SQLite's file, or PostgreSQL shared by
several ``xueliu serve`` processes), on a connection of their own: one class speaks both, the
SQL written once with ``?`` placeholders (turned into ``%s`` for psycopg). Every write is one
transaction: a set's row and the ratings fitted with it land together.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from dataclasses import dataclass
from typing import Any, Optional

import orjson

SQLITE_DDL = """
CREATE TABLE IF NOT EXISTS ladder_bots (
    name TEXT PRIMARY KEY, token TEXT NOT NULL, created REAL NOT NULL, validated INTEGER, report TEXT);
CREATE TABLE IF NOT EXISTS ladder_validations (
    name TEXT NOT NULL, preset TEXT NOT NULL, passed INTEGER NOT NULL, PRIMARY KEY (name, preset));
CREATE TABLE IF NOT EXISTS ladder_sets (
    id INTEGER PRIMARY KEY, preset TEXT NOT NULL, seed TEXT NOT NULL, bots TEXT NOT NULL, points TEXT NOT NULL,
    played REAL NOT NULL);
CREATE INDEX IF NOT EXISTS ladder_sets_by_preset ON ladder_sets (preset, id);
CREATE TABLE IF NOT EXISTS ladder_ratings (
    preset TEXT NOT NULL, name TEXT NOT NULL, rating REAL NOT NULL, ci_low REAL NOT NULL, ci_high REAL NOT NULL,
    sets INTEGER NOT NULL, PRIMARY KEY (preset, name));
"""
POSTGRES_DDL = SQLITE_DDL.replace("id INTEGER PRIMARY KEY", "id BIGSERIAL PRIMARY KEY").replace(
    "REAL", "DOUBLE PRECISION"
)


@dataclass(frozen=True)
class Account:
    """A bot account: ``validated`` is None until its validation game, then whether it passed."""

    name: str
    token: str  # the token's SHA-256 digest
    validated: Optional[bool]
    report: Optional[dict[str, Any]]


@dataclass(frozen=True)
class PlayedSet:
    """One ranked set: four bots, each one's mean points per game over the set's four games."""

    bots: list[str]
    points: list[float]


class LadderStore:
    """The ladder's rows in SQLite (``path``, ``":memory:"`` for a throwaway one) or, with
    ``postgres`` set to a libpq URL, in PostgreSQL."""

    def __init__(self, path: str = ":memory:", *, postgres: Optional[str] = None) -> None:
        self._lock = threading.Lock()
        self._pg = postgres is not None
        if postgres is not None:
            import psycopg

            self._db: Any = psycopg.connect(postgres, autocommit=True)
            with self._db.transaction():
                self._db.execute("SELECT pg_advisory_xact_lock(hashtext('xueliu ladder schema'))")
                self._db.execute(POSTGRES_DDL)
        else:
            self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA busy_timeout=5000")
            self._db.executescript(SQLITE_DDL)

    def _run(self, sql: str, args: tuple[Any, ...] = ()) -> list[Any]:
        """One statement's rows (the caller holds the lock)."""
        cursor = self._db.execute(sql.replace("?", "%s") if self._pg else sql, args)
        return list(cursor.fetchall()) if cursor.description else []

    def _transaction(self, statements: list[tuple[str, tuple[Any, ...]]]) -> list[Any]:
        """The statements, all or none; the last one's rows."""
        rows: list[Any] = []
        with self._lock:
            if self._pg:
                with self._db.transaction():
                    for sql, args in statements:
                        rows = self._run(sql, args)
                return rows
            self._db.execute("BEGIN IMMEDIATE")
            try:
                for sql, args in statements:
                    rows = self._run(sql, args)
                self._db.execute("COMMIT")
                return rows
            except BaseException:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise

    # ---------------------------------------------------------------- accounts

    def add_bot(self, name: str, digest: str) -> bool:
        """Creates an account; False (nothing written) when the name is taken."""
        insert = "INSERT INTO ladder_bots (name, token, created) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING RETURNING name"
        return bool(self._transaction([(insert, (name, digest, time.time()))]))

    def account(self, name: str) -> Optional[Account]:
        with self._lock:
            rows = self._run("SELECT name, token, validated, report FROM ladder_bots WHERE name = ?", (name,))
        if not rows:
            return None
        name, token, validated, report = rows[0]
        return Account(name, token, None if validated is None else bool(validated), report and orjson.loads(report))

    def bots(self) -> int:
        """How many accounts there are."""
        with self._lock:
            return int(self._run("SELECT count(*) FROM ladder_bots")[0][0])

    def validated(self, name: str, preset: str, passed: bool, report: dict[str, Any]) -> None:
        """Records a validation game's result under ``preset``, and on the account as its last."""
        keep = (
            "INSERT INTO ladder_validations (name, preset, passed) VALUES (?, ?, ?)"
            " ON CONFLICT (name, preset) DO UPDATE SET passed = excluded.passed"
        )
        last = "UPDATE ladder_bots SET validated = ?, report = ? WHERE name = ?"
        self._transaction(
            [(keep, (name, preset, int(passed))), (last, (int(passed), orjson.dumps(report).decode(), name))]
        )

    def passed(self, name: str, preset: str) -> bool:
        """Whether the account passed its validation game under ``preset`` (each preset has its own:
        a bot that met no wild under ``chengdu`` has not shown it plays ``yaoji``)."""
        with self._lock:
            rows = self._run("SELECT passed FROM ladder_validations WHERE name = ? AND preset = ?", (name, preset))
        return bool(rows and rows[0][0])

    # ---------------------------------------------------------------- sets and ratings

    def sets(self, preset: str) -> list[PlayedSet]:
        """Every ranked set played under ``preset``, oldest first."""
        with self._lock:
            rows = self._run("SELECT bots, points FROM ladder_sets WHERE preset = ? ORDER BY id", (preset,))
        return [PlayedSet(orjson.loads(bots), orjson.loads(points)) for bots, points in rows]

    def record(
        self, preset: str, seed: int, played: PlayedSet, ratings: dict[str, dict[str, float]], sets: dict[str, int]
    ) -> None:
        """A set's row and the preset's ratings fitted with it (``sets``: each bot's sets played), in one transaction."""
        statements: list[tuple[str, tuple[Any, ...]]] = [
            (
                "INSERT INTO ladder_sets (preset, seed, bots, points, played) VALUES (?, ?, ?, ?, ?)",
                (
                    preset,
                    str(seed),
                    orjson.dumps(played.bots).decode(),
                    orjson.dumps(played.points).decode(),
                    time.time(),
                ),
            ),
            ("DELETE FROM ladder_ratings WHERE preset = ?", (preset,)),
        ]
        for name, r in ratings.items():
            statements.append(
                (
                    "INSERT INTO ladder_ratings (preset, name, rating, ci_low, ci_high, sets) VALUES (?, ?, ?, ?, ?, ?)",
                    (preset, name, r["rating"], r["ci_low"], r["ci_high"], sets.get(name, 0)),
                )
            )
        self._transaction(statements)

    def ratings(self, preset: Optional[str] = None) -> list[dict[str, Any]]:
        """The ratings kept, best first within each preset (every preset's when ``preset`` is None)."""
        sql = "SELECT preset, name, rating, ci_low, ci_high, sets FROM ladder_ratings"
        args: tuple[Any, ...] = ()
        if preset is not None:
            sql, args = sql + " WHERE preset = ?", (preset,)
        with self._lock:
            rows = self._run(sql + " ORDER BY preset, rating DESC, name", args)
        keys = ("preset", "name", "rating", "ci_low", "ci_high", "sets")
        return [dict(zip(keys, row)) for row in rows]

    def close(self) -> None:
        with self._lock:
            self._db.close()
