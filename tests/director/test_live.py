"""The director's view for real: station processes on a real PostgreSQL log, `kiosk director` as a
process of its own, and the page in Debian's headless chromium.

Three real stations (``kiosk station``, offscreen) report to the shared log, one of them not
ready (no judge PIN); a windowless station judges challenges into the same log. The page must show
each station's state without a word, follow changes without being reloaded (server-sent events),
say so when the database goes away and catch up when it is back, and open the recent challenges,
words and tables included, only with the judge PIN.

With ``KIOSK_DOCS_SHOTS=docs/screenshots`` the screenshots are also saved for the judges' guide.
"""

from __future__ import annotations

import dataclasses
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from kiosk.core.log.challenge import ChallengeEntry
from kiosk.core.packs.lexicon import load_lexicon
from kiosk.paths import default_pack_path
from kiosk.storage import open_station_storage
from kiosk.storage.database import open_engine
from kiosk.storage.migrations import upgrade
from tests.director.conftest import shots_folder
from tests.director.server import stop
from tests.storage.entries import make_entry
from tests.storage.postgres import PostgresServer, free_port

PIN = "482613"
KIOSK = Path(sys.executable).parent / "kiosk"
WAIT_S = 120
STALE_READS = 5  # a live update replaces the board's rows; a read that lost its row tries again
SECRET_WORDS = ("ZYZZYVA", "QUIXOTRY", "MUZJIKS")


def judged(
    words: list[str],
    station: str,
    table: int | None,
    bad: tuple[str, ...] = (),
    *,
    judged_at: datetime | None = None,
    rule: str = "double",
) -> ChallengeEntry:
    """A challenge as a station on the embedded pack judges it (the windowless stations' entries)."""
    info = load_lexicon(default_pack_path()).info
    entry = make_entry(words, station=station, table=table, bad=bad, judged_at=judged_at or datetime.now(UTC))
    ruling = dataclasses.replace(
        entry.ruling, pack_name=info.name, pack_edition=info.edition, set_hash=info.set_hash
    )
    return dataclasses.replace(entry, ruling=ruling, rule_profile=rule)


def run_env() -> dict[str, str]:
    return {**os.environ, "QT_QPA_PLATFORM": "offscreen"}


@contextmanager
def process(args: list[str], log: Path) -> Iterator[subprocess.Popen[bytes]]:
    """A process of ours, stopped (SIGTERM, then SIGKILL) whatever happens."""
    with log.open("wb") as out:
        child = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT, env=run_env())
        try:
            yield child
        finally:
            stop(child, signal.SIGTERM)


def start_station(folder: Path, name: str, url: str, *, pin: bool) -> list[str]:
    folder.mkdir(parents=True)
    config = folder / "station.toml"
    config.write_text(
        f'station_name = "{name}"\ndatabase_url = "{url}"\nask_table = true\n', encoding="utf-8"
    )
    data = folder / "data"
    if pin:
        subprocess.run(
            [str(KIOSK), "set-pin", "--stdin", "--config", str(config), "--data-dir", str(data)],
            input=f"{PIN}\n",
            text=True,
            check=True,
            capture_output=True,
        )
    args = [str(KIOSK), "station", "--config", str(config), "--data-dir", str(data)]
    return args if pin else [*args, "--kiosk-session"]  # shows "not ready" instead of exiting


def director_command(folder: Path, url: str) -> list[str]:
    """``kiosk director`` on the log at ``url``, its judge PIN (``PIN``) set in ``folder`` first, as
    the director sets it on the laptop."""
    subprocess.run(
        [str(KIOSK), "set-pin", "--stdin", "--data-dir", str(folder)],
        input=f"{PIN}\n",
        text=True,
        check=True,
        capture_output=True,
    )
    return [str(KIOSK), "director", "--database-url", url, "--data-dir", str(folder)]


def fresh_text(read: Callable[[], str]) -> str:
    """``read()``, again if the live page replaced the element between finding it and reading it
    (selenium's StaleElementReferenceException, which WebDriverWait does not ignore)."""
    for _ in range(STALE_READS - 1):
        try:
            return read()
        except StaleElementReferenceException:
            continue
    return read()


def board_text(browser: webdriver.Chrome) -> str:
    return fresh_text(lambda: str(browser.find_element(By.ID, "live").text))


def station_row(browser: webdriver.Chrome, name: str) -> str:
    def read() -> str:
        rows = browser.find_elements(By.CSS_SELECTOR, f'tr[data-station="{name}"]')
        return str(rows[0].text) if rows else ""

    return fresh_text(read)


def division_row(browser: webdriver.Chrome, name: str) -> str:
    def read() -> str:
        rows = browser.find_elements(By.CSS_SELECTOR, f'tr[data-division="{name}"]')
        return " ".join(str(rows[0].text).split()) + " " if rows else ""

    return fresh_text(read)


def wait_for(browser: webdriver.Chrome, what: str, check: Callable[[webdriver.Chrome], bool]) -> None:
    try:
        WebDriverWait(browser, WAIT_S, poll_frequency=0.2).until(check)
    except Exception as exc:  # selenium's TimeoutException: say what the page showed
        raise AssertionError(f"the page never showed {what}; it shows:\n{board_text(browser)}") from exc


