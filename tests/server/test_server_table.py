"""The table core (xueliu.server.table) without a network: whole matches, decision numbers,
refused actions, clocks on a fake clock, 托管, leaving, snapshots (docs/server.md)."""

from __future__ import annotations

import functools
import json

import pytest

pytest.importorskip("starlette")

from server_harness import Harness, simple_choice  # noqa: E402

from xueliu.server import Table, TableConfig, TableError  # noqa: E402
from xueliu.server.storage import Change  # noqa: E402
from xueliu.server.table import SPECTATORS  # noqa: E402


def test_four_people_play_the_whole_match_and_see_their_own_views():
    h = Harness({"preset": "xuezhan", "seed": 11})
    h.play()
    table, game = h.table, h.table.match.game
    assert table.status == "over" and game.is_over
    assert sum(table.match.totals) == 0
    for seat in range(4):
        assert h.events(seat) == game.events_for(seat)
        assert [m["type"] for m in h.inbox[seat][-2:]] == ["hand_over", "match_over"]
        assert h.inbox[seat][-1]["placement"] == table.match.placement_points
    assert h.events(SPECTATORS) == game.public_events()
    # every decision the engine took came from a committed answer
    asked = sum(m["type"] == "request" for seat in range(4) for m in h.inbox[seat])
    assert len([d for d in h.decisions if d["by"] == "seat"]) == asked > 0


def test_bots_play_a_table_alone_and_a_person_beside_them():
    alone = Harness({"seats": ["greedy", "random", "greedy", "greedy"], "seed": 3})
    assert alone.table.status == "over" and sum(alone.table.match.totals) == 0
    mixed = Harness({"seats": ["person", "greedy", "greedy", "greedy"], "seed": 3})
    mixed.play()
    assert mixed.table.status == "over"
    assert mixed.events(0) == mixed.table.match.game.events_for(0)


def test_every_discard_opens_a_claim_step_for_every_other_seat_in_the_hand():
    h = Harness({"preset": "chengdu_xueliu", "seed": 5, "hands": 1})
    h.play()
    game = h.table.match.game
    requests = {s: [m for m in h.inbox[s] if m["type"] == "request"] for s in range(4)}
    discards = [e for e in game.public_events() if e["type"] == "discard"]
    for seat in range(4):
        claims = [r for r in requests[seat] if r["kind"] == "claim"]
        # 血流: everyone stays in the hand, so each seat is asked about every discard but its own
        assert len(claims) == sum(e["seat"] != seat for e in discards)
        for r in claims:
            assert "pass" in r["actions"] and r["deadline"] - h.clock.now() <= 10
    # the claim steps are the same steps for all: one decision number and deadline per discard
    by_step: dict[int, set] = {}
    for seat in range(4):
        for r in requests[seat]:
            if r["kind"] == "claim":
                by_step.setdefault(r["decision"], set()).add(r["deadline"])
    assert len(by_step) == len(discards) and all(len(d) == 1 for d in by_step.values())


def test_a_stale_or_illegal_action_is_refused_and_changes_nothing():
    h = Harness({"seed": 2})
    pending = h.pending()
    assert sorted(pending) == [0, 1, 2, 3] and {r["kind"] for r in pending.values()} == {"exchange"}
    before = json.dumps(h.table.to_dict()) + h.table.match_json()
    decision = pending[0]["decision"]
    for seat, number, action, code in [
        (0, decision + 1, pending[0]["default"], "stale"),
        (0, decision - 1, pending[0]["default"], "stale"),
        (0, str(decision), pending[0]["default"], "stale"),
        (0, decision, "discard 5m", "illegal"),
        (0, decision, "exchange 999z", "illegal"),
        (0, decision, 17, "malformed"),
    ]:
        with pytest.raises(TableError) as e:
            h.act(seat, number, action)
        assert e.value.code == code, (number, action)
    assert json.dumps(h.table.to_dict()) + h.table.match_json() == before and not h.decisions
    h.act(0, decision, pending[0]["default"])
    with pytest.raises(TableError, match="not open") as e:
        h.act(0, decision, pending[0]["default"])  # answered already: stale
    assert e.value.code == "stale"


