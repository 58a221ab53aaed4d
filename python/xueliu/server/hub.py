"""The table server's hub: :class:`Server` owns the tables of one process, their timers and their
sockets (:class:`Connection`, with a :class:`DelayLine` of messages held until their turn is
stored); every change to a table goes through :meth:`Server.run`, and :meth:`Server.commit`
writes what changed (all the tables changed in one turn of the event loop, in one transaction)
before a single message leaves. Transport-free: app.py's routes call it (docs/server.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections import deque
from typing import Any, Callable, Iterable, Optional

import orjson
from starlette.websockets import WebSocket

from .._xueliu import shanten
from .clock import Clock, Timer
from .limits import Limits, RateLimit
from .storage import Change, Moved, Storage
from .table import SPECTATORS, Table, TableConfig, TableError

log = logging.getLogger("xueliu.server")
RETRY_SECONDS = 1.0  # a commit storage refused is tried again this often

# WebSocket close codes (docs/server.md); 1008 (an origin not allowed) is Starlette's
WS_1011_INTERNAL_ERROR = 1011  # the table is damaged: storage holds it but it could not be restored
WS_1013_TRY_AGAIN_LATER = 1013  # storage is failing: nothing can change, try again shortly
WS_4000_SEAT_TAKEN_OVER = 4000  # another socket took the seat: the newest wins
WS_4008_TOO_FAR_BEHIND = 4008  # more than Limits.queue_bytes waited for the client: dropped, not buffered
WS_4307_MOVED = 4307  # another process plays the table: the client reconnects to the address it was sent
WS_4401_UNAUTHORIZED = 4401  # no seat of the table has the hello's token
WS_4404_UNKNOWN_TABLE = 4404
WS_4408_NO_HELLO = 4408  # no valid hello within Limits.hello_seconds
WS_4410_TABLE_EXPIRED = 4410  # the table expired waiting for people to join
CLOSE_SECONDS = 30.0  # a socket being closed has this long to read what was written before its close


Outbox = list[tuple[int, dict[str, Any]]]  # a table's messages of one turn: (viewer, message)
Sends = list[tuple[Table, Outbox]]  # the messages of one turn, table by table


class Connection:
    """One WebSocket's outgoing messages, written by its own task so a slow client blocks no
    table. A list and one future, not an ``asyncio.Queue``: a commit hands a socket two or three
    messages at once, and the pump writes them all on one wake. At most ``queue_bytes`` of text
    wait: a client further behind is dropped (it may reconnect and resume), not buffered."""

    def __init__(self, ws: WebSocket, queue_bytes: int) -> None:
        self.ws = ws
        self.waiting: list[str] = []
        self.queued = 0  # characters in `waiting` and in the batch being written
        self.queue_bytes = queue_bytes
        self.wake: Optional[asyncio.Future[None]] = None
        self.close_code: Optional[int] = None  # set: close after what waits; send no more
        self.task: asyncio.Future[None]  # the pump, from start()

    def send(self, text: str) -> None:
        if self.close_code is not None:
            return
        self.queued += len(text)
        if self.queued <= self.queue_bytes:
            self.waiting.append(text)
            self._wake()
        else:  # too far behind: dropped with what waits; it may reconnect and resume
            self.waiting = []
            self.close(WS_4008_TOO_FAR_BEHIND)

    def close(self, code: int) -> None:
        if self.close_code is None:
            self.close_code = code
            self._wake()

    def _wake(self) -> None:
        if self.wake is not None and not self.wake.done():
            self.wake.set_result(None)

    def start(self) -> None:
        self.task = asyncio.ensure_future(self._pump())

    async def stop(self) -> None:
        """Ends the pump once the socket's handler is done: at once, or, when the server is
        closing the socket, after at most :data:`CLOSE_SECONDS` for the client to read to the close."""
        try:
            if self.close_code is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(asyncio.shield(self.task), CLOSE_SECONDS)
        finally:
            self.task.cancel()

    async def _pump(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            if not self.waiting and self.close_code is None:
                self.wake = loop.create_future()
                await self.wake
            batch, self.waiting = self.waiting, []
            for text in batch:
                await self.ws.send_text(text)
                self.queued -= len(text)
            if self.close_code is not None and not self.waiting:
                await self.ws.close(code=self.close_code)
                return


class DelayLine:
    """Spectator messages released ``delay`` seconds after they were written, in order, to the
    spectators who were watching when they were written. At most ``queue_bytes`` of text wait:
    past that the spectators are dropped (:data:`WS_4008_TOO_FAR_BEHIND`; they may come back, as
    late as before), so a seat toggling 托管 all day under a day's delay holds no memory."""

    def __init__(self, clock: Clock, delay: float, queue_bytes: int) -> None:
        self.clock, self.delay, self.queue_bytes = clock, delay, queue_bytes
        self.pending: deque[tuple[float, str, list[Connection]]] = deque()
        self.queued = 0  # characters in `pending`
        self.timer: Optional[Timer] = None

    def put(self, text: str, targets: Iterable[Connection]) -> None:
        if self.delay <= 0:
            for conn in targets:
                conn.send(text)
            return
        targets = list(targets)
        if self.queued + len(text) > self.queue_bytes:
            self._drop(targets)
            return
        self.queued += len(text)
        self.pending.append((self.clock.now() + self.delay, text, targets))
        if self.timer is None:
            self.timer = self.clock.call_at(self.pending[0][0], self._release)

    def _release(self) -> None:
        self.timer = None
        now = self.clock.now()
        while self.pending and self.pending[0][0] <= now:
            _, text, targets = self.pending.popleft()
            self.queued -= len(text)
            for conn in targets:
                conn.send(text)
        if self.pending:
            self.timer = self.clock.call_at(self.pending[0][0], self._release)

    def _drop(self, targets: list[Connection]) -> None:
        for _, _, waiting in self.pending:
            targets += waiting
        for conn in targets:
            conn.close(WS_4008_TOO_FAR_BEHIND)
        self.pending.clear()
        self.queued = 0
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None


