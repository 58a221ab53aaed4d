"""Load on the table server: a real `xueliu serve` in a subprocess, tables of four bot clients
over loopback WebSockets (xueliu.server.client), 127.0.0.1 only, bounded in time.

    python benches/server_load.py core --tables 5
    python benches/server_load.py full --tables 20 --seconds 20
    python benches/server_load.py paced --tables 200 --seconds 30

`core`: no network, the server's own CPU per decision with SQLite and with no storage.
`full`: every client answers at once; decisions per second and server CPU time per decision.
`paced`: each table takes one decision (one seat's answer) per second; the p99 latency from an
answer to the server's `accepted` (sent in the same flush as the events it caused, after the
commit). The clients run in this one process: report its CPU share beside the server's.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

from xueliu.server.client import SeatClient, simple_choice

SETTINGS = {"preset": "chengdu", "hands": 64, "next_hand_delay": 0, "seats": ["person"] * 4}


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


def start_server(db: str, deflate: bool) -> tuple[subprocess.Popen, int]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            f"import uvicorn; from xueliu.server import create_app; "
            f"uvicorn.run(create_app({db!r}), host='127.0.0.1', port={port}, log_level='warning', access_log=False, "
            f"ws_max_size=1 << 20, ws_per_message_deflate={deflate})",
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


class Pace:
    """One decision per second at one table: each answer waits for its table's next slot. The
    tables' slots are spread over the second (``phase``), as independent tables' would be."""

    def __init__(self, phase: float) -> None:
        self.next = time.monotonic() + phase

    def choose_later(self):
        async def wait(request):
            slot = max(time.monotonic(), self.next)
            self.next = slot + 1.0
            await asyncio.sleep(slot - time.monotonic())
            return simple_choice(request)

        return wait


class PacedClient(SeatClient):
    def __init__(self, url, token, pace: Pace, on_broadcast) -> None:
        super().__init__(url, token, on_broadcast=on_broadcast)
        self.wait = pace.choose_later()

    async def _answer(self, ws, request) -> None:
        choice = await self.wait(request)
        self._sent_at[request["decision"]] = time.perf_counter()
        await ws.send(json.dumps({"type": "act", "decision": request["decision"], "action": choice}))


async def run(mode: str, tables: int, seconds: float, deflate: bool) -> dict:
    db = tempfile.mktemp(suffix=".db")
    proc, port = start_server(db, deflate)
    latencies: list[float] = []
    clients = []
    try:

        def seat_tokens(i: int) -> tuple[str, list[str]]:
            table = post(port, "/api/tables", {**SETTINGS, "seed": i})["table"]
            return table["id"], [post(port, f"/api/tables/{table['id']}/seats/{seat}")["token"] for seat in range(4)]

        setup = time.monotonic()
        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            made = list(pool.map(seat_tokens, range(tables)))
        for table_id, tokens in made:
            pace = Pace(random.random())
            url = f"ws://127.0.0.1:{port}/api/tables/{table_id}/play"
            for token in tokens:
                if mode == "paced":
                    clients.append(PacedClient(url, token, pace, latencies.append))
                else:
                    clients.append(SeatClient(url, token, on_broadcast=latencies.append))
        print(f"{tables} tables made in {time.monotonic() - setup:.1f} s", file=sys.stderr)
        tasks: list[asyncio.Future] = []
        ready = time.monotonic() + 300
        for i in range(0, len(clients), 100):  # in waves: a storm of handshakes would time out
            wave = clients[i : i + 100]
            tasks += [asyncio.ensure_future(c.play(retry_for=30)) for c in wave]
            while not all(c.events for c in wave) and time.monotonic() < ready:  # every seat welcomed
                await asyncio.sleep(0.05)
        print(
            f"{sum(bool(c.events) for c in clients)} seats welcomed in {time.monotonic() - setup:.1f} s",
            file=sys.stderr,
        )
        await asyncio.sleep(min(5.0, seconds / 4))  # warm up: past the connections' first burst
        n0, cpu0, t0, me0 = len(latencies), cpu_seconds(proc.pid), time.perf_counter(), time.process_time()
        await asyncio.sleep(seconds)
        n1, cpu1, t1, me1 = len(latencies), cpu_seconds(proc.pid), time.perf_counter(), time.process_time()
        for t in tasks:
            t.cancel()
        ended = await asyncio.gather(*tasks, return_exceptions=True)  # their sockets close
        failed = [repr(e) for e in ended if isinstance(e, Exception) and not isinstance(e, asyncio.CancelledError)]
        if failed:
            print(f"{len(failed)} client(s) failed, e.g. {failed[:3]}", file=sys.stderr)
        window = sorted(latencies[n0:n1])
        decisions = n1 - n0
        return {
            "mode": mode,
            "tables": tables,
            "deflate": deflate,
            "seconds": round(t1 - t0, 1),
            "decisions": decisions,
            "decisions_per_s": round(decisions / (t1 - t0), 1),
            "server_cpu_ms_per_decision": round(1000 * (cpu1 - cpu0) / max(1, decisions), 3),
            "server_cpu_share": round((cpu1 - cpu0) / (t1 - t0), 2),
            "clients_cpu_share": round((me1 - me0) / (t1 - t0), 2),
            "load_average": os.getloadavg()[0],
            "p50_ms": round(1000 * window[len(window) // 2], 1) if window else None,
            "p99_ms": round(1000 * window[int(len(window) * 0.99)], 1) if window else None,
        }
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(db + suffix):
                os.remove(db + suffix)


class NoStorage:
    """Keeps nothing: the table core and the app's bookkeeping alone, for comparison."""

    def save(self, changes) -> None:
        pass

    def unfinished(self):
        return []

    def load(self, table_id):
        return None


