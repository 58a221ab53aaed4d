"""How `xueliu serve` runs uvicorn: with the batched WebSocket protocol, or with uvicorn's default
one where this uvicorn lacks the private module the batched protocol extends."""

import sys

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
