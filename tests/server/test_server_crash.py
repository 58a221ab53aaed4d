"""Crash safety: a real `xueliu serve` in a subprocess, bot clients over WebSockets, the server
killed with SIGKILL at random moments and restarted; every match ends with the ledger of an
uninterrupted run on the same seeds (issue 14). Bounded: a few tables, a few kills, a deadline."""

from __future__ import annotations

import asyncio
import os
import random
import time

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

from server_harness import Harness  # noqa: E402
from server_process import ServerProcess, free_port  # noqa: E402

from xueliu.server.client import SeatClient  # noqa: E402

TABLES = 2
KILLS = int(os.environ.get("XUELIU_CRASH_KILLS", "4"))  # soak it: XUELIU_CRASH_KILLS=20
SETTINGS = {"preset": "chengdu", "hands": 2, "next_hand_delay": 0, "seats": ["person"] * 4}


def test_sigkill_at_random_moments_loses_no_decision(tmp_path):
    rng = random.Random(14)
    server = ServerProcess(str(tmp_path / "tables.db"), free_port())
    server.start()
    seats = []
    for seed in range(TABLES):
        table = server.post("/api/tables", {**SETTINGS, "seed": 100 + seed})["table"]
        for seat in range(4):
            token = server.post(f"/api/tables/{table['id']}/seats/{seat}")["token"]
            url = f"ws://127.0.0.1:{server.port}/api/tables/{table['id']}/play"
            seats.append((seed, SeatClient(url, token)))

    kills = []
    # The moments are drawn in events received, not seconds, so that a fast machine cannot finish
    # the matches before the last kill: two hands give every client well over 100 events each.
    moments = sorted(rng.sample(range(20, 100 * len(seats)), KILLS))

    def received() -> int:
        return sum(len(c.events) for _, c in seats)

    async def run() -> None:
        tasks = [asyncio.ensure_future(c.play(retry_for=40)) for _, c in seats]
        for moment in moments:
            deadline = time.monotonic() + 60
            while received() < moment and not all(t.done() for t in tasks) and time.monotonic() < deadline:
                await asyncio.sleep(0.01)
            if all(t.done() for t in tasks):
                break
            kills.append(received())
            server.kill()
            await asyncio.sleep(rng.uniform(0.0, 0.3))
            await asyncio.get_running_loop().run_in_executor(None, server.start)
        await asyncio.wait_for(asyncio.gather(*tasks), 120)

    try:
        asyncio.run(run())
    finally:
        server.kill()
    assert len(kills) == KILLS, "the matches ended before every kill: make them longer"
    for seed in range(TABLES):
        whole = Harness({**SETTINGS, "seed": 100 + seed})
        whole.play()
        expected = [m for m in whole.inbox[0] if m["type"] == "hand_over"]
        for s, client in seats:
            if s == seed:
                assert client.totals == whole.table.match.totals
                assert client.results == {m["hand"]: m["scores"] for m in expected}
                assert client.events == whole.events(client_seat(client, seats))


def client_seat(client: SeatClient, seats) -> int:
    same_table = [c for s, c in seats if c.url == client.url]
    return same_table.index(client)


def test_the_bundled_client_back_after_the_end_gets_the_totals(tmp_path):
    """The seat never comes: after its grace period 托管 plays it, the match ends; then the
    bundled client connects, and `play()` returns the match's totals instead of waiting forever."""
    server = ServerProcess(str(tmp_path / "tables.db"), free_port())
    server.start()
    try:
        settings = {"preset": "chengdu", "hands": 1, "grace": 0, "seats": ["person", "greedy", "greedy", "greedy"]}
        table = server.post("/api/tables", settings)["table"]
        token = server.post(f"/api/tables/{table['id']}/seats/0")["token"]
        deadline = time.monotonic() + 30
        while server.get(f"/api/tables/{table['id']}")["table"]["status"] != "over":
            assert time.monotonic() < deadline, "the bots did not finish the match"
            time.sleep(0.1)
        client = SeatClient(f"ws://127.0.0.1:{server.port}/api/tables/{table['id']}/play", token)
        totals = asyncio.run(asyncio.wait_for(client.play(retry_for=5), 20))
        assert totals == server.get(f"/api/tables/{table['id']}")["table"]["totals"]
        assert list(client.results) == [0]
    finally:
        server.kill()
