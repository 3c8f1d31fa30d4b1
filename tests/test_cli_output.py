"""Output that cannot be written, or not in the terminal's encoding, never ends a run as a ruling.

``kiosk check`` answers with its exit code (0 ACCEPTABLE, 1 UNACCEPTABLE): an error must never end
it, or any command of either program, with 0 or 1. Every command of both programs (found by
walking their click trees; run as ``tests/test_cli_errors.py`` runs them correctly) is run for real
with its standard output on a full disk (/dev/full), closed, and a pipe nobody reads; and under a
terminal that encodes only ASCII, where human text must degrade visibly and a CSV stays UTF-8.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cli_world import STATION_NAME, copy_world, make_world, release_world
from tests.storage.postgres import PostgresServer
from tests.test_cli_errors import STDIN, VALID, VALUES, Case

OUTPUTS = {value for key, value in VALUES.items() if key.split()[-1] in ("output", "csv_path", "added_file")}
OUTPUTS |= {VALUES["removed_file"], VALUES["key_file"]}


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    folder = make_world(tmp_path_factory.mktemp("output") / STATION_NAME / "world")
    yield folder
    release_world(folder)


def _program(name: str) -> str:
    return str(Path(sys.executable).with_name(name))


def _env(folder: Path, **extra: str) -> dict[str, str]:
    return {**os.environ, "KIOSK_DATA_DIR": str(folder / "data"), "QT_QPA_PLATFORM": "offscreen", **extra}


@pytest.fixture(autouse=True)
def _server_for_shared_log(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """``kiosk shared-log setup`` runs on the log's server as its superuser: libpq's environment
    names the tests' server (as in tests/test_cli_errors.py)."""
    case = request.node.callspec.params.get("case") if hasattr(request.node, "callspec") else None
    if isinstance(case, Case) and case.id.startswith("kiosk shared-log"):
        server: PostgresServer = request.getfixturevalue("postgres_server")
        for name, value in server.admin_env().items():
            monkeypatch.setenv(name, value)


def _absolute(case: Case, folder: Path) -> list[str]:
    """The case's arguments with every file named by its full path (which holds Cyrillic letters)."""
    return [
        str(folder / arg) if not arg.startswith("-") and ((folder / arg).exists() or arg in OUTPUTS) else arg
        for arg in case.args
    ]