def test_a_seat_cannot_answer_for_another_and_its_answer_stays_hidden_until_the_step_closes():
    h = Harness({"seed": 4})
    pending = h.pending()
    h.act(1, pending[1]["decision"], pending[1]["default"])
    # seat 1's exchange pick went to seat 1 only, and to no one else, as it was
    for viewer in (0, 2, 3, SPECTATORS):
        assert not any(m["type"] == "accepted" for m in h.inbox[viewer])
    accepted = [m for m in h.inbox[1] if m["type"] == "accepted"]
    assert accepted[-1]["action"] == pending[1]["default"]
    with pytest.raises(TableError):  # seat 0's request is seat 0's: its decision is not seat 1's again
        h.act(1, pending[0]["decision"], pending[0]["default"])


def test_an_expired_decision_plays_the_default_and_repeated_expiries_put_the_seat_on_auto():
    h = Harness({"seed": 6, "auto_after": 2})
    pending = h.pending()
    assert all(r["seconds_left"] == 15 for r in pending.values())
    for seat in (1, 2, 3):
        h.act(seat, pending[seat]["decision"], pending[seat]["default"])
    h.advance(14.9)
    assert h.table.step == pending[0]["decision"]  # not yet
    h.advance(0.1)
    accepted = [m for m in h.inbox[0] if m["type"] == "accepted"][-1]
    assert accepted["by"] == "clock" and accepted["action"] == pending[0]["default"]
    assert h.table.expiries[0] == 1 and not h.table.auto[0]
    # the void: let seat 0's clock run out again: now it is on 托管
    pending = h.pending()
    assert pending[0]["kind"] == "void"
    for seat in (1, 2, 3):
        h.act(seat, pending[seat]["decision"], pending[seat]["default"])
    h.advance(15)
    assert h.table.auto[0]
    assert [m for m in h.inbox[2] if m["type"] == "seat"][-1] == {**_seat_message(h, 0)}
    # on 托管 seat 0 is not asked; it ends 托管 by acting, even with a stale number
    assert 0 not in h.pending()
    with pytest.raises(TableError):
        h.act(0, 1, "pass")
    assert not h.table.auto[0] and h.table.expiries[0] == 0


def _seat_message(h: Harness, seat: int) -> dict:
    return {"v": 1, "type": "seat", "table": "t", **h.table._seat_status(seat)}


def test_a_seat_gone_past_its_grace_is_auto_played_and_may_come_back():
    h = Harness({"seed": 8, "grace": 30, "on_leave": "auto"})
    h.table.disconnect(2)
    h.drain()
    h.advance(29)
    assert not h.table.left[2]
    h.advance(1)
    assert h.table.left[2] and h.table.auto[2]
    assert 2 not in h.pending()
    h.table.connect(2)
    h.drain()
    assert not h.table.left[2] and h.table.auto[2]  # back, still on 托管 until it acts
    h.table.set_auto(2, False)
    h.drain()
    h.play()
    assert h.table.status == "over"


@pytest.mark.parametrize(
    "settings, hand, answers",
    [
        ({}, 0, 40),  # some way into the first hand, with answers held in an open step
        ({}, 1, 30),  # into the second: the first is replayed from its log
        ({"next_hand_delay": 5}, 0, 10**6),  # between the hands: the second is not dealt yet
    ],
)
def test_storage_restores_the_table_and_the_match_ends_as_if_uninterrupted(settings, hand, answers, new_storage):
    settings = {"preset": "chengdu", "seed": 21, **settings}
    h = Harness(settings)
    while h.table.hand_number() < hand or (h.table.status == "playing" and answers > 0):
        answers -= h.table.hand_number() == hand
        seat, request = sorted(h.pending().items())[0]
        h.act(seat, request["decision"], simple_choice(request))
    storage = new_storage()  # the harness keeps every move and ended hand: save them all
    storage.save([Change(h.table.to_dict(), h.decisions, h.table.moves, h.table.ended)])
    saved = storage.load("t")
    assert saved is not None and len(saved.ended) == hand + (h.table.status == "between")
    restored = Table.from_dict(saved.state, saved.ended, saved.moves, h.clock)
    assert restored.to_dict() == h.table.to_dict() and restored.match_json() == h.table.match_json()
    h.table = restored
    h.play()
    assert (restored.match.totals, restored.match.game.to_json()) == uninterrupted()


