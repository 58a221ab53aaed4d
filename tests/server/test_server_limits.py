"""What a hostile public cannot do to a real `xueliu serve` (docs/server.md, "Limits"): pin its
memory through sockets that never read or bodies that never end, stall its event loop, fill its
lobby. Each test runs a real server process on 127.0.0.1, port 0, bounded in count and time."""

from __future__ import annotations

import asyncio
import socket
import threading
import time

import pytest

pytest.importorskip("uvicorn")
websockets = pytest.importorskip("websockets")

from live_server import LiveServer, wait_until  # noqa: E402
from server_harness import Harness  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from xueliu.server import FakeClock, Limits, create_app  # noqa: E402
from xueliu.server.app import CLOSE_SECONDS  # noqa: E402
from xueliu.server.limits import RateLimit  # noqa: E402

BOTS = ["greedy", "random", "greedy", "greedy"]

MIB = 1 << 20


@pytest.fixture
def db(tmp_path):
    return str(tmp_path / "tables.db")


def test_sockets_that_never_read_are_dropped_and_do_not_pin_memory(db):
    """One seat token, 20 sockets one after another, each sending up to 10,000 messages whose
    error echoes 4 KiB, never reading: each is dropped (4008) once 1 MiB waits for it, instead
    of holding 40 MiB until the client reads. Reading is not paced here (the worst case)."""
    server = LiveServer(db, "--messages-per-second", "0")
    try:
        table = server.request("POST", "/api/tables", {})[1]["table"]
        token = server.request("POST", f"/api/tables/{table['id']}/seats/0")[1]["token"]
        before = server.memory()
        echoed = '{"type": "%s"}' % ("x" * 4000)  # answered by an unknown_type error naming it

        async def attack() -> tuple[int, list[tuple[int, bool]]]:
            sockets = []
            for _ in range(20):
                url = server.url(f"/api/tables/{table['id']}/play", "ws")
                opened = time.monotonic()
                ws = await websockets.connect(url, max_size=None, open_timeout=30)
                await ws.send('{"type": "hello", "token": "%s"}' % token)
                sockets.append((ws, opened))
                sent_until = time.monotonic() + 1.5
                for _ in range(10_000):  # as many as the server reads in 1.5 s
                    timeout = sent_until - time.monotonic()
                    if timeout <= 0:
                        break
                    try:
                        await asyncio.wait_for(ws.send(echoed), timeout)
                    except (asyncio.TimeoutError, websockets.ConnectionClosed):
                        break
            grown = server.memory() - before
            ends = []
            for ws, opened in sockets:  # now read each to its close, and see how it ended
                try:
                    while True:
                        await asyncio.wait_for(ws.recv(), 20)
                except websockets.ConnectionClosed:
                    # a socket unread for CLOSE_SECONDS after its drop is cut without its close frame
                    ends.append((ws.close_code, time.monotonic() - opened > CLOSE_SECONDS))
            return grown, ends

        grown, ends = asyncio.run(asyncio.wait_for(attack(), 120))
        assert grown < 80 * MIB, f"{grown / MIB:.0f} MiB held for sockets that do not read"
        codes = [code for code, _ in ends]
        assert all(code in (4000, 4008) or (code == 1006 and late) for code, late in ends), ends
        assert 4008 in codes, codes
    finally:
        server.stop()


def test_a_body_over_16_kib_is_refused_as_it_streams_in(db):
    """Two bodies of 128 MiB, chunked, then one with a Content-Length: each answered 413 after
    its first 16 KiB, and the server never holds them (it read whole before: +500 MiB)."""
    server = LiveServer(db)
    try:
        before = server.memory("VmHWM")
        for chunked in (True, True, False):
            answer = _post_endless(server.port, chunked, 128 * MIB)
            assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
            assert b'"too_large"' in answer
        grown = server.memory("VmHWM") - before
        assert grown < 20 * MIB, f"the peak grew {grown / MIB:.0f} MiB"
    finally:
        server.stop()


