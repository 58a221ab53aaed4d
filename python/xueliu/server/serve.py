"""How ``xueliu serve`` runs the app: uvicorn, with :class:`~xueliu.server.batched.BatchedWebSockets`
(a connection's frames of one event-loop turn in one system call) where this uvicorn has the
protocol it extends, uvicorn's default WebSocket protocol otherwise; and the collector tuned for
a server's heap."""

from __future__ import annotations

import gc
import logging
from typing import TYPE_CHECKING, Union

from starlette.applications import Starlette

if TYPE_CHECKING:
    from .storage_pg import PostgresStorage

log = logging.getLogger("xueliu.server")

# The collector's thresholds for a server's large, long-lived heap: with Python's (700, 10, 10) a
# full collection (0.3-1 s at 4,000 seats) ran every 5-12 s at 1,000 tables. Why, and what these
# change: docs/server.md, "Garbage collection".
GC_THRESHOLDS = (10_000, 100, 10)


def ws_protocol() -> Union[type, str]:
    """What ``xueliu serve`` gives uvicorn as ``ws``: the batched protocol, or ``"auto"``."""
    try:
        from .batched import BatchedWebSockets
    except ImportError:
        log.warning("this uvicorn has no sans-I/O WebSocket protocol to batch: one write per message")
        return "auto"
    return BatchedWebSockets


def shared_storage(url: str, address: str, lease_seconds: float) -> "PostgresStorage":
    """The PostgreSQL storage of ``xueliu serve --database``, with its failures as the CLI words them."""
    import click

    try:
        from .storage_pg import PostgresStorage
    except ImportError as e:
        raise click.ClickException(
            f'--database needs the postgres extra ({e.name} is missing): pip install "xueliu[postgres]"'
        ) from None
    import psycopg

    try:
        return PostgresStorage(url, address=address, lease_seconds=lease_seconds)
    except psycopg.Error as e:
        raise click.ClickException(f"--database: {e}") from None  # not the URL: it may hold a password


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
