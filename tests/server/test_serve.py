"""How `xueliu serve` runs uvicorn: with the batched WebSocket protocol, or with uvicorn's default
one where this uvicorn lacks the private module the batched protocol extends; and with the
collector's thresholds for a server's heap."""

import gc
import sys
from typing import Any

import pytest

pytest.importorskip("uvicorn")

from xueliu.server import serve  # noqa: E402
from xueliu.server.batched import BatchedWebSockets  # noqa: E402


def test_the_batched_protocol_where_uvicorn_has_its_base() -> None:
    assert serve.ws_protocol() is BatchedWebSockets


def test_uvicorns_default_protocol_where_the_base_is_gone(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setitem(sys.modules, "uvicorn.protocols.websockets.websockets_sansio_impl", None)
    monkeypatch.delitem(sys.modules, "xueliu.server.batched")
    with caplog.at_level("WARNING", logger="xueliu.server"):
        assert serve.ws_protocol() == "auto"
    assert "one write per message" in caplog.text


def test_run_gives_uvicorn_the_protocol_and_sets_the_collector(monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    seen: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: seen.update(options, app=app))
    before = gc.get_threshold()
    try:
        serve.run("the app", host="127.0.0.1", port=8123)  # type: ignore[arg-type]
        assert gc.get_threshold() == serve.GC_THRESHOLDS
    finally:
        gc.set_threshold(*before)
    assert seen["app"] == "the app"
    assert (seen["host"], seen["port"], seen["ws"]) == ("127.0.0.1", 8123, BatchedWebSockets)


def test_xueliu_serve_passes_the_operators_limits(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    from click.testing import CliRunner

    import xueliu.server
    from xueliu.cli import cli
    from xueliu.server import Limits

    seen: dict[str, Any] = {}
    monkeypatch.setattr(serve, "run", lambda app, **options: None)
    monkeypatch.setattr(xueliu.server, "create_app", lambda db, *, limits: seen.update(db=db, limits=limits))
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