def _post_endless(port: int, chunked: bool, size: int) -> bytes:
    """POSTs up to ``size`` bytes of body in 64 KiB pieces, stopping when the server answers
    (or stops reading for 10 s); returns the answer."""
    piece = b" " * (64 * 1024)
    framing = b"Transfer-Encoding: chunked" if chunked else b"Content-Length: %d" % size
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\n" + framing + b"\r\n\r\n")
        s.setblocking(False)
        deadline = time.monotonic() + 30
        answer = b""
        for _ in range(size // len(piece)):
            answer += _available(s)
            if answer or time.monotonic() > deadline:
                break
            data = b"%x\r\n%s\r\n" % (len(piece), piece) if chunked else piece
            _send_for(s, data, 10)
        else:
            _send_for(s, b"0\r\n\r\n" if chunked else b"", 10)  # the whole body went in
        s.settimeout(30)
        while b"\r\n\r\n" not in answer or not answer.rstrip().endswith(b"}"):
            more = s.recv(65536)
            if not more:
                break
            answer += more
        return answer


def _available(s: socket.socket) -> bytes:
    try:
        return s.recv(65536)
    except BlockingIOError:
        return b""


def _send_for(s: socket.socket, data: bytes, seconds: float) -> None:
    """Sends what the server takes within ``seconds`` (it may stop reading once it answered)."""
    deadline = time.monotonic() + seconds
    view = memoryview(data)
    while view and time.monotonic() < deadline:
        try:
            view = view[s.send(view) :]
        except BlockingIOError:
            time.sleep(0.01)
        except OSError:
            return


def _app(tmp_path, **limits):
    clock = FakeClock()
    client = TestClient(create_app(str(tmp_path / "tables.db"), clock=clock, limits=Limits(**limits)))
    client.clock = clock  # type: ignore[attr-defined]
    return client


def _seat(client, settings):
    table = client.post("/api/tables", json=settings).json()["table"]
    token = client.post(f"/api/tables/{table['id']}/seats/0").json()["token"]
    return table["id"], token


def test_toggling_auto_under_a_days_spectator_delay_holds_bounded_memory(tmp_path):
    """Every 托管 toggle is a message the spectators get a day later: the table's delay line
    keeps at most queue_bytes of them, then drops its spectators (4008) rather than grow."""
    settings = {"seats": ["person", "greedy", "greedy", "greedy"], "spectator_delay": 86_000, "seed": 3}
    with _app(tmp_path, queue_bytes=64 * 1024, messages_per_second=0) as client:
        table_id, token = _seat(client, settings)
        with client.websocket_connect(f"/api/tables/{table_id}/watch") as watcher:
            watcher.send_json({"type": "hello"})
            with client.websocket_connect(f"/api/tables/{table_id}/play") as seat:
                seat.send_json({"type": "hello", "token": token})
                for i in range(2_000):
                    seat.send_json({"type": "auto", "on": i % 2 == 0})
                seat.send_json({"type": "ping"})
                while seat.receive_json()["type"] != "pong":
                    pass
            line = client.app.state.server.lines[table_id]
            assert line.queued <= 64 * 1024 and len(line.pending) < 500
            with pytest.raises(WebSocketDisconnect) as closed:
                watcher.receive_json()  # nothing was released (the delay is a day): only the close
            assert closed.value.code == 4008


def test_a_socket_sending_faster_than_its_rate_is_read_at_that_rate(tmp_path):
    """50 pings at once to a server reading 20 messages a second (a burst of 20): the last
    pong comes about 1.5 s later, not at once; the socket is slowed, not dropped."""
    with _app(tmp_path, messages_per_second=20) as client:
        table_id, token = _seat(client, {})
        with client.websocket_connect(f"/api/tables/{table_id}/play") as seat:
            seat.send_json({"type": "hello", "token": token})
            start = time.monotonic()
            for _ in range(50):
                seat.send_json({"type": "ping"})
            pongs = 0
            while pongs < 50:
                pongs += seat.receive_json()["type"] == "pong"
            assert 1.3 < time.monotonic() - start < 10


# ---------------------------------------------------------------------------- the lobby


def test_new_tables_are_rate_limited_per_client_address(tmp_path):
    with _app(tmp_path, creates_per_minute=5) as client:
        for _ in range(5):
            assert client.post("/api/tables", json={}).status_code == 201
        r = client.post("/api/tables", json={})
        assert r.status_code == 429 and r.json()["code"] == "rate_limited"
        assert 1 <= int(r.headers["Retry-After"]) <= 12
    now = [0.0]
    limit = RateLimit(5 / 60, 5, now=lambda: now[0])
    assert [limit.wait("a") for _ in range(5)] == [0.0] * 5 and limit.wait("a") == pytest.approx(12)
    assert limit.wait("b") == 0.0  # another address has its own bucket
    now[0] = 12.0
    assert limit.wait("a") == 0.0 and limit.wait("a") > 0


def test_waiting_tables_expire_and_do_not_come_back_after_a_restart(tmp_path):
    with _app(tmp_path, waiting_expiry=60) as client:
        table_id, token = _seat(client, {})
        with client.websocket_connect(f"/api/tables/{table_id}/play") as seat:
            seat.send_json({"type": "hello", "token": token})
            assert seat.receive_json()["type"] == "welcome"
            client.portal.call(client.clock.advance, 59)
            assert client.get(f"/api/tables/{table_id}").json()["table"]["status"] == "waiting"
            client.portal.call(client.clock.advance, 1)
            while seat.receive_json()["type"] != "expired":
                pass
            with pytest.raises(WebSocketDisconnect) as closed:
                seat.receive_json()
            assert closed.value.code == 4410
        assert client.get(f"/api/tables/{table_id}").json()["table"]["status"] == "expired"
        r = client.post(f"/api/tables/{table_id}/seats/1")
        assert r.status_code == 410 and r.json()["code"] == "expired"
        assert client.get("/api/tables").json()["tables"] == []
    with _app(tmp_path, waiting_expiry=60) as restarted:
        assert restarted.app.state.server.tables == {}  # not restored
        assert restarted.get(f"/api/tables/{table_id}").json()["table"]["status"] == "expired"


def test_finished_tables_do_not_count_toward_max_tables(tmp_path):
    bots = {"seats": BOTS, "hands": 1, "next_hand_delay": 0}
    with _app(tmp_path, max_tables=2) as client:
        finished = [client.post("/api/tables", json={**bots, "seed": i}).json()["table"]["id"] for i in range(2)]
        over = lambda: all(client.get(f"/api/tables/{t}").json()["table"]["status"] == "over" for t in finished)  # noqa: E731
        wait_until(over, 30, "the matches' end")
        waiting = [client.post("/api/tables", json={}) for _ in range(2)]
        assert [r.status_code for r in waiting] == [201, 201]
        r = client.post("/api/tables", json={})
        assert r.status_code == 503 and r.json()["code"] == "full"  # two live tables: full
        assert client.get(f"/api/tables/{finished[0]}").json()["table"]["status"] == "over"  # still served


def test_an_all_bot_64_hand_table_does_not_stall_the_server(db):
    """Another client's requests while a 64-hand all-bot match is created and played: the
    longest any waits stays short (it played inside the POST before, 1-1.8 s), and the match
    ends with the totals of the same match played without yielding."""
    server = LiveServer(db)
    try:
        settings = {"seats": BOTS, "hands": 64, "next_hand_delay": 0, "seed": 5}
        probe = server.request("POST", "/api/tables", {})[1]["table"]["id"]
        server.request("GET", f"/api/tables/{probe}")
        waits: list[float] = []
        done = threading.Event()

        def measure() -> None:
            while not done.is_set():
                start = time.monotonic()
                server.request("GET", f"/api/tables/{probe}")
                waits.append(time.monotonic() - start)
                time.sleep(0.005)

        thread = threading.Thread(target=measure)
        thread.start()
        try:
            time.sleep(0.2)
            status, answer = server.request("POST", "/api/tables", settings)
            assert status == 201
            table_id = answer["table"]["id"]
            wait_until(
                lambda: server.request("GET", f"/api/tables/{table_id}")[1]["table"]["status"] == "over",
                120,
                "the match's end",
            )
        finally:
            done.set()
            thread.join()
        longest = max(waits)
        assert longest < 0.5, f"a request waited {longest:.3f} s"
        totals = server.request("GET", f"/api/tables/{table_id}")[1]["table"]["totals"]
        assert totals == Harness(settings).table.match.totals
    finally:
        server.stop()


# ---------------------------------------------------------------------------- the delay


def test_the_lobby_shows_a_hands_result_only_after_the_spectator_delay(tmp_path):
    settings = {"seats": BOTS, "hands": 2, "next_hand_delay": 0, "seed": 4, "spectator_delay": 60}
    with _app(tmp_path) as client:
        table_id = client.post("/api/tables", json=settings).json()["table"]["id"]
        table = client.app.state.server.tables[table_id]
        wait_until(lambda: table.status == "over", 30, "the match's end")
        for shown in (
            client.get(f"/api/tables/{table_id}").json()["table"],
            client.get("/api/tables").json()["tables"][0],
        ):
            assert (shown["status"], shown["hands_played"], shown["results"], shown["totals"]) == (
                "playing",
                0,
                [],
                [0, 0, 0, 0],
            )
            assert shown["seed_revealed"] is None  # the seed deals the hands not shown yet
        assert client.get(f"/api/tables/{table_id}/log").status_code == 409  # so does the log
    with _app(tmp_path) as restarted:  # the hands' end times are stored: still hidden
        hidden = restarted.get(f"/api/tables/{table_id}").json()["table"]
        assert hidden["results"] == [] and hidden["status"] == "playing"
        assert restarted.get(f"/api/tables/{table_id}/log").status_code == 409
        restarted.portal.call(restarted.clock.advance, 60)
        shown = restarted.get(f"/api/tables/{table_id}").json()["table"]
        assert shown["status"] == "over" and shown["results"] == table.match.results
        assert shown["totals"] == table.match.totals and shown["hands_played"] == 2
        assert shown["seed_revealed"]["seed"] == table.seed
        assert restarted.get(f"/api/tables/{table_id}/log").json()["log"] == table.match.log()
