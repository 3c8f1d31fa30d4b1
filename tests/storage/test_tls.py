"""The shared log over TLS, on a real server: what a venue's network lets a stranger see and do.

Challenges, the words of each play and the stations' passwords travel between the stations and
the event's PostgreSQL server. On a network that is not the event's own (a hotel's, a club's
Wi-Fi), anyone on it can read them, or answer in the server's place. docs/install.md tells the
organiser to give the server a certificate and each station the certificate of its issuer, and to
write ``sslmode=verify-full`` in each URL: these tests run exactly that, on our own server on
loopback with certificates made here, and show that it holds.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import psycopg
import pytest
from sqlalchemy.engine import make_url

from kiosk.core.errors import StorageError
from kiosk.storage import open_station_storage
from kiosk.storage.server import set_up_shared_log
from kiosk.storage.store import TLS_GUIDE, check_shared_log, connect_hint
from tests.conftest import REPO_ROOT, started_postgres
from tests.storage.entries import make_entry, read_board
from tests.storage.postgres import PostgresServer

LOOPBACK = "127.0.0.1"


GUIDE = REPO_ROOT / "docs" / "install.md"
GUIDE_SERVER = "192.168.1.10"  # the server's address in the guide's commands
CERTIFICATES = re.compile(
    r"<!-- tests/storage/test_tls.py makes its certificates so -->\n```sh\n(.*?)\n```", re.DOTALL
)


def guide_certificates(folder: Path, host: str) -> None:
    """The guide's commands that make the event's authority and the server's certificate, run as
    an organiser runs them (openssl), in ``folder``, for a server at ``host``."""
    found = CERTIFICATES.search(GUIDE.read_text(encoding="utf-8"))
    assert found is not None, f"{GUIDE.name} has no block of commands that make the certificates"
    folder.mkdir(parents=True, exist_ok=True)
    for line in found.group(1).splitlines():
        command = line.split("#", 1)[0].strip()
        if command:
            done = subprocess.run(
                ["bash", "-c", command.replace(GUIDE_SERVER, host)],
                cwd=folder,
                capture_output=True,
                text=True,
            )
            assert done.returncode == 0, f"{command}\n{done.stderr}"


@dataclass(frozen=True)
class TlsServer:
    server: PostgresServer
    authority: Path  # the certificate of the server's issuer, which the stations are given


def as_the_guide_sets_it(server: PostgresServer) -> None:
    """The server's certificate made by the guide's commands, ssl on, TCP logins over TLS only."""
    made = server.root / "made"
    guide_certificates(made, LOOPBACK)
    for name in ("server.crt", "server.key"):
        shutil.copy(made / name, server.root / name)
        (server.root / name).chmod(0o600)  # the server refuses a key others may read
        if server.as_root:
            shutil.chown(server.root / name, "postgres", "postgres")
    certificate, key = server.root / "server.crt", server.root / "server.key"
    server.settings.update(ssl="on", ssl_cert_file=str(certificate), ssl_key_file=str(key))
    hba = server.data / "pg_hba.conf"
    lines = hba.read_text(encoding="utf-8").splitlines()
    hba.write_text(
        "".join(f"hostssl{line[4:]}\n" if line.startswith("host ") else f"{line}\n" for line in lines)
    )


@pytest.fixture(scope="module")
def tls_server() -> Iterator[TlsServer]:
    """Our own server as the guide sets an event's up: a certificate from the organiser's authority,
    passwords over TCP, and TCP connections only over TLS (``hostssl`` in pg_hba.conf)."""
    for server in started_postgres(passwords=True, prepare=as_the_guide_sets_it):
        yield TlsServer(server, server.root / "made" / "event-ca.pem")


def over_tls(url: str, root: Path, mode: str = "verify-full") -> str:
    """``url`` ended as the guide says: ``sslmode`` and the issuer's certificate it trusts."""
    query = {"sslmode": mode, "sslrootcert": str(root)}
    return make_url(url).update_query_dict(query).render_as_string(hide_password=False)


