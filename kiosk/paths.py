"""Where the station finds its files: the embedded default pack, the known editions, its data directory.

There is ONE way to find a station's data (``station_data``): the station and every command that
opens its storage (``kiosk set-pin``, ``kiosk log show``, ``kiosk log export``) call it with the
same configuration, so a PIN set from the terminal is the PIN the station asks for, and the log a
director reads is the log the station writes. The data directory is the ``--data-dir`` flag, else
the configuration's ``data_dir``, else ``$KIOSK_DATA_DIR``, else the platform's data folder; the
log's database is ``--database-url``, else the configuration's ``database_url``, else the SQLite
file in the data directory.

The data directory also remembers which packs the verification walk has proven
(``walk_cache_dir``), so that a station walks a pack once, not at every start.

``check_data_dir`` says, before a station starts, whether it can keep its log there, and if not,
exactly why (not a directory, permission denied, a read-only file system, a full disk).

Nothing is resolved at import time; ``main()`` calls these with the flags it was given.
"""

from __future__ import annotations

import errno
import functools
import os
import stat
import sys
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from kiosk.core.errors import StorageError
from kiosk.core.wording import Text, Wording, marked

if TYPE_CHECKING:
    from kiosk.core.station.config import StationConfig

__all__ = [
    "DATA_DIR_ENV",
    "DEFAULT_PACK_ENV",
    "DEFAULT_PACK_NAME",
    "FEDERATION_EDITIONS_NAME",
    "INSTALLED_CONFIG",
    "INSTALLED_DATA_DIR",
    "INSTALLED_PROGRAM",
    "KNOWN_EDITIONS_NAME",
    "LOCAL_DATABASE_NAME",
    "LOCK_FILE_NAME",
    "MIN_FREE_BYTES",
    "PLATFORM_FOLDER",
    "DataDirLock",
    "StationData",
    "built_in_edition_paths",
    "check_data_dir",
    "current_user",
    "default_pack_path",
    "guide_dir",
    "known_editions_path",
    "lock_data_dir",
    "make_data_dir",
    "station_data",
    "walk_cache_dir",
]

# Where docs/install.md puts a Linux station (packaging/linux: the units and the tmpfiles entry say
# the same; tests/test_install_steps.py holds them together): its program, its configuration, and
# its data directory, which the unit names with $KIOSK_DATA_DIR.
INSTALLED_PROGRAM = Path("/opt/challenge-kiosk/kiosk")
INSTALLED_CONFIG = Path("/etc/challenge-kiosk/station.toml")
INSTALLED_DATA_DIR = Path("/var/lib/challenge-kiosk")
# how station_data says nothing named the folder (a Wording: said in a screen's language)
PLATFORM_FOLDER = Wording(marked("the platform's data folder"))
DEFAULT_PACK_NAME = "enable-demo.kxpack"
DEFAULT_PACK_ENV = "KIOSK_DEFAULT_PACK"
DATA_DIR_ENV = "KIOSK_DATA_DIR"
KNOWN_EDITIONS_NAME = "known-lexicons.tsv"
FEDERATION_EDITIONS_NAME = "federation-lexicons.tsv"  # other alphabets' published sets: FISE, ODS, ZINGA
WALK_CACHE_FOLDER = "verified-packs"
APP_NAME = "challenge-kiosk"
LOCAL_DATABASE_NAME = "kiosk.sqlite3"
LOCK_FILE_NAME = "station.lock"  # Windows only: the file held locked (see DataDirLock)
# Below this much free space the log cannot be trusted to take a day's challenges (a challenge is
# about 1 KiB; SQLite's write-ahead log grows by pages before each checkpoint).
MIN_FREE_BYTES = 1024 * 1024
_PROBE_BYTES = 4096  # one page: a write that must get a block of its own on the disk


