"""The server's ladder (docs/ladder.md): accounts, the bot socket speaking the bot protocol v1,
the validation game, ranked sets against the reference bots, ratings kept in storage (SQLite and
PostgreSQL), and the leaderboard's JSON. The bots here answer over Starlette's test client; the
tests with real processes are in test_ladder_processes.py."""

from __future__ import annotations

import json
from typing import Any, Callable, Iterator, Optional

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

import xueliu  # noqa: E402
from xueliu import bot_protocol as proto  # noqa: E402
from xueliu.server import SQLiteStorage, create_app  # noqa: E402
from xueliu.server.ladder import Ladder, LadderConfig, LadderError, play_set, ratings  # noqa: E402
from xueliu.server.ladder_store import LadderStore, PlayedSet  # noqa: E402
from xueliu.server.table import hash_token  # noqa: E402

FAST = LadderConfig(fill_seconds=0.05, time_ms=2000, validation_bots=("greedy", "random", "random"))


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Any) -> Iterator[LadderStore]:
    if request.param == "postgres":
        made = LadderStore(postgres=request.getfixturevalue("postgres_url"))
    else:
        made = LadderStore(str(tmp_path / "ladder.db"))
    yield made
    made.close()


@pytest.fixture
def client(store: LadderStore) -> Iterator[TestClient]:
    app = create_app(storage=SQLiteStorage(":memory:"), ladder=Ladder(store, FAST))
    with TestClient(app) as c:
        yield c


def first_legal(request: dict[str, Any]) -> dict[str, Any]:
    return {"type": "answer", "id": request["id"], "action": request["actions"][0]}


def session(
    client: TestClient,
    hello: dict[str, Any],
    answer: Callable[[dict[str, Any]], Optional[dict[str, Any]]] = first_legal,
) -> list[dict[str, Any]]:
    """Connects, says ``hello``, answers every request with ``answer`` (None: no answer) and
    returns every message of the ladder's own and every ack, until the server says bye or closes."""
    seen: list[dict[str, Any]] = []
    with client.websocket_connect("/api/ladder/play") as ws:
        first = json.loads(ws.receive_text())
        assert first["type"] == "hello" and first["versions"] == [1] and first["protocol"] == proto.PROTOCOL
        ws.send_text(json.dumps({"type": "hello", "version": 1, **hello}))
        while True:
            try:
                message = json.loads(ws.receive_text())
            except WebSocketDisconnect as e:
                seen.append({"type": "closed", "code": e.code})
                return seen
            if message["type"] == "request":
                reply = answer(message)
                if reply is not None:
                    ws.send_text(json.dumps(reply))
            elif message["type"] in ("ack", "validation", "rated", "error", "bye"):
                seen.append(message)


def account(client: TestClient, name: str) -> str:
    response = client.post("/api/ladder/bots", json={"name": name})
    assert response.status_code == 201, response.text
    return response.json()["token"]


# ------------------------------------------------------------------------------------ storage


def test_the_store_keeps_accounts_as_digests_and_refuses_a_taken_name(store: LadderStore) -> None:
    assert store.add_bot("alpha", hash_token("secret"))
    assert not store.add_bot("alpha", hash_token("other"))  # taken: nothing written
    got = store.account("alpha")
    assert got is not None and got.token == hash_token("secret") and got.validated is None
    assert store.account("nobody") is None and store.bots() == 1
    store.validated("alpha", "chengdu", False, {"problems": ["request 3: rejected"]})
    got = store.account("alpha")
    assert got is not None and got.validated is False and got.report == {"problems": ["request 3: rejected"]}
    assert not store.passed("alpha", "chengdu")
    store.validated("alpha", "chengdu", True, {"problems": []})  # passed on a second try
    assert store.passed("alpha", "chengdu") and not store.passed("alpha", "yaoji")


