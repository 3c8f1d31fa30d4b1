"""A throwaway PostgreSQL server on loopback, from Debian's ``postgresql`` package binaries.

initdb refuses to run as root, so as root every server command runs as the ``postgres`` user
(``runuser -u postgres --``) in a temp dir that user owns. The server listens on a free port on
127.0.0.1 and on a socket in its own dir, so a cluster the package started does not get in the way.
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

import psycopg
from psycopg import sql

PG_USER = "kiosk"
START_TIMEOUT_S = 60


class PostgresUnavailableError(Exception):
    """The binaries, or the postgres user needed to run them as root, are missing."""


def find_postgres_bin() -> Path:
    candidates = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: int(p.parts[-3].split(".")[0])
    )
    if candidates:
        return candidates[-1].parent
    on_path = shutil.which("initdb")
    if on_path:
        return Path(on_path).parent
    raise PostgresUnavailableError(
        "no initdb in /usr/lib/postgresql/*/bin or on PATH: install Debian's 'postgresql' package "
        "(./dev.sh test does)"
    )


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class PostgresServer:
    def __init__(self, bin_dir: Path, *, fsync: bool = False) -> None:
        self.bin_dir = bin_dir
        self.fsync = fsync  # off for tests (speed); on for benchmarks (realistic commits)
        self.as_root = os.geteuid() == 0
        if self.as_root:
            try:
                pwd.getpwnam("postgres")
            except KeyError:
                raise PostgresUnavailableError(
                    "running as root, and there is no 'postgres' user to run initdb as"
                ) from None
            if shutil.which("runuser") is None:
                raise PostgresUnavailableError("running as root, and 'runuser' is missing (util-linux)")
        self.root = Path(tempfile.mkdtemp(prefix="kiosk-pg-"))
        self.data = self.root / "data"
        self.log = self.root / "server.log"
        self.port = free_port()
        self.running = False
        if self.as_root:
            shutil.chown(self.root, "postgres", "postgres")

    def _run(self, *args: str) -> None:
        command = [str(self.bin_dir / args[0]), *args[1:]]
        if self.as_root:
            command = ["runuser", "-u", "postgres", "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, check=False, cwd=self.root)
        if done.returncode != 0:
            log = self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""
            raise PostgresUnavailableError(
                f"{' '.join(command)} failed ({done.returncode}): {done.stderr.strip()}\n{log}"
            )

    def init(self) -> None:
        self._run(
            "initdb",
            "-D",
            str(self.data),
            "-U",
            PG_USER,
            "-A",
            "trust",
            "-E",
            "UTF8",
            "--locale=C",
            "--no-sync",
        )

    def start(self) -> None:
        if self.running:
            return
        options = (
            f"-c listen_addresses=127.0.0.1 -p {self.port} -c unix_socket_directories={self.root} "
            f"-c fsync={'on' if self.fsync else 'off'} -c max_connections=50"
        )
        self._run(
            "pg_ctl",
            "-D",
            str(self.data),
            "-l",
            str(self.log),
            "-w",
            "-t",
            str(START_TIMEOUT_S),
            "-o",
            options,
            "start",
        )
        self.running = True

    def stop(self) -> None:
        if not self.running:
            return
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")
        self.running = False

    def destroy(self) -> None:
        try:
            self.stop()
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def create_database(self, name: str) -> str:
        with psycopg.connect(
            host="127.0.0.1", port=self.port, user=PG_USER, dbname="postgres", autocommit=True
        ) as conn:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        return f"postgresql+psycopg://{PG_USER}@127.0.0.1:{self.port}/{name}"