def _bundle_root() -> Path:
    """The folder holding ``data/``: the PyInstaller bundle when frozen, else the source tree."""
    frozen_root = getattr(sys, "_MEIPASS", None)
    if frozen_root is not None:
        return Path(frozen_root)
    return Path(__file__).resolve().parent.parent


def default_pack_path() -> Path:
    """The embedded default pack (ENABLE, a demo/club list), unless the environment names another."""
    override = os.environ.get(DEFAULT_PACK_ENV)
    if override:
        return Path(override)
    return _bundle_root() / "data" / DEFAULT_PACK_NAME


def known_editions_path() -> Path:
    """The built-in table of known English editions (facts about published word sets, no words)."""
    return _bundle_root() / "data" / KNOWN_EDITIONS_NAME


def built_in_edition_paths() -> tuple[Path, ...]:
    """Every built-in table of known editions: the English sets, then the other federations'
    (FISE, ODS, ZINGA), so that their packs are recognised as published out of the box."""
    return (known_editions_path(), _bundle_root() / "data" / FEDERATION_EDITIONS_NAME)


def walk_cache_dir(data: Path) -> Path:
    """Where the verification walk's outcomes are remembered (``kiosk.core.packs.verification.WalkCache``): a
    folder of the data directory. The station can write there (``kiosk station --check`` proves
    it), finding it costs nothing at start-up, and lexicon-build run by the same user with the
    same data directory shares it; losing it costs one walk per pack at the next start."""
    return data / WALK_CACHE_FOLDER


def guide_dir() -> Path:
    """The guides (``docs/``): beside the programs in the bundle, where an operator looks for them."""
    if getattr(sys, "frozen", False):
        return Path(sys.executable).resolve().parent / "docs"
    return Path(__file__).resolve().parent.parent / "docs"


class StationData(NamedTuple):
    """Where one station keeps its data, and how that was decided (said by every command).

    (A NamedTuple, frozen like a dataclass: the station pays for this module at every start, and a
    dataclass costs ten times as much to define.)
    """

    data_dir: Path
    database_url: str | None
    # e.g. "data_dir in /etc/challenge-kiosk/station.toml": a Wording, said in a screen's language
    found_by: Text
    config: Path | None = None  # the configuration file it came from, if any

    @property
    def local_database(self) -> Path:
        """The station's own SQLite file: its PIN, settings, outbox and (without a server) its log."""
        return self.data_dir / LOCAL_DATABASE_NAME

    @property
    def described(self) -> Wording:
        """One line for a message: the database, and where its folder came from (a ``Wording``: the
        not-ready screen says it in the station's language, the paths and keys as they are)."""
        return Wording(
            marked("the station database {database} (data directory from {source})"),
            database=self.local_database,
            source=self.found_by,
        )

    def set_pin_command(self, program: str = "kiosk") -> str:
        """The exact command that sets the judge PIN of this station, from its terminal."""
        return self.command(program, "set-pin")

    def command(self, program: str, *words: str) -> str:
        """``program`` and ``words`` with the options that find this station's data wherever the
        command is typed (absolute paths: the judge's terminal has its own folder)."""
        parts = [program, *words]
        if self.config is not None:
            parts += ["--config", _quoted(str(self.config.absolute()))]
        if self.config is None or not str(self.found_by).startswith("data_dir in"):
            parts += ["--data-dir", _quoted(str(self.data_dir.absolute()))]
        return " ".join(parts)


def _quoted(text: str) -> str:
    """A shell word as a judge can type it: quoted only when it must be."""
    if text and all(ch.isalnum() or ch in "/._-+:=@%~" for ch in text):
        return text
    return "'" + text.replace("'", "'\\''") + "'"


