"""A station killed at random points loses no challenge whose verdict it showed, and half-writes none.

The station core runs in a subprocess (``tests.storage.station_child``) that records each challenge
and only then prints its verdict line; the test SIGKILLs it many times, at random moments (also
during start-up, when the database may be being created), all on the same data directory.
"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from kiosk.core.record import ChallengeId
from kiosk.storage import LogQuery, open_station_storage
from tests.conftest import REPO_ROOT, PackFactory

KILLS = 30
CHILD_STARTUP_TIMEOUT_S = 60


def start_child(data_dir: Path, pack: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tests.storage.station_child",
            "--data-dir",
            str(data_dir),
            "--pack",
            str(pack),
        ],
        cwd=REPO_ROOT,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )


def run_and_kill(data_dir: Path, pack: Path, rng: random.Random) -> list[str]:
    """Start a station, SIGKILL it at a random moment, return the verdict lines it printed."""
    child = start_child(data_dir, pack)
    assert child.stdout is not None
    if rng.random() < 0.25:
        time.sleep(rng.uniform(0.0, 0.8))  # somewhere in start-up, or early in the stream
    else:
        deadline = time.monotonic() + CHILD_STARTUP_TIMEOUT_S
        assert child.stdout.readline() == "READY\n"
        for _ in range(rng.randint(0, 40)):
            child.stdout.readline()
        time.sleep(rng.uniform(0.0, 0.005))
        assert time.monotonic() < deadline
    child.send_signal(signal.SIGKILL)
    rest = child.stdout.read()
    child.wait()
    assert child.returncode == -signal.SIGKILL
    return [line for line in rest.splitlines() if line.startswith("VERDICT ")]


@pytest.mark.slow
def test_every_shown_verdict_is_logged_exactly_once_across_random_kills(
    tmp_path: Path, make_pack: PackFactory
) -> None:
    pack = make_pack(["CAT", "CATS", "DOG", "DOGS", "QI", "ZA"])
    data_dir = tmp_path / "station"
    rng = random.Random(20240501)
    shown: dict[ChallengeId, str] = {}
    for _ in range(KILLS):
        for line in run_and_kill(data_dir, pack, rng):
            _, printed_id, verdict, _backlog = line.split()
            shown[ChallengeId(uuid.UUID(printed_id))] = verdict

    assert len(shown) > KILLS  # the kills did land in the middle of streams
    with sqlite3.connect(data_dir / "kiosk.sqlite3") as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert conn.execute("SELECT count(*) - count(DISTINCT id) FROM challenge").fetchone() == (0,)
        half_written = conn.execute(
            "SELECT count(*) FROM challenge c WHERE c.word_count != "
            "(SELECT count(*) FROM challenge_word w WHERE w.challenge_id = c.id)"
        ).fetchone()
        assert half_written == (0,)
    with open_station_storage(data_dir) as storage:
        logged = {entry.challenge_id: entry for entry in storage.log.query(LogQuery())}
    for challenge, verdict in shown.items():
        assert challenge in logged, f"verdict {verdict} for {challenge} was shown but not logged"
        assert logged[challenge].ruling.verdict.value == verdict
