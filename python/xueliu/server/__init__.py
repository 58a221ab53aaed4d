"""The reference table server (``pip install "xueliu[server]"``, then ``xueliu serve``).

Three layers, one concept each: :mod:`.table` (one match at one table: seats, decision numbers,
clocks, 托管, leaving, the messages each seat and spectator receives — no I/O), :mod:`.storage`
(the storage interface and SQLite; :mod:`.storage_pg`, PostgreSQL shared by several processes,
needs ``xueliu[postgres]``), :mod:`.hub` (:class:`Server`: the tables of a process, their
timers, sockets and commits) and :mod:`.app` (a thin Starlette app: HTTP and WebSockets),
bounded by :mod:`.limits` (what an operator sets: limits, rates, origins). :func:`create_app`
returns the ASGI app to run or to mount in your own. docs/server.md gives the protocol.
"""

from .app import create_app
from .clock import Clock, FakeClock, SystemClock
from .hub import Server
from .limits import Limits
from .storage import SQLiteStorage, Storage, StorageError
from .table import PROTOCOL, Table, TableConfig, TableError

__all__ = [
    "PROTOCOL",
    "Clock",
    "FakeClock",
    "Limits",
    "SQLiteStorage",
    "Server",
    "Storage",
    "StorageError",
    "SystemClock",
    "Table",
    "TableConfig",
    "TableError",
    "create_app",
]