def station_data(
    config: StationConfig | None, *, data_dir: Path | None = None, database_url: str | None = None
) -> StationData:
    """The station's data directory and log database: the flags, the configuration, the environment.

    ``config`` None means no configuration file (the embedded default station).
    """
    source = None if config is None else config.source
    url = database_url if database_url is not None else (None if config is None else config.database_url)
    if data_dir is not None:
        return StationData(data_dir, url, "--data-dir", source)
    if config is not None and config.data_dir is not None:
        found_by = (
            Wording(marked("data_dir in {where}"), where=source)
            if source is not None
            else Wording(marked("data_dir in the station configuration"))  # whole: it declines
        )
        return StationData(config.data_dir, url, found_by, source)
    env = os.environ.get(DATA_DIR_ENV)
    if env:
        return StationData(Path(env), url, f"${DATA_DIR_ENV}", source)
    import platformdirs  # ~5 ms at start-up, paid only when nothing else names the folder

    folder = Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))
    return StationData(folder, url, PLATFORM_FOLDER, source)


def current_user() -> str:
    """The user this process runs as (a station's files must be writable by it)."""
    try:
        import pwd  # POSIX only

        return pwd.getpwuid(os.geteuid()).pw_name
    except (ImportError, KeyError, AttributeError):
        return os.environ.get("USERNAME") or os.environ.get("USER") or "this user"


def _owner(path: Path) -> Text:
    try:
        status = path.stat()
    except OSError:
        return ""
    try:
        import pwd

        owner = pwd.getpwuid(status.st_uid).pw_name
    except (ImportError, KeyError):
        owner = str(status.st_uid)
    return Wording(marked("owner {owner}, mode {mode}"), owner=owner, mode=stat.filemode(status.st_mode))


def _reason(exc: OSError, path: Path) -> Text:
    """Why ``path`` cannot be written, in words a judge can act on."""
    code = exc.errno
    if code == errno.EROFS:
        return Wording(
            marked("it is on a read-only file system; give the station a folder on a writable disk")
        )
    if code in (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)):
        return Wording(
            marked("the disk is full; free some space on it or give the station a folder on another disk")
        )
    if code in (errno.EACCES, errno.EPERM):
        path = _reachable(path)
        owner = _owner(path)
        return Wording(
            marked(
                "permission denied: the user {user} may not write to {path}{held}; give that user the "
                "folder (chown) or start the station as its owner"
            ),
            user=current_user(),
            path=path,
            held=Wording(marked(" ({owner})"), owner=owner) if owner else "",
        )
    return exc.strerror or str(exc)  # the system's own words


def _reachable(path: Path) -> Path:
    """The deepest of ``path`` and its parents this user can look at: where access stops."""
    for candidate in (path, *path.parents):
        try:
            candidate.stat()
        except OSError:
            continue
        return candidate
    return path


def _free_bytes(folder: Path) -> int:
    """Free space for an unprivileged user (root's reserved blocks do not count)."""
    if hasattr(os, "statvfs"):
        status = os.statvfs(folder)
        return status.f_bavail * status.f_frsize
    import shutil  # Windows

    return shutil.disk_usage(folder).free


def _data_dir_named(folder: Path) -> Text:
    return Wording(marked("the station's data directory {folder}"), folder=folder)


