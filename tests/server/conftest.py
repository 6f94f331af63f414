"""The server suite runs on both engines: every test taking ``server`` (or ``db``) runs once over a
SQLite file and once over a fresh database of a real, throwaway PostgreSQL server (started from
the machine's binaries; as root, Debian's postgresql package is installed when missing).
MEMORYSYNC_TEST_ENGINES=sqlite runs the SQLite half only (a machine without PostgreSQL)."""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from memorysync_server.launcher import LocalServer

from .api import Api

ENGINES = tuple(os.environ.get("MEMORYSYNC_TEST_ENGINES", "sqlite,postgres").replace(" ", "").split(","))
_TEMPLATE = "memorysync_template"
_names = itertools.count()


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[object]:
    """One PostgreSQL server for the whole run, with a migrated template database to copy."""
    from memorysync_server.storage import open_storage
    from tests.support.pg_throwaway import ThrowawayPostgres

    if "postgres" not in ENGINES:
        pytest.skip("MEMORYSYNC_TEST_ENGINES leaves PostgreSQL out")
    pg = ThrowawayPostgres().start()
    try:
        open_storage(pg.create_database(_TEMPLATE)).close()
        yield pg
    finally:
        pg.stop()


def fresh_name() -> str:
    return f"t{os.getpid()}_{next(_names)}"


def new_postgres_database(cluster: object) -> tuple[str, str]:
    name = fresh_name()
    return name, cluster.create_database(name, template=_TEMPLATE)  # type: ignore[attr-defined]


@pytest.fixture(params=ENGINES)
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str | Path]:
    """Where a test's server keeps its data: a SQLite file, or a fresh PostgreSQL database."""
    if request.param == "sqlite":
        yield tmp_path / "memorysync.db"
        return
    cluster = request.getfixturevalue("postgres_cluster")
    name, url = new_postgres_database(cluster)
    try:
        yield url
    finally:
        cluster.drop_database(name)  # type: ignore[attr-defined]


@pytest.fixture
def server(db: str | Path) -> Iterator[LocalServer]:
    """A started LocalServer over ``db`` (stopped after the test)."""
    srv = LocalServer(db)
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture
def api(server: LocalServer) -> Iterator[Api]:
    """An HTTP client of ``server`` acting with its key in its tenant (closed after the test)."""
    client = Api(server)
    yield client
    client.close()
