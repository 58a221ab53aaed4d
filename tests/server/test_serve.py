"""How `xueliu serve` runs uvicorn: with the batched WebSocket protocol, or with uvicorn's default
one where this uvicorn lacks the private module the batched protocol extends; and with the
collector's thresholds for a server's heap."""

import gc
import os
import signal
import stat
import sys
from typing import Any

import pytest

pytest.importorskip("uvicorn")

from server_process import ServerProcess, free_port, serve  # noqa: E402

from xueliu.server import SQLiteStorage  # noqa: E402
from xueliu.server import serve as serving  # noqa: E402
from xueliu.server.batched import BatchedWebSockets  # noqa: E402


def test_the_batched_protocol_where_uvicorn_has_its_base() -> None:
    assert serving.ws_protocol() is BatchedWebSockets


def test_uvicorns_default_protocol_where_the_base_is_gone(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setitem(sys.modules, "uvicorn.protocols.websockets.websockets_sansio_impl", None)
    monkeypatch.delitem(sys.modules, "xueliu.server.batched")
    with caplog.at_level("WARNING", logger="xueliu.server"):
        assert serving.ws_protocol() == "auto"
    assert "one write per message" in caplog.text


def test_run_gives_uvicorn_the_protocol_and_sets_the_collector(monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    seen: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: seen.update(options, app=app))
    before = gc.get_threshold()
    try:
        serving.run("the app", host="127.0.0.1", port=8123)  # type: ignore[arg-type]
        assert gc.get_threshold() == serving.GC_THRESHOLDS
    finally:
        gc.set_threshold(*before)
    assert seen["app"] == "the app"
    assert (seen["host"], seen["port"], seen["ws"]) == ("127.0.0.1", 8123, BatchedWebSockets)


def test_xueliu_serve_passes_the_operators_limits(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    from click.testing import CliRunner

    import xueliu.cli
    import xueliu.server
    from xueliu.cli import cli
    from xueliu.server import Limits

    seen: dict[str, Any] = {}
    monkeypatch.setattr(serving, "run", lambda app, **options: None)
    monkeypatch.setattr(xueliu.cli, "_check_free", lambda host, port: None)  # no port is listened on
    monkeypatch.setattr(xueliu.server, "create_app", lambda db, **kw: seen.update(db=db, limits=kw["limits"]))
    db = str(tmp_path / "t.db")
    options = ["--max-tables", "5", "--waiting-expiry", "60", "--origin", "https://a.example", "--origin", "*"]
    assert CliRunner().invoke(cli, ["serve", "--db", db, *options]).exit_code == 0
    assert seen == {"db": db, "limits": Limits(max_tables=5, waiting_expiry=60, origins=("https://a.example", "*"))}
    assert CliRunner().invoke(cli, ["serve", "--db", db]).exit_code == 0
    assert seen["limits"] == Limits()  # no option: the defaults the help names


def test_xueliu_serve_help_names_the_limits_defaults() -> None:
    from dataclasses import fields

    from click.testing import CliRunner

    from xueliu.cli import cli
    from xueliu.server import Limits

    text = " ".join(CliRunner().invoke(cli, ["serve", "--help"]).output.split())
    for field in fields(Limits):
        if field.name != "origins":
            after = text[text.index("--" + field.name.replace("_", "-")) :]
            shown = after[after.index("[default: ") + 10 : after.index("]")]
            assert float(shown) == getattr(Limits(), field.name), field.name


# ---------------------------------------------------------------- real processes (issue 27)


def test_a_second_server_on_the_same_database_refuses_to_start_in_one_line(tmp_path) -> None:
    db = str(tmp_path / "tables.db")
    first = ServerProcess(db, free_port())
    first.start()
    try:
        table = first.post("/api/tables", {"seats": ["person"] * 4})["table"]
        second = serve(db)
        assert second.returncode == 1
        assert second.stderr.splitlines() == [
            f"xueliu: error: {db} is in use by another xueliu server: one process owns a database"
        ]
        assert first.post(f"/api/tables/{table['id']}/seats/0")["seat"] == 0  # the owner plays on
    finally:
        first.kill()
    # the kernel drops the lock with its process, however it ends: the next start owns the file
    third = ServerProcess(db, free_port())
    third.start()
    third.kill()


def test_sigterm_closes_the_storage_the_wal_checkpointed_and_removed(tmp_path) -> None:
    db = str(tmp_path / "tables.db")
    server = ServerProcess(db, free_port())
    server.start()
    table = server.post("/api/tables", {"seats": ["person"] * 4})["table"]
    for seat in range(4):
        server.post(f"/api/tables/{table['id']}/seats/{seat}")
    assert os.path.exists(db + "-wal")
    assert server.kill(signal.SIGTERM) in (0, -signal.SIGTERM)  # uvicorn re-raises it once shut down
    assert not os.path.exists(db + "-wal") and not os.path.exists(db + "-shm")
    storage = SQLiteStorage(db)
    try:
        assert storage.unfinished() == [table["id"]] and storage.load(table["id"]) is not None
    finally:
        storage.close()


def test_an_empty_database_file_or_another_file_is_refused_with_the_reason(tmp_path) -> None:
    db = tmp_path / "tables.db"
    db.write_bytes(b"")
    refused = serve(str(db))
    assert refused.returncode == 1
    [line] = refused.stderr.splitlines()
    assert line.startswith(f"xueliu: error: {db} is empty (0 bytes): not a database this server wrote")
    assert db.stat().st_size == 0  # left as it was, for the operator to look at
    db.write_bytes(b"not a database, but some other file" * 100)
    refused = serve(str(db))
    assert refused.returncode == 1
    assert refused.stderr.splitlines() == [
        f"xueliu: error: {db} is not a database this server can open: file is not a database"
    ]


def test_the_database_file_is_readable_by_its_owner_only(tmp_path) -> None:
    db = str(tmp_path / "tables.db")
    storage = SQLiteStorage(db)
    try:
        storage.save([])
        for path in (db, db + "-wal"):
            assert stat.S_IMODE(os.stat(path).st_mode) == 0o600, path
    finally:
        storage.close()
