"""The table server end to end over Starlette's test client: HTTP, the WebSocket protocol,
reconnects, clocks on a fake clock, spectators and security basics (docs/server.md)."""

from __future__ import annotations

import contextlib
import faulthandler
import hashlib
import json
import logging

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from xueliu import Game, Match  # noqa: E402
from xueliu.server import FakeClock, create_app  # noqa: E402

PEOPLE = ["person"] * 4


@pytest.fixture(autouse=True)
def bounded():
    faulthandler.dump_traceback_later(25, exit=True)  # a hung socket read ends the run, loudly
    yield
    faulthandler.cancel_dump_traceback_later()


@pytest.fixture
def server(tmp_path):
    clock = FakeClock()
    app = create_app(str(tmp_path / "tables.db"), clock=clock, chosen_seeds=True)
    with TestClient(app) as client, contextlib.ExitStack() as sockets:
        client.clock = clock  # type: ignore[attr-defined]
        client.db = str(tmp_path / "tables.db")  # type: ignore[attr-defined]
        client.sockets = sockets  # type: ignore[attr-defined]  # closed before the client
        yield client


def new_table(client, **settings):
    settings = {"seed": 9, "hands": 2, "next_hand_delay": 0, "seats": PEOPLE, **settings}
    r = client.post("/api/tables", json=settings)
    assert r.status_code == 201, r.text
    table = r.json()["table"]
    tokens = {}
    for seat, kind in enumerate(settings["seats"]):
        if kind == "person":
            r = client.post(f"/api/tables/{table['id']}/seats/{seat}")
            assert r.status_code == 201, r.text
            tokens[seat] = r.json()["token"]
    return table["id"], tokens


class Seat:
    """One player's socket: keeps the events and the open request it was sent."""

    def __init__(self, ws, seat=None):
        self.ws, self.seat = ws, seat
        self.events: list = []
        self.request = None
        self.messages: list = []
        self.hand = 0

    def hello(self, **fields):
        self.ws.send_json({"type": "hello", **fields})
        welcome = self.receive()
        assert welcome["type"] == "welcome"
        return welcome

    def receive(self):
        m = self.ws.receive_json()
        self.messages.append(m)
        if m["type"] == "welcome":
            if m["hand"] != self.hand or m["n"] == 0:
                self.events = []
            self.hand = m["hand"]
            assert m["n"] == len(self.events)
            self.events += m["events"]
            self.request = m["request"]
        elif m["type"] == "events":
            if m["hand"] != self.hand:
                self.hand, self.events = m["hand"], []
            assert m["n"] == len(self.events), "no event lost or repeated"
            self.events += m["events"]
        elif m["type"] == "request":
            self.request = m
        elif m["type"] == "accepted" and self.request and m["decision"] == self.request["decision"]:
            self.request = None
        return m

    def until(self, test):
        while True:
            m = self.receive()
            if test(m):
                return m

    def act(self, action=None, decision=None):
        r = self.request
        self.ws.send_json(
            {
                "type": "act",
                "decision": r["decision"] if decision is None else decision,
                "action": action or ("win" if "win" in r["actions"] else r["default"]),
            }
        )


def answer_one(table, seats) -> None:
    """The first seat the table waits on reads up to its request and answers it; returns once
    the server has committed the answer (so the table is at rest when this returns)."""
    by_seat = {s.seat: s for s in seats}
    waiting = [seat for seat in table.requests if seat not in table.answers and seat in by_seat]
    assert waiting, "the table waits on a seat nobody plays"
    s = by_seat[waiting[0]]
    step = table.step
    if not (s.request and s.request["decision"] == step):  # a welcome may have brought it
        s.until(lambda m: m["type"] == "request" and m["decision"] == step)
    s.act()
    m = s.until(lambda m: m["type"] in ("accepted", "error"))
    assert m["type"] == "accepted", m


def play_out(table, seats):
    """Plays the match to its end, then reads every seat's messages up to `match_over`."""
    while table.status != "over":
        answer_one(table, seats)
    for s in seats:
        s.until(lambda m: m["type"] == "match_over")


def connect_all(client, table_id, tokens):
    stack = []
    for seat, token in tokens.items():
        ws = client.sockets.enter_context(client.websocket_connect(f"/api/tables/{table_id}/play"))
        s = Seat(ws, seat)
        s.hello(token=token)
        stack.append(s)
    return stack


