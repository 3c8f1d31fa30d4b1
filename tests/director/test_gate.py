"""Which Host and which Origin the director's gate takes as its own, on every kind of address."""

from __future__ import annotations

import socket

import pytest

from kiosk.director.gate import Served

OWN = socket.gethostname()


@pytest.mark.parametrize(
    ("host", "asked", "allowed"),
    [
        ("0.0.0.0", "10.1.2.3:8080", True),  # any address literal: the browser's origin is that address
        ("0.0.0.0", "[2001:db8::5]:8080", True),
        ("0.0.0.0", f"{OWN}:8080", True),
        ("0.0.0.0", f"{OWN}.local:8080", True),
        ("0.0.0.0", "localhost:8080", True),
        ("0.0.0.0", "evil.example:8080", False),  # a name pointed at this computer: rebinding
        ("0.0.0.0", "10.1.2.3:8081", False),  # another port
        ("0.0.0.0", "10.1.2.3", False),  # port 80
        ("0.0.0.0", "user@10.1.2.3:8080", False),
        ("10.0.0.5", "10.0.0.5:8080", True),
        ("10.0.0.5", "10.0.0.6:8080", False),
        ("10.0.0.5", "localhost:8080", False),  # not served there
        ("127.0.0.1", "127.0.0.1:8080", True),
        ("127.0.0.1", "localhost:8080", True),
        ("127.0.0.1", "localhost.:8080", True),
        ("127.0.0.1", f"{OWN}.example:8080", False),
        ("::1", "[::1]:8080", True),
    ],
)
def test_a_host_is_this_servers_only_when_it_names_it(host: str, asked: str, allowed: bool) -> None:
    assert Served.of(host, 8080).allows(asked) is allowed


def test_https_on_its_default_port_and_a_certificates_names() -> None:
    served = Served.of("0.0.0.0", 443, https=True, names=("kiosk.club.example",))
    assert served.allows("kiosk.club.example")
    assert served.allows("10.0.0.5")
    assert not served.allows("10.0.0.5:80")
    assert served.same_origin("https://kiosk.club.example", "kiosk.club.example")
    assert served.same_origin("https://kiosk.club.example:443", "kiosk.club.example")
    assert not served.same_origin("http://kiosk.club.example", "kiosk.club.example")
    assert not served.same_origin("null", "kiosk.club.example")
    assert served.same_origin("https://10.0.0.5/challenges", "10.0.0.5")  # a Referer: its path aside