def event_urls(tls: TlsServer, *, trusted: Path | None = None, mode: str = "verify-full") -> tuple[str, str]:
    """A new event's log: Table 1's URL and the director's, as ``kiosk shared-log setup
    --tls-authority`` prints them (``trusted`` and ``mode``: changed after, as by mistake)."""
    database = f"tls_{uuid.uuid4().hex[:10]}"
    done = set_up_shared_log(
        tls.server.admin_url(),
        database=database,
        stations=["Table 1"],
        host=LOOPBACK,
        tls_authority=str(tls.authority),
    )
    assert not done.tls_off
    station, director = done.stations[0].url, done.director.url if done.director else None
    assert station is not None
    assert director is not None
    if trusted is None and mode == "verify-full":
        return station, director
    root = trusted or tls.authority
    return over_tls(station, root, mode), over_tls(director, root, mode)


def station_url(tls: TlsServer, *, trusted: Path | None = None, mode: str = "verify-full") -> str:
    return event_urls(tls, trusted=trusted, mode=mode)[0]


def libpq(url: str) -> str:
    return url.replace("postgresql+psycopg://", "postgresql://", 1)


def test_a_station_logs_over_tls_and_nothing_travels_in_clear(tls_server: TlsServer, tmp_path: Path) -> None:
    """The station's challenge reaches the log and the director's board, each over TLS."""
    url, director = event_urls(tls_server)
    assert check_shared_log(url, "Table 1").registered_station == "Table 1"  # kiosk station --check
    entry = make_entry(["QI", "ZA"], station="Table 1")
    with open_station_storage(tmp_path / "one", url, forward_in_background=False) as storage:
        storage.log.record(entry)
        storage.log.forward_backlog()
        assert storage.log.status().backlog == 0
        assert storage.log.status().last_error is None
    with psycopg.connect(libpq(url)) as conn:
        logged = conn.execute(
            "SELECT count(*) FROM challenge WHERE id = %s", (entry.challenge_id,)
        ).fetchone()
        encrypted = conn.execute(
            "SELECT ssl, version FROM pg_stat_ssl WHERE pid = pg_backend_pid()"
        ).fetchone()
    assert logged == (1,)
    assert {line.name: line.counts.today for line in read_board(director).stations} == {"Table 1": 1}
    assert encrypted is not None
    assert encrypted[0] is True, "the connection is not encrypted"
    assert encrypted[1] in {"TLSv1.2", "TLSv1.3"}


def refusal(url: str, folder: Path) -> str:
    """What ``kiosk station --check`` says of ``url``; the station itself keeps its challenge."""
    with open_station_storage(folder, url, forward_in_background=False) as storage:
        storage.log.record(make_entry(["QI"], station="Table 1"))  # kept here first, whatever happens
        with pytest.raises(StorageError):
            storage.log.forward_backlog()
        assert storage.log.status().backlog == 1
    with pytest.raises(StorageError) as refused:
        check_shared_log(url, "Table 1")
    said = str(refused.value)
    password = make_url(url).password
    assert password is not None
    assert password not in said  # never the password
    return said


def test_a_server_the_station_was_not_told_to_trust_is_refused_and_the_check_says_why(
    tls_server: TlsServer, tmp_path: Path
) -> None:
    """Someone on the venue's network answering in the server's place has a certificate, but not
    one from the organiser's authority: the station refuses it before sending its password."""
    guide_certificates(tmp_path / "stranger", LOOPBACK)  # the same commands: an authority of the same name
    stranger = tmp_path / "stranger" / "event-ca.pem"
    said = refusal(station_url(tls_server, trusted=stranger), tmp_path / "one")
    assert "certificate verify failed" in said
    assert "not signed by the authority in the file sslrootcert names" in said
    assert TLS_GUIDE in said


def test_a_station_without_the_authority_s_file_is_told_where_to_put_it(
    tls_server: TlsServer, tmp_path: Path
) -> None:
    url = station_url(tls_server)
    missing = tmp_path / "nowhere" / "event-ca.pem"
    said = refusal(
        make_url(url).update_query_dict({"sslrootcert": str(missing)}).render_as_string(False), tmp_path
    )
    assert str(missing) in said
    assert "copy the event's authority certificate" in said