def test_four_people_play_a_whole_match_over_websockets(server):
    table_id, tokens = new_table(server, preset="xuezhan", seed=12)
    seats = connect_all(server, table_id, tokens)
    table = server.app.state.server.tables[table_id]
    play_out(table, seats)
    game = table.match.game
    for s in seats:
        assert s.events == game.events_for(s.seat)
    totals = [m for m in seats[0].messages if m["type"] == "match_over"][0]["totals"]
    assert sum(totals) == 0 and server.get(f"/api/tables/{table_id}").json()["table"]["status"] == "over"
    # every decision is in the database, in order, with the table's final snapshot
    storage = server.app.state.server.storage
    decisions = storage.decisions(table_id)
    assert len(decisions) >= sum(1 for e in game.events if e["type"] in ("discard", "void"))
    assert all(d["by"] == "seat" for d in decisions)
    assert storage.unfinished() == []
    # after a restart the finished table is still served, with its ledger
    public = server.get(f"/api/tables/{table_id}").json()["table"]
    assert public["results"] == table.match.results and len(public["results"]) == 2
    storage.close()  # the first server stops: one process owns a database
    with TestClient(create_app(server.db, clock=FakeClock())) as restarted:
        assert restarted.get("/api/tables").json()["tables"] == []  # restore loads unfinished tables only
        r = restarted.get(f"/api/tables/{table_id}")
        again = r.json()["table"]
        assert r.status_code == 200 and {**again, "seats": None} == {**public, "seats": None}
        assert not any(seat["connected"] for seat in again["seats"])  # nobody is, after a restart
        assert restarted.get("/api/tables/nosuchtable").status_code == 404


def test_stale_illegal_malformed_oversized_and_unknown_messages_get_errors_and_the_socket_stays(server):
    table_id, tokens = new_table(server, seats=["person", "greedy", "greedy", "greedy"])
    [s] = connect_all(server, table_id, {0: tokens[0]})
    if s.request is None:
        s.until(lambda m: m["type"] == "request")
    decision = s.request["decision"]
    bad = [
        ({"type": "act", "decision": decision + 5, "action": s.request["default"]}, "stale"),
        ({"type": "act", "decision": decision, "action": "discard 5z"}, "illegal"),
        ({"type": "act", "decision": decision, "action": "pong"}, "illegal"),
        ({"type": "act", "decision": decision, "action": ["pass"]}, "malformed"),
        ({"type": "dance"}, "unknown_type"),
        ({"no": "type"}, "malformed"),
        ({"type": "auto", "on": "yes"}, "malformed"),
    ]
    for message, code in bad:
        s.ws.send_json(message)
        m = s.until(lambda m: m["type"] in ("error", "accepted"))
        assert m["type"] == "error" and m["code"] == code, (message, m)
    for raw, code in [("{not json", "malformed"), ("[1, 2]", "malformed"), ("x" * 5000, "too_large")]:
        s.ws.send_text(raw)
        m = s.until(lambda m: m["type"] in ("error", "accepted"))
        assert m["type"] == "error" and m["code"] == code
    s.ws.send_bytes(b"\xff\xfe")
    assert s.until(lambda m: m["type"] == "error")["code"] == "malformed"
    # still connected, still asked the same: a good answer goes through
    s.act()
    assert s.until(lambda m: m["type"] in ("accepted", "error"))["type"] == "accepted"


def test_a_wrong_token_unknown_table_and_taken_seat_are_refused(server):
    table_id, tokens = new_table(server, seats=["person", "person", "greedy", "greedy"])
    with server.websocket_connect(f"/api/tables/{table_id}/play") as ws:
        ws.send_json({"type": "hello", "token": "guess"})
        assert ws.receive_json()["code"] == "unauthorized"
        with pytest.raises(WebSocketDisconnect) as e:
            ws.receive_json()
        assert e.value.code == 4401
    with server.websocket_connect("/api/tables/nope/play") as ws:
        assert ws.receive_json()["code"] == "unknown_table"
    assert server.get("/api/tables/nope").status_code == 404
    assert server.post("/api/tables/nope/seats/0").status_code == 404
    r = server.post(f"/api/tables/{table_id}/seats/0")
    assert r.status_code == 409 and r.json()["code"] == "seat_taken" and "token" not in r.json()
    assert server.post(f"/api/tables/{table_id}/seats/2").status_code == 409  # a bot's
    assert server.post(f"/api/tables/{table_id}/seats/7").status_code == 400
    assert server.post("/api/tables", content=b"{").status_code == 400
    assert server.post("/api/tables", json={"preset": "moon"}).json()["code"] == "bad_config"
    assert server.post("/api/tables", content=b" " * 20000).json()["code"] == "too_large"


