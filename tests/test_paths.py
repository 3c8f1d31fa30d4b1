"""One way to find a station's data, and every way its data directory can be unusable, named."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from kiosk.core.errors import StorageError
from kiosk.core.station.config import default_config, parse_config
from kiosk.paths import DATA_DIR_ENV, MIN_FREE_BYTES, check_data_dir, station_data
from kiosk.storage import open_station_storage

NOBODY = 65534


def config_naming(tmp_path: Path, text: str) -> object:
    source = tmp_path / "station.toml"
    config = parse_config(text, where=str(source), base=tmp_path, default_pack=tmp_path / "x.kxpack")
    from dataclasses import replace

    return replace(config, source=source)


def test_the_flag_then_the_config_then_the_environment_then_the_platform(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = config_naming(tmp_path, 'data_dir = "from-config"\ndatabase_url = "sqlite:////x/log.db"\n')
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path / "from-env"))
    flagged = station_data(config, data_dir=tmp_path / "from-flag")  # type: ignore[arg-type]
    assert (flagged.data_dir, flagged.found_by) == (tmp_path / "from-flag", "--data-dir")
    assert flagged.database_url == "sqlite:////x/log.db"
    configured = station_data(config)  # type: ignore[arg-type]
    assert configured.data_dir == tmp_path / "from-config"
    assert configured.found_by == f"data_dir in {tmp_path / 'station.toml'}"
    plain = station_data(default_config(tmp_path / "x.kxpack"))
    assert (plain.data_dir, plain.found_by) == (tmp_path / "from-env", "$KIOSK_DATA_DIR")
    monkeypatch.delenv(DATA_DIR_ENV)
    assert station_data(None).found_by == "the platform's data folder"
    assert (
        station_data(None, database_url="postgresql+psycopg://k@h/k").database_url
        == "postgresql+psycopg://k@h/k"
    )


def test_the_set_pin_command_names_exactly_the_folder_the_station_uses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(DATA_DIR_ENV, "/var/lib/challenge-kiosk")
    configured = station_data(config_naming(tmp_path, 'data_dir = "data"\n'))  # type: ignore[arg-type]
    assert configured.set_pin_command() == f"kiosk set-pin --config {tmp_path / 'station.toml'}"
    from_env = station_data(config_naming(tmp_path, ""))  # type: ignore[arg-type]
    assert from_env.set_pin_command("/opt/challenge-kiosk/kiosk") == (
        f"/opt/challenge-kiosk/kiosk set-pin --config {tmp_path / 'station.toml'} "
        "--data-dir /var/lib/challenge-kiosk"
    )
    spaced = station_data(None, data_dir=Path("/srv/Table 3's data"))
    assert spaced.set_pin_command() == "kiosk set-pin --data-dir '/srv/Table 3'\\''s data'"


def test_a_usable_folder_is_created_and_left_clean(tmp_path: Path) -> None:
    folder = tmp_path / "a" / "b"
    check_data_dir(folder)
    assert folder.is_dir()
    assert list(folder.iterdir()) == []


def test_a_file_where_the_folder_should_be(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.write_text("", encoding="utf-8")
    with pytest.raises(StorageError, match=r"data is a file, not a directory"):
        check_data_dir(folder)
    with pytest.raises(StorageError, match=rf"cannot be created: {folder} is a file, not a directory"):
        check_data_dir(folder / "inner")


def as_nobody(action: Callable[[], None]) -> str:
    """Run ``action`` in a forked child that became the unprivileged user nobody; its error text."""
    if not hasattr(os, "fork") or os.geteuid() != 0:
        pytest.skip("needs root to become another user")
    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover (the child)
        os.close(read)
        message = b""
        try:
            os.setgroups([])
            os.setgid(NOBODY)
            os.setuid(NOBODY)
            action()
        except StorageError as exc:
            message = str(exc).encode()
        except BaseException as exc:
            message = f"UNEXPECTED {type(exc).__name__}: {exc}".encode()
        os.write(write, message)
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        text = pipe.read().decode()
    os.waitpid(child, 0)
    return text


@pytest.fixture
def open_tmp() -> Iterator[Path]:
    """A folder every user can enter (pytest's own temporary folders are root's alone)."""
    folder = Path(tempfile.mkdtemp(prefix="kiosk-test-"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        shutil.rmtree(folder)


def test_a_folder_the_stations_user_may_not_write(open_tmp: Path) -> None:
    folder = open_tmp / "root-only"
    folder.mkdir(mode=0o755)
    message = as_nobody(lambda: check_data_dir(folder))
    assert message.startswith(f"the station's data directory {folder} cannot be written: permission denied")
    assert "the user nobody may not write to" in message
    assert "owner root, mode drwxr-xr-x" in message
    assert "another station" not in message


def test_a_folder_that_cannot_be_created(open_tmp: Path) -> None:
    parent = open_tmp / "locked"
    parent.mkdir(mode=0o755)
    message = as_nobody(lambda: check_data_dir(parent / "data"))
    assert message.startswith(f"the station's data directory {parent / 'data'} cannot be created: permission")
    assert f"may not write to {parent} (owner root" in message


def test_a_folder_behind_one_the_user_cannot_enter(tmp_path: Path) -> None:
    """pytest's own folder is root's alone (drwx------): access stops there, and it is named."""
    private = next(p for p in tmp_path.parents if p.name.startswith("pytest-of-"))
    message = as_nobody(lambda: check_data_dir(tmp_path / "data"))
    assert "permission denied: the user nobody may not write to" in message
    assert f"{private} (owner root, mode drwx------)" in message


def test_a_database_file_the_stations_user_may_not_write(open_tmp: Path) -> None:
    folder = open_tmp / "shared"
    with open_station_storage(folder):
        pass
    folder.chmod(0o777)
    (folder / "kiosk.sqlite3").chmod(0o644)  # root's file in a folder anyone may write
    message = as_nobody(lambda: check_data_dir(folder))
    assert message.startswith(f"{folder / 'kiosk.sqlite3'} cannot be written: permission denied")


CHECK = (
    "import sys; from pathlib import Path; from kiosk.paths import check_data_dir; "
    "check_data_dir(Path(sys.argv[1]))"
)


def in_private_tmpfs(
    folder: Path, options: str, fill: bool, *command: str
) -> subprocess.CompletedProcess[str]:
    """Run ``command`` with a tmpfs of ``options`` mounted on ``folder`` (a private mount namespace:
    nothing outside the command sees it). Skips where mount namespaces are not allowed."""
    if shutil.which("unshare") is None or os.geteuid() != 0:
        pytest.skip("needs root and unshare(1) for a private mount")
    folder.mkdir(exist_ok=True)
    filling = 'dd if=/dev/zero of="$0/fill" bs=4096 2>/dev/null; ' if fill else ""
    script = f'mount -t tmpfs -o {options} tmpfs "$0" || exit 99; {filling}exec "$@"'
    result = subprocess.run(
        ["unshare", "--mount", "--propagation", "private", "sh", "-c", script, str(folder), *command],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    if result.returncode == 99:
        pytest.skip(f"cannot mount a tmpfs here: {result.stderr.strip()}")
    return result


@pytest.mark.parametrize(
    ("options", "fill", "reason"),
    [
        ("ro,size=1m", False, "it is on a read-only file system"),
        ("size=64k", True, "the disk is full"),
        (
            "size=512k",
            False,
            f"is on a full disk (512 KiB free; the log needs at least {MIN_FREE_BYTES // 1024} KiB)",
        ),
    ],
    ids=["read-only", "full", "nearly-full"],
)
def test_a_read_only_or_full_disk_is_named(tmp_path: Path, options: str, fill: bool, reason: str) -> None:
    folder = tmp_path / "mounted"
    result = in_private_tmpfs(folder, options, fill, sys.executable, "-c", CHECK, str(folder))
    assert result.returncode == 1
    assert f"StorageError: the station's data directory {folder}" in result.stderr
    assert reason in result.stderr
