"""The bot protocol (docs/bot-protocol.md): what a bot process is sent, how its lines are read."""

import json
import sys
from pathlib import Path

import pytest

import xueliu
from xueliu import bot_protocol as proto
from xueliu._xueliu import _bot_lines
from xueliu.players import ProcessBot, play_hand

ZOO = str(Path(__file__).with_name("zoo.py"))


@pytest.mark.parametrize("preset", xueliu.Rules.presets())
def test_a_bot_is_sent_exactly_its_seats_events(preset, tmp_path):
    """Four recording bots play a whole hand: the events each received are events_for(its seat)."""
    paths = [tmp_path / f"seat{s}.jsonl" for s in range(4)]
    bots = [ProcessBot([sys.executable, ZOO, "record", str(p)], time_ms=5000) for p in paths]
    game = xueliu.Game(preset, seed=7)
    try:
        play_hand(game, bots)
    finally:
        for b in bots:
            b.close()
    for seat, path in enumerate(paths):
        received = [json.loads(line) for line in path.read_text("utf-8").splitlines()]
        events = [m for m in received if m["type"] in proto.EVENT_TYPES]
        # under win_reveal = "hand_end" a win sent before the end hides its score, one sent after
        # it (the last events of a hand) does not: compared without them
        assert [as_sent(e, seat, game) for e in events] == [as_sent(e, seat, game) for e in game.events_for(seat)]
        assert {m["type"] for m in received} - proto.EVENT_TYPES <= proto.HOST_TYPES
        requests = [m for m in received if m["type"] == "request"]
        acks = [m for m in received if m["type"] == "ack"]
        assert [a["id"] for a in acks] == [r["id"] for r in requests]
        assert all(a["status"] == proto.ACCEPTED for a in acks)
        assert received[0]["type"] == "hello" and received[-1]["type"] == "bye"
        assert received[-2] == proto.totals(1, game.scores, seat, game.scores[seat])
        assert bots[seat].counts.decisions == len(requests)


def as_sent(event: dict, seat: int, game: xueliu.Game) -> dict:
    """An event as the seat sees it before the hand is over: under win_reveal = "hand_end"
    another seat's win without its score (a self-draw without its tile)."""
    if game.events[0]["rules"]["win_reveal"] != "hand_end" or event["type"] != "win" or event["seat"] == seat:
        return event
    return dict(event, score=None, tile=None if event["kind"] == "self_draw" else event["tile"])


def test_requests_name_the_decision():
    game = xueliu.Game(xueliu.Rules.preset("chengdu", exchange="random"), seed=3)
    r = proto.request(game, 0, 1, 500, game.events_for(0)[-1], game.legal_actions(0))
    assert r["kind"] == "exchange" and r["actions"] == [str(a) for a in game.legal_actions(0)]
    assert r["mask"] == [int(i) for i in game.action_mask(0).nonzero()[0]]
    claim = xueliu.Game("chengdu", seed=0)
    while claim.phase != "play" or claim.events[-1]["type"] != "discard":
        seat = claim.to_act()[0]
        claim.act(seat, claim.default_action(seat))
        if claim.is_over:
            pytest.skip("no claim in this hand")
    discard = claim.events[-1]
    for seat in claim.to_act():
        kind = proto.request_kind(claim, seat, claim.events_for(seat)[-1])
        assert kind == {"kind": "claim", "tile": discard["tile"], "from": discard["seat"]}


@pytest.mark.parametrize("preset", xueliu.Rules.presets())
def test_a_requests_mask_is_the_action_mask_at_every_decision(preset):
    for seed in range(3):
        game, bot = xueliu.Game(preset, seed=seed), xueliu.Bot("random", seed=seed)
        while not game.is_over:
            for seat in game.to_act():
                request = proto.request(game, seat, 1, 500, None, game.legal_actions(seat))
                assert request["mask"] == game.action_mask(seat).nonzero()[0].tolist(), (seat, request)
            seat = game.to_act()[0]
            game.act(seat, bot.choose(game, seat))


@pytest.mark.parametrize("preset", xueliu.Rules.presets())
def test_the_engines_lines_are_the_protocols_at_every_decision(preset):
    """What the host sends at a decision (``_bot_lines``, written by the engine) is the seat's
    view of the log from where it left off, one event a line, and the request that
    :func:`proto.request` defines, byte for byte; at every decision of whole games."""
    for seed in range(3):
        game, bot = xueliu.Game(preset, seed=seed), xueliu.Bot("random", seed=seed)
        places, batches = [0] * 4, [[] for _ in range(4)]
        while not game.is_over:
            for seat in game.to_act():
                rid = len(batches[seat])
                events, request, places[seat], texts = _bot_lines(
                    game, seat, places[seat], request_id=rid, deadline_ms=250
                )
                batches[seat].append(events)
                seen = game.events_for(seat)
                legal = game.legal_actions(seat)
                expect = proto.request(game, seat, rid, 250, seen[-1] if seen else None, legal)
                assert request == proto.encode(expect), (seat, request)
                assert texts == expect["actions"]
            seat = game.to_act()[0]
            game.act(seat, bot.choose(game, seat))
        for seat in range(4):
            events, request, _, texts = _bot_lines(game, seat, places[seat])
            assert (request, texts) == (b"", [])
            lines = [line for batch in [*batches[seat], events] for line in batch.splitlines()]
            assert [json.loads(line) for line in lines] == game.events_for(seat)
            # v1's bytes: each event as the log writes it, the lines after a write's first led by a space
            for batch in [*batches[seat], events]:
                for i, line in enumerate(batch.splitlines()):
                    text = json.dumps(json.loads(line), ensure_ascii=False).encode()
                    assert line == (b" " if i else b"") + text


@pytest.mark.parametrize(
    ("line", "expect"),
    [
        (b'{"type": "answer", "id": 4, "action": "discard 5m"}', proto.Answer(4, xueliu.Action.discard("5m"))),
        (b'{"type": "answer", "id": 4, "ids": [0, 1, 2]}', proto.Answer(4, xueliu.Action.from_ids([0, 1, 2]))),
        (
            b'{"type": "answer", "id": 4, "action": "win", "extra": {"ignored": 1}}',
            proto.Answer(4, xueliu.Action.win()),
        ),
        (b'{"type": "hello", "version": 1, "name": "me"}', proto.Hello(1, "me")),
    ],
)
def test_good_lines_read(line, expect):
    assert proto.read_line(line) == expect


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        (b"{not json", "not JSON"),
        (b"[1, 2]", "a JSON object"),
        (b'{"type": "answer", "id": "4", "action": "win"}', "integer id"),
        (b'{"type": "answer", "id": 4, "action": "discard 0z"}', "unreadable action"),
        (b'{"type": "answer", "id": 4, "ids": [9999]}', "unreadable action"),
        (b'{"type": "answer", "id": 4}', '"action"'),
        (b'{"type": "shout"}', "unknown message type 'shout'"),
        (b'{"type": "hello", "version": 7}', "version 7"),
        (b"[" * 100_000, "not JSON"),
        (b"\xff\xfe", "not JSON"),
    ],
)
def test_bad_lines_say_why_and_never_raise(line, problem):
    message = proto.read_line(line)
    assert not isinstance(message, proto.Hello)
    assert problem in message.problem
    assert getattr(message, "action", None) is None
