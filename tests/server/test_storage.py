"""The storage contract, on SQLite and on PostgreSQL alike (``new_storage``: conftest.py), and the
leases of the shared one: one process per table, a commit that is a compare-and-set, a dead
process's tables taken over (docs/server.md, "PostgreSQL and failover")."""

from __future__ import annotations

import json
import time

import pytest

pytest.importorskip("starlette")

from server_harness import Harness, simple_choice  # noqa: E402

from xueliu.server import Table  # noqa: E402
from xueliu.server.storage import Change, Moved  # noqa: E402


def played(seed: int, answers: int) -> Harness:
    """A table some answers into its first hand; its changes so far are in the harness."""
    h = Harness({"preset": "chengdu", "seed": seed})
    for _ in range(answers):
        seat, request = sorted(h.pending().items())[0]
        h.act(seat, request["decision"], simple_choice(request))
    return h


def change(h: Harness, table_id: str = "t") -> Change:
    """Everything the harness's table did, as one change (the harness keeps it all)."""
    state = {**h.table.to_dict(), "id": table_id}
    decisions, h.decisions = h.decisions, []
    moves, h.table.moves = h.table.moves, []
    ended, h.table.ended = h.table.ended, []
    return Change(state, decisions, moves, ended)


def test_a_save_is_given_back_whole_and_in_order(new_storage):
    storage = new_storage()
    h = played(5, 30)
    decisions = list(h.decisions)
    assert storage.save([change(h)]) == set()
    saved = storage.load("t")
    assert saved is not None and saved.state == {**h.table.to_dict()}
    assert storage.decisions("t") == decisions and len(decisions) == 30
    restored = Table.from_dict(saved.state, saved.ended, saved.moves, h.clock)
    assert restored.match_json() == h.table.match_json()
    assert storage.load("nosuchtable") is None


def test_several_tables_commit_together_and_only_unfinished_ones_are_restored(new_storage):
    storage = new_storage()
    over, playing = Harness({"seed": 3, "hands": 1}), played(4, 10)
    over.play()
    assert storage.save([change(over, "over"), change(playing, "playing")]) == set()
    storage.close()
    again = new_storage()  # a restart
    assert again.unfinished() == ["playing"]
    finished = again.load("over")
    assert finished is not None and finished.state["status"] == "over" and len(finished.ended) == 1


def test_later_commits_append_to_the_first(new_storage):
    storage = new_storage()
    h = played(6, 12)
    storage.save([change(h)])
    seat, request = sorted(h.pending().items())[0]
    h.act(seat, request["decision"], simple_choice(request))
    storage.save([change(h)])
    saved = storage.load("t")
    assert saved is not None and saved.state["step"] == h.table.step
    assert Table.from_dict(saved.state, saved.ended, saved.moves, h.clock).match_json() == h.table.match_json()
    assert len(storage.decisions("t")) == 13


def test_hand_logs_are_kept_as_the_engine_wrote_them_and_older_compact_ones_still_restore(new_storage):
    h = Harness({"preset": "chengdu", "seed": 8, "hands": 3})
    while h.table.hand_number() < 2:
        seat, request = sorted(h.pending().items())[0]
        h.act(seat, request["decision"], simple_choice(request))
    ended = h.table.match.log()["games"][:2]  # (the third is in play)
    written = [json.dumps(game, separators=(", ", ": ")) for game in ended]
    storage = new_storage()
    new = change(h)
    # before 2026-12-03 the server stored each log re-encoded without spaces (docs/server.md)
    old = Change({**new.state, "id": "old"}, [], list(new.moves), [])
    old.ended = [(hand, json.dumps(json.loads(text), separators=(",", ":"))) for hand, text in new.ended]
    storage.save([new, old])
    for table_id, logs in (("t", written), ("old", [text for _, text in old.ended])):
        saved = storage.load(table_id)
        assert saved is not None and saved.ended == logs
        assert Table.from_dict(saved.state, saved.ended, saved.moves, h.clock).match_json() == h.table.match_json()
    assert written != [text for _, text in old.ended]


# ------------------------------------------------------------------------ leases (PostgreSQL)


