"""A station killed at random points loses no challenge whose verdict it showed, and half-writes none.

Both for the station's own log and for a shared log (local first: the same SQLite commit, plus the
outbox). The station's own controller runs in a subprocess (``tests.storage.station_child``),
keyed in as players key it; it records each challenge and only then shows its verdict, when the
child prints the verdict line. The test SIGKILLs it many times, at random moments (also during
start-up, when the database may be being created), all on the same data directory.
"""

from __future__ import annotations

import contextlib
import os
import random
import resource
import signal
import sqlite3
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import IO

import pytest

from kiosk.core.log.challenge import ChallengeId
from kiosk.storage import LogQuery, open_station_storage
from tests.conftest import REPO_ROOT, PackFactory
from tests.storage.postgres import free_port

KILLS = 30
SHARED_KILLS = 15
ABORTS = 10
CHILD_STARTUP_TIMEOUT_S = 60


def no_core_file() -> None:
    """An aborted child writes no core file into the checkout, whatever this machine's limit."""
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def start_child(
    data_dir: Path, pack: Path, database_url: str | None, stderr: IO[str] | None = None
) -> subprocess.Popen[str]:
    shared = ["--database-url", database_url] if database_url else []
    tracebacks = ["--tracebacks"] if stderr is not None else []
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tests.storage.station_child",
            "--data-dir",
            str(data_dir),
            "--pack",
            str(pack),
            *shared,
            *tracebacks,
        ],
        cwd=REPO_ROOT,
        stdout=subprocess.PIPE,
        stderr=stderr,
        preexec_fn=no_core_file,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )


def run_and_kill(
    data_dir: Path,
    pack: Path,
    rng: random.Random,
    database_url: str | None,
    kill: signal.Signals = signal.SIGKILL,
    stderr: IO[str] | None = None,
) -> list[str]:
    """Start a station, send it ``kill`` at a random moment, return the verdict lines it printed."""
    child = start_child(data_dir, pack, database_url, stderr)
    assert child.stdout is not None
    printed: list[str] = []
    if rng.random() < 0.25:
        time.sleep(rng.uniform(0.0, 0.8))  # somewhere in start-up, or early in the stream
    else:
        deadline = time.monotonic() + CHILD_STARTUP_TIMEOUT_S
        assert child.stdout.readline() == "READY\n"
        printed.extend(child.stdout.readline() for _ in range(rng.randint(0, 40)))
        time.sleep(rng.uniform(0.0, 0.005))
        assert time.monotonic() < deadline
    child.send_signal(kill)
    printed.extend(child.stdout.read().splitlines())
    child.wait()
    assert child.returncode == -kill
    return [line.strip() for line in printed if line.startswith("VERDICT ")]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("shared", "kills", "kill"),
    [(False, KILLS, signal.SIGKILL), (True, SHARED_KILLS, signal.SIGKILL), (False, ABORTS, signal.SIGABRT)],
    ids=["local", "shared", "watchdog-abort"],
)
def test_every_shown_verdict_is_logged_exactly_once_across_random_kills(
    tmp_path: Path, make_pack: PackFactory, shared: bool, kills: int, kill: signal.Signals
) -> None:
    """``shared``: a shared log whose server never answers (nothing listens on its port), so
    every challenge stays in the station's log and its outbox, which must always agree.
    SIGABRT is what systemd's watchdog sends a kiosk session whose station stopped answering
    (packaging/linux/*.service): the station, as in a kiosk session, first writes its threads'
    tracebacks to standard error (the journal), then dies, mid-write or not."""
    pack = make_pack(["CAT", "CATS", "DOG", "DOGS", "QI", "ZA"])
    data_dir = tmp_path / "station"
    url = f"postgresql+psycopg://kiosk@127.0.0.1:{free_port()}/kiosk" if shared else None
    rng = random.Random(20240501)
    shown: dict[ChallengeId, str] = {}
    journal = tmp_path / "journal.txt"
    for _ in range(kills):
        with (
            journal.open("w", encoding="utf-8")
            if kill is signal.SIGABRT
            else contextlib.nullcontext() as stderr
        ):
            printed = run_and_kill(data_dir, pack, rng, url, kill, stderr)
        if kill is signal.SIGABRT and printed:  # past start-up (its tracebacks are on by then)
            written = journal.read_text(encoding="utf-8")
            assert "Fatal Python error: Aborted" in written, written
            assert "most recent call first" in written, written  # the main thread's traceback
        for line in printed:
            _, printed_id, verdict, _backlog = line.split()
            shown[ChallengeId(uuid.UUID(printed_id))] = verdict

    assert len(shown) > kills  # the kills did land in the middle of streams
    with sqlite3.connect(data_dir / "kiosk.sqlite3") as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert conn.execute("SELECT count(*) - count(DISTINCT id) FROM challenge").fetchone() == (0,)
        half_written = conn.execute(
            "SELECT count(*) FROM challenge c WHERE c.word_count != "
            "(SELECT count(*) FROM challenge_word w WHERE w.challenge_id = c.id)"
        ).fetchone()
        assert half_written == (0,)
        logged_ids = {row[0] for row in conn.execute("SELECT id FROM challenge")}
        queued_ids = {row[0] for row in conn.execute("SELECT id FROM outbox")}
    assert queued_ids == (logged_ids if shared else set())  # logged and queued in one transaction
    with open_station_storage(data_dir) as storage:
        logged = {entry.challenge_id: entry for entry in storage.log.query(LogQuery())}
    for challenge, verdict in shown.items():
        assert challenge in logged, f"verdict {verdict} for {challenge} was shown but not logged"
        assert logged[challenge].ruling.verdict.value == verdict