def test_the_store_records_a_set_with_its_ratings_in_one_write(store: LadderStore) -> None:
    played = PlayedSet(["me", "random", "greedy", "ismcts:25"], [1.5, -12.0, 4.25, 6.25])
    fitted, counts = ratings([played])
    store.record("chengdu", 2**63 + 5, played, fitted, counts)  # a seed past PostgreSQL's bigint
    assert store.sets("chengdu") == [played] and store.sets("yaoji") == []
    rows = store.ratings("chengdu")
    assert [r["name"] for r in rows] == ["ismcts:25", "greedy", "me", "random"]  # best first
    assert all(r["sets"] == 1 for r in rows)
    assert rows[-1]["rating"] == 0.0  # the anchor
    assert store.ratings() == [{"preset": "chengdu", **r} for r in rows]


# ------------------------------------------------------------------------------------ ratings


def test_ratings_recover_the_margins_of_consistent_sets() -> None:
    strength = {"random": 0.0, "a": 10.0, "b": 4.0, "c": -2.0, "d": 7.0}
    sets = []
    for four in (["random", "a", "b", "c"], ["a", "b", "c", "d"], ["random", "b", "d", "a"]):
        mean = sum(strength[n] for n in four) / 4
        sets.append(PlayedSet(four, [strength[n] - mean for n in four]))
    fitted, counts = ratings(sets * 2)
    for name, value in strength.items():
        assert fitted[name]["rating"] == pytest.approx(value, abs=1e-6)
    assert counts == {"random": 4, "a": 6, "b": 6, "c": 4, "d": 4}
    assert fitted["random"]["anchor"] and not fitted["a"]["anchor"]


def test_a_set_is_one_deal_rotated_through_the_seats() -> None:
    rules = xueliu.Rules.preset("chengdu")
    names = ["greedy", "random", "ismcts:25", "random"]
    points = play_set(rules, 7, [xueliu.players.Builtin(n) for n in names])
    expected = [0.0] * 4
    for r in range(4):
        order = [(s - r) % 4 for s in range(4)]
        game = xueliu.Match(rules, seed=7, hands=1).game  # a table's deal
        xueliu.players.play_hand(game, [xueliu.players.Builtin(names[b]) for b in order])
        for s, b in enumerate(order):
            expected[b] += game.scores[s] / 4
    assert points == expected


# ------------------------------------------------------------------------------------ accounts


def test_accounts_are_made_over_http_with_their_names_checked(client: TestClient) -> None:
    token = account(client, "my-bot.v2")
    assert len(token) >= 32
    for name, code, status in [
        ("my-bot.v2", "name_taken", 409),
        ("greedy", "name_taken", 409),  # a reference bot's name
        ("", "bad_name", 400),
        ("a" * 25, "bad_name", 400),
        ("-dash", "bad_name", 400),
        (7, "bad_name", 400),
    ]:
        response = client.post("/api/ladder/bots", json={"name": name})
        assert (response.status_code, response.json()["code"]) == (status, code), name


def test_a_server_holds_at_most_max_bots_accounts(store: LadderStore) -> None:
    ladder = Ladder(store, LadderConfig(max_bots=2))
    ladder.create_bot("one")
    ladder.create_bot("two")
    with pytest.raises(LadderError) as e:
        ladder.create_bot("three")
    assert e.value.code == "full"


def test_a_wrong_token_or_a_bad_hello_closes_the_socket_saying_why(client: TestClient) -> None:
    token = account(client, "me")
    seen = session(client, {"bot": "me", "token": token + "x"})
    assert seen[-1] == {"type": "closed", "code": 4401} and "token" in seen[0]["message"]
    seen = session(client, {"bot": "me", "token": token, "preset": "nowhere"})
    assert seen[-1]["code"] == 4422
    seen = session(client, {"bot": "me", "token": token, "sets": 0})
    assert seen[-1]["code"] == 4422


# ------------------------------------------------------------------------------------ games


