"""How ``xueliu serve`` runs the app: uvicorn, with :class:`~xueliu.server.batched.BatchedWebSockets`
(a connection's frames of one event-loop turn in one system call) where this uvicorn has the
protocol it extends, uvicorn's default WebSocket protocol otherwise."""

from __future__ import annotations

import logging
from typing import Union

from starlette.applications import Starlette

log = logging.getLogger("xueliu.server")


def ws_protocol() -> Union[type, str]:
    """What ``xueliu serve`` gives uvicorn as ``ws``: the batched protocol, or ``"auto"``."""
    try:
        from .batched import BatchedWebSockets
    except ImportError:
        log.warning("this uvicorn has no sans-I/O WebSocket protocol to batch: one write per message")
        return "auto"
    return BatchedWebSockets


def run(app: Starlette, *, host: str, port: int, compress: bool = False, log_level: str = "info") -> None:
    """Serves ``app`` with uvicorn as ``xueliu serve`` does (the load bench runs this too)."""
    import uvicorn

    uvicorn.run(
        app,
        host=host,
        port=port,
        ws=ws_protocol(),
        ws_max_size=1 << 20,
        ws_per_message_deflate=compress,
        log_level=log_level,
        access_log=log_level == "info",
    )
