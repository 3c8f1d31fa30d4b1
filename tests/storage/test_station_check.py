"""``kiosk station --check`` contacts the shared log as the station would: a wrong password, port,
host, database or role is found before the players arrive, each said with what to do."""

from __future__ import annotations

import re
import uuid
from pathlib import Path

import pytest
from click.testing import CliRunner

from kiosk.cli import kiosk
from kiosk.storage.hall import HallControls
from kiosk.storage.server import SharedLogSetUp, set_up_shared_log
from tests.storage.postgres import PostgresServer, free_port


@pytest.fixture
def event(secure_postgres: PostgresServer) -> SharedLogSetUp:
    database = f"chk_{uuid.uuid4().hex[:10]}"
    return set_up_shared_log(
        secure_postgres.admin_url(), database=database, stations=["Table 1", "Table 2"], host="127.0.0.1"
    )


def url_of(event: SharedLogSetUp, station: str) -> str:
    found = next(s.url for s in event.stations if s.station == station)
    assert found is not None
    return found


def check(tmp_path: Path, name: str, url: str, *, pin: bool = False) -> tuple[int, str]:
    """``kiosk station --check`` of a station with this line; ``pin``: its judge PIN set first, as
    the install steps do (a station without one is not OK, whatever its log)."""
    tmp_path.mkdir(exist_ok=True)
    config = tmp_path / "station.toml"
    config.write_text(f'station_name = "{name}"\ndatabase_url = "{url}"\n', encoding="utf-8")
    where = ["--config", str(config), "--data-dir", str(tmp_path / "d")]
    if pin:
        set_pin = CliRunner().invoke(kiosk, ["set-pin", *where, "--stdin"], input="482613\n")
        assert set_pin.exit_code == 0, set_pin.output
    result = CliRunner().invoke(kiosk, ["station", *where, "--check"])
    return result.exit_code, result.output


def test_a_station_checks_its_shared_log_before_the_event(event: SharedLogSetUp, tmp_path: Path) -> None:
    assert event.director is not None
    assert event.director.url is not None
    controls = HallControls(event.director.url)
    try:
        controls.set_round(4)
    finally:
        controls.close()
    code, output = check(tmp_path, "Table 1", url_of(event, "Table 1"), pin=True)
    assert code == 0, output
    assert re.search(r"Challenge log: the shared log at \S+ answers \(schema \d+\); its role \w+ adds "
                     r"station 'Table 1''s challenges; round 4", output), output  # fmt: skip
    assert "OK: the station can start" in output
    assert "(not contacted" not in output


def test_every_wrong_line_in_a_station_toml_is_found_and_said_with_what_to_do(
    event: SharedLogSetUp, tmp_path: Path
) -> None:
    good = url_of(event, "Table 1")
    port = re.search(r":(\d+)/", good)
    assert port is not None
    bad_password = re.sub(r":[^:@/]+@", ":not-the-password@", good)
    bad_port = good.replace(f":{port[1]}/", f":{free_port()}/")
    assert event.director is not None
    assert event.director.url is not None
    wrong = {
        "password": (bad_password, "the password in database_url is not this role's"),
        "port": (bad_port, "nothing answers at that address and port"),
        "database": (good.rsplit("/", 1)[0] + "/nosuchlog", "check the role and the database"),
        "the director's role": (event.director.url, "cannot add challenges"),
        "another station's line": (url_of(event, "Table 2"), "add only station 'Table 2''s challenges"),
    }  # fmt: skip
    for mistake, (url, said) in wrong.items():
        code, output = check(tmp_path / mistake.replace(" ", "-"), "Table 1", url)
        assert code == 2, f"{mistake}: {output}"
        assert said in output, f"{mistake}: {output}"
        assert "OK:" not in output
        assert "not-the-password" not in output  # a password is never printed
