"""Load on the table server: a real `xueliu serve` in a subprocess, tables of four bot clients
over loopback WebSockets (raw-socket seats, :class:`Seat`: a measuring tool as cheap as it can
be), 127.0.0.1 only, bounded in time; ``--servers N`` shards the tables over N processes.

    python benches/server_load.py core --tables 5
    python benches/server_load.py ack --tables 200
    python benches/server_load.py full --tables 20 --seconds 20
    python benches/server_load.py paced --tables 200 --seconds 30
    python benches/server_load.py paced --tables 1000 --seconds 20 --servers 2
    python benches/server_load.py paced --tables 200 --servers 2 --database postgresql://...
    python benches/server_load.py takeover --tables 200 --database postgresql://...

`core`: no network, the server's own CPU per decision with SQLite and with no storage.
`ack`: no network, no storage: the time from a discard to the discarder's `accepted` handed to
its socket, for discards someone else could win on and for the rest (they should not differ).
`full`: every client answers at once; decisions per second and server CPU time per decision.
`paced`: each table takes one decision (one seat's answer) per second; the p99 latency from an
answer to the server's `accepted` (sent in the same flush as the events it caused, after the
commit). `full` and `paced` also give the SQLite WAL's largest and last size (summed over the
servers), sampled every half second, and the storage's growth per hour of such play (SQLite: the
pages its latest commit holds; PostgreSQL: the database's relations). The clients run in this one process:
report its CPU share beside the server's.
`takeover`: two servers on one PostgreSQL database, ``--tables`` tables on the first, which is
killed (SIGKILL); the seconds until the second holds every one of them (its lease of the first's
tables runs out, then its next poll takes and replays them).

``--database`` (a PostgreSQL URL) puts every server on that database, in a fresh schema dropped
after the run, instead of a SQLite file each.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import concurrent.futures
import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from typing import Iterator, Optional

from xueliu.server.client import simple_choice

# Long clocks: a seat still connecting must not time out into 托管 (a bot then plays its table at
# full speed, unpaced, while the rest connect).
CLOCKS = dict.fromkeys(("exchange", "void", "turn", "claim", "rob"), 600)
SETTINGS = {"preset": "chengdu", "hands": 64, "next_hand_delay": 0, "seats": ["person"] * 4, "clocks": CLOCKS}


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def post(port: int, path: str, body: dict | None = None) -> dict:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}", data=json.dumps(body or {}).encode(), method="POST"
    )
    request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=30) as r:
        return json.loads(r.read())


# The server as `xueliu serve` runs it (xueliu.server.serve); a build from before that module, as
# its `xueliu serve` ran uvicorn, so that one bench compares both.
SERVER = """
from xueliu.server import create_app
try:
    from xueliu.server.serve import run
except ImportError:
    import uvicorn

    def run(app, *, host, port, compress, log_level):
        uvicorn.run(app, host=host, port=port, ws_max_size=1 << 20, ws_per_message_deflate=compress,
                    log_level=log_level, access_log=False)
storage = None
if {db!r}.startswith("postgresql:"):
    from xueliu.server.storage_pg import PostgresStorage

    storage = PostgresStorage({db!r}, address="http://127.0.0.1:{port}", synchronous={synchronous!r})
try:  # a load of its own making: no limit on new tables, a message rate no seat reaches (but paced)
    from xueliu.server import Limits
    options = dict(limits=Limits(creates_per_minute=0, messages_per_second=1e9))
except ImportError:  # a build from before the limits
    options = {{}}
try:
    app = create_app({db!r}, storage=storage, chosen_seeds=True, **options)  # the bench's tables: four people, seeds
except TypeError:  # a build from before chosen seeds were refused
    app = create_app({db!r}, storage=storage, **options)