@pytest.fixture
def shared(postgres_url):
    """Two server processes' storages on one database, with short leases."""
    from xueliu.server.storage_pg import PostgresStorage

    a = PostgresStorage(postgres_url, address="http://a", lease_seconds=0.5)
    b = PostgresStorage(postgres_url, address="http://b", lease_seconds=0.5)
    yield a, b
    a.close()
    b.close()


def pause(storage) -> None:
    """The process stops beating (as if paused) until its lease has run out."""
    storage._stop.set()
    storage._heart.join()
    time.sleep(storage.lease_seconds + 0.2)


def test_a_table_is_played_by_one_process_and_the_others_route_to_it(shared):
    a, b = shared
    h = played(7, 5)
    assert a.save([change(h)]) == set()
    with pytest.raises(Moved) as moved:
        b.load("t")
    assert moved.value.address == "http://a"
    assert b.unfinished() == [] and b.elsewhere() == [{"id": "t", "status": "playing", "address": "http://a"}]
    assert a.elsewhere() == []


def test_a_process_that_lost_its_lease_cannot_commit(shared):
    a, b = shared
    h = played(8, 5)
    a.save([change(h)])
    pause(a)
    assert b.unfinished() == ["t"]  # b takes the table over from its last commit
    taken = b.load("t")
    assert taken is not None and taken.state["step"] == h.table.step
    seat, request = sorted(h.pending().items())[0]
    h.act(seat, request["decision"], simple_choice(request))  # a, awake, plays on in memory
    assert a.save([change(h)]) == {"t"}  # and is refused: nothing of it is written
    assert len(a.decisions("t")) == 5
    with pytest.raises(Moved):
        a.load("t")
    assert b.save([Change(taken.state)]) == set()  # the new owner commits


def test_a_dead_process_tables_are_taken_once_and_a_closed_one_hands_them_back(shared, postgres_url):
    from xueliu.server.storage_pg import PostgresStorage

    a, b = shared
    a.save([change(played(9, 3), "x"), change(played(10, 3), "y")])
    c = PostgresStorage(postgres_url, address="http://c", lease_seconds=0.5)
    try:
        assert b.unfinished() == [] and c.unfinished() == []  # a is alive
        a.close()  # a clean stop releases them at once
        first, second = b.unfinished(), c.unfinished()
        assert sorted(first + second) == ["x", "y"] and not (first and second)
    finally:
        c.close()


def test_a_broken_connection_fails_one_statement_and_the_next_reconnects(shared):
    import psycopg

    a, _ = shared
    h = played(11, 4)
    a.save([change(h)])
    pid = a._db.info.backend_pid
    with psycopg.connect(a._url, autocommit=True) as admin:  # as if the database restarted
        admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
    seat, request = sorted(h.pending().items())[0]
    h.act(seat, request["decision"], simple_choice(request))
    pending = change(h)
    with pytest.raises(psycopg.OperationalError):
        a.save([pending])
    assert a.save([pending]) == set() and a._db.info.backend_pid != pid
    assert len(a.decisions("t")) == 5


def test_a_commit_stuck_on_a_lock_is_cancelled_within_its_lease_and_lands_after(shared):
    """A commit waits for no lock longer than its lease (past it the lease may be gone anyway):
    PostgreSQL cancels it, the hub holds the turn, and the same change lands once the lock is
    free. Unbounded, the commit would block the server's event loop for as long as the lock
    is held; here it is held 5 s at most."""
    import threading

    import psycopg

    a, _ = shared
    h = played(12, 4)
    a.save([change(h)])
    seat, request = sorted(h.pending().items())[0]
    h.act(seat, request["decision"], simple_choice(request))
    pending = change(h)
    with psycopg.connect(a._url) as admin:  # another session holds the table's row
        admin.execute("SELECT 1 FROM tables WHERE id = 't' FOR UPDATE")
        release = threading.Timer(5, admin.rollback)
        release.start()
        try:
            started = time.monotonic()
            with pytest.raises(psycopg.errors.QueryCanceled):
                a.save([pending])
            assert time.monotonic() - started < 3
        finally:
            release.cancel()
            admin.rollback()
    assert a.save([pending]) == set()
    assert len(a.decisions("t")) == 5
