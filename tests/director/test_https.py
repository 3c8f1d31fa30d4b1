"""HTTPS for the director's page: a certificate it makes and keeps, or one it is given; the PIN and
the cookies only over TLS; a handshake that never comes is cut."""

from __future__ import annotations

import datetime as dt
import hashlib
import re
import socket
import ssl
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from kiosk.cli import kiosk
from kiosk.director.limits import Limits
from kiosk.director.tls import kept_certificate
from tests.director.server import PIN, ask, child_director, page_form, request, running_director, status

FORM = "application/x-www-form-urlencoded"


def fingerprint_of(der: bytes) -> str:
    digest = hashlib.sha256(der).hexdigest().upper()
    return ":".join(digest[i : i + 2] for i in range(0, len(digest), 2))


def test_the_page_is_served_over_tls_with_its_own_certificate_and_secure_cookies(tmp_path: Path) -> None:
    certificate = kept_certificate(tmp_path / "director", "127.0.0.1")
    assert certificate.made
    assert "127.0.0.1" in certificate.addresses
    assert "localhost" in certificate.names
    assert (certificate.key.stat().st_mode & 0o777) == 0o600  # the key: its owner's only
    with running_director(
        tmp_path / "station", certificate=certificate, limits=Limits(head_timeout_s=1.0)
    ) as d:
        assert d.tls is not None
        host = f"{d.host}:{d.port}"
        with (
            socket.create_connection((d.host, d.port)) as raw,
            d.tls.wrap_socket(raw, server_hostname=d.host) as tls,
        ):
            der = tls.getpeercert(binary_form=True)
        assert der is not None
        assert fingerprint_of(der) == certificate.fingerprint  # what the director prints
        assert status(ask(d, request("GET", "/", host))) == 200
        cookie, token = page_form(d, host)
        assert cookie.startswith("__Host-kiosk_form=")
        headers = {"Cookie": cookie, "Content-Type": FORM, "Origin": d.origin}
        opened = ask(
            d, request("POST", "/challenges", host, headers=headers, body=f"form={token}&pin={PIN}".encode())
        )
        assert status(opened) == 303
        judge = re.search(rb"set-cookie: (__Host-kiosk_judge=[^\r]*)", opened, re.IGNORECASE)
        assert judge is not None
        assert b"Secure" in judge.group(1)
        assert b"HttpOnly" in judge.group(1)
        assert b"SameSite=strict" in judge.group(1)
        # the page's http:// origin is not this page's: a form from it is refused
        headers["Origin"] = f"http://{host}"
        plain_origin = ask(
            d, request("POST", "/challenges", host, headers=headers, body=f"form={token}&pin={PIN}".encode())
        )
        assert status(plain_origin) == 403
        # plain HTTP to the TLS port: no page
        assert ask((d.host, d.port), request("GET", "/", host), timeout_s=10) == b""
        # a handshake that never comes is cut after the head deadline
        with socket.create_connection((d.host, d.port), timeout=10) as idle:
            started = time.monotonic()
            assert idle.recv(1) == b""
            assert time.monotonic() - started < 5


def test_the_certificate_is_kept_and_made_anew_only_when_it_must(tmp_path: Path) -> None:
    folder = tmp_path / "director"
    first = kept_certificate(folder, "127.0.0.1")
    again = kept_certificate(folder, "127.0.0.1")
    assert not again.made
    assert again.fingerprint == first.fingerprint  # a browser told to trust it once keeps trusting it
    elsewhere = kept_certificate(folder, "10.9.8.7")  # served on an address it does not name
    assert elsewhere.made
    assert "10.9.8.7" in elsewhere.addresses
    expiring = kept_certificate(folder, "10.9.8.7", now=elsewhere.not_after - dt.timedelta(days=10))
    assert expiring.made
    assert expiring.fingerprint != elsewhere.fingerprint


def test_kiosk_director_https_prints_the_fingerprint_it_serves(tmp_path: Path) -> None:
    with child_director(tmp_path / "station", extra=("--https",)) as child:
        deadline = time.monotonic() + 30
        while b"fingerprint" not in child.out.read_bytes():
            assert time.monotonic() < deadline, child.out.read_text()
            time.sleep(0.1)
        said = child.out.read_text()
        context = ssl.create_default_context(cafile=str(tmp_path / "station" / "director-certificate.pem"))
        with (
            socket.create_connection(("127.0.0.1", child.port)) as raw,
            context.wrap_socket(raw, server_hostname="127.0.0.1") as tls,
        ):
            der = tls.getpeercert(binary_form=True)
    assert der is not None
    assert f"https://127.0.0.1:{child.port}/" in said
    assert f"SHA-256 fingerprint {fingerprint_of(der)}" in said


@pytest.mark.parametrize("given", ["certificate", "key"])
def test_a_certificate_needs_its_key_and_a_wrong_pair_is_named(tmp_path: Path, given: str) -> None:
    one = kept_certificate(tmp_path / "one", "127.0.0.1")
    other = kept_certificate(tmp_path / "other", "127.0.0.1")
    station = tmp_path / "station"
    with child_director(station):  # a station database with a PIN, nothing else
        pass
    runner = CliRunner()
    alone = runner.invoke(kiosk, ["director", "--data-dir", str(station), f"--{given}", str(one.certificate)])
    assert alone.exit_code == 2
    assert "--certificate and --key go together" in alone.output
    mixed = ["--certificate", str(one.certificate), "--key", str(other.key)]
    wrong = runner.invoke(kiosk, ["director", "--data-dir", str(station), *mixed])
    assert wrong.exit_code == 2
    assert f"the certificate {one.certificate} and the key {other.key} do not go together" in wrong.output