def core(tables: int, hands: int) -> dict:
    """The server without a network, side by side with SQLite and with no storage: CPU per
    decision of the table core, the snapshot, the commit."""
    from xueliu.server import FakeClock, Server, SQLiteStorage, TableConfig

    Server(NoStorage(), FakeClock()).restore()  # builds the engine's lookup table, as the server does
    out = {"mode": "core", "tables": tables, "hands": hands, "load_average": os.getloadavg()[0]}
    for label in ("sqlite", "no_storage"):
        db = tempfile.mktemp(suffix=".db")
        storage = SQLiteStorage(db) if label == "sqlite" else NoStorage()
        server = Server(storage, FakeClock())
        made = []
        for i in range(tables):
            table = server.create(TableConfig.parse({**SETTINGS, "hands": hands, "seed": i}))
            for seat in range(4):
                server.run(table, table.join, seat)
            made.append(table)
        n, cpu0 = 0, time.process_time()
        for table in made:
            while table.status != "over":
                for seat, r in list(table.requests.items()):
                    if seat not in table.answers:
                        action = simple_choice({"actions": r.actions, "default": r.default})
                        server.run(table, table.act, seat, table.step, action)
                        n += 1
        out[f"{label}_cpu_ms_per_decision"] = round(1000 * (time.process_time() - cpu0) / n, 3)
        out["decisions"] = n
        if label == "sqlite":
            storage.close()
            for suffix in ("", "-wal", "-shm"):
                if os.path.exists(db + suffix):
                    os.remove(db + suffix)
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("mode", choices=["core", "full", "paced"])
    p.add_argument("--tables", type=int, default=20)
    p.add_argument("--seconds", type=float, default=20.0)
    p.add_argument("--deflate", action="store_true", help="WebSocket compression on (xueliu serve --compress)")
    p.add_argument("--hands", type=int, default=8, help="hands per match (core)")
    a = p.parse_args()
    if a.mode == "core":
        print(json.dumps(core(a.tables, a.hands)))
    else:
        print(json.dumps(asyncio.run(run(a.mode, a.tables, min(a.seconds, 300.0), a.deflate))))


if __name__ == "__main__":
    main()