def test_a_certificate_for_another_address_is_refused(tls_server: TlsServer, tmp_path: Path) -> None:
    """The server's certificate names 127.0.0.1; a station reaching it as "localhost" is refused
    (verify-full checks the name, not only the signature)."""
    url = make_url(station_url(tls_server)).set(host="localhost").render_as_string(False)
    said = refusal(url, tmp_path / "one")
    assert "does not match host name" in said
    assert "write in database_url the host its certificate names" in said


def test_without_tls_the_server_lets_no_station_in_and_the_check_says_what_to_write(
    tls_server: TlsServer, tmp_path: Path
) -> None:
    """hostssl: a URL that asks for no encryption (sslmode=disable) is refused by the server."""
    said = refusal(station_url(tls_server, mode="disable"), tmp_path / "one")
    assert "no encryption" in said
    assert "write sslmode=verify-full and sslrootcert=FILE in database_url" in said


def setup_command(server: PostgresServer, *args: str) -> subprocess.CompletedProcess[str]:
    """``kiosk shared-log setup`` as the organiser runs it on the server (the superuser's socket)."""
    kiosk = Path(sys.executable).parent / "kiosk"
    database = f"tls_{uuid.uuid4().hex[:10]}"
    command = [str(kiosk), "shared-log", "setup", "--admin-url", server.admin_url(), "--database", database]
    return subprocess.run([*command, *args], capture_output=True, text=True, timeout=120, check=False)


def test_the_line_setup_prints_is_the_line_a_station_judges_into(
    tls_server: TlsServer, tmp_path: Path
) -> None:
    done = setup_command(
        tls_server.server,
        "--host",
        LOOPBACK,
        "--tls-authority",
        str(tls_server.authority),
        "--station",
        "Table 1",
    )
    assert done.returncode == 0, done.stderr
    printed = re.search(r'database_url = "(.+)"', done.stdout)
    assert printed is not None, done.stdout
    url = printed.group(1)
    assert "sslmode=verify-full&sslrootcert=" in url
    assert f"verified against {tls_server.authority}: copy the event's authority certificate" in done.stdout
    assert "Warning" not in done.stderr
    entry = make_entry(["QI"], station="Table 1")
    with open_station_storage(tmp_path / "one", url, forward_in_background=False) as storage:
        storage.log.record(entry)
        storage.log.forward_backlog()
        assert storage.log.status().backlog == 0


def test_setup_warns_when_the_server_has_tls_off_and_wants_a_full_path(
    secure_postgres: PostgresServer,
) -> None:
    """A server without ssl: the URLs asking for TLS could not reach it, and setup says so."""
    done = setup_command(
        secure_postgres, "--tls-authority", "/etc/challenge-kiosk/event-ca.pem", "--station", "T1"
    )
    assert done.returncode == 0, done.stderr
    assert "this server's ssl setting is off, so no station can reach it with these URLs" in done.stderr
    relative = setup_command(secure_postgres, "--tls-authority", "event-ca.pem", "--station", "T1")
    assert relative.returncode == 2
    assert "give the file's full path as the stations keep it" in relative.stderr


@pytest.mark.parametrize(
    ("driver_said", "advice"),
    [
        # PostgreSQL 15's refusal of an unencrypted login its pg_hba.conf has no line for: a server
        # that takes only TLS, or a network left out; both are said
        (
            'connection failed: connection to server at "192.168.1.10", port 5432 failed: FATAL: no '
            'pg_hba.conf entry for host "192.168.1.23", user "kiosk_table_1", database "kiosk", '
            "no encryption",
            [
                "write sslmode=verify-full and sslrootcert=FILE",
                "add the event network's line to its pg_hba.conf",
            ],
        ),
        (
            'connection to server at "192.168.1.10", port 5432 failed: SSL error: certificate verify failed',
            ["not signed by the authority in the file sslrootcert names", "past its date"],
        ),
        (
            'connection to server at "192.168.1.10", port 5432 failed: server does not support SSL, but SSL '
            "was required",
            ["does not speak TLS"],
        ),
        (
            'connection to server at "192.168.1.10", port 5432 failed: FATAL: password authentication failed '
            'for user "kiosk_table_1"',
            ["the password in database_url is not this role's"],
        ),
    ],
)
def test_each_refusal_gets_the_advice_that_fits_it(driver_said: str, advice: list[str]) -> None:
    hint = connect_hint(driver_said)
    for words in advice:
        assert words in hint
