"""No leak: over many random hands, what each seat and each spectator is sent holds no concealed
tile of another seat, and whether someone could claim a discard changes no one else's messages
(issue 14; docs/server.md §Information). Checked against the engine's hidden state."""

from __future__ import annotations

import json
import random

import pytest

pytest.importorskip("starlette")

from server_harness import Harness  # noqa: E402

from xueliu.server.table import SPECTATORS  # noqa: E402

PRESETS = ["xuezhan", "chengdu_xueliu", "yaoji", "sanxia", "dashiyou"]
HANDS_PER_PRESET = 6


def random_choice(rng: random.Random):
    def choose(request):
        actions = request["actions"]
        if "win" in actions and rng.random() < 0.8:
            return "win"
        return rng.choice(actions)

    return choose


class Recording(Harness):
    """Checks each request against the engine's hidden state at the moment it goes out."""

    def drain(self) -> None:
        self.table.outbox += self.table.scored_requests()  # the requests the server sends a turn later
        for viewer, message in self.table.outbox:
            if message["type"] == "request":
                check_request(self.table.match.game, viewer, message, self.table.window)
        super().drain()


def check_request(game, seat, request, window) -> None:
    own = {str(t) for t in game.hand(seat)} | {str(m.tile) for m in game.melds(seat)}
    legal = {str(a) for a in game.legal_actions(seat)} if seat in game.to_act() else set()
    if request["kind"] in ("claim", "rob"):
        # the claim step asks everyone alike: a seat without a claim is offered "pass" only
        assert request["actions"] == ["pass"] or set(request["actions"]) == legal
        assert request["deadline"] - request["seconds_left"] >= 0
        tiles_ok = own | {window["tile"]}
    else:
        assert set(request["actions"]) == legal
        tiles_ok = own
    for action in request["actions"] + [request["default"]]:
        for word in action.split()[1:]:
            if word in ("m", "p", "s"):
                continue
            tiles = [word[i] + word[-1] for i in range(len(word) - 1)]
            assert set(tiles) <= tiles_ok, (seat, action, sorted(own))


def hidden_fields_hidden(events, viewer) -> None:
    """Every field the engine hides from `viewer` is hidden in what it was sent."""
    for e in events:
        t = e["type"]
        if t == "start":
            assert e["seed"] is None
        if t == "pass":
            assert e["seat"] == viewer
        if t == "deal" and e["seat"] != viewer:
            assert e["tiles"] is None
        if t == "draw" and e["seat"] != viewer:
            assert e["tile"] is None
        if t == "exchange":
            assert all(x is None for i, x in enumerate(e["given"]) if i != viewer)
            assert all(x is None for i, x in enumerate(e["received"]) if i != viewer)
        if t == "win" and e["seat"] != viewer:
            assert e["hand"] is None


@pytest.mark.parametrize("preset", PRESETS)
def test_no_message_holds_another_seats_concealed_tiles(preset):
    rng = random.Random(preset)
    for seed in range(HANDS_PER_PRESET):
        h = Recording({"preset": preset, "seed": seed, "hands": 1})
        h.play(random_choice(rng))
        game = h.table.match.game
        for viewer in range(4):
            sent = h.events(viewer)
            assert sent == game.events_for(viewer)  # the engine's own view of this seat, in full
            hidden_fields_hidden(sent, viewer)
            for m in h.inbox[viewer]:
                assert m["type"] != "request" or m["kind"] in ("exchange", "void", "turn", "claim", "rob")
        public = h.events(SPECTATORS)
        assert public == game.public_events()
        hidden_fields_hidden(public, None)
        assert {m["type"] for m in h.inbox[SPECTATORS]} <= {"events", "seat", "hand_over", "match_over"}
        # the concealed tiles of every seat at the end are nowhere in what the spectators saw,
        # other than as tiles that were shown (discards, melds, wins), until the hand is over:
        # then hand_over shows every hand to all (摊牌)
        over = next(i for i, m in enumerate(h.inbox[SPECTATORS]) if m["type"] == "hand_over")
        text = json.dumps(h.inbox[SPECTATORS][:over])
        assert '"tiles": [' not in text and '"hand": [' not in text and '"hands": [' not in text
        hands = [[str(t) for t in game.hand(s)] for s in range(4)]
        assert all(m["hands"] == hands for v in range(5) for m in h.inbox[v] if m["type"] == "hand_over")


