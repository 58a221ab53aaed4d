"""Where tables live between decisions: a storage interface and its SQLite implementation.

A table is kept as its moves, not as a snapshot rewritten at every decision: the engine is
deterministic (seed + moves = game), so a commit appends the decisions taken and the moves the
engine took, and rewrites only the table's small state (seats, the open step: a few hundred
bytes). A hand's event log is written once, when the hand ends. Restoring replays the ended hands
(``Match.from_log``, which verifies them) and the moves of the hand in play.

Every commit is one transaction, made before anyone hears of what it holds: a process killed at
any moment restarts from the last commit and loses no decision that was announced. SQLite runs
in WAL mode with ``synchronous=NORMAL``, which survives the process being killed (committed pages
are in the OS already); pass ``synchronous="FULL"`` to survive power loss too, at one fsync per
commit.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from dataclasses import dataclass, field
from typing import Any, Optional, Protocol

import orjson

SCHEMA = 2


@dataclass
class Change:
    """What one table did since its last commit."""

    state: dict[str, Any]  # Table.to_dict(): replaces the stored one
    decisions: list[dict[str, Any]] = field(default_factory=list)  # appended, for the audit trail
    moves: list[tuple[int, int, str]] = field(default_factory=list)  # (hand, seat, action), appended
    ended: list[tuple[int, str]] = field(default_factory=list)  # (hand, event log JSON) of ended hands


@dataclass
class Saved:
    """A table as storage gives it back: what Table.from_dict takes."""

    state: dict[str, Any]
    ended: list[str]  # the event logs of its ended hands, in order
    moves: list[tuple[int, str]]  # (seat, action): the engine's moves in the hand in play


class Storage(Protocol):
    def save(self, changes: list[Change]) -> None:
        """Writes the changes of one or more tables in one transaction."""
        ...

    def unfinished(self) -> list[Saved]:
        """Every table that may still be played: its match not over, the table not expired."""
        ...

    def load(self, table_id: str) -> Optional[Saved]:
        """One table, finished or not; None if storage has none by that id."""
        ...

    def decisions(self, table_id: str) -> list[dict[str, Any]]:
        """Every decision of a table, in order."""
        ...

    def close(self) -> None: ...


class SQLiteStorage:
    """Tables, their hands, moves and decisions in one SQLite file (``":memory:"`` for a
    throwaway one)."""

    def __init__(self, path: str, *, synchronous: str = "NORMAL", checkpoint_every: float = 1.0) -> None:
        if synchronous not in ("NORMAL", "FULL"):
            raise ValueError('synchronous must be "NORMAL" or "FULL"')
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._lock = threading.Lock()  # the app uses one thread; tests may use others
        db = self._db
        db.execute("PRAGMA journal_mode=WAL")
        db.execute(f"PRAGMA synchronous={synchronous}")
        db.execute("PRAGMA busy_timeout=5000")
        # A checkpoint fsyncs the database: done from a thread of its own, not in a commit on
        # the server's event loop (where it stalled every table for up to half a second).
        self._stop = threading.Event()
        self._checkpointer: Optional[threading.Thread] = None
        if path != ":memory:" and checkpoint_every > 0:
            db.execute("PRAGMA wal_autocheckpoint=0")
            self._checkpointer = threading.Thread(
                target=self._checkpoints, args=(path, checkpoint_every), name="xueliu-checkpoint", daemon=True
            )
            self._checkpointer.start()
        db.executescript(
            """
            CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            CREATE TABLE IF NOT EXISTS tables (id TEXT PRIMARY KEY, status TEXT NOT NULL, state TEXT NOT NULL);
            CREATE TABLE IF NOT EXISTS hands (
                table_id TEXT NOT NULL, hand INTEGER NOT NULL, log TEXT NOT NULL, PRIMARY KEY (table_id, hand));
            CREATE TABLE IF NOT EXISTS moves (
                id INTEGER PRIMARY KEY, table_id TEXT NOT NULL, hand INTEGER NOT NULL,
                seat INTEGER NOT NULL, action TEXT NOT NULL);
            CREATE INDEX IF NOT EXISTS moves_by_hand ON moves (table_id, hand, id);
            CREATE TABLE IF NOT EXISTS decisions (
                id INTEGER PRIMARY KEY, table_id TEXT NOT NULL, hand INTEGER NOT NULL,
                decision INTEGER NOT NULL, seat INTEGER NOT NULL, action TEXT NOT NULL, by TEXT NOT NULL);
            CREATE INDEX IF NOT EXISTS decisions_by_table ON decisions (table_id, id);
            """
        )
        row = db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        if row is None:
            db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA),))
        elif row[0] != str(SCHEMA):
            raise RuntimeError(f"{path}: storage schema {row[0]}, this server reads {SCHEMA}")

    def save(self, changes: list[Change]) -> None:
        states: list[tuple[str, str, str]] = []
        decisions: list[tuple[str, int, int, int, str, str]] = []
        moves: list[tuple[str, int, int, str]] = []
        ended: list[tuple[str, int, str]] = []
        for c in changes:
            table_id = c.state["id"]
            states.append((table_id, c.state["status"], orjson.dumps(c.state).decode()))
            decisions += [(table_id, d["hand"], d["decision"], d["seat"], d["action"], d["by"]) for d in c.decisions]
            moves += [(table_id, *move) for move in c.moves]
            ended += [(table_id, *hand) for hand in c.ended]
        with self._lock:
            db = self._db
            db.execute("BEGIN IMMEDIATE")
            try:
                db.executemany(
                    "INSERT INTO decisions (table_id, hand, decision, seat, action, by) VALUES (?, ?, ?, ?, ?, ?)",
                    decisions,
                )
                db.executemany("INSERT INTO moves (table_id, hand, seat, action) VALUES (?, ?, ?, ?)", moves)
                db.executemany("INSERT INTO hands (table_id, hand, log) VALUES (?, ?, ?)", ended)
                db.executemany(
                    "INSERT INTO tables (id, status, state) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE "
                    "SET status = excluded.status, state = excluded.state",
                    states,
                )
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    def unfinished(self) -> list[Saved]:
        with self._lock:
            rows = self._db.execute(
                "SELECT state FROM tables WHERE status NOT IN ('over', 'expired') ORDER BY rowid"
            ).fetchall()
            return [self._saved(json.loads(state)) for (state,) in rows]

    def load(self, table_id: str) -> Optional[Saved]:
        with self._lock:
            row = self._db.execute("SELECT state FROM tables WHERE id = ?", (table_id,)).fetchone()
            return None if row is None else self._saved(json.loads(row[0]))

    def _saved(self, state: dict[str, Any]) -> Saved:
        """A table's hands and current moves beside its state (the caller holds the lock)."""
        db, table_id = self._db, state["id"]
        ended = db.execute("SELECT log FROM hands WHERE table_id = ? ORDER BY hand", (table_id,)).fetchall()
        moves = db.execute(
            "SELECT seat, action FROM moves WHERE table_id = ? AND hand = ? ORDER BY id", (table_id, state["hand"])
        ).fetchall()
        return Saved(state, [log for (log,) in ended], [(seat, action) for seat, action in moves])

    def decisions(self, table_id: str) -> list[dict[str, Any]]:
        with self._lock:
            rows = self._db.execute(
                "SELECT hand, decision, seat, action, by FROM decisions WHERE table_id = ? ORDER BY id", (table_id,)
            ).fetchall()
        return [dict(zip(("hand", "decision", "seat", "action", "by"), row)) for row in rows]

    def _checkpoints(self, path: str, every: float) -> None:
        db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        try:
            while not self._stop.wait(every):
                db.execute("PRAGMA wal_checkpoint(PASSIVE)")
        finally:
            db.close()

    def close(self) -> None:
        self._stop.set()
        if self._checkpointer is not None:
            self._checkpointer.join()
        with self._lock:
            self._db.close()
