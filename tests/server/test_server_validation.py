"""Untrusted input at the server's edge (docs/server.md): table settings of every wrong type
answer 400 naming the field (never 500, never a table that cannot start), deep JSON answers
400, a socket that never says a valid hello is closed, and pages of foreign origins are refused."""

from __future__ import annotations

import time

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from xueliu.server import FakeClock, Limits, TableConfig, create_app  # noqa: E402

WRONG = [True, False, None, "1", 1.5, -1, 10**30, [], {}, [1], {"a": 1}]


@pytest.fixture
def client(tmp_path):
    limits = Limits(creates_per_minute=0, hello_seconds=1.0)
    with TestClient(create_app(str(tmp_path / "tables.db"), clock=FakeClock(), limits=limits)) as client:
        yield client


@pytest.mark.parametrize("field", sorted(TableConfig.__dataclass_fields__))
def test_every_setting_of_a_wrong_type_answers_400_naming_it_or_makes_a_table_that_starts(client, field):
    for value in WRONG:
        r = client.post("/api/tables", json={field: value})
        assert r.status_code in (201, 400), (field, value, r.status_code, r.text)
        if r.status_code == 400:
            assert r.json()["code"] == "bad_config" and field in r.json()["message"], (field, value, r.json())
            continue
        table = r.json()["table"]  # a value that is valid after all (None: the default): it starts
        for seat in range(4):
            if table["seats"][seat]["player"] == "person":
                assert client.post(f"/api/tables/{table['id']}/seats/{seat}").status_code == 201, (field, value)
        assert client.get(f"/api/tables/{table['id']}").json()["table"]["status"] != "waiting", (field, value)


def test_hands_true_is_refused(client):
    r = client.post("/api/tables", json={"hands": True})
    assert r.status_code == 400 and "hands" in r.json()["message"]


@pytest.mark.parametrize("depth", [1_000, 5_000])
def test_a_deeply_nested_body_answers_400(client, depth):
    for body in ("[" * depth + "]" * depth, '{"options": ' + '{"a": ' * depth + "1" + "}" * depth + "}"):
        r = client.post("/api/tables", content=body.encode(), headers={"Content-Type": "application/json"})
        assert r.status_code in (400, 413) and r.json()["code"] in ("malformed", "bad_config", "too_large")


def test_a_socket_that_never_says_a_valid_hello_is_closed_in_time(client):
    """One junk message every 0.3 s does not keep a socket past its hello limit (1 s here)."""
    table_id = client.post("/api/tables", json={}).json()["table"]["id"]
    with client.websocket_connect(f"/api/tables/{table_id}/watch") as ws:
        start = time.monotonic()
        with pytest.raises(WebSocketDisconnect) as closed:
            for _ in range(20):
                ws.send_json({"type": "junk"})
                assert ws.receive_json()["code"] == "hello_first"
                time.sleep(0.3)
        assert closed.value.code == 4408 and time.monotonic() - start < 3


@pytest.mark.parametrize(
    "origin, allowed",
    [
        (None, True),  # not a browser
        ("http://testserver", True),  # the server's own pages
        ("http://localhost:5173", True),
        ("http://127.0.0.1:8000", True),
        ("https://evil.example", False),
        ("null", False),
        ("http://testserver.evil.example", False),
    ],
)
def test_posts_and_sockets_check_the_origin(client, origin, allowed):
    headers = {} if origin is None else {"Origin": origin}
    r = client.post("/api/tables", json={}, headers=headers)
    assert r.status_code == (201 if allowed else 403)
    if not allowed:
        assert r.json()["code"] == "forbidden_origin"
        table_id = client.post("/api/tables", json={}).json()["table"]["id"]
        with pytest.raises(WebSocketDisconnect) as refused:
            with client.websocket_connect(f"/api/tables/{table_id}/watch", headers=headers):
                pass
        assert refused.value.code == 1008
        assert client.get("/api/tables", headers=headers).status_code == 200  # GETs show public views


def test_an_operator_allows_more_origins(tmp_path):
    limits = Limits(origins=("https://club.example",))
    with TestClient(create_app(str(tmp_path / "tables.db"), limits=limits)) as client:
        assert client.post("/api/tables", json={}, headers={"Origin": "https://club.example"}).status_code == 201
        assert client.post("/api/tables", json={}, headers={"Origin": "https://evil.example"}).status_code == 403
