"""Shared fixtures: real packs built by the real builder from tiny lists, and a real PostgreSQL server."""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

# Qt must never look for a display in the test run; set before anything imports PySide6.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest

from kiosk.core.packs.lexicon import MarisaLexicon, load_lexicon
from kiosk.core.words.alphabet import alphabets
from lexicon_build.builder import build_pack
from lexicon_build.recipe import Recipe, SourceSpec
from tests.storage.postgres import PostgresServer, PostgresUnavailableError, find_postgres_bin

REPO_ROOT = Path(__file__).resolve().parent.parent
DATA_DIR = REPO_ROOT / "data"

PackFactory = Callable[..., Path]


def write_list(path: Path, words: Iterable[str]) -> Path:
    path.write_text("".join(f"{w}\n" for w in words), encoding="utf-8")
    return path


@pytest.fixture(scope="session")
def walk_data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One data directory for the whole run: its verified-packs cache spares identical packs a walk."""
    return tmp_path_factory.mktemp("kiosk-data")


@pytest.fixture(autouse=True)
def _data_dir_of_the_run(monkeypatch: pytest.MonkeyPatch, walk_data_dir: Path) -> None:
    """Commands run by tests (kiosk check, lexicon-build verify) keep what they write out of the
    user's own data directory; a test that names another (--data-dir, its own variable) wins."""
    monkeypatch.setenv("KIOSK_DATA_DIR", str(walk_data_dir))


@pytest.fixture
def make_pack(tmp_path: Path) -> PackFactory:
    """Build a real pack file from word lists: ``make_pack(["CAT", "DOG"], youth=["DOG"])``, or in
    another alphabet: ``make_pack(["CHALLAPATEÑA"], alphabet="spanish")``."""
    counter = iter(range(1_000_000))

    def factory(
        words: Iterable[str],
        *,
        youth: Iterable[str] | None = None,
        name: str = "Test list",
        edition: str = "test",
        max_length: int = 15,
        alphabet: str = "english",
    ) -> Path:
        n = next(counter)
        source = write_list(tmp_path / f"words-{n}.txt", words)
        youth_spec = None
        if youth is not None:
            youth_spec = SourceSpec(path=write_list(tmp_path / f"youth-{n}.txt", youth))
        recipe = Recipe(
            name=name,
            edition=edition,
            max_length=max_length,
            sources=(SourceSpec(path=source),),
            youth_exclusions=youth_spec,
            alphabet=alphabets()[alphabet],
        )
        out = tmp_path / f"pack-{n}.kxpack"
        out.write_bytes(build_pack(recipe).data)
        return out

    return factory


@pytest.fixture
def small_lexicon(make_pack: PackFactory) -> MarisaLexicon:
    """CAT, CATS, DOG, DOGS, QI, ZA, and a youth list excluding DOGS."""
    return load_lexicon(make_pack(["CAT", "CATS", "DOG", "DOGS", "QI", "ZA"], youth=["DOGS"]))


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A PostgreSQL server of our own on loopback; CI fails (never skips) when it cannot start."""
    yield from started_postgres(passwords=False)


def started_postgres(
    *, passwords: bool, prepare: Callable[[PostgresServer], None] | None = None
) -> Iterator[PostgresServer]:
    """A server of our own, started, destroyed after (CI fails, never skips, when it cannot start).
    ``prepare``: what to do to the server made (its files, its settings) before it starts."""
    try:
        server = PostgresServer(find_postgres_bin(), passwords=passwords)
        server.init()
    except PostgresUnavailableError as exc:
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL is needed for these tests and CI is set: {exc}")
        pytest.skip(f"PostgreSQL unavailable: {exc}")
    try:
        if prepare is not None:
            prepare(server)
        server.start()
        yield server
    finally:
        server.destroy()


@pytest.fixture(scope="session")
def secure_postgres() -> Iterator[PostgresServer]:
    """A server of our own on loopback as an event's would be: passwords (SCRAM) over TCP; the
    superuser only through the socket (``admin_url``)."""
    yield from started_postgres(passwords=True)


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> str:
    """A fresh, empty database on the test server, as a SQLAlchemy URL."""
    postgres_server.start()
    return postgres_server.create_database(f"kiosk_{uuid.uuid4().hex[:12]}")
