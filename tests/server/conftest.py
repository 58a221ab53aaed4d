"""Storage for the server tests: SQLite, and PostgreSQL where one is given.

``XUELIU_TEST_POSTGRES`` names a PostgreSQL server to test against (a libpq URL; ``.ci/postgres
start DIR`` starts a throwaway one on loopback and prints it). Without it the PostgreSQL tests
skip, saying so, except under CI, where they fail: CI starts one (``.ci/run``). Each test gets a
schema of its own, dropped after it.
"""

from __future__ import annotations

import os
import secrets
import urllib.parse
from typing import Callable, Iterator

import pytest


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A libpq URL whose connections see only a fresh schema of their own."""
    url = os.environ.get("XUELIU_TEST_POSTGRES")
    if not url:
        reason = "XUELIU_TEST_POSTGRES is not set (export XUELIU_TEST_POSTGRES=$(.ci/postgres start /tmp/xueliu-pg))"
        if os.environ.get("CI"):
            pytest.fail(f"CI runs the PostgreSQL tests: {reason}")
        pytest.skip(reason)
    psycopg = pytest.importorskip("psycopg")
    schema = f"test_{secrets.token_hex(6)}"
    with psycopg.connect(url, autocommit=True) as db:
        db.execute(f"CREATE SCHEMA {schema}")
    separator = "&" if "?" in url else "?"
    yield url + separator + urllib.parse.urlencode({"options": f"-csearch_path={schema}"})
    with psycopg.connect(url, autocommit=True) as db:
        db.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture(params=["sqlite", "postgres"])
def new_storage(request: pytest.FixtureRequest, tmp_path) -> Iterator[Callable[..., object]]:
    """Makes storages on one database of the parametrized backend (several share it: PostgreSQL's
    processes, SQLite's restarts), closing them after the test."""
    from xueliu.server import SQLiteStorage

    made: list = []
    if request.param == "postgres":
        from xueliu.server.storage_pg import PostgresStorage

        url = request.getfixturevalue("postgres_url")

        def new(**options: object) -> object:
            made.append(PostgresStorage(url, **options))  # type: ignore[arg-type]
            return made[-1]

    else:

        def new(**options: object) -> object:
            made.append(SQLiteStorage(str(tmp_path / "tables.db"), **options))  # type: ignore[arg-type]
            return made[-1]

    yield new
    for storage in made:
        storage.close()  # type: ignore[attr-defined]