def open_once_served(browser: webdriver.Chrome, url: str, served: subprocess.Popen[bytes], log: Path) -> None:
    """Open ``url`` as soon as the director started as ``served`` answers it (its output in ``log``)."""
    deadline = time.monotonic() + WAIT_S
    while True:
        try:
            browser.get(url)
            return
        except Exception:
            assert served.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.3)


def shoot(browser: webdriver.Chrome, tmp_path: Path, name: str) -> None:
    path = tmp_path / f"{name}.png"
    assert browser.save_screenshot(str(path))
    assert path.stat().st_size > 10_000  # a page, not a blank
    docs = shots_folder()
    if docs is not None:
        browser.save_screenshot(str(docs / f"{name}.png"))


def test_the_director_watches_real_stations_in_a_real_browser(
    tmp_path: Path, postgres_server: PostgresServer, postgres_url: str, browser: webdriver.Chrome
) -> None:
    engine = open_engine(postgres_url)
    upgrade(engine)  # the log's schema first, as the first station of an event would
    engine.dispose()
    port = free_port()
    director = [*director_command(tmp_path / "director", postgres_url), "--port", str(port)]
    stations = {
        "Station A": start_station(tmp_path / "a", "Station A", postgres_url, pin=True),
        "Station B": start_station(tmp_path / "b", "Station B", postgres_url, pin=True),
        "Station C": start_station(tmp_path / "c", "Station C", postgres_url, pin=False),
    }
    with (
        process(stations["Station A"], tmp_path / "a.log"),
        process(stations["Station B"], tmp_path / "b.log"),
        process(stations["Station C"], tmp_path / "c.log"),
        process(director, tmp_path / "director.log") as served,
        open_station_storage(tmp_path / "windowless", postgres_url) as judging,
    ):
        now = datetime.now(UTC)
        judging.log.record(judged(["ZYZZYVA", "QUIXOTRY"], "Station A", 7, judged_at=now))
        judging.log.record(judged(["MUZJIKS", "QIX"], "Station B", 31, ("QIX",), judged_at=now))
        url = f"http://127.0.0.1:{port}/"
        open_once_served(browser, url, served, tmp_path / "director.log")
        browser.execute_script("window.kioskNotReloaded = true")
        wait_for(
            browser,
            "both ready stations",
            lambda b: "ready" in station_row(b, "Station A") and "ready" in station_row(b, "Station B"),
        )
        wait_for(browser, "station C not ready", lambda b: "not ready" in station_row(b, "Station C"))
        c_row = station_row(browser, "Station C")
        assert "why: on the judges' page" in c_row
        assert "kiosk set-pin" not in c_row  # the command and its paths are behind the PIN
        a_row = station_row(browser, "Station A")
        assert "Open: ENABLE demo enable1" in a_row
        assert "asks for tables" in a_row
        assert "Double challenge" in a_row  # the rule in words
        wait_for(browser, "the division's counts", lambda b: " 2 2 1 (50%) " in division_row(b, "Open"))
        page = browser.page_source
        for word in SECRET_WORDS:
            assert word not in page
        shoot(browser, tmp_path, "41-director-board")

        # A new challenge shows without a reload.
        judging.log.record(judged(["CAT"], "Station A", None))
        wait_for(browser, "the new challenge counted", lambda b: " 3 3 1 (33%) " in division_row(b, "Open"))
        assert browser.execute_script("return window.kioskNotReloaded") is True

        # The database goes away: the page stays, and says so; then it catches up.
        postgres_server.stop()
        try:
            wait_for(browser, "the log away", lambda b: "The log cannot be read since" in board_text(b))
            assert "Station A" in board_text(browser)  # what it said last
            shoot(browser, tmp_path, "42-director-log-away")
        finally:
            postgres_server.start()
        wait_for(browser, "the log back", lambda b: "cannot be read" not in board_text(b))
        assert browser.execute_script("return window.kioskNotReloaded") is True

        # The words are behind the judge PIN.
        browser.get(url + "challenges")
        assert "ZYZZYVA" not in browser.page_source
        shoot(browser, tmp_path, "43-director-pin")
        field = browser.find_element(By.NAME, "pin")
        field.send_keys("000000")
        field.submit()
        wait_for(
            browser,
            "a wrong PIN refused",
            lambda b: "Wrong PIN: 1 wrong PIN in a row from this device." in b.page_source,
        )
        assert "ZYZZYVA" not in browser.page_source
        field = browser.find_element(By.NAME, "pin")
        field.send_keys(PIN)
        field.submit()
        wait_for(browser, "the challenges", lambda b: bool(b.find_elements(By.ID, "challenges")))
        table = browser.find_element(By.ID, "challenges").text
        assert "✓ ZYZZYVA" in table
        assert "✗ QIX not in the lexicon" in table
        assert "Station B 31 Open UNACCEPTABLE" in table
        details = browser.find_element(By.ID, "station-details").text
        assert "no judge PIN is set" in details  # station C's reason, in full
        assert "kiosk set-pin" in details  # the command that fixes it
        shoot(browser, tmp_path, "44-director-challenges")
        browser.find_element(By.ID, "lock").click()  # Lock now: a form of the page, posted
        wait_for(browser, "the page locked", lambda b: bool(b.find_elements(By.NAME, "pin")))
        assert "ZYZZYVA" not in browser.page_source
        assert served.poll() is None
        served.send_signal(signal.SIGINT)  # Ctrl+C, with the page's stream still open
        assert served.wait(30) == 0, (tmp_path / "director.log").read_text()
