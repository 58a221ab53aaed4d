"""How ``xueliu serve`` runs the app: uvicorn, with :class:`~xueliu.server.batched.BatchedWebSockets`
(a connection's frames of one event-loop turn in one system call) where this uvicorn has the
protocol it extends, uvicorn's default WebSocket protocol otherwise; and the collector tuned for
a server's heap."""

from __future__ import annotations

import gc
import logging
from typing import Union

from starlette.applications import Starlette

log = logging.getLogger("xueliu.server")

# A server's heap is large and long-lived (about 150 objects per open WebSocket in uvicorn and
# Starlette: 600,000 at 4,000 seats), and a full collection of it stalls every table for 0.3-1 s.
# Python's default thresholds (700, 10, 10) move into the oldest generation every object that
# lives about a second (a table's open request, its timers), so at 1,000 decisions a second the
# oldest generation grew by a quarter, and was collected in full, every 5-12 s (BENCHMARKS.md,
# "The table server"). Young collections of 10,000 objects, and a middle one every 100 of them,
# let those objects die young; cycles are still collected, a little later.
GC_THRESHOLDS = (10_000, 100, 10)


def ws_protocol() -> Union[type, str]:
    """What ``xueliu serve`` gives uvicorn as ``ws``: the batched protocol, or ``"auto"``."""
    try:
        from .batched import BatchedWebSockets
    except ImportError:
        log.warning("this uvicorn has no sans-I/O WebSocket protocol to batch: one write per message")
        return "auto"
    return BatchedWebSockets


def run(app: Starlette, *, host: str, port: int, compress: bool = False, log_level: str = "info") -> None:
    """Serves ``app`` with uvicorn as ``xueliu serve`` does (the load bench runs this too), with
    the collector at :data:`GC_THRESHOLDS` (an app mounted elsewhere may want the same)."""
    import uvicorn

    gc.set_threshold(*GC_THRESHOLDS)

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
