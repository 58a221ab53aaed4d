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
