"""A table's session time limit (issue 28, 盘): the server's clock decides when the session ends;
the hand in play is then the last (Match.call_time) and match_over gives the placement points.
On a fake clock, without a network; the limit survives a restart through storage."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")

from server_harness import Harness, simple_choice  # noqa: E402

from xueliu.server import Table, TableConfig, TableError  # noqa: E402
from xueliu.server.storage import Change  # noqa: E402

LONG_CLOCKS = {kind: 600 for kind in ("exchange", "void", "turn", "claim", "rob")}  # nothing expires


def session(**settings: object) -> Harness:
    return Harness({"preset": "chengdu", "seed": 21, "hands": 8, "clocks": LONG_CLOCKS, "time_limit": 60, **settings})


def answer(h: Harness, count: int) -> None:
    """Answers ``count`` requests of the hand in play (fewer if it ends)."""
    for _ in range(count):
        if h.table.status != "playing":
            return
        seat, request = sorted(h.pending().items())[0]
        h.act(seat, request["decision"], simple_choice(request))


def assert_ended_with_placement(h: Harness, hands: int) -> None:
    match = h.table.match
    assert h.table.status == "over" and match.is_over and match.time_called
    assert match.hands_played == hands < h.table.config.hands
    assert match.placement_points is not None and sum(match.placement_points) == 4 + 3 + 2 + 1
    for viewer in range(5):
        assert h.inbox[viewer][-1]["type"] == "match_over"
        assert h.inbox[viewer][-1]["placement"] == match.placement_points


def test_the_limit_makes_the_hand_in_play_the_last():
    h = session()
    start = h.clock.now()
    assert h.table.session_ends_at == start + 60 and h.table.public()["session_ends_at"] == start + 60
    answer(h, 20)
    assert h.table.wake_at() == start + 60
    h.advance(59)
    assert not h.table.match.time_called  # not yet
    h.advance(1)
    assert h.table.match.time_called and h.table.status == "playing"  # the hand in play goes on
    h.play()
    assert_ended_with_placement(h, hands=1)


def test_between_hands_the_limit_ends_the_match_at_once():
    h = session(next_hand_delay=30)
    answer(h, 10**6)
    assert h.table.status == "between" and h.table.match.hands_played == 1
    h.advance(65)  # past both the limit and the next deal: the limit comes first
    assert_ended_with_placement(h, hands=1)
    assert h.table.next_hand_at is None and h.table.wake_at() is None


def test_no_limit_plays_every_hand():
    h = Harness({"preset": "chengdu", "seed": 21, "hands": 2})
    assert h.table.session_ends_at is None
    h.advance(10**6)
    h.play()
    assert h.table.match.hands_played == 2 and not h.table.match.time_called


@pytest.mark.parametrize("down", [10, 100])
def test_a_restart_keeps_the_limit(down, new_storage):
    """Saved mid-hand and restored ``down`` seconds later: the end time is the one saved, and a
    limit that passed while the server was down holds at once."""
    h = session()
    answer(h, 20)
    storage = new_storage()
    storage.save([Change(h.table.to_dict(), h.decisions, h.table.moves, h.table.ended)])
    saved = storage.load("t")
    assert saved is not None and saved.state["config"]["time_limit"] == 60
    h.clock.advance(down)
    restored = Table.from_dict(saved.state, saved.ended, saved.moves, h.clock)
    assert restored.session_ends_at == h.table.session_ends_at
    assert restored.match.time_called == (down >= 60)
    h.table = restored
    h.advance(60)
    assert restored.match.time_called
    h.play()
    assert_ended_with_placement(h, hands=1)


def test_the_limit_is_checked():
    for bad in (0, -5, "an hour", True, 86_400, float("nan")):
        with pytest.raises(TableError, match="time_limit") as e:
            TableConfig.parse({"time_limit": bad})
        assert e.value.code == "bad_config"
    assert TableConfig.parse({"time_limit": 5400}).time_limit == 5400
    assert TableConfig.parse({"time_limit": None}).time_limit is None


def test_a_finished_hand_shows_as_late_as_the_spectators_see_it():
    """The replay viewer's finished hand: the spectators' events of an ended hand, refused
    before its result shows (spectator_delay) and for any hand not finished."""
    h = Harness({"preset": "chengdu", "seed": 21, "hands": 2, "next_hand_delay": 60, "spectator_delay": 30})
    answer(h, 10**6)
    assert h.table.status == "between"
    for hand in (0, 1, -1, "0", None):
        with pytest.raises(TableError) as e:
            h.table.finished_hand(hand)
        assert e.value.code == "not_over"
    h.advance(30)
    assert h.table.finished_hand(0) == h.table.match.game.public_events()  # the hand just ended
    with pytest.raises(TableError):
        h.table.finished_hand(1)
