"""Tables in PostgreSQL, shared by any number of ``xueliu serve`` processes, each table leased to one.

The rows are SQLite's (:mod:`.storage`: ``tables``, ``hands``, ``moves``, ``decisions``), plus
what sharing needs, all in PostgreSQL's own terms:

- ``servers``: one row per live process, its ``address`` (where clients reach it) and
  ``alive_until``, pushed forward every ``lease_seconds / 4`` by a heartbeat thread on a
  connection of its own. A process whose row is past ``alive_until`` (killed, paused, cut off)
  holds no lease any more;
- a lease per table, in its ``tables`` row: ``owner`` (a process), ``epoch`` (bumped at every
  takeover: a fencing token) and ``step`` (the decision number last committed). A commit is a
  compare-and-set: its ``UPDATE ... WHERE owner = me AND epoch = mine AND step = the step I last
  wrote`` either matches, and the table's rows are written in the same transaction, or it does
  not, and nothing of that table is written: a process that lost its lease cannot commit, whatever
  its clock or its memory say. (The row lock of the ``UPDATE`` orders it against a takeover.)
- taking over: :meth:`unfinished` leases every unfinished table whose owner is gone (``FOR
  UPDATE SKIP LOCKED``, so two processes never take the same one) and the server calls it every
  second (``adopt_every``), so a dead process's tables are played on, from their last commit,
  within ``lease_seconds`` plus a second.

Timestamps are the database's (``now()``), never a process's clock, so machines need not agree on
the time. LISTEN/NOTIFY is not used: a one-row heartbeat and a one-second poll (an indexed query
on the unfinished tables) already bound the takeover, and a dead process could not notify anyway.
"""

from __future__ import annotations

import logging
import secrets
import threading
from typing import Any, Optional

import orjson
import psycopg

from .storage import SCHEMA, Change, Moved, Saved

log = logging.getLogger("xueliu.server")

LEASE_SECONDS = 5.0

DDL = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS servers (owner TEXT PRIMARY KEY, address TEXT NOT NULL, alive_until TIMESTAMPTZ NOT NULL);
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY, status TEXT NOT NULL, state TEXT NOT NULL,
    owner TEXT, epoch BIGINT NOT NULL DEFAULT 1, step BIGINT NOT NULL DEFAULT 0);
CREATE INDEX IF NOT EXISTS tables_unfinished ON tables (id) WHERE status != 'over';
CREATE TABLE IF NOT EXISTS hands (
    table_id TEXT NOT NULL, hand INTEGER NOT NULL, log TEXT NOT NULL, PRIMARY KEY (table_id, hand));