@pytest.mark.parametrize("preset", ["xuezhan", "chengdu_xueliu"])
def test_whether_someone_could_claim_changes_no_one_elses_messages(preset):
    rng = random.Random(7)
    for seed in range(HANDS_PER_PRESET):
        h = Recording({"preset": preset, "seed": seed, "hands": 1})
        h.play(random_choice(rng))
        game = h.table.match.game
        public = game.public_events()
        windows = [e for e in public if e["type"] == "discard" or (e["type"] == "kong" and e["kind"] == "added")]
        won_before: set = set()
        asked: list[list[int]] = []
        for e in public:  # who should be asked after each window: every other seat still in
            if e["type"] == "win" and preset == "xuezhan":
                won_before.add(e["seat"])
            if e in windows:
                asked.append([s for s in range(4) if s != e["seat"] and s not in won_before])
        steps: dict[int, dict[int, dict]] = {}
        for seat in range(4):
            for m in h.inbox[seat]:
                if m["type"] == "request" and m["kind"] in ("claim", "rob"):
                    steps.setdefault(m["decision"], {})[seat] = m
        assert len(steps) == len(windows)
        for (_decision, by_seat), seats in zip(sorted(steps.items()), asked):
            assert sorted(by_seat) == seats
            assert len({(m["deadline"], m["kind"]) for m in by_seat.values()}) == 1


class Socket:
    """A seat's connection as the server sees it: keeps what it is handed, in order."""

    def __init__(self, seat: int, log: list) -> None:
        self.seat, self.log = seat, log

    def send(self, text: str) -> None:
        self.log.append(("sent", self.seat, json.loads(text)))


def test_the_discarders_acknowledgement_waits_on_no_one_elses_win_score(monkeypatch) -> None:
    """Issue 27: the score of a win on offer (a trial game, 25-40 µs) was worked out before the
    commit, so the discarder's `accepted` left later when someone could win on its discard. Now
    every acknowledgement is handed over before any win score of that turn is worked out."""
    from xueliu.server import FakeClock, Server, SQLiteStorage, Table, TableConfig

    log: list = []
    score = Table._win_score

    def scoring(table: Table, seat: int):
        log.append(("score", seat, table.step))
        return score(table, seat)

    monkeypatch.setattr(Table, "_win_score", scoring)
    server = Server(SQLiteStorage(":memory:"), FakeClock(), chosen_seeds=True)
    offered = 0
    for seed in range(40):
        table = server.create(TableConfig.parse({"preset": "xuezhan", "hands": 1, "seed": seed}))
        for seat in range(4):
            server.run(table, table.join, seat)
            server.seats[(table.id, seat)] = Socket(seat, log)  # type: ignore[assignment]
        while table.status == "playing":
            seat, request = next((s, r) for s, r in table.requests.items() if s not in table.answers)
            mark = len(log)
            server.run(table, table.act, seat, table.step, table._bot_choice(seat, request))  # play to win
            turn = log[mark:]
            acks = [i for i, e in enumerate(turn) if e[0] == "sent" and e[2]["type"] == "accepted"]
            scores = [i for i, e in enumerate(turn) if e[0] == "score"]
            if scores:
                offered += 1
                assert acks and max(acks) < min(scores), turn
        if offered >= 20:
            break
    assert offered >= 20, "too few wins were offered to tell"


WIN_REASONS = ("win", "self_draw", "kong_flower_feeder")


def masked(event: dict, viewer) -> dict:
    """A win as `viewer` saw it before the hand was over under win_reveal = "hand_end"."""
    if event["type"] != "win" or event["seat"] == viewer:
        return event
    return dict(event, score=None, tile=None if event["kind"] == "self_draw" else event["tile"])


def test_hand_end_wins_stay_hidden_until_the_reveal():
    """mil_sbr_2025 (win_reveal = "hand_end", MIL Art.9-1, 10-2): what each seat and the
    spectators were sent during the hand shows another seat's win without its score (and a
    self-draw without its tile) and no win's payment before the reveal; after the end the
    streams carry every win in full (the reveal) and equal the engine's views but for that."""
    rng = random.Random(18)
    reveals = 0
    for seed in range(40):  # random play wins rarely: until three hands had a reveal
        if reveals >= 3 * 5:
            break
        h = Recording({"preset": "mil_sbr_2025", "seed": seed, "hands": 1})
        h.play(random_choice(rng))
        game = h.table.match.game
        full = [e for e in game.events if e["type"] == "win"]
        for viewer in [0, 1, 2, 3, SPECTATORS]:
            sent = h.events(viewer)
            engine = game.public_events() if viewer == SPECTATORS else game.events_for(viewer)
            assert sent == [masked(e, viewer) for e in engine]
            revealed = False
            for e in sent:
                revealed = revealed or e["type"] == "reveal"
                assert revealed or e["type"] != "payment" or e["reason"] not in WIN_REASONS
            reveal = [e for e in sent if e["type"] == "reveal"]
            assert [e["wins"] for e in reveal] == (
                [[{k: v for k, v in w.items() if k != "type"} for w in full]] if full else []
            )
            reveals += len(reveal)
        # nothing the spectators got before the reveal holds a win's score
        inbox = h.inbox[SPECTATORS]
        upto = next((i for i, m in enumerate(inbox) if '"reveal"' in json.dumps(m)), len(inbox))
        assert '"score": {' not in json.dumps(inbox[:upto])
    assert reveals >= 3 * 5