def test_a_correct_bot_passes_validation_then_plays_ranked_sets_stored_with_ratings(
    client: TestClient, store: LadderStore
) -> None:
    token = account(client, "good")
    seen = session(client, {"bot": "good", "token": token, "preset": "chengdu", "sets": 2})
    validation = next(m for m in seen if m["type"] == "validation")
    assert validation["passed"] and validation["problems"] == [] and validation["counts"]["decisions"] > 0
    rated = [m for m in seen if m["type"] == "rated"]
    assert len(rated) == 2 and seen[-2]["type"] == "bye" and seen[-1]["code"] == 1000
    for result in rated:
        assert result["bots"] == ["good", "random", "greedy", "ismcts:25"]  # filled from the manifest
        assert result["mine"] == result["points"][0] and result["rating"] is not None
    assert all(m["status"] == "accepted" for m in seen if m["type"] == "ack")
    account_row = store.account("good")
    assert account_row is not None and account_row.validated is True
    assert len(store.sets("chengdu")) == 2
    board = client.get("/api/ladder").json()
    names = {row["name"]: row for row in board["ladder"]["chengdu"]}
    assert names["good"]["sets"] == 2 and not names["good"]["reference"] and names["random"]["reference"]
    assert names["random"]["rating"] == 0.0
    assert [b["name"] for b in board["manifest"]["bots"]] == xueliu.ladder.reference_names()
    # a validated account goes straight to the queue
    seen = session(client, {"bot": "good", "token": token, "sets": 1})
    assert not any(m["type"] == "validation" for m in seen) and len(store.sets("chengdu")) == 3
    # but validation is per preset: under another it plays that preset's validation game first
    seen = session(client, {"bot": "good", "token": token, "preset": "yaoji", "sets": 1})
    validation = next(m for m in seen if m["type"] == "validation")
    assert validation["passed"] and validation["preset"] == "yaoji"
    assert store.passed("good", "yaoji") and store.passed("good", "chengdu") and not store.passed("good", "xuezhan")
    assert len(store.sets("yaoji")) == 1


def test_an_illegal_answer_fails_validation_and_the_report_says_what_was_wrong(client: TestClient) -> None:
    token = account(client, "bad")
    seen = session(
        client, {"bot": "bad", "token": token}, lambda r: {"type": "answer", "id": r["id"], "action": "swap 5m"}
    )
    validation = next(m for m in seen if m["type"] == "validation")
    assert not validation["passed"]
    assert validation["counts"]["rejected"] == validation["counts"]["decisions"] > 0
    assert validation["problems"][0].endswith("rejected: swap 5m is not legal now")
    acks = [m for m in seen if m["type"] == "ack"]
    assert acks and all(m["status"] == "rejected" and m["played"] for m in acks)  # defaults, acked
    assert not any(m["type"] == "rated" for m in seen) and seen[-1]["code"] == 1000
    # a failed account is validated again at its next connection
    seen = session(client, {"bot": "bad", "token": token, "sets": 1})
    assert next(m for m in seen if m["type"] == "validation")["passed"]


def test_garbage_and_unknown_types_are_acked_and_counted_in_validation(client: TestClient) -> None:
    token = account(client, "noisy")
    with client.websocket_connect("/api/ladder/play") as ws:
        ws.receive_text()
        ws.send_text("not json at all")  # before the hello: told, and the hello still awaited
        assert json.loads(ws.receive_text())["type"] == "error"
        ws.send_text(json.dumps({"type": "hello", "version": 1, "bot": "noisy", "token": token}))
        answered = 0
        while True:
            message = json.loads(ws.receive_text())
            if message["type"] == "request":
                answered += 1
                if answered == 1:
                    ws.send_text("{garbage")
                elif answered == 2:
                    ws.send_text(json.dumps({"type": "shout"}) + "\n" + json.dumps(first_legal(message)))
                else:
                    ws.send_text(json.dumps(first_legal(message)))
            if message["type"] == "validation":
                break
    assert not message["passed"]
    assert message["counts"]["unparseable"] == 1 and message["counts"]["errors"] == 1
    assert any("unparseable" in p for p in message["problems"]) and any("shout" in p for p in message["problems"])


def test_one_socket_per_account(client: TestClient) -> None:
    token = account(client, "twice")
    with client.websocket_connect("/api/ladder/play") as ws:
        ws.receive_text()
        ws.send_text(json.dumps({"type": "hello", "version": 1, "bot": "twice", "token": token}))
        ws.receive_text()  # its validation has begun
        seen = session(client, {"bot": "twice", "token": token})
        assert seen[-1]["code"] == 4409