def _run(case: Case, folder: Path, *, stdout: int | None, **env: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [_program(case.program), *_absolute(case, folder)],
        cwd=folder,
        env=_env(folder, **env),
        input=(case.stdin or STDIN.get(case.id.split(":")[0], "")).encode(),
        stdout=stdout,
        stderr=subprocess.PIPE,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize("case", VALID, ids=[case.id.split(":")[0] for case in VALID])
@pytest.mark.parametrize("where", ["/dev/full", "closed", "broken pipe"])
def test_output_that_cannot_be_written_exits_2(case: Case, where: str, world: Path, tmp_path: Path) -> None:
    if where == "/dev/full" and not Path("/dev/full").is_char_device():
        pytest.skip("this machine has no /dev/full device (a full disk is simulated with it)")
    folder = copy_world(world, tmp_path / "here")
    try:
        if where == "/dev/full":
            with Path("/dev/full").open("wb") as full:
                result = _run(case, folder, stdout=full.fileno())
        elif where == "closed":
            result = subprocess.run(
                [_program(case.program), *_absolute(case, folder)],
                cwd=folder,
                env=_env(folder),
                input=(case.stdin or STDIN.get(case.id.split(":")[0], "")).encode(),
                stderr=subprocess.PIPE,
                timeout=120,
                check=False,
                pass_fds=(),
                preexec_fn=lambda: os.close(1),  # the way to start a program with its stdout closed
            )
        else:
            read_end, write_end = os.pipe()
            os.close(read_end)  # nobody will ever read: every write meets a broken pipe
            try:
                result = _run(case, folder, stdout=write_end)
            finally:
                os.close(write_end)
        stderr = result.stderr.decode("utf-8", "replace")
        assert result.returncode == 2, f"{case.args}: exit {result.returncode}\n{stderr}"
        assert "Traceback" not in stderr, stderr
        assert "error:" in stderr, stderr
    finally:
        release_world(folder)


def untimed(output: str) -> str:
    """A station's --smoke lines without their times ("painted 0.176 s after process start"),
    which differ from one run to the next."""
    return re.sub(r"painted \d+\.\d+ s after", "painted … s after", output)


@pytest.mark.parametrize("case", VALID, ids=[case.id.split(":")[0] for case in VALID])
def test_every_command_survives_a_terminal_that_lacks_its_characters(
    case: Case, world: Path, tmp_path: Path
) -> None:
    """File names hold Cyrillic letters; under a cp1252 terminal they are shown as \\u escapes."""
    utf8_folder = copy_world(world, tmp_path / "utf8")
    narrow_folder = copy_world(world, tmp_path / "cp1252")
    try:
        utf8 = _run(case, utf8_folder, stdout=subprocess.PIPE, PYTHONIOENCODING="utf-8")
        narrow = _run(case, narrow_folder, stdout=subprocess.PIPE, PYTHONIOENCODING="cp1252")
        shown = narrow.stdout.decode("cp1252", "replace") + narrow.stderr.decode("cp1252", "replace")
        assert (narrow.returncode, utf8.returncode) == (0, 0), shown
        assert "Traceback" not in shown
        text = utf8.stdout.decode("utf-8")
        if not text.isascii() and case.id != "kiosk log export: as it should be used":
            escaped = text.encode("cp1252", "backslashreplace").decode("cp1252")
            expected = escaped.replace(
                str(utf8_folder).encode("cp1252", "backslashreplace").decode("cp1252"),
                str(narrow_folder).encode("cp1252", "backslashreplace").decode("cp1252"),
            )
            assert untimed(narrow.stdout.decode("cp1252")) == untimed(expected)
    finally:
        release_world(utf8_folder)
        release_world(narrow_folder)


def test_a_batch_under_cp1252_prints_every_line_and_exits_0(world: Path, tmp_path: Path) -> None:
    folder = copy_world(world, tmp_path / "here")
    try:
        (folder / "slips.txt").write_text("cat dogs\nk\u0101\nzebraz\n", encoding="utf-8")
        args = ["check", "--pack", "club.kxpack", "--batch", "slips.txt"]
        result = subprocess.run(
            [_program("kiosk"), *args],
            cwd=folder,
            env=_env(folder, PYTHONIOENCODING="cp1252"),
            capture_output=True,
            timeout=60,
            check=False,
        )
        assert result.returncode == 0, result.stderr
        assert result.stdout.decode("cp1252").splitlines() == [
            "ACCEPTABLE",
            "INVALID: '\\u0101' (U+0101 LATIN SMALL LETTER A WITH MACRON) at position 2 of 'k\\u0101' "
            "is not a letter A-Z",
            "UNACCEPTABLE",
        ]
    finally:
        release_world(folder)


@pytest.mark.parametrize("encoding", ["cp1252", "latin-1", "iso8859-15"])
def test_the_log_of_a_station_named_in_cyrillic_shows_and_exports(
    encoding: str, world: Path, tmp_path: Path
) -> None:
    folder = copy_world(world, tmp_path / "here")
    try:
        env = _env(folder, PYTHONIOENCODING=encoding)
        show = subprocess.run(
            [_program("kiosk"), "log", "show"],
            cwd=folder,
            env=env,
            capture_output=True,
            timeout=60,
            check=False,
        )
        assert show.returncode == 0, show.stderr
        assert "\\u0421\\u0442\\u043e\\u043b 3" in show.stdout.decode(encoding)  # Стол 3, visibly degraded
        export = subprocess.run(
            [_program("kiosk"), "log", "export", "--csv", "-"],
            cwd=folder,
            env=env,
            capture_output=True,
            timeout=60,
            check=False,
        )
        assert export.returncode == 0, export.stderr
        assert f",{STATION_NAME},".encode() in export.stdout  # a CSV is data: UTF-8 whatever the terminal
    finally:
        release_world(folder)
