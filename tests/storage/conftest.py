"""Storage fixtures: a station's storage in a temp data dir, and a real PostgreSQL server."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from kiosk.storage import StationStorage, open_station_storage
from tests.storage.postgres import PostgresServer, PostgresUnavailableError, find_postgres_bin


@pytest.fixture
def storage(tmp_path: Path) -> Iterator[StationStorage]:
    with open_station_storage(tmp_path / "station") as opened:
        yield opened


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A PostgreSQL server of our own on loopback; CI fails (never skips) when it cannot start."""
    try:
        server = PostgresServer(find_postgres_bin())
        server.init()
    except PostgresUnavailableError as exc:
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL is needed for these tests and CI is set: {exc}")
        pytest.skip(f"PostgreSQL unavailable: {exc}")
    try:
        server.start()
        yield server
    finally:
        server.destroy()


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> str:
    """A fresh, empty database on the test server, as a SQLAlchemy URL."""
    postgres_server.start()
    return postgres_server.create_database(f"kiosk_{uuid.uuid4().hex[:12]}")