run(app, host="127.0.0.1", port={port}, compress={deflate}, log_level="warning")
"""


def start_server(db: str, deflate: bool, synchronous: str = "NORMAL") -> tuple[subprocess.Popen, int]:
    """A server on SQLite at ``db``, or on PostgreSQL when ``db`` is a postgresql:// URL."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            SERVER.format(db=db, port=port, deflate=deflate, synchronous=synchronous),
        ],
        env=env,
    )
    for _ in range(300):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tables", timeout=1).read()
            return proc, port
        except OSError:
            time.sleep(0.1)
    raise SystemExit("the server did not start")


class Seat(asyncio.Protocol):
    """One seat's WebSocket, as cheap as a measuring tool can make it: the handshake and frames by
    hand (RFC 6455: client frames masked with a zero key, so the payload goes as it is), and only
    the messages it must act on are parsed (a request, its accepted, the welcome, the match's end,
    an error); the events are counted, not decoded. The latency is honest: from the moment the
    answer is written to the socket to the moment the frame carrying its ``accepted`` is read.

    ``pace`` is the table's: each answer waits for the table's next free slot, one a second
    (None: answer at once)."""

    def __init__(self, path: str, port: int, token: str, pace: Optional[list[float]], bench: "Bench") -> None:
        self.path, self.port, self.token, self.pace, self.bench = path, port, token, pace, bench
        self.transport: Optional[asyncio.Transport] = None
        self.buffer = bytearray()
        self.upgraded = False
        self.welcomed = False
        self.over = False
        self.sent_at: dict[int, float] = {}

    def connection_made(self, transport) -> None:  # type: ignore[no-untyped-def]
        self.transport = transport
        key = base64.b64encode(os.urandom(16)).decode()
        transport.write(
            f"GET {self.path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
        )

    def connection_lost(self, exc) -> None:  # type: ignore[no-untyped-def]
        if not self.over:
            self.bench.failures.append(f"seat socket closed early ({exc!r})")
        self.over = True

    def send(self, payload: bytes, opcode: int = 1) -> None:
        n = len(payload)
        head = (
            bytes((0x80 | opcode, 0x80 | n)) if n < 126 else bytes((0x80 | opcode, 0x80 | 126)) + n.to_bytes(2, "big")
        )
        assert self.transport is not None
        self.transport.write(head + b"\0\0\0\0" + payload)  # the zero mask: XOR changes nothing

    def data_received(self, data: bytes) -> None:
        buf = self.buffer
        buf += data
        if not self.upgraded:
            end = buf.find(b"\r\n\r\n")
            if end < 0:
                return
            if not buf.startswith(b"HTTP/1.1 101"):
                raise SystemExit(f"handshake refused: {bytes(buf[:80])!r}")
            del buf[: end + 4]
            self.upgraded = True
            self.send(json.dumps({"type": "hello", "token": self.token}).encode())
        while len(buf) >= 2:
            n, at = buf[1] & 0x7F, 2
            if n == 126:
                if len(buf) < 4:
                    return
                n, at = int.from_bytes(buf[2:4], "big"), 4
            elif n == 127:
                if len(buf) < 10:
                    return
                n, at = int.from_bytes(buf[2:10], "big"), 10
            if len(buf) < at + n:
                return
            opcode, payload = buf[0] & 0x0F, bytes(buf[at : at + n])
            del buf[: at + n]
            if opcode == 1:
                self.message(payload)
            elif opcode == 9:  # the server's keepalive ping
                self.send(payload, 10)
            elif opcode == 8:
                self.over = True

    def message(self, payload: bytes) -> None:
        # every server message starts {"v":1,"type":"KIND" (json.dumps, compact, keys in order)
        kind = payload[15 : payload.index(b'"', 15)]
        if kind == b"events":
            self.bench.events += 1
            return
        if kind == b"accepted":
            sent = self.sent_at.pop(json.loads(payload)["decision"], None)
            if sent is not None:
                self.bench.latencies.append(time.perf_counter() - sent)
        elif kind == b"request":
            self.answer(json.loads(payload))
        elif kind == b"welcome":
            self.welcomed = True
            request = json.loads(payload)["request"]
            if request is not None:
                self.answer(request)
        elif kind == b"match_over":
            self.over = True
            assert self.transport is not None
            self.transport.close()
        elif kind == b"error":
            m = json.loads(payload)
            if m["code"] != "stale":
                self.bench.failures.append(f"server refused: {m}")

    def answer(self, request: dict) -> None:
        act = json.dumps({"type": "act", "decision": request["decision"], "action": simple_choice(request)}).encode()
        if self.pace is None:
            return self.act(request["decision"], act)
        loop = asyncio.get_running_loop()
        slot = max(loop.time(), self.pace[0])
        self.pace[0] = slot + 1.0
        loop.call_at(slot, self.act, request["decision"], act)

    def act(self, decision: int, payload: bytes) -> None:
        if self.over:
            return
        self.sent_at[decision] = time.perf_counter()
        self.send(payload)