class Server:
    """The tables of one process, with their storage, clock, timers and sockets."""

    def __init__(
        self, storage: Storage, clock: Clock, *, limits: Optional[Limits] = None, chosen_seeds: bool = False
    ) -> None:
        self.storage = storage
        self.clock = clock
        self.limits = limits = limits or Limits()
        rate = limits.creates_per_minute
        self.creates = RateLimit(rate / 60, max(1.0, rate))  # new tables, per client address
        self.chosen_seeds = chosen_seeds  # tables with people may have a chosen seed: for tests only
        self.tables: dict[str, Table] = {}
        self.seats: dict[tuple[str, int], Connection] = {}
        self.watchers: dict[str, set[Connection]] = {}
        self.lines: dict[str, DelayLine] = {}
        self.timers: dict[str, tuple[float, Timer]] = {}
        self.dirty: dict[str, Table] = {}  # changed since the last commit
        self.commit_soon = False  # a commit is due at the end of this turn of the event loop
        # A turn storage refused (disk full, read-only, EIO): its changes and messages are held,
        # and nothing more is accepted, until a retry lands it (docs/server.md, "What the server
        # guarantees when storage fails").
        self.unsaved: Optional[tuple[list[Change], Sends]] = None
        self.failure: Optional[str] = None  # why storage refuses, while it does
        self.damaged: dict[str, str] = {}  # tables storage holds but that could not be restored: why

    def restore(self) -> None:
        """Loads every unfinished table from storage and restarts its clocks, table by table: one
        that cannot be restored is marked damaged and logged, and the others play on. First it
        builds the engine's hand-analysis table (about a second, once per process), which the
        first win check of any table would otherwise build inside a decision, stalling every
        table."""
        shanten("123456789m1122p")
        self._adopt()

    def _adopt(self) -> None:
        """Plays the unfinished tables storage gives this process, table by table (one that cannot
        be restored is marked damaged and the others play on); a shared storage gives more later
        (those of a process that died), so it is asked again every ``adopt_every`` seconds."""
        if self.storage.adopt_every is not None:
            self.clock.call_at(self.clock.now() + self.storage.adopt_every, self._adopt)
        adopted = 0
        for table_id in self.storage.unfinished():
            try:
                table = self._load(table_id)
            except Moved:  # taken by another process since: it plays it
                continue
            if table is not None:
                self._schedule(table)
                adopted += 1
        if adopted:
            log.info("restored %d unfinished table(s)", adopted)

    def find(self, table_id: str) -> Optional[Table]:
        """A table of this server: in memory, or a finished one loaded from storage (restore
        leaves those out, so that a restart does not replay every match ever played). Raises
        :class:`TableError` ("damaged") for a table storage holds but cannot give back, and
        :class:`Moved` for a table another process plays."""
        table = self.tables.get(table_id)
        if table is None:
            table = self._load(table_id)
            if table is not None:
                self._schedule(table)  # a shared storage may give an unfinished table taken over
        if table_id in self.damaged:
            raise TableError("damaged", f"table {table_id} could not be restored ({self.damaged[table_id]})")
        return table

    def _load(self, table_id: str) -> Optional[Table]:
        """A table rebuilt from storage (kept in memory), or None: none by that id, or damaged."""
        if table_id in self.damaged:
            return None
        try:
            saved = self.storage.load(table_id)
            if saved is None:
                return None
            table = Table.from_dict(saved.state, saved.ended, saved.moves, self.clock)
        except Moved:
            raise
        except Exception as e:  # a row that is not JSON, lacks a key, holds an illegal move...
            self.damaged[table_id] = f"{type(e).__name__}: {e}"
            log.error("table %s cannot be restored, served as damaged: %s", table_id, self.damaged[table_id])
            return None
        table.expires_at = self.clock.now() + self.limits.waiting_expiry  # a waiting table: a full wait again
        self.tables[table_id] = table
        return table

    def available(self) -> None:
        """Raises :class:`TableError` ("unavailable") while storage refuses to commit: the server
        then changes nothing and shows nothing that is not on disk."""
        if self.failure is not None:
            raise TableError("unavailable", f"storage is failing ({self.failure}); nothing changed, try again shortly")

    def create(self, config: TableConfig, *, seed: Optional[int] = None) -> Table:
        """A new table. ``seed``: a deal the server drew itself, as secret as the table's own
        (the ladder's set of games, docs/ladder.md); a creator's chosen seed is ``config.seed``."""
        self.available()
        if len(self.tables) >= self.limits.max_tables:
            self._forget_finished()
        if len(self.tables) >= self.limits.max_tables:
            raise TableError("full", f"this server holds at most {self.limits.max_tables} tables in play")
        if config.seed is not None and config.people() > 1 and not self.chosen_seeds:
            raise TableError(
                "bad_config",
                "seed: a table with more than one person is dealt from the server's random source; "
                "a chosen seed is for one person with bots",
            )
        table = Table(secrets.token_hex(6), config, self.clock, seed=seed)
        table.expires_at = self.clock.now() + self.limits.waiting_expiry
        self.tables[table.id] = table
        self.run(table, table.begin)
        self.commit()
        self.available()
        log.info("table %s created (%s, %d hands, seats %s)", table.id, config.preset, config.hands, config.seats)
        return table

    def _forget_finished(self) -> None:
        """Drops from memory the tables over or expired that nobody has open (storage keeps
        them; :meth:`find` loads one again when asked), so that they do not count as held."""
        for table_id, table in list(self.tables.items()):
            if (
                table.status in ("over", "expired")
                and table_id not in self.dirty
                and not self.watchers.get(table_id)
                and not any((table_id, seat) in self.seats for seat in range(4))
            ):
                del self.tables[table_id]
                self.watchers.pop(table_id, None)
                self.lines.pop(table_id, None)
                timer = self.timers.pop(table_id, None)  # a grace period running out: moot now
                if timer is not None:
                    timer[1].cancel()

    def run(self, table: Table, op: Callable[..., Any], *args: Any) -> None:
        """Runs one change to a table; its commit and messages follow at the end of this turn of
        the event loop, with every other table's (at once without a running loop). A
        :class:`TableError` from ``op`` changed nothing and is raised again; so does ``unavailable``
        while storage fails."""
        self.available()
        try:
            op(*args)
        finally:
            self.dirty[table.id] = table
            if not self.commit_soon:
                try:
                    loop = asyncio.get_running_loop()
                except RuntimeError:
                    self.commit()
                    while table.resume_due and self.failure is None:  # no event loop to yield to
                        table.resume()
                        self.dirty[table.id] = table
                        self.commit()
                else:
                    self.commit_soon = True
                    loop.call_soon(self.commit)

    def commit(self) -> None:
        """Writes what every changed table did, in one transaction, then sends their messages
        and resets their timers. Call it before anything reads a table for a client. If storage
        refuses, the turn is held (see :meth:`_hold`)."""
        self.commit_soon = False
        if self.failure is None:
            self._land(*self._take())

    def _take(self) -> tuple[list[Change], Sends]:
        """What every changed table did since the last commit, taken from the tables."""
        tables, self.dirty = list(self.dirty.values()), {}
        changes: list[Change] = []
        sends: Sends = []
        for table in tables:
            outbox, table.outbox = table.outbox, []
            if outbox or table.accepted or table.scoring or table.status == "waiting":
                changes.append(Change(table.to_dict(), table.accepted, table.moves, table.ended))
                sends.append((table, outbox))
            table.accepted, table.moves, table.ended = [], [], []
        for table in tables:
            self._schedule(table)
        return changes, sends

    def _drop(self, table: Table) -> None:
        """Forgets a table whose lease another process took (so nothing of it is sent or played
        here again): its sockets close with 4307, and their clients, reconnecting, are sent there."""
        self.tables.pop(table.id, None)
        timer = self.timers.pop(table.id, None)
        if timer is not None:
            timer[1].cancel()
        for key in [key for key in self.seats if key[0] == table.id]:
            self.seats.pop(key).close(WS_4307_MOVED)
        for conn in self.watchers.pop(table.id, set()):
            conn.close(WS_4307_MOVED)
        self.lines.pop(table.id, None)

    def _land(self, changes: list[Change], sends: Sends) -> None:
        """Saves a turn, then sends its messages; holds it if storage refuses."""
        lost: set[str] = set()  # tables whose lease another process took: nothing of them was written
        if changes:
            try:
                lost = self.storage.save(changes)
            except Exception as e:  # sqlite3.Error, OSError, a database driver's own
                self._hold(changes, sends, e)
                return
        for table, outbox in sends:
            if table.id in lost:
                self._drop(table)
            else:
                self._send(table, outbox)
                if table.status == "expired":  # its sockets close after the `expired` message
                    for key in [key for key in self.seats if key[0] == table.id]:
                        self.seats[key].close(WS_4410_TABLE_EXPIRED)
        scoring = [table for table, _ in sends if table.scoring and table.id not in lost]
        if scoring:  # after this turn's messages are written: nobody's acknowledgement waits on a score
            try:
                asyncio.get_running_loop().call_soon(self._send_scored, scoring)
            except RuntimeError:
                self._send_scored(scoring)

    def _send_scored(self, tables: list[Table]) -> None:
        for table in tables:
            self._send(table, table.scored_requests())

    def _hold(self, changes: list[Change], sends: Sends, error: Exception) -> None:
        """Storage refused a turn: memory is then one turn ahead of the disk and nobody has heard
        of that turn. It is held, unsent, and tried again every :data:`RETRY_SECONDS`; until it
        lands every change, welcome and table view is refused (``unavailable``) and no clock
        plays, so memory stays the disk plus that one turn and the next start restores the disk."""
        if self.unsaved is None:  # a new failure, not a retry's
            log.error("storage refused a commit of %d table(s): %s; read-only until it lands", len(changes), error)
        self.unsaved, self.failure = (changes, sends), f"{type(error).__name__}: {error}"
        self.clock.call_at(self.clock.now() + RETRY_SECONDS, self._retry)

    def _retry(self) -> None:
        assert self.unsaved is not None
        (changes, sends), self.failure = self.unsaved, None
        self._land(changes, sends)
        if self.failure is not None:
            return
        self.unsaved = None
        log.warning("storage is back: the held commit of %d table(s) landed", len(changes))
        for table in list(self.tables.values()):
            for seat in range(4):  # sockets that closed while nothing could change
                if table.connected[seat] and (table.id, seat) not in self.seats:
                    self.run(table, table.disconnect, seat)
            self._schedule(table)  # clocks that came due while nothing could change

    def _send(self, table: Table, outbox: Outbox) -> None:
        """Encodes each message that has someone to go to (a bot's seat and an unwatched table's
        spectators have no one) and hands it over."""
        watchers = self.watchers.get(table.id)
        for viewer, message in outbox:
            if viewer == SPECTATORS:
                if watchers:
                    self._line(table).put(_text(message), watchers)
            else:
                conn = self.seats.get((table.id, viewer))
                if conn is not None:
                    conn.send(_text(message))

    def _line(self, table: Table) -> DelayLine:
        line = self.lines.get(table.id)
        if line is None:
            line = self.lines[table.id] = DelayLine(self.clock, table.config.spectator_delay, self.limits.queue_bytes)
        return line

    def _schedule(self, table: Table) -> None:
        """Sets what the table next needs of the server: a timer at :meth:`Table.wake_at`, a
        resume on a later turn of the event loop when its bots yielded it (so that an all-bot
        match plays a bounded number of steps per turn, never blocking the other tables)."""
        if table.resume_due:
            self._resume_soon(table)
        when = table.wake_at()
        current = self.timers.get(table.id)
        if current is not None and current[0] == when:
            return
        if current is not None:
            current[1].cancel()
            del self.timers[table.id]
        if when is not None:
            self.timers[table.id] = (when, self.clock.call_at(when, lambda: self._wake(table)))

    def _resume_soon(self, table: Table) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # no loop to yield to: run() plays on at once
        loop.call_soon(self._resume, table)

    def _resume(self, table: Table) -> None:
        if table.resume_due and self.failure is None and self.tables.get(table.id) is table:
            self.run(table, table.resume)  # not while storage fails (_retry schedules it), nor once dropped

    def _wake(self, table: Table) -> None:
        self.timers.pop(table.id, None)
        if self.failure is not None:
            return  # _retry sets the clock again once storage is back
        self.run(table, table.wake)
        self.commit()  # now, so that the table's next timer is set inside this moment of the clock

    # ---------------------------------------------------------------- sockets

    def attach_seat(self, table: Table, seat: int, conn: Connection, hand: Any, start: Any) -> None:
        self.commit()  # the welcome shows only what is committed
        old = self.seats.get((table.id, seat))
        if old is not None:
            old.close(WS_4000_SEAT_TAKEN_OVER)  # one socket per seat: the new one replaces it
        self.seats[(table.id, seat)] = conn
        conn.send(_text(table.welcome(seat, hand, start)))
        for message in table.settlement():
            conn.send(_text(message))
        self.run(table, table.connect, seat)

    def detach_seat(self, table: Table, seat: int, conn: Connection) -> None:
        if self.seats.get((table.id, seat)) is conn:
            del self.seats[(table.id, seat)]
            if self.failure is None:  # else _retry sees the seat gone
                self.run(table, table.disconnect, seat)

    def attach_watcher(self, table: Table, conn: Connection, hand: Any, start: Any) -> None:
        self.commit()
        self.watchers.setdefault(table.id, set()).add(conn)
        self._line(table).put(_text(table.welcome(None, hand, start)), [conn])  # as late as the rest
        for message in table.settlement():
            self._line(table).put(_text(message), [conn])

    def detach_watcher(self, table: Table, conn: Connection) -> None:
        self.watchers.get(table.id, set()).discard(conn)


def _text(message: dict[str, Any]) -> str:
    """A message as compact JSON (orjson: a message leaves at every decision, to every seat)."""
    return orjson.dumps(message).decode()
