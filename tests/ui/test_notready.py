"""The "Station not ready — call a judge" screen, shown in a kiosk session that cannot start."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QCloseEvent, QKeyEvent
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from kiosk.core.errors import ConfigError, KioskError, NotAPackError
from kiosk.core.station.config import load_divisions
from kiosk.station import load_station_config, stated_words, station_words
from kiosk.ui.notready import NotReadyWindow
from kiosk.ui.theme import fits
from tests.ui.test_fit import assert_every_text_fits

PROBLEM = (
    "/etc/challenge-kiosk/school.kxpack is damaged: its contents do not match their SHA-256 checksum; "
    "rebuild it with lexicon-build, or copy it again from the organiser's original"
)


def _window(qtbot: QtBot, width: int, height: int) -> NotReadyWindow:
    window = NotReadyWindow(PROBLEM)
    qtbot.addWidget(window)
    window.setGeometry(QRect(0, 0, width, height))
    window.show()
    qtbot.waitExposed(window)
    return window


def test_players_read_call_a_judge_and_the_judge_reads_the_file_and_the_fix(qtbot: QtBot) -> None:
    window = _window(qtbot, 1024, 600)
    assert window.headline.text() == "Station not ready \u2014 call a judge"
    shown = window.problem.source.replace("\n", " ")
    assert "/etc/challenge-kiosk/school.kxpack is damaged" in shown
    assert "rebuild it with lexicon-build" in shown
    for label in (window.headline, window.players, window.problem, window.how):
        assert label.isVisible()
        assert fits(label.font(), label.text(), label.width(), label.height()), label.text()
        assert label.font().pixelSize() >= 10


def test_it_cannot_be_closed_only_the_judges_chord_leaves(qtbot: QtBot) -> None:
    window = _window(qtbot, 1920, 1080)
    left: list[bool] = []
    window.left.connect(lambda: left.append(True))
    close = QCloseEvent()
    QApplication.sendEvent(window, close)
    assert not close.isAccepted()
    for key, mods in (
        (Qt.Key.Key_F4, Qt.KeyboardModifier.AltModifier),
        (Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier),
        (Qt.Key.Key_Escape, Qt.KeyboardModifier.NoModifier),
    ):
        QApplication.sendEvent(window, QKeyEvent(QKeyEvent.Type.KeyPress, key, mods))
    assert left == []
    chord = (
        Qt.KeyboardModifier.ControlModifier
        | Qt.KeyboardModifier.AltModifier
        | Qt.KeyboardModifier.ShiftModifier
    )
    QApplication.sendEvent(window, QKeyEvent(QKeyEvent.Type.KeyPress, Qt.Key.Key_Q, chord))
    assert left == [True]


def test_a_station_that_cannot_start_says_why_in_its_language(qtbot: QtBot, tmp_path: Path) -> None:
    """A French station whose pack was damaged on disk: the headline, the judge's line and the
    way out in French, the file as it is; the station's language read from its configuration."""
    config = tmp_path / "station.toml"
    pack = tmp_path / "school.kxpack"
    config.write_text(f'language = "fr"\n[[divisions]]\nname = "Ecoles"\npack = "{pack}"\n')
    pack.write_bytes(b"")
    loaded = load_station_config(config)
    with pytest.raises(NotAPackError) as refused:
        load_divisions(loaded)
    window = NotReadyWindow(refused.value.wording, station_words(loaded))
    qtbot.addWidget(window)
    window.setGeometry(QRect(0, 0, 1024, 600))
    window.show()
    qtbot.waitExposed(window)
    assert window.headline.text() == "Borne indisponible \u2014 appelez un arbitre"
    said = f"Pour l'arbitre\u00a0: {config}\u00a0: division 'Ecoles', pack\u00a0: {pack} est vide (0 octet)"
    assert "".join(window.problem.source.split()).startswith("".join(said.split()))  # wrapped anywhere
    assert window.how.source == "Corrigez-le, puis appuyez sur Ctrl+Alt+Shift+Q pour relancer la borne."
    assert_every_text_fits(window)


def _zip(path: Path) -> None:
    import zipfile

    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("club.txt", "AA\nAB\n")


@pytest.mark.parametrize(
    ("language", "mistake", "said"),
    [
        (
            "fr",
            "youth_rule = true",
            "Pour l'arbitre\u00a0: {config}, division 1\u00a0: cl\u00e9 inconnue 'youth_rule'\u00a0; les "
            "cl\u00e9s possibles ici sont\u00a0: colour, expect, language, name, pack, second_opinion_pack, "
            "youth_rules",
        ),
        (
            "es",
            "youth_rules = 1",
            "Para el juez: {config}, divisi\u00f3n 1: 'youth_rules' debe ser true o false (valor "
            "encontrado: 1)",
        ),
        (
            "fr",
            'pack = "club.zip"',
            "Pour l'arbitre\u00a0: {config}\u00a0: division 'Open', pack\u00a0: {folder}/club.zip est "
            "une archive zip, et non un lexique\u00a0; d\u00e9compressez-la et donnez le fichier qu'elle "
            "contient",
        ),
        (
            "es",
            'pack = "club.zip"',
            "Para el juez: {config}: divisi\u00f3n 'Open', pack: {folder}/club.zip es un archivo zip, no un "
            "l\u00e9xico; descompr\u00edmalo e indique el archivo que contiene",
        ),
    ],
)
def test_a_director_s_mistake_is_said_whole_in_the_station_language(
    qtbot: QtBot, tmp_path: Path, language: str, mistake: str, said: str
) -> None:
    """A misspelt key, a wrong value, a zip given as the pack: the judge reads the whole message in
    the language the configuration asks for (even when the configuration itself is the mistake),
    with no English left but the file's own keys and names."""
    config = tmp_path / "station.toml"
    config.write_text(f'language = "{language}"\n[[divisions]]\nname = "Open"\n{mistake}\n')
    _zip(tmp_path / "club.zip")
    with pytest.raises(KioskError) as refused:
        load_divisions(load_station_config(config))
    assert isinstance(refused.value, ConfigError | NotAPackError)
    window = NotReadyWindow(refused.value.wording, stated_words(config))
    qtbot.addWidget(window)
    window.setGeometry(QRect(0, 0, 1024, 600))
    window.show()
    qtbot.waitExposed(window)
    shown = window.problem.source
    expected = said.format(config=config, folder=tmp_path)
    assert "".join(shown.split()) == "".join(expected.split()), shown  # wrapped anywhere
    assert "anglais" not in shown
    assert "ingl\u00e9s" not in shown
    assert_every_text_fits(window)