CREATE TABLE IF NOT EXISTS moves (
    id BIGSERIAL PRIMARY KEY, table_id TEXT NOT NULL, hand INTEGER NOT NULL,
    seat INTEGER NOT NULL, action TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS moves_by_hand ON moves (table_id, hand, id);
CREATE TABLE IF NOT EXISTS decisions (
    id BIGSERIAL PRIMARY KEY, table_id TEXT NOT NULL, hand INTEGER NOT NULL,
    decision INTEGER NOT NULL, seat INTEGER NOT NULL, action TEXT NOT NULL, by TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS decisions_by_table ON decisions (table_id, id);
"""

# The tables whose lease is free: never taken, released, or held by a process no longer alive.
ORPHANED = "(owner IS NULL OR owner NOT IN (SELECT owner FROM servers WHERE alive_until > now()))"


# One commit of many tables, one statement: the compare-and-set of each held table's row (its
# owner, lease epoch and last decision number must be this process's), the rows of new tables,
# then the decisions, moves and ended hands of the tables written, in the order given. The arguments
# go in binary (%b): the text format's quoting of each array element (regex per element, and the
# state JSON is full of quotes) was a tenth of a commit's CPU.
SAVE = """
WITH v AS (
    SELECT * FROM unnest(%b::text[], %b::text[], %b::text[], %b::bigint[], %b::bigint[], %b::bigint[])
    AS v(id, status, state, step, epoch, prior)),
updated AS (
    UPDATE tables AS t SET status = v.status, state = v.state, step = v.step FROM v
    WHERE t.id = v.id AND v.epoch > 0 AND t.owner = %b AND t.epoch = v.epoch AND t.step = v.prior
    RETURNING t.id),
inserted AS (
    INSERT INTO tables (id, status, state, owner, step)
    SELECT v.id, v.status, v.state, %b, v.step FROM v WHERE v.epoch = 0 ORDER BY v.id
    ON CONFLICT (id) DO NOTHING RETURNING id),
written AS (SELECT id FROM updated UNION ALL SELECT id FROM inserted),
d AS (
    INSERT INTO decisions (table_id, hand, decision, seat, action, by)
    SELECT x.table_id, x.hand, x.decision, x.seat, x.action, x.by
    FROM unnest(%b::text[], %b::int[], %b::int[], %b::int[], %b::text[], %b::text[]) WITH ORDINALITY
    AS x(table_id, hand, decision, seat, action, by, n)
    WHERE x.table_id IN (SELECT id FROM written) ORDER BY x.n),
m AS (
    INSERT INTO moves (table_id, hand, seat, action)
    SELECT x.table_id, x.hand, x.seat, x.action
    FROM unnest(%b::text[], %b::int[], %b::int[], %b::text[]) WITH ORDINALITY AS x(table_id, hand, seat, action, n)
    WHERE x.table_id IN (SELECT id FROM written) ORDER BY x.n),
h AS (
    INSERT INTO hands (table_id, hand, log)
    SELECT x.table_id, x.hand, x.log FROM unnest(%b::text[], %b::int[], %b::text[]) AS x(table_id, hand, log)
    WHERE x.table_id IN (SELECT id FROM written))
SELECT id FROM written
"""


def _columns(rows: list[Any], width: int) -> list[list[Any]]:
    """Rows as ``width`` columns, each a list: what ``unnest`` takes, one array a column."""
    return [list(column) for column in zip(*rows)] if rows else [[] for _ in range(width)]


class PostgresStorage:
    """The :class:`~xueliu.server.storage.Storage` of one process among many on one PostgreSQL
    database (``url``: a libpq URI, ``postgresql://user@host:port/db``). ``address`` is where
    clients reach this process (``http://host:port``): the lobby of every other process routes
    this process's tables there."""

    adopt_every: Optional[float] = 1.0

    def __init__(
        self, url: str, *, address: str = "", lease_seconds: float = LEASE_SECONDS, synchronous: str = "NORMAL"
    ) -> None:
        if synchronous not in ("NORMAL", "FULL"):
            raise ValueError('synchronous must be "NORMAL" or "FULL"')
        self.owner = secrets.token_hex(8)
        self.address = address
        self.lease_seconds = lease_seconds
        self._url = url
        self._synchronous = synchronous
        self._conn = self._connect()
        self._lock = threading.Lock()  # the app uses one thread; tests may use others
        self._held: dict[str, tuple[int, int]] = {}  # table id -> (epoch, step) this process last wrote
        with self._conn.transaction():
            # two processes starting at once would race on CREATE ... IF NOT EXISTS
            self._db.execute("SELECT pg_advisory_xact_lock(hashtext('xueliu schema'))")
            self._db.execute(DDL)
            row = self._db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
            if row is None:
                self._db.execute("INSERT INTO meta VALUES ('schema', %s)", (str(SCHEMA),))
            elif row[0] != str(SCHEMA):
                raise RuntimeError(f"{url}: storage schema {row[0]}, this server reads {SCHEMA}")
        self._beat(self._db)
        self._stop = threading.Event()
        self._heart = threading.Thread(target=self._heartbeat, name="xueliu-lease", daemon=True)
        self._heart.start()

    def _connect(self) -> psycopg.Connection[Any]:
        """A connection for the commits. ``synchronous="NORMAL"`` (as SQLite's) commits without
        waiting for the WAL's flush (``synchronous_commit=off``): a killed server process loses
        nothing (its commits are in PostgreSQL), a crash of PostgreSQL's machine the last ~0.6 s;
        ``"FULL"`` waits for the flush, and survives that too, at a flush per commit.

        A statement runs for at most ``lease_seconds`` (``statement_timeout``): a commit stuck on
        a lock would hold the server's event loop, and past its lease it could not land anyway.
        PostgreSQL cancels it, the hub holds the turn and tries it again."""
        db = psycopg.connect(self._url, autocommit=True)
        db.execute("SET synchronous_commit = " + ("on" if self._synchronous == "FULL" else "off"))
        db.execute(f"SET statement_timeout = {max(1, round(self.lease_seconds * 1000))}")
        return db

    @property
    def _db(self) -> psycopg.Connection[Any]:
        """The connection, made again when the last one broke (the database restarted, the
        network dropped): the statement that met the break raised, the next one reconnects."""
        if self._conn.closed:
            self._conn = self._connect()
        return self._conn

    # ---------------------------------------------------------------- leases

    def _beat(self, db: psycopg.Connection[Any]) -> None:
        db.execute(
            "INSERT INTO servers VALUES (%s, %s, now() + make_interval(secs => %s)) ON CONFLICT (owner) "
            "DO UPDATE SET address = excluded.address, alive_until = excluded.alive_until",
            (self.owner, self.address, self.lease_seconds),
        )

    def _heartbeat(self) -> None:
        """Keeps this process alive in ``servers``; a failed beat is retried on a new connection
        (while the beats fail the leases run out, and the commits' compare-and-set says so)."""
        db: Optional[psycopg.Connection[Any]] = None
        while not self._stop.wait(self.lease_seconds / 4):
            try:
                if db is None or db.closed:
                    db = psycopg.connect(self._url, autocommit=True, connect_timeout=int(self.lease_seconds) + 1)
                self._beat(db)
            except psycopg.Error as e:
                log.warning("lease heartbeat failed (%s); retrying", e)
                db = None
        if db is not None:
            db.close()

    # ---------------------------------------------------------------- the Storage interface

    def save(self, changes: list[Change]) -> set[str]:
        """Writes, in one statement (so one round trip and one transaction), the changes of the
        tables this process still leases, and returns the ids of the others (nothing of them is
        written: another process plays them now)."""
        rows = [[c.state["id"], c.state["status"], orjson.dumps(c.state).decode(), c.state["step"]] for c in changes]
        for row in rows:
            row += self._held.get(row[0], (0, -1))  # (0, -1): a new table, inserted
        decisions = [
            (c.state["id"], d["hand"], d["decision"], d["seat"], d["action"], d["by"])
            for c in changes
            for d in c.decisions
        ]
        moves = [(c.state["id"], *move) for c in changes for move in c.moves]
        ended = [(c.state["id"], *hand) for c in changes for hand in c.ended]
        with self._lock:
            columns = (*_columns(rows, 6), self.owner, self.owner)
            columns += (*_columns(decisions, 6), *_columns(moves, 4), *_columns(ended, 3))
            written = {table_id for (table_id,) in self._db.execute(SAVE, columns)}
        lost = set()
        for table_id, _, _, step, epoch, _ in rows:
            if table_id in written:
                self._held[table_id] = (epoch or 1, step)
            else:
                lost.add(table_id)
                self._held.pop(table_id, None)
        if lost:
            log.warning("lost the lease of %d table(s), e.g. %s: not written", len(lost), sorted(lost)[:3])
        return lost

    def unfinished(self) -> list[str]:
        """Leases every table that may still be played (not over, not expired) whose owner is gone
        (or that has none) and gives their ids (:meth:`load` then reads each): at startup, and
        every :attr:`adopt_every` seconds after."""
        with self._lock:
            rows = self._db.execute(
                "UPDATE tables SET owner = %s, epoch = epoch + 1 WHERE id IN (SELECT id FROM tables "
                f"WHERE status NOT IN ('over', 'expired') AND {ORPHANED} ORDER BY id FOR UPDATE SKIP LOCKED) "
                "RETURNING id",
                (self.owner,),
            ).fetchall()
        return [table_id for (table_id,) in rows]

    def load(self, table_id: str) -> Optional[Saved]:
        """One table, leased to this process; None if there is none by that id. Raises
        :class:`~xueliu.server.storage.Moved` when another live process holds it."""
        with self._lock:
            row = self._db.execute(
                f"UPDATE tables SET owner = %s, epoch = epoch + 1 WHERE id = %s AND (owner = %s OR {ORPHANED}) "
                "RETURNING id, epoch, step, state",
                (self.owner, table_id, self.owner),
            ).fetchone()
            if row is not None:
                return self._take(*row)
            where = self._db.execute(
                "SELECT s.address FROM tables t JOIN servers s ON s.owner = t.owner WHERE t.id = %s", (table_id,)
            ).fetchone()
        if where is None:
            return None  # no such table (or its owner went between the two queries: asked again, it is ours)
        raise Moved(table_id, where[0])

    def _take(self, table_id: str, epoch: int, step: int, state: str) -> Saved:
        """A table just leased: its lease noted, its hands and moves read (the caller holds the lock)."""
        self._held[table_id] = (epoch, step)
        data = orjson.loads(state)
        ended = self._db.execute("SELECT log FROM hands WHERE table_id = %s ORDER BY hand", (table_id,)).fetchall()
        moves = self._db.execute(
            "SELECT seat, action FROM moves WHERE table_id = %s AND hand = %s ORDER BY id", (table_id, data["hand"])
        ).fetchall()
        return Saved(data, [log for (log,) in ended], [(seat, action) for seat, action in moves])

    def elsewhere(self) -> list[dict[str, Any]]:
        """The tables other live processes play (not over, not expired): id, status and their address."""
        with self._lock:
            rows = self._db.execute(
                "SELECT t.id, t.status, s.address FROM tables t JOIN servers s ON s.owner = t.owner "
                "WHERE t.status NOT IN ('over', 'expired') AND t.owner != %s AND s.alive_until > now() ORDER BY t.id",
                (self.owner,),
            ).fetchall()
        return [{"id": i, "status": status, "address": address} for i, status, address in rows]

    def decisions(self, table_id: str) -> list[dict[str, Any]]:
        with self._lock:
            rows = self._db.execute(
                "SELECT hand, decision, seat, action, by FROM decisions WHERE table_id = %s ORDER BY id", (table_id,)
            ).fetchall()
        return [dict(zip(("hand", "decision", "seat", "action", "by"), row)) for row in rows]

    def close(self) -> None:
        """Stops the heartbeat and hands this process's tables back at once (another process
        takes them on its next poll, not a lease later)."""
        self._stop.set()
        self._heart.join()
        with self._lock:
            try:
                with self._db.transaction():
                    self._db.execute("UPDATE tables SET owner = NULL WHERE owner = %s", (self.owner,))
                    self._db.execute("DELETE FROM servers WHERE owner = %s", (self.owner,))
            except psycopg.Error as e:  # the leases run out instead
                log.warning("could not hand the tables back (%s)", e)
            self._conn.close()
