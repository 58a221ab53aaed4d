"""Where tables live between decisions: a storage interface and its SQLite implementation.

Every accepted decision is written with the table's whole snapshot (match and seats) in one
transaction, before anyone hears of it: a process killed at any moment restarts from the last
committed decision and loses none that was announced. SQLite runs in WAL mode with
``synchronous=NORMAL``, which survives the process being killed (committed pages are in the OS
already); pass ``synchronous="FULL"`` to survive power loss too, at one fsync per decision.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from typing import Any, Optional, Protocol

SCHEMA = 1


class Storage(Protocol):
    def save(self, state: dict[str, Any], match: Optional[str], decisions: list[dict[str, Any]]) -> None:
        """Writes the decisions, the table's state and its match snapshot in one transaction."""
        ...

    def unfinished(self) -> list[tuple[dict[str, Any], Optional[str]]]:
        """The state and match snapshot of every table whose match is not over."""
        ...

    def decisions(self, table_id: str) -> list[dict[str, Any]]:
        """Every decision of a table, in order."""
        ...

    def close(self) -> None: ...


class SQLiteStorage:
    """Tables and their decisions in one SQLite file (``":memory:"`` for a throwaway one)."""

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
            CREATE TABLE IF NOT EXISTS tables (
                id TEXT PRIMARY KEY, status TEXT NOT NULL, state TEXT NOT NULL, match TEXT);
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

    def save(self, state: dict[str, Any], match: Optional[str], decisions: list[dict[str, Any]]) -> None:
        text = json.dumps(state, separators=(",", ":"))
        table_id = state["id"]
        rows = [(table_id, d["hand"], d["decision"], d["seat"], d["action"], d["by"]) for d in decisions]
        with self._lock:
            db = self._db
            db.execute("BEGIN IMMEDIATE")
            try:
                db.executemany(
                    "INSERT INTO decisions (table_id, hand, decision, seat, action, by) VALUES (?, ?, ?, ?, ?, ?)",
                    rows,
                )
                db.execute(
                    "INSERT INTO tables (id, status, state, match) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO UPDATE "
                    "SET status = excluded.status, state = excluded.state, match = excluded.match",
                    (table_id, state["status"], text, match),
                )
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    def unfinished(self) -> list[tuple[dict[str, Any], Optional[str]]]:
        with self._lock:
            rows = self._db.execute("SELECT state, match FROM tables WHERE status != 'over' ORDER BY rowid").fetchall()
        return [(json.loads(state), match) for state, match in rows]

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
