"""Where tables live between decisions: a storage interface and its SQLite implementation
(:mod:`.storage_pg` has the PostgreSQL one, shared by several processes).

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

import fcntl
import json
import logging
import os
import sqlite3
import threading
from dataclasses import dataclass, field
from typing import Any, Optional, Protocol

import orjson

SCHEMA = 2
WAL_LIMIT = 16 << 20  # bytes of WAL past which a checkpoint empties it (docs/server.md)
log = logging.getLogger("xueliu.server")


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


class StorageError(RuntimeError):
    """Storage this process cannot use: another process owns it, or it is not a database of ours.
    The message names the file and what to do."""


class Moved(Exception):
    """The table is played by another server process, at ``address`` (a shared storage's lease)."""

    def __init__(self, table_id: str, address: str) -> None:
        super().__init__(f"table {table_id} is played at {address}")
        self.table_id, self.address = table_id, address


class Storage(Protocol):
    """What the server asks of storage. Every method may raise: :meth:`save` raising (a full or
    read-only disk, a lost connection) means nothing of that batch was written, and the server
    holds the batch and tries it again; nothing else is written meanwhile. Storage that one
    process owns (SQLite) refuses a second owner when it is opened (:class:`StorageError`) and
    only keeps rows; storage shared by several processes (PostgreSQL) leases each table to one
    of them instead, and so says four more things: which tables' changes it refused (``save``'s
    answer), where a table held elsewhere is played (``load`` raises :class:`Moved`), which
    tables the others play (``elsewhere``, for the lobby), and how often to ask for tables left
    by a process that died (``adopt_every``)."""

    adopt_every: Optional[float]  # seconds between calls of unfinished() after the first; None: once

    def save(self, changes: list[Change]) -> set[str]:
        """Writes the changes of one or more tables in one transaction, all or nothing; returns
        the ids of tables whose lease this process lost, of which nothing was written (always
        empty unless shared)."""
        ...

    def unfinished(self) -> list[str]:
        """The ids of every table that may still be played (not over, not expired) that this
        process may play and was not given yet, oldest first (at startup: all of them, unless
        another process holds some; a shared storage leases them to this process first)."""
        ...

    def load(self, table_id: str) -> Optional[Saved]:
        """One table, finished or not; None if storage has none by that id. Raises :class:`Moved`
        if another process plays it, and anything else if its rows cannot be read (the server
        then marks that table, and only it, as damaged)."""
        ...

    def decisions(self, table_id: str) -> list[dict[str, Any]]:
        """Every decision of a table, in order."""
        ...

    def elsewhere(self) -> list[dict[str, Any]]:
        """The unfinished tables other processes play: ``{"id", "status", "address"}`` each."""
        ...

    def close(self) -> None: ...


class SQLiteStorage:
    """Tables, their hands, moves and decisions in one SQLite file (``":memory:"`` for a
    throwaway one)."""

    adopt_every: Optional[float] = None  # one process owns the file: nothing to take over

    def __init__(
        self, path: str, *, synchronous: str = "NORMAL", checkpoint_every: float = 1.0, wal_limit: int = WAL_LIMIT
    ) -> None:
        if synchronous not in ("NORMAL", "FULL"):
            raise ValueError('synchronous must be "NORMAL" or "FULL"')
        self._owner = None if path == ":memory:" else _own(path)
        self._lock = threading.Lock()  # the app uses one thread; tests may use others
        self._stop = threading.Event()
        self._checkpointer: Optional[threading.Thread] = None
        try:
            self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        except BaseException:
            self._disown()
            raise
        try:
            self._prepare(synchronous, path != ":memory:" and checkpoint_every > 0, wal_limit)
        except BaseException as e:
            self._db.close()
            self._disown()
            if isinstance(e, (sqlite3.DatabaseError, StorageError)):  # "file is not a database", an old schema
                raise StorageError(f"{path} is not a database this server can open: {e}") from None
            raise
        if path != ":memory:" and checkpoint_every > 0:
            # A checkpoint fsyncs the database: done from a thread of its own, not in a commit on
            # the server's event loop (where it stalled every table for up to half a second).
            self._checkpointer = threading.Thread(
                target=self._checkpoints,
                args=(path, checkpoint_every, wal_limit),
                name="xueliu-checkpoint",
                daemon=True,
            )
            self._checkpointer.start()

    def _prepare(self, synchronous: str, checkpointer: bool, wal_limit: int) -> None:
        """Sets the connection up and makes (or checks) the schema."""
        db = self._db
        db.execute("PRAGMA journal_mode=WAL")
        db.execute(f"PRAGMA synchronous={synchronous}")
        db.execute("PRAGMA busy_timeout=5000")
        if checkpointer:
            db.execute("PRAGMA wal_autocheckpoint=0")
            db.execute(f"PRAGMA journal_size_limit={int(wal_limit)}")
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
            raise StorageError(f"storage schema {row[0]}, this server reads {SCHEMA}")

    def save(self, changes: list[Change]) -> set[str]:
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
                db.execute("COMMIT")
            except BaseException:
                # a failed COMMIT (disk full, read-only, EIO) may leave the transaction open
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise
        return set()

    def unfinished(self) -> list[str]:
        with self._lock:
            rows = self._db.execute(
                "SELECT id FROM tables WHERE status NOT IN ('over', 'expired') ORDER BY rowid"
            ).fetchall()
        return [table_id for (table_id,) in rows]

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

    def elsewhere(self) -> list[dict[str, Any]]:
        return []

    def _checkpoints(self, path: str, every: float, wal_limit: int) -> None:
        """Copies the WAL into the database every ``every`` seconds without stopping a writer
        (PASSIVE). Under steady writes that never catches up, and SQLite restarts the WAL from its
        start only once it has: so when the WAL passes ``wal_limit`` bytes, a TRUNCATE checkpoint
        waits for a gap between commits, copies the little PASSIVE left and empties the WAL (a
        commit that comes meanwhile waits for it: a few milliseconds, rarely)."""
        db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA busy_timeout=1000")
        wal = path + "-wal"
        try:
            while not self._stop.wait(every):
                try:
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)")
                    if os.path.exists(wal) and os.path.getsize(wal) > wal_limit:
                        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                except sqlite3.Error as e:  # a full or read-only disk: the next second tries again
                    log.warning("checkpoint of %s failed: %s", path, e)
        finally:
            db.close()

    def close(self) -> None:
        """Checkpoints the WAL into the database and closes it (SQLite then removes the WAL and
        its index), then lets another process own the file. Closing twice is harmless."""
        if self._stop.is_set():
            return
        self._stop.set()
        if self._checkpointer is not None:
            self._checkpointer.join()
        with self._lock:
            try:
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.Error as e:  # a read-only or full disk: the WAL stays, and is read at the next start
                log.warning("closing the database: its WAL could not be checkpointed: %s", e)
            self._db.close()
        self._disown()

    def _disown(self) -> None:
        if self._owner is not None:
            os.close(self._owner)  # after SQLite's own descriptors: closing it drops this process's locks
            self._owner = None


def _own(path: str) -> int:
    """Opens the database file (creating it readable and writable by its owner only: it holds
    token digests and every decision) and takes an exclusive ``flock`` on it for as long as this
    process serves it. The kernel drops the lock when the process ends, however it ends, so a
    crash leaves nothing to clean up. SQLite's own locks (POSIX ``fcntl`` ranges) are per
    transaction and would let two processes take turns; ``flock`` locks are separate from them."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
        created = True
    except FileExistsError:
        fd = os.open(path, os.O_RDWR)
        created = False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise StorageError(f"{path} is in use by another xueliu server: one process owns a database") from None
    if not created and os.fstat(fd).st_size == 0:
        os.close(fd)
        raise StorageError(
            f"{path} is empty (0 bytes): not a database this server wrote (a crash as it was created, or "
            "a file truncated by something else); delete it to start with no tables, or restore a backup"
        )
    return fd