@functools.cache
def uninterrupted() -> tuple[list[int], str]:
    """The match of the restore test played without a break (the delay between hands changes
    nothing in it)."""
    whole = Harness({"preset": "chengdu", "seed": 21})
    whole.play()
    return whole.table.match.totals, whole.table.match.game.to_json()


def test_settings_are_checked():
    for bad, words in [
        ({"preset": "nowhere"}, "rules"),
        ({"seats": ["person"] * 3}, "four"),
        ({"seats": ["person", "nobot", "person", "person"]}, "seats"),
        ({"hands": 0}, "hands"),
        ({"clocks": {"turn": -1}}, "clocks"),
        ({"on_leave": "sulk"}, "on_leave"),
        ({"colour": "red"}, "unknown"),
        ({"options": {"cap_fan": "x"}}, "rules"),
    ]:
        with pytest.raises(TableError, match=words) as e:
            TableConfig.parse(bad)
        assert e.value.code == "bad_config"


def test_tokens_are_secret_and_seats_are_taken_once():
    h = Harness({"seats": ["person", "person", "greedy", "greedy"]})
    table = h.table
    assert table.seat_of(h.tokens[1]) == 1
    for wrong in ["", "x" * 32, h.tokens[1][:-1], None, 5]:
        with pytest.raises(TableError) as e:
            table.seat_of(wrong)
        assert e.value.code == "unauthorized"
    for seat, code in [(0, "seat_taken"), (2, "seat_taken"), (4, "bad_seat")]:
        with pytest.raises(TableError) as e:
            table.join(seat)
        assert e.value.code == code
    text = json.dumps(table.to_dict()) + table.match_json() + json.dumps(h.inbox)
    assert all(token not in text for token in h.tokens.values())  # kept as digests only


def test_a_seat_that_leaves_abandons_the_hand_when_the_table_says_so():
    h = Harness({"preset": "chengdu", "seed": 8, "hands": 2, "on_leave": "abandon", "grace": 5})
    while h.table.kind != "turn":  # through the exchange and the void, into play
        for seat, request in sorted(h.pending().items()):
            h.act(seat, request["decision"], simple_choice(request))
    first = h.table.match.game
    h.table.disconnect(2)
    h.advance(5)
    assert first.is_over and h.table.left[2] and h.table.auto[2]
    assert [(d["hand"], d["seat"], d["action"]) for d in h.decisions if d["by"] == "leave"] == [(0, 2, "abandon")]
    over = [m for m in h.inbox[0] if m["type"] == "hand_over"]
    assert over[0]["hand"] == 0 and over[0]["scores"] == first.scores and first.scores[2] < 0
    assert h.events(0, hand=0) == first.events_for(0)  # the whole first hand, then the next
    h.play()  # seat 2 is played by a bot in the second hand
    assert h.table.status == "over" and h.table.match.hands_played == 2


@pytest.mark.parametrize("preset", ["mil_sbr_2025", "tfmj_2024"])
def test_bots_play_a_match_of_each_competition_preset(preset):
    # Issue 28's "done when": a table of each competition rulebook (docs/presets.md) plays a whole
    # match with bots; the totals are zero-sum and placement points are handed out.
    h = Harness({"preset": preset, "seats": ["greedy", "random", "greedy", "random"], "seed": 5, "hands": 2})
    match = h.table.match
    assert h.table.status == "over" and match.is_over and match.hands == 2
    assert sum(match.totals) == 0 and sorted(match.placement_points) != [0, 0, 0, 0]