def test_a_seat_sees_only_its_own_requests_and_cannot_act_for_another(server):
    table_id, tokens = new_table(server)
    seats = connect_all(server, table_id, tokens)
    # the exchange: each seat's request names its own tiles; seat 1 cannot answer seat 0's
    for s in seats:
        assert s.request["kind"] == "exchange"
    table = server.app.state.server.tables[table_id]
    for s in seats:
        assert set(s.request["actions"]) == {str(a) for a in table.match.game.legal_actions(s.seat)}
    mine = seats[1]
    foreign = next(a for a in seats[0].request["actions"] if a not in mine.request["actions"])
    mine.act(foreign)
    m = mine.until(lambda m: m["type"] == "error")
    assert m["code"] == "illegal"


def test_reconnecting_mid_hand_resumes_the_stream_with_nothing_lost_or_repeated(server):
    table_id, tokens = new_table(server, seats=["person", "person", "greedy", "greedy"], seed=31)
    a, b = connect_all(server, table_id, tokens)
    table = server.app.state.server.tables[table_id]
    for _ in range(12):  # play a while
        answer_one(table, [a, b])
    seen = list(b.events)
    b.ws.close()
    # a plays on while b is away (b's requests wait on its clock, not advanced here)
    with server.websocket_connect(f"/api/tables/{table_id}/play") as ws:
        back = Seat(ws, 1)
        back.events, back.hand = list(seen), b.hand
        welcome = back.hello(token=tokens[1], hand=b.hand, **{"from": len(seen)})
        assert welcome["n"] == len(seen)
        table = server.app.state.server.tables[table_id]
        assert back.events == table.match.game.events_for(1)[: len(back.events)]
        assert back.events == table.match.game.events_for(1)[: table.sent[1]]
        if table.requests.get(1) and 1 not in table.answers:
            assert welcome["request"]["decision"] == table.step
            assert 0 < welcome["request"]["seconds_left"] <= 15
        # a fresh connection without "from" gets the whole hand again
        with server.websocket_connect(f"/api/tables/{table_id}/play") as ws2:
            again = Seat(ws2, 1)
            assert again.hello(token=tokens[1])["n"] == 0 and again.events == back.events
            with pytest.raises(WebSocketDisconnect) as e:  # the newer socket took the seat
                back.until(lambda m: False)
            assert e.value.code == 4000


def test_clocks_play_defaults_and_put_a_silent_seat_on_auto(server):
    table_id, tokens = new_table(server, seats=["person", "greedy", "greedy", "greedy"], auto_after=2)
    [s] = connect_all(server, table_id, tokens)
    assert s.request["kind"] == "exchange" and s.request["seconds_left"] == 15
    server.portal.call(server.clock.advance, 15)
    m = s.until(lambda m: m["type"] == "accepted")
    assert m["by"] == "clock"
    s.until(lambda m: m["type"] == "request")
    assert s.request["kind"] == "void"
    server.portal.call(server.clock.advance, 15)
    m = s.until(lambda m: m["type"] == "seat")
    assert m["seat"] == 0 and m["auto"]
    # on 托管 the match plays on by itself to the end
    s.until(lambda m: m["type"] == "match_over")


def test_a_seat_gone_past_its_grace_is_auto_played(server):
    table_id, tokens = new_table(server, seats=["person", "person", "greedy", "greedy"], grace=20)
    a, b = connect_all(server, table_id, tokens)
    b.ws.close()
    m = a.until(lambda m: m["type"] == "seat" and m["seat"] == 1 and not m["connected"])
    assert not m["left"] and not m["auto"]
    server.portal.call(server.clock.advance, 20)
    m = a.until(lambda m: m["type"] == "seat" and m["seat"] == 1)
    assert m["left"] and m["auto"]


def test_spectators_see_the_public_view_only_and_late_by_the_tables_delay(server, caplog):
    caplog.set_level(logging.DEBUG)
    table_id, tokens = new_table(server, seats=["person", "greedy", "greedy", "greedy"], spectator_delay=30)
    with server.websocket_connect(f"/api/tables/{table_id}/watch") as ws:
        ws.send_json({"type": "hello"})
        [s] = connect_all(server, table_id, tokens)
        table = server.app.state.server.tables[table_id]
        play_out(table, [s])
        server.portal.call(server.clock.advance, 29)  # the first view is due at 30 s
        server.portal.call(server.clock.advance, 1)
        watcher = Seat(ws)
        watcher.until(lambda m: m["type"] == "match_over")
        assert watcher.messages[0]["type"] == "welcome" and watcher.messages[0]["seat"] is None
        assert watcher.events == table.match.game.public_events()
        text = json.dumps(watcher.messages)
        assert {m["type"] for m in watcher.messages} <= {"welcome", "events", "seat", "hand_over", "match_over"}
        assert watcher.messages[0]["request"] is None
        assert tokens[0] not in text
        assert tokens[0] not in caplog.text


