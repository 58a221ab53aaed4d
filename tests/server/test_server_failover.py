"""Several `xueliu serve` processes on one PostgreSQL database (docs/server.md, "PostgreSQL and
failover"): real processes, real faults. A process killed with SIGKILL mid-match has its tables
taken over by another, which plays them on from the last commit: every acknowledged decision
survives and each match ends as an uninterrupted run does. A process paused with SIGSTOP past its
lease wakes unable to commit (split brain). Bounded: a few tables, leases of a second, deadlines."""

from __future__ import annotations

import asyncio
import json
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")
psycopg = pytest.importorskip("psycopg")

from server_harness import Harness  # noqa: E402

from xueliu.server.client import SeatClient  # noqa: E402

LEASE = 1.0  # seconds: a dead process's tables are taken within LEASE + 1 s (the poll)
SETTINGS = {"preset": "chengdu", "hands": 2, "next_hand_delay": 0, "seats": ["person"] * 4}


class Serve:
    """One `xueliu serve --database` process on a port of its own."""

    def __init__(self, database: str) -> None:
        self.database, self.proc = database, None
        self.port = free_port()
        self.address = f"http://127.0.0.1:{self.port}"

    def start(self) -> "Serve":
        command = [
            "serve",
            "--database",
            self.database,
            "--lease",
            str(LEASE),
            "--port",
            str(self.port),
            "--chosen-seeds",
        ]
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "xueliu", *command], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(f"{self.address}/api/tables", timeout=1).read()
                return self
            except OSError:
                assert self.proc.poll() is None, self.proc.stderr.read().decode()
                time.sleep(0.05)
        raise AssertionError("the server did not start within 30 s")

    def signal(self, sig: int) -> None:
        self.proc.send_signal(sig)

    def stop(self) -> str:
        """Kills it (if it still runs) and gives back what it logged."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)
        err = self.proc.stderr.read().decode()
        self.proc.stderr.close()
        return err

    def post(self, path: str, body: dict | None = None) -> dict:
        request = urllib.request.Request(f"{self.address}{path}", data=json.dumps(body or {}).encode(), method="POST")
        request.add_header("Content-Type", "application/json")
        with urllib.request.urlopen(request, timeout=10) as r:
            return json.loads(r.read())

    def where(self, table_id: str) -> str:
        """The address that answers for a table, asked of this process (it follows no redirect)."""
        request = urllib.request.Request(f"{self.address}/api/tables/{table_id}")
        try:
            with urllib.request.build_opener(NoRedirect).open(request, timeout=10):
                return self.address
        except urllib.error.HTTPError as e:
            assert e.code == 307, e.read()
            return json.loads(e.read())["address"]


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def decisions(database: str, table_id: str) -> list[tuple[int, int, int, str]]:
    with psycopg.connect(database) as db:
        return db.execute(
            "SELECT hand, decision, seat, action FROM decisions WHERE table_id = %s ORDER BY id", (table_id,)
        ).fetchall()


def test_a_killed_process_tables_are_played_on_by_another_as_if_uninterrupted(postgres_url):
    a, b = Serve(postgres_url).start(), Serve(postgres_url).start()
    seats: list[tuple[int, str, SeatClient]] = []
    for seed, server in ((200, a), (201, a), (202, b)):  # two tables on a, one on b
        table = server.post("/api/tables", {**SETTINGS, "seed": seed})["table"]
        for seat in range(4):
            token = server.post(f"/api/tables/{table['id']}/seats/{seat}")["token"]
            url = f"ws://127.0.0.1:{server.port}/api/tables/{table['id']}/play"
            seats.append((seed, table["id"], SeatClient(url, token, servers=[a.address, b.address])))
    assert {t["id"] for t in json.load(urllib.request.urlopen(f"{b.address}/api/tables"))["elsewhere"]} == {
        table_id for seed, table_id, _ in seats if seed != 202
    }  # b's lobby lists a's tables, with a's address

    async def run() -> float:
        tasks = [asyncio.ensure_future(c.play(retry_for=30)) for _, _, c in seats]
        deadline = time.monotonic() + 60
        while sum(len(c.events) for _, _, c in seats) < 400 and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        assert not any(t.done() for t in tasks), "the matches ended before the kill: make them longer"
        a.signal(signal.SIGKILL)
        killed = time.monotonic()
        await asyncio.wait_for(asyncio.gather(*tasks), 120)
        return killed

    try:
        killed = asyncio.run(run())
        taken = b.where(seats[0][1])
    finally:
        a.stop()
        b.stop()
    assert taken == b.address
    for seed in (200, 201, 202):
        whole = Harness({**SETTINGS, "seed": seed})
        whole.play()
        clients = [(table_id, c) for s, table_id, c in seats if s == seed]
        stored = decisions(postgres_url, clients[0][0])
        assert len(stored) == len({(h, d, s) for h, d, s, _ in stored}), "a decision answered twice"
        for seat, (_, client) in enumerate(clients):
            assert client.totals == whole.table.match.totals
            assert client.events == whole.events(seat)
            acknowledged = {(m["decision"], m["action"]) for m in client.accepted if m["by"] == "seat"}
            assert acknowledged <= {(d, action) for _, d, s, action in stored if s == seat}
    assert time.monotonic() - killed < 60


def test_a_paused_process_wakes_after_losing_its_lease_and_cannot_commit(postgres_url):
    a, b = Serve(postgres_url).start(), Serve(postgres_url).start()
    # nobody connects: the clocks play every decision, one every 0.2 s, on a's timers
    clocked = {**SETTINGS, "hands": 1, "seed": 5, "grace": 86_000, "auto_after": 1000}
    clocked["clocks"] = dict.fromkeys(("exchange", "void", "turn", "claim", "rob"), 0.2)
    table_id = a.post("/api/tables", clocked)["table"]["id"]
    for seat in range(4):
        a.post(f"/api/tables/{table_id}/seats/{seat}")
    try:
        time.sleep(1.0)
        before = len(decisions(postgres_url, table_id))
        assert before > 0 and b.where(table_id) == a.address
        a.signal(signal.SIGSTOP)
        deadline = time.monotonic() + 2 * LEASE + 5
        while b.where(table_id) != b.address:  # b's lobby takes the table once a's lease runs out
            assert time.monotonic() < deadline, "b did not take the table over"
            time.sleep(0.1)
        a.signal(signal.SIGCONT)  # a's overdue clocks fire at once: it plays, and its commit is refused
        time.sleep(1.0)
        assert a.where(table_id) == b.address  # a dropped the table and sends its clients to b
        after = decisions(postgres_url, table_id)
    finally:
        log = a.stop()
        b.stop()
    assert len(after) > before
    assert len(after) == len({(h, d, s) for h, d, s, _ in after}), "both processes answered one decision"
    assert "lost the lease of 1 table(s)" in log