class Bench:
    """What the seats measure, together."""

    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.failures: list[str] = []
        self.events = 0


@contextlib.contextmanager
def postgres_schema(url: str) -> Iterator[str]:
    """A URL whose connections see a fresh schema of their own, dropped afterwards."""
    import psycopg

    schema = f"bench_{os.getpid()}_{random.randrange(1 << 30)}"
    with psycopg.connect(url, autocommit=True) as db:
        db.execute(f"CREATE SCHEMA {schema}")
    try:
        yield url + ("&" if "?" in url else "?") + urllib.parse.urlencode({"options": f"-csearch_path={schema}"})
    finally:
        with psycopg.connect(url, autocommit=True) as db:
            db.execute(f"DROP SCHEMA {schema} CASCADE")


def storage_bytes(dbs: list[str]) -> int:
    """What the storage holds: the SQLite databases' pages, or a PostgreSQL schema's relations."""
    if dbs[0].startswith("postgresql:"):
        import psycopg

        with psycopg.connect(dbs[0]) as db:
            row = db.execute(
                "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c "
                "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relkind = 'r'"
            ).fetchone()
        return int(row[0]) if row else 0
    return sum(sqlite_bytes(db) for db in dbs)


def sqlite_bytes(db: str) -> int:
    """The database's size as its latest commit sees it, WAL included: the file alone lags until a
    checkpoint, and file plus WAL shrinks when the server truncates the WAL."""
    import sqlite3

    with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as conn:
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        return int(pages * conn.execute("PRAGMA page_size").fetchone()[0])


async def run(
    mode: str,
    tables: int,
    seconds: float,
    deflate: bool,
    servers: int = 1,
    database: str = "",
    synchronous: str = "NORMAL",
) -> dict:
    """``servers`` processes shard the tables by table id (docs/server.md, "Scaling"): table i is
    made on server i % servers, each with its own SQLite file (or all on one PostgreSQL
    ``database``), and its seats connect there."""
    with contextlib.ExitStack() as stack:
        dbs = [stack.enter_context(postgres_schema(database))] * servers if database else []
        return await _run(mode, tables, seconds, deflate, servers, dbs, synchronous)