def test_the_static_page_and_the_table_list(server):
    assert "xueliu" in server.get("/").text
    table_id, _ = new_table(server)
    listed = server.get("/api/tables").json()["tables"]
    assert [t["id"] for t in listed] == [table_id] and "seed" not in listed[0]
    assert listed[0]["status"] == "playing"


def test_a_seat_back_after_the_end_hears_hand_over_and_match_over_again(server):
    table_id, tokens = new_table(server, hands=1, seats=["person", "greedy", "greedy", "greedy"])
    with server.websocket_connect(f"/api/tables/{table_id}/play") as ws:
        first = Seat(ws, 0)
        first.hello(token=tokens[0])
        ws.send_json({"type": "auto", "on": True})  # 托管: the bots play the match out
        first.until(lambda m: m["type"] == "match_over")
    endings = [m for m in first.messages if m["type"] in ("hand_over", "match_over")]
    with server.websocket_connect(f"/api/tables/{table_id}/play") as ws:
        again = Seat(ws, 0)
        assert again.hello(token=tokens[0])["table"]["status"] == "over"
        assert [again.receive(), again.receive()] == endings
    with server.websocket_connect(f"/api/tables/{table_id}/watch") as ws:
        spectator = Seat(ws)
        spectator.hello()
        assert [spectator.receive(), spectator.receive()] == endings


def test_deals_are_fair_a_chosen_seed_only_alone_with_bots_and_every_player_can_verify_the_deal(tmp_path):
    """A table with people is dealt from the server's CSPRNG; it publishes a commitment to its
    seed at the start and reveals seed and salt at the end; with the match log, each player
    checks that the deal they were given is the one the committed seed deals (docs/server.md)."""
    with TestClient(create_app(str(tmp_path / "tables.db"), clock=FakeClock())) as client, contextlib.ExitStack() as s:
        client.sockets = s  # type: ignore[attr-defined]
        r = client.post("/api/tables", json={"seed": 5, "seats": PEOPLE})
        assert (r.status_code, r.json()["code"]) == (400, "bad_config") and "random source" in r.json()["message"]
        r = client.post("/api/tables", json={"seed": 5, "seats": ["person", "greedy", "greedy", "greedy"]})
        assert r.status_code == 201 and r.json()["table"]["seed_chosen"] is True

        table_id, tokens = new_table(client, seed=None, hands=1)
        seats = connect_all(client, table_id, tokens)
        welcome = seats[0].messages[0]
        commitment = welcome["table"]["seed_commitment"]
        assert welcome["table"]["seed_chosen"] is False and welcome["table"]["seed_revealed"] is None
        assert client.get(f"/api/tables/{table_id}/log").json()["code"] == "not_over"
        play_out(client.app.state.server.tables[table_id], seats)  # type: ignore[attr-defined]

        for s in seats:  # what each player does, with only what it was sent and the public log
            over = s.messages[-1]
            assert over["type"] == "match_over"
            seed, salt = over["seed"], over["salt"]
            assert hashlib.sha256(bytes.fromhex(salt) + seed.to_bytes(8, "big")).hexdigest() == commitment
            log = client.get(f"/api/tables/{table_id}/log").json()["log"]
            assert log["seed"] == seed
            Match.from_log(log)  # every hand is the one that seed deals, its actions replayed
            assert Game.from_events(log["games"][0]).events_for(s.seat) == s.events
        assert client.get(f"/api/tables/{table_id}").json()["table"]["seed_revealed"] == {"seed": seed, "salt": salt}


def test_a_person_joins_with_a_display_name_shown_to_all_and_kept_over_a_restart(server):
    """Issue 30, item 3: the name chosen at join is in every <seat>, trimmed; a bad one is refused
    and the seat stays open; a restarted server still shows it."""
    r = server.post("/api/tables", json={"seed": 3, "seats": ["person", "person", "greedy", "greedy"]})
    table_id = r.json()["table"]["id"]
    for bad in ["x" * 25, "a\x00b", 7, "   "]:
        r = server.post(f"/api/tables/{table_id}/seats/0", json={"name": bad})
        assert r.status_code == 400 and r.json()["code"] == "bad_name", bad
    r = server.post(f"/api/tables/{table_id}/seats/0", json={"name": "  小明   the  bold "})
    assert r.status_code == 201
    assert server.post(f"/api/tables/{table_id}/seats/1").status_code == 201  # a name is optional
    seats = server.get(f"/api/tables/{table_id}").json()["table"]["seats"]
    assert [s["name"] for s in seats] == ["小明 the bold", None, None, None]
    server.app.state.server.storage.close()  # the first server stops: one process owns a database
    with TestClient(create_app(server.db, clock=FakeClock())) as restarted:
        seats = restarted.get(f"/api/tables/{table_id}").json()["table"]["seats"]
        assert [s["name"] for s in seats] == ["小明 the bold", None, None, None]
