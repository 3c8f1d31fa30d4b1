"""docs/install.md's recipe for the shared log's server, followed line by line on a server of our own.

The recipe is read from the guide itself, so the guide cannot drift from what works. Our server
is a fresh cluster like Debian's (passwords over TCP; the superuser through the local socket,
as ``sudo -u postgres`` reaches it), and where the recipe names the machine, the test puts its
own: the cluster's folder for ``/etc/postgresql/15/main``, loopback for the event's network,
``pg_ctl`` for ``systemctl`` and libpq's environment for ``sudo -u postgres``. Then the URLs the
command printed run two stations (checked first with the guide's ``kiosk station --check``), the
judges' ``kiosk log show`` and the director's view, each with its own role; the director sets the
round and both stations stamp it.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from kiosk.cli import kiosk
from kiosk.core.errors import StorageError
from kiosk.storage import open_station_storage
from kiosk.storage.hall import HallControls
from tests.conftest import REPO_ROOT, started_postgres
from tests.storage.entries import make_entry, read_board
from tests.storage.postgres import PostgresServer

GUIDE = REPO_ROOT / "docs" / "install.md"
MARKER = "tests/storage/test_recipe.py follows it"
ASSIGNMENT = re.compile(r"^(?P<name>[A-Z_]+)=(?P<value>\S+)")
OURS = {"PGCONF": None, "SERVER": "127.0.0.1", "EVENT_NET": "127.0.0.1/32"}  # None: the cluster's folder


def recipe() -> list[str]:
    """The recipe's lines, as the guide shows them (comments after a command dropped)."""
    text = GUIDE.read_text(encoding="utf-8")
    start = text.index(MARKER)
    block = text[text.index("```sh\n", start) + len("```sh\n") :]
    block = block[: block.index("\n```")]
    return [line for line in block.splitlines() if line.strip() and not line.startswith("#")]


def check_line() -> str:
    """The guide's line that checks a station's shared log (the first command after the recipe's)."""
    text = GUIDE.read_text(encoding="utf-8")
    after = text[text.index(MARKER) :].splitlines()
    return next(line for line in after if line.startswith("kiosk station ") and line.endswith("--check"))


@pytest.fixture
def server() -> Iterator[PostgresServer]:
    """A cluster of its own: the recipe rewrites its pg_hba.conf and restarts it."""
    yield from started_postgres(passwords=True)


def follow(lines: list[str], server: PostgresServer) -> str:
    """Run the recipe on ``server``; return what ``kiosk shared-log setup`` printed."""
    variables: dict[str, str] = {}
    env = {
        **os.environ,
        **server.admin_env(),
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{server.bin_dir}{os.pathsep}{os.environ['PATH']}",
    }
    printed = ""
    for line in lines:
        command = line.strip()
        assigned = ASSIGNMENT.match(command)
        if assigned:
            name = assigned["name"]
            assert name in OURS, f"the recipe sets {name}: say what it is on the test's server"
            variables[name] = OURS[name] or str(server.data)
            continue
        if command == "systemctl restart postgresql":
            server.restart()
            continue
        command = command.removeprefix("sudo -u postgres ")
        done = subprocess.run(
            ["bash", "-c", f"set -euo pipefail; {command}"],
            env={**env, **variables},
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert done.returncode == 0, f"`{line}` failed:\n{done.stdout}{done.stderr}"
        if "kiosk shared-log setup" in command:
            printed = done.stdout
    assert printed, "the recipe never ran kiosk shared-log setup"
    return printed


def test_the_guides_recipe_makes_a_shared_log_the_stations_and_the_director_use(
    server: PostgresServer, tmp_path: Path
) -> None:
    lines = recipe()
    assert any(line.startswith("sudo -u postgres kiosk shared-log setup") for line in lines)
    printed = follow(lines, server)
    hba = (server.data / "pg_hba.conf").read_text(encoding="utf-8").splitlines()
    assert hba[-1] == "host kiosk all 127.0.0.1/32 scram-sha-256"  # the recipe's line, as written
    urls = dict(re.findall(r"^  (.+) \(role \w+\):\n    database_url = \"(.+)\"$", printed, re.MULTILINE))
    assert set(urls) == {"Table 1", "Table 2"}
    [director] = re.findall(r"kiosk director --database-url '(.+)' --data-dir", printed)
    assert all("@127.0.0.1:" in url for url in (*urls.values(), director))

    config = tmp_path / "station.toml"  # a station's configuration, the printed line pasted in
    pasted = f'database_url = "{urls["Table 1"]}"'
    config.write_text(
        f'station_name = "Table 1"\ndata_dir = "{tmp_path / "Table 1"}"\n{pasted}\n', encoding="utf-8"
    )
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    pin = subprocess.run(  # the station's judge PIN, set first as the install steps do
        ["kiosk", "set-pin", "--config", str(config), "--stdin"],
        input="482613\n", env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert pin.returncode == 0, pin.stdout + pin.stderr
    checked = subprocess.run(  # the guide's check, on the station, before the players arrive
        ["bash", "-c", check_line().replace("/etc/challenge-kiosk/station.toml", str(config))],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "answers (schema" in checked.stdout
    assert "adds station 'Table 1''s challenges; no round set yet" in checked.stdout
    controls = HallControls(director)  # the director sets the round with its own line
    try:
        controls.set_round(2)
    finally:
        controls.close()
    entries = {
        name: make_entry([word], station=name) for name, word in (("Table 1", "CAT"), ("Table 2", "QI"))
    }
    for name, entry in entries.items():  # each station with the line printed for it
        with open_station_storage(tmp_path / name, urls[name], forward_in_background=False) as storage:
            storage.log.forward_backlog()  # the station hears the round from the log
            storage.log.record(entry)
            assert storage.log.forward_backlog() == 1
    shown = CliRunner().invoke(kiosk, ["log", "show", "--config", str(config)])
    assert shown.exit_code == 0, shown.output
    assert "  CAT" in shown.output
    assert "  QI" in shown.output  # every station's challenges, at any station
    assert "round 2, " in shown.output  # stamped by each station, with the round the director set
    board = read_board(director)
    assert {line.name: line.counts.today for line in board.stations} == {"Table 1": 1, "Table 2": 1}
    assert board.round is not None
    assert board.round.number == 2
    with open_station_storage(tmp_path / "stranger", urls["Table 2"], forward_in_background=False) as storage:
        storage.log.record(make_entry(["ZA"], station=f"Table {uuid.uuid4().hex[:4]}"))
        with pytest.raises(StorageError, match="refuses challenges of station"):
            storage.log.forward_backlog()  # another station's name, refused by the server itself
        assert storage.log.status().backlog == 1
