"""The first frame of a first start on a new pack: "Checking the word list…" while the walk runs.

The walk of a pack not seen before (a forked child) is the longest part of a first start; the
station paints this window first, takes no key on it, and its own window replaces it once every
pack is proven (``kiosk.ui.checking``, ``kiosk.station.start_station``, ``run_station``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QCloseEvent, QKeyEvent
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot
from shiboken6 import isValid

from kiosk.core.errors import StorageError
from kiosk.core.packs.verification import PackWalker, WalkCache, WalkedTries, WalkRefusedError, walk_tries
from kiosk.core.station.config import Division, StationConfig, Verifier, start_divisions
from kiosk.core.words.alphabet import Alphabet
from kiosk.core.words.language import load_catalogue
from kiosk.paths import station_data
from kiosk.station import LazyStorage, start_station
from kiosk.ui.app import run_station
from kiosk.ui.checking import CheckingWindow, show_checking
from tests.conftest import PackFactory

WORDS = ["CAT", "CATS", "DOG", "QI", "ZA"]


def slow_walk(words: bytes, youth: bytes | None, count: int, alphabet: Alphabet) -> WalkedTries:
    """The walk, a second late (in the forked child): a walk still running when the station looks."""
    time.sleep(1.0)
    return walk_tries(words, youth, count, alphabet)


def test_it_says_so_in_the_station_s_language_and_takes_no_key(qtbot: QtBot) -> None:
    window = show_checking(load_catalogue("fr"))
    assert window.isVisible()
    assert window.headline.text() == "Vérification de la liste de mots…"
    assert window.soon.text() == "La borne ouvre dans un instant."
    for key, text in ((Qt.Key.Key_Tab, ""), (Qt.Key.Key_A, "a"), (Qt.Key.Key_Escape, "")):
        QApplication.sendEvent(
            window, QKeyEvent(QKeyEvent.Type.KeyPress, key, Qt.KeyboardModifier.NoModifier, text)
        )
    close = QCloseEvent()
    QApplication.sendEvent(window, close)
    assert not close.isAccepted()  # Alt+F4 and the like
    assert window.isVisible()
    window.done()
    assert not window.isVisible()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    assert not isValid(window)  # gone, not only hidden


def test_a_walk_still_running_is_seen_and_a_remembered_one_is_not(
    tmp_path: Path, make_pack: PackFactory
) -> None:
    pack = make_pack(WORDS)
    config = StationConfig(divisions=(Division(name="Open", pack=pack),))
    cache = WalkCache(tmp_path / "walks")
    slow = Verifier(walker=PackWalker(cache=cache, walk=slow_walk, fork=True))
    loading = start_divisions(config, slow)
    assert loading.walking()  # the station shows "Checking the word list…"
    (division,) = loading.result()
    assert "CAT" in division.lexicon
    assert not loading.walking()
    again = start_divisions(config, Verifier(walker=PackWalker(cache=cache, walk=slow_walk, fork=True)))
    assert not again.walking()  # remembered in the data directory: straight to the ready frame


def test_the_station_s_first_frame_replaces_the_checking_window(
    qtbot: QtBot, tmp_path: Path, make_pack: PackFactory
) -> None:
    config = StationConfig(divisions=(Division(name="Open", pack=make_pack(WORDS)),))
    divisions = start_divisions(config).result()
    where = station_data(config, data_dir=tmp_path / "data")
    checking = show_checking(None)
    storage = LazyStorage(where.data_dir, where.database_url)
    storage.open().judge_access.set_pin("864209")  # a station without a PIN serves nobody
    try:
        code = run_station(config, divisions, where, storage.open, smoke=True, replacing=checking)
    finally:
        storage.close()
    assert code == 0
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    assert not isValid(checking)
    assert not [w for w in QApplication.topLevelWidgets() if isinstance(w, CheckingWindow)]


def refusing_walk(words: bytes, youth: bytes | None, count: int, alphabet: Alphabet) -> WalkedTries:
    """A walk that takes a second, then finds the trie is not what the pack says."""
    time.sleep(1.0)
    raise WalkRefusedError("its word trie holds 3 words where its manifest says 5")


def folder_refused(_folder: Path) -> None:
    raise StorageError("the data folder cannot be written (read-only file system)")


@pytest.mark.parametrize(
    ("walk", "data_dir_check", "said"),
    [
        (refusing_walk, None, "holds 3 words where its manifest says 5"),
        (slow_walk, folder_refused, "the data folder cannot be written"),
    ],
    ids=["the walk refuses the pack", "the data folder cannot be used"],
)
@pytest.mark.parametrize("kiosk_session", [True, False], ids=["kiosk session", "terminal"])
def test_a_start_that_fails_after_the_checking_frame_takes_it_down_and_says_why(
    qtbot: QtBot,
    tmp_path: Path,
    make_pack: PackFactory,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    walk: Callable[[bytes, bytes | None, int, Alphabet], WalkedTries],
    data_dir_check: Callable[[Path], None] | None,
    said: str,
    kiosk_session: bool,
) -> None:
    """A first start: "Checking the word list…", then the start fails: the checking window goes,
    and a kiosk session shows "Station not ready — call a judge" (a terminal's station says why
    on standard error), exit 2 either way."""
    config = tmp_path / "station.toml"
    config.write_text(f'[[divisions]]\nname = "Open"\npack = "{make_pack(WORDS)}"\n', encoding="utf-8")
    verifier = Verifier(walker=PackWalker(cache=WalkCache(tmp_path / "walks"), walk=walk, fork=True))
    monkeypatch.setattr("kiosk.station.station_verifier", lambda *_args, **_kwargs: verifier)
    if data_dir_check is not None:
        monkeypatch.setattr("kiosk.paths.check_data_dir", data_dir_check)
    with pytest.raises(SystemExit) as left:
        start_station(config, tmp_path / "data", touch=False, smoke=True, kiosk_session=kiosk_session)
    assert left.value.code == 2
    out, err = capsys.readouterr()
    assert "first frame painted" in out
    assert "Checking the word list" in out
    if kiosk_session:
        assert out.index("first frame painted") < out.index("not-ready frame painted"), out
    else:
        assert "not-ready frame painted" not in out
    assert said in err
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    assert not [w for w in QApplication.topLevelWidgets() if isinstance(w, CheckingWindow) and isValid(w)]