async def _run(
    mode: str, tables: int, seconds: float, deflate: bool, servers: int, dbs: list[str], synchronous: str
) -> dict:
    dbs = dbs or [tempfile.mktemp(suffix=".db") for _ in range(servers)]
    started = [start_server(db, deflate, synchronous) for db in dbs]
    bench = Bench()
    loop = asyncio.get_running_loop()
    try:

        def seat_tokens(i: int) -> tuple[int, str, list[str]]:
            port = started[i % servers][1]
            table = post(port, "/api/tables", {**SETTINGS, "seed": i})["table"]
            tokens = [post(port, f"/api/tables/{table['id']}/seats/{seat}")["token"] for seat in range(4)]
            return port, table["id"], tokens

        setup = time.monotonic()
        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            made = list(pool.map(seat_tokens, range(tables)))
        seats = []
        for port, table_id, tokens in made:
            pace = [loop.time() + random.random()] if mode == "paced" else None  # the table's next slot
            seats += [Seat(f"/api/tables/{table_id}/play", port, token, pace, bench) for token in tokens]
        print(f"{tables} tables made in {time.monotonic() - setup:.1f} s", file=sys.stderr)
        ready = time.monotonic() + 300
        for i in range(0, len(seats), 100):  # in waves: a storm of handshakes would time out
            wave = seats[i : i + 100]
            for seat in wave:
                await loop.create_connection(lambda seat=seat: seat, "127.0.0.1", seat.port)
            while not all(s.welcomed or s.over for s in wave) and time.monotonic() < ready:
                await asyncio.sleep(0.05)
        print(f"{sum(s.welcomed for s in seats)} seats welcomed in {time.monotonic() - setup:.1f} s", file=sys.stderr)
        await asyncio.sleep(min(5.0, seconds / 4))  # warm up: past the connections' first burst

        def server_cpu() -> float:
            return sum(cpu_seconds(proc.pid) for proc, _ in started)

        def wal_bytes() -> int:
            return sum(os.path.getsize(db + "-wal") for db in dbs if os.path.exists(db + "-wal"))

        n0, cpu0, t0, me0 = len(bench.latencies), server_cpu(), time.perf_counter(), time.process_time()
        size0 = storage_bytes(dbs)
        wal_max = wal_bytes()
        while time.perf_counter() < t0 + seconds:  # the WAL's size, sampled beside the latencies
            await asyncio.sleep(min(0.5, t0 + seconds - time.perf_counter()))
            wal_max = max(wal_max, wal_bytes())
        n1, cpu1, t1, me1 = len(bench.latencies), server_cpu(), time.perf_counter(), time.process_time()
        size1 = storage_bytes(dbs)
        finished = sum(s.over for s in seats)
        for s in seats:
            s.over = True
            if s.transport is not None:
                s.transport.close()
        if bench.failures:
            print(f"{len(bench.failures)} failure(s), e.g. {bench.failures[:3]}", file=sys.stderr)
        window = sorted(bench.latencies[n0:n1])
        decisions = n1 - n0
        return {
            "mode": mode,
            "tables": tables,
            "servers": servers,
            "storage": "postgresql" if dbs[0].startswith("postgresql:") else "sqlite",
            "synchronous": synchronous if dbs[0].startswith("postgresql:") else "NORMAL",
            "deflate": deflate,
            "seconds": round(t1 - t0, 1),
            "decisions": decisions,
            "decisions_per_s": round(decisions / (t1 - t0), 1),
            "server_cpu_ms_per_decision": round(1000 * (cpu1 - cpu0) / max(1, decisions), 3),
            "server_cpu_share": round((cpu1 - cpu0) / (t1 - t0), 2),
            "clients_cpu_share": round((me1 - me0) / (t1 - t0), 2),
            "clients_cpu_ms_per_decision": round(1000 * (me1 - me0) / max(1, decisions), 3),
            "load_average": os.getloadavg()[0],
            "p50_ms": round(1000 * window[len(window) // 2], 1) if window else None,
            "p99_ms": round(1000 * window[int(len(window) * 0.99)], 1) if window else None,
            "max_ms": round(1000 * window[-1], 1) if window else None,
            "wal_mb_max": round(wal_max / 2**20, 1),
            "wal_mb_end": round(wal_bytes() / 2**20, 1),
            "storage_mb_per_hour": round((size1 - size0) / (t1 - t0) * 3600 / 1e6, 1),
            "seats_finished": finished,
            "failures": len(bench.failures),
        }
    finally:
        for proc, _ in started:
            proc.send_signal(signal.SIGTERM)
        for proc, _ in started:
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        for db in dbs:
            if db.startswith("postgresql:"):
                continue
            for suffix in ("", "-wal", "-shm"):
                if os.path.exists(db + suffix):
                    os.remove(db + suffix)


class NoStorage:
    """Keeps nothing: the table core and the app's bookkeeping alone, for comparison."""

    adopt_every = None

    def save(self, changes) -> set:
        return set()

    def elsewhere(self):
        return []

    def unfinished(self):
        return []

    def load(self, table_id):
        return None


def core(tables: int, hands: int, database: str = "") -> dict:
    """The server without a network, side by side with SQLite, PostgreSQL (given ``database``)
    and no storage: CPU (this process's) and wall time per decision of the table core, the
    snapshot, the commit (a commit per decision: each is its own turn of the event loop)."""
    from xueliu.server import FakeClock, Server

    Server(NoStorage(), FakeClock()).restore()  # builds the engine's lookup table, as the server does
    out = {"mode": "core", "tables": tables, "hands": hands, "load_average": os.getloadavg()[0]}
    for label in ("sqlite", "postgresql", "no_storage") if database else ("sqlite", "no_storage"):
        if label == "postgresql":
            with postgres_schema(database) as url:
                out.update(core_run(label, tables, hands, url))
        else:
            out.update(core_run(label, tables, hands, ""))
    return out


def core_run(label: str, tables: int, hands: int, url: str) -> dict:
    """One storage's figures for :func:`core`."""
    from xueliu.server import FakeClock, Server, SQLiteStorage, TableConfig

    db = tempfile.mktemp(suffix=".db")
    if label == "postgresql":
        from xueliu.server.storage_pg import PostgresStorage

        storage = PostgresStorage(url)
    else:
        storage = SQLiteStorage(db) if label == "sqlite" else NoStorage()
    try:
        server = Server(storage, FakeClock(), chosen_seeds=True)  # four people, a seed each
    except TypeError:  # a build from before chosen seeds were refused
        server = Server(storage, FakeClock())
    made = []
    for i in range(tables):
        table = server.create(TableConfig.parse({**SETTINGS, "hands": hands, "seed": i}))
        for seat in range(4):
            server.run(table, table.join, seat)
        made.append(table)
    n, cpu0, wall0 = 0, time.process_time(), time.perf_counter()
    for table in made:
        while table.status != "over":
            for seat, r in list(table.requests.items()):
                if seat not in table.answers:
                    action = simple_choice({"actions": r.actions, "default": r.default})
                    server.run(table, table.act, seat, table.step, action)
                    n += 1
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    if label != "no_storage":
        storage.close()
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(db + suffix):
            os.remove(db + suffix)
    return {
        f"{label}_cpu_ms_per_decision": round(1000 * cpu / n, 3),
        f"{label}_wall_ms_per_decision": round(1000 * wall / n, 3),
        "decisions": n,
    }


def takeover(tables: int, seconds: float, database: str) -> dict:
    """Two servers on one PostgreSQL database; ``tables`` tables on the first, played by their
    clocks (one decision a second each) for ``seconds``; the first is killed, and the second is
    asked every 20 ms which tables it holds: the seconds until it holds them all."""
    from xueliu.server.storage_pg import LEASE_SECONDS

    clocked = {**SETTINGS, "clocks": dict.fromkeys(CLOCKS, 1.0), "auto_after": 10**6, "grace": 86_000}
    with postgres_schema(database) as url:
        (a, a_port), (b, b_port) = start_server(url, False), start_server(url, False)
        try:
            with concurrent.futures.ThreadPoolExecutor(8) as pool:

                def make(i: int) -> str:
                    table = post(a_port, "/api/tables", {**clocked, "seed": i})["table"]
                    for seat in range(4):
                        post(a_port, f"/api/tables/{table['id']}/seats/{seat}")
                    return str(table["id"])

                ids = set(pool.map(make, range(tables)))
            time.sleep(seconds)
            a.send_signal(signal.SIGKILL)
            killed = time.perf_counter()
            held = 0
            while time.perf_counter() - killed < 120:
                with urllib.request.urlopen(f"http://127.0.0.1:{b_port}/api/tables", timeout=30) as r:
                    held = len(ids & {t["id"] for t in json.loads(r.read())["tables"]})
                if held == len(ids):
                    break
                time.sleep(0.02)
            took = time.perf_counter() - killed
        finally:
            for proc in (a, b):
                proc.kill()
                proc.wait()
    return {
        "mode": "takeover",
        "tables": tables,
        "played_seconds": seconds,
        "lease_seconds": LEASE_SECONDS,
        "taken": held,
        "takeover_seconds": round(took, 2),
        "load_average": os.getloadavg()[0],
    }


class Socket:
    """A seat's socket as the server sees it, noting when it was handed an ``accepted``."""

    def __init__(self) -> None:
        self.acked: Optional[float] = None

    def send(self, text: str) -> None:
        if self.acked is None and '"type":"accepted"' in text:
            self.acked = time.perf_counter()


def ack(tables: int) -> dict:
    """The discarder's acknowledgement, in process: from its answer to its ``accepted`` handed to
    its socket (after the commit), for discards someone else could win on and for the rest;
    seats play as the greedy bot, so that wins are offered. No storage, no network."""
    from xueliu.server import FakeClock, Server, TableConfig

    try:
        server = Server(NoStorage(), FakeClock(), chosen_seeds=True)
    except TypeError:  # a build from before chosen seeds were refused
        server = Server(NoStorage(), FakeClock())
    server.restore()
    times: dict[bool, list[float]] = {True: [], False: []}
    for i in range(tables):
        table = server.create(TableConfig.parse({**SETTINGS, "hands": 1, "seed": i}))
        sockets = [Socket() for _ in range(4)]
        for seat in range(4):
            server.run(table, table.join, seat)
            server.seats[(table.id, seat)] = sockets[seat]  # type: ignore[assignment]
        while table.status == "playing":
            seat, request = next((s, r) for s, r in table.requests.items() if s not in table.answers)
            action = table._bot_choice(seat, request)
            sockets[seat].acked = None
            start = time.perf_counter()
            server.run(table, table.act, seat, table.step, action)
            acked = sockets[seat].acked
            if action.startswith("discard") and acked is not None:
                winnable = any("win" in r.actions for s, r in table.requests.items() if s != seat)
                times[winnable].append(acked - start)

    def us(values: list[float], q: float) -> float:
        return round(1e6 * sorted(values)[int(q * (len(values) - 1))], 1)

    out: dict = {"mode": "ack", "tables": tables, "load_average": os.getloadavg()[0]}
    for winnable, label in ((True, "winnable"), (False, "not_winnable")):
        out[f"{label}_discards"] = len(times[winnable])
        out[f"{label}_median_us"] = us(times[winnable], 0.5)
        out[f"{label}_p90_us"] = us(times[winnable], 0.9)
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("mode", choices=["core", "ack", "full", "paced", "takeover"])
    p.add_argument("--tables", type=int, default=20)
    p.add_argument("--seconds", type=float, default=20.0)
    p.add_argument("--deflate", action="store_true", help="WebSocket compression on (xueliu serve --compress)")
    p.add_argument("--servers", type=int, default=1, help="server processes, the tables sharded over them")
    p.add_argument("--hands", type=int, default=8, help="hands per match (core)")
    p.add_argument("--database", default="", help="a PostgreSQL URL: every server on it (a fresh schema)")
    p.add_argument("--synchronous", choices=["NORMAL", "FULL"], default="NORMAL", help="PostgresStorage's")
    a = p.parse_args()
    if a.mode == "core":
        print(json.dumps(core(a.tables, a.hands, a.database)))
    elif a.mode == "ack":
        print(json.dumps(ack(a.tables)))
    elif a.mode == "takeover":
        if not a.database:
            raise SystemExit("takeover needs --database postgresql://...")
        print(json.dumps(takeover(a.tables, min(a.seconds, 300.0), a.database)))
    else:
        try:
            import uvloop
        except ImportError:  # the asyncio loop: the clients cost more
            uvloop = None
        coro = run(a.mode, a.tables, min(a.seconds, 300.0), a.deflate, a.servers, a.database, a.synchronous)
        print(json.dumps(uvloop.run(coro) if uvloop is not None else asyncio.run(coro)))


if __name__ == "__main__":
    main()