def make_data_dir(folder: Path) -> None:
    """Create ``folder`` (and its parents) if needed; StorageError saying why it cannot be: a file
    where a folder should be, permission denied, a read-only file system, a full disk. Every
    command that opens a station's storage makes its folder here, so one wording says it."""
    start = _data_dir_named(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError as exc:
        raise StorageError(
            marked("{start} is a file, not a directory; remove it or name another folder"), start=start
        ) from exc
    except NotADirectoryError as exc:
        blocker = _reachable(folder)
        raise StorageError(
            marked("{start} cannot be created: {blocker} is a file, not a directory; name another folder"),
            start=start,
            blocker=blocker,
        ) from exc
    except OSError as exc:
        raise StorageError(
            marked("{start} cannot be created: {reason}"), start=start, reason=_reason(exc, folder)
        ) from exc


def check_data_dir(folder: Path) -> None:
    """Create ``folder`` if needed and make sure the station can keep its log there.

    Raises StorageError naming the folder and the reason: a file where the folder should be, a
    folder that cannot be created or written (permission denied, a read-only file system), a full
    disk, or a database file in it that this user cannot write.
    """
    make_data_dir(folder)
    start = _data_dir_named(folder)
    probe = folder / f".kiosk-write-check-{os.getpid()}"  # (tempfile and shutil: ~8 ms to import)
    try:
        handle = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.write(handle, b"\0" * _PROBE_BYTES)
        finally:
            os.close(handle)
            probe.unlink()
    except OSError as exc:
        raise StorageError(
            marked("{start} cannot be written: {reason}"), start=start, reason=_reason(exc, folder)
        ) from exc
    try:
        free = _free_bytes(folder)
    except OSError as exc:
        raise StorageError(
            marked("{start} cannot be checked: {reason}"), start=start, reason=_reason(exc, folder)
        ) from exc
    if free < MIN_FREE_BYTES:
        raise StorageError(
            marked(
                "{start} is on a full disk ({free} KiB free; the log needs at least {needed} KiB): free "
                "some space or give the station a folder on another disk"
            ),
            start=start,
            free=free // 1024,
            needed=MIN_FREE_BYTES // 1024,
        )
    for name in (LOCAL_DATABASE_NAME, f"{LOCAL_DATABASE_NAME}-wal", f"{LOCAL_DATABASE_NAME}-shm"):
        path = folder / name
        if os.path.lexists(path) and not os.access(path, os.R_OK | os.W_OK):
            raise StorageError(
                marked("{path} cannot be written: {reason}"),
                path=path,
                reason=_reason(OSError(errno.EACCES, os.strerror(errno.EACCES)), path),
            )


class DataDirLock:
    """One station per data directory, held by the operating system until the station's process ends.

    On POSIX the lock is ``flock`` on the data directory itself, not on a file in it: a lock file
    can be deleted while it is held (its lock goes with the nameless file) and the next station
    would lock a new file of the same name and run beside the first. The folder cannot be deleted
    from under the station without its log, which the log notices. The kernel drops the lock when
    the process ends, however it ends: no stale lock after a crash or a power cut. On Windows,
    ``msvcrt.locking`` on ``station.lock`` in the folder: Windows deletes no file a process has open.
    """

    def __init__(self, folder: Path, handle: int) -> None:
        self.folder = folder
        self._handle: int | None = handle

    def release(self) -> None:
        if self._handle is not None:
            os.close(self._handle)  # the lock goes with the descriptor
            self._handle = None


def lock_data_dir(folder: Path) -> DataDirLock:
    """Take ``folder`` for this station; raise StorageError if another station holds it, or if it
    cannot be locked (a file system without locks: the station's data must be on a local disk)."""
    try:
        if sys.platform == "win32":
            import msvcrt

            handle = os.open(folder / LOCK_FILE_NAME, os.O_RDWR | os.O_CREAT, 0o600)
            lock = functools.partial(msvcrt.locking, handle, msvcrt.LK_NBLCK, 1)
        else:
            import fcntl

            flags = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0)
            handle = os.open(folder, flags)
            lock = functools.partial(fcntl.flock, handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        raise StorageError(
            marked("the station's data directory {folder} cannot be locked for this station: {reason}"),
            folder=folder,
            reason=_reason(exc, folder),
        ) from exc
    try:
        lock()
    except OSError as exc:
        os.close(handle)
        if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES, errno.EDEADLK):
            raise StorageError(
                marked("another station is already running with the data directory {folder}; stop it first"),
                folder=folder,
            ) from exc
        raise StorageError(
            marked(
                "the station's data directory {folder} cannot be locked for this station ({reason}); keep "
                "it on a local disk"
            ),
            folder=folder,
            reason=exc.strerror or str(exc),
        ) from exc
    return DataDirLock(folder, handle)
