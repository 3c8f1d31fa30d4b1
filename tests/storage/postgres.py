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
    """``passwords``: TCP connections authenticate with SCRAM passwords, as on an event's server
    (Debian's default); the superuser ``kiosk`` then connects through the socket only (trust)."""

    def __init__(
        self,
        bin_dir: Path,
        *,
        fsync: bool = False,
        passwords: bool = False,
        settings: dict[str, str] | None = None,
    ) -> None:
        """``settings``: more of the server's own settings (``-c name=value``), such as ``ssl``."""
        self.bin_dir = bin_dir
        self.settings = dict(settings or {})
        self.fsync = fsync  # off for tests (speed); on for benchmarks (realistic commits)
        self.passwords = passwords
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
        auth = ["--auth-local=trust", "--auth-host=scram-sha-256"] if self.passwords else ["-A", "trust"]
        self._run(
            "initdb",
            "-D",
            str(self.data),
            "-U",
            PG_USER,
            *auth,
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
        options += "".join(f" -c {name}={value}" for name, value in self.settings.items())
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

    def restart(self) -> None:
        """Stop and start again, reading its configuration files anew (``pg_hba.conf``)."""
        self.stop()
        self.start()

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

    @property
    def admin_host(self) -> str:
        """Where the superuser connects without a password: the server's own socket when TCP asks for
        passwords (as ``sudo -u postgres`` does on an event's server), else loopback (which a test
        process without the right to enter the socket's folder can use too)."""
        return str(self.root) if self.passwords else "127.0.0.1"

    def admin_url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://{PG_USER}@/{database}?host={self.admin_host}&port={self.port}"

    def admin_env(self) -> dict[str, str]:
        """libpq's environment for the superuser: what ``sudo -u postgres`` gives on the server."""
        return {
            "PGHOST": self.admin_host,
            "PGPORT": str(self.port),
            "PGUSER": PG_USER,
            "PGDATABASE": "postgres",
        }

    def create_database(self, name: str) -> str:
        with psycopg.connect(
            host=self.admin_host, port=self.port, user=PG_USER, dbname="postgres", autocommit=True
        ) as conn:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        return f"postgresql+psycopg://{PG_USER}@127.0.0.1:{self.port}/{name}"
