"""A station that speaks: each step said once, in the station's language, F1 says the screen again."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from kiosk.core.play.speech import Spelled
from kiosk.core.station.config import Access
from kiosk.core.words.language import load_catalogue
from kiosk.ui.speaker import SPOKEN_KEPT
from tests.ui.conftest import StationFactory, press, tab, type_text

K = Qt.Key


def test_each_step_is_said_once_and_the_verdict_once(station: StationFactory) -> None:
    rig = station(access=Access(speech=True))
    window = rig.window
    speaker = window.speaker
    assert speaker.voice is not None
    type_text(window, "2cat dogz")
    assert [s.parts for s in speaker.spoken[1:4]] == [(Spelled((c,)),) for c in "CAT"]
    press(window, K.Key_Return, "\r")
    assert speaker.spoken[-1].text.startswith("All 2 words typed. Word 1. C A T. Word 2. D O G Z.")
    tab(window)
    assert speaker.spoken[-1].text.startswith("The play is unacceptable.")
    said_before = len(speaker.spoken)
    rig.controller.lockout_timer.timeout.emit()  # the verdict's screen changes; nothing is said
    assert len(speaker.spoken) == said_before
    press(window, K.Key_Space, " ")
    assert speaker.spoken[-1].text.startswith("CHALLENGER: how many words are challenged?")
    texts = [s.text for s in speaker.spoken]
    verdicts = [index for index, text in enumerate(texts) if "unacceptable" in text]
    assert len(verdicts) == 1  # once, not again when the lock-out ends
    assert not [text for text in texts[verdicts[0] :] if "D O G Z" in text]  # no word after the Tab


def test_f1_says_the_screen_again_and_keeps_the_entry(station: StationFactory) -> None:
    rig = station(access=Access(speech=True))
    window = rig.window
    type_text(window, "3cat do")
    rig.controller.idle_timer.timeout.emit()
    assert rig.controller.state.clearing_in_s == 20
    assert window.speaker.spoken[-1].text == "The entry clears in 20 seconds: press any key to keep it."
    press(window, K.Key_F1)
    repeated = window.speaker.spoken[-1].text
    assert "CHALLENGER: type word 2 of 3." in repeated
    assert "Word 1. C A T. Word 2. D O." in repeated
    assert rig.controller.state.clearing_in_s == 0  # one key kept the words
    assert rig.controller.state.entered == ("cat", "do")


def test_a_french_station_speaks_french(station: StationFactory) -> None:
    rig = station(access=Access(speech=True), language="fr")
    window = rig.window
    type_text(window, "1chat")
    tab(window)
    assert window.speaker.spoken[-1].language == "fr"
    assert window.speaker.spoken[-1].text.startswith("Le coup n'est pas valable.")  # CHAT: English pack


def test_a_silent_station_still_tells_screen_readers(station: StationFactory) -> None:
    rig = station()
    assert rig.window.speaker.voice is None
    type_text(rig.window, "1cat")
    tab(rig.window)
    assert rig.window.speaker.spoken[-1].text.startswith("The play is acceptable.")


def test_the_catalogue_has_the_french_verdict() -> None:
    assert load_catalogue("fr").text("The play is acceptable.").startswith("Le coup est")


def test_the_repeat_key_is_the_one_the_station_names() -> None:
    from kiosk.core.play.speech import REPEAT_KEY
    from kiosk.ui.keymap import REPEAT_KEY as QT_REPEAT_KEY

    assert getattr(Qt.Key, f"Key_{REPEAT_KEY}") == QT_REPEAT_KEY


def test_the_speaker_keeps_only_the_last_steps_said(station: StationFactory) -> None:
    """A station says ~140 steps a challenge for days: what it said must not pile up in memory."""
    window = station().window
    speaker = window.speaker
    for _ in range(2 * SPOKEN_KEPT):
        type_text(window, "1")
        press(window, Qt.Key.Key_Escape)
    assert SPOKEN_KEPT <= len(speaker.spoken) < 2 * SPOKEN_KEPT
    type_text(window, "1c")
    assert speaker.spoken[-1].parts == (Spelled(("C",)),)


NOT_READY = "Station not ready: call a judge. This station cannot judge challenges right now."


def test_a_station_that_cannot_serve_says_so_and_again_at_any_key(station: StationFactory) -> None:
    """A blind player at a station that stopped serving (no PIN, a log it cannot open) hears why
    nothing answers: once when it stops, and again at any key they press (each checked again
    while it stays not ready says nothing new); back in service, the ready screen is silent."""
    rig = station(access=Access(speech=True))
    window = rig.window
    speaker = window.speaker
    window.show_not_ready("the challenge log cannot be opened")
    assert speaker.spoken[-1].text == NOT_READY
    said = len(speaker.spoken)
    window.show_not_ready("the challenge log cannot be opened")  # the station's next check
    assert len(speaker.spoken) == said
    press(window, K.Key_F1)
    assert (len(speaker.spoken), speaker.spoken[-1].text) == (said + 1, NOT_READY)
    press(window, K.Key_A, "a")
    assert (len(speaker.spoken), speaker.spoken[-1].text) == (said + 2, NOT_READY)
    held = QKeyEvent(QKeyEvent.Type.KeyPress, K.Key_A, Qt.KeyboardModifier.NoModifier, "a", True)
    QApplication.sendEvent(window, held)  # a key held down: not said again at every repeat
    assert len(speaker.spoken) == said + 2
    window.serve_again()
    assert len(speaker.spoken) == said + 2
    press(window, K.Key_2, "2")
    assert speaker.spoken[-1].text != NOT_READY
    assert rig.controller.state.expected == 2  # keys count again once it serves


def test_a_french_station_that_cannot_serve_says_so_in_french(station: StationFactory) -> None:
    rig = station(access=Access(speech=True), language="fr")
    rig.window.show_not_ready("no judge PIN")
    said = rig.window.speaker.spoken[-1]
    assert (said.language, said.text) == (
        "fr",
        "Borne indisponible\u00a0: appelez un arbitre. Cette borne ne peut pas arbitrer de contestation pour "
        "l'instant.",
    )


def test_a_station_that_could_not_start_says_so_aloud_when_it_speaks(qtbot: QtBot) -> None:
    """The start-up notice (a pack refused, a log folder it cannot write): said when painted and at
    any fresh key, in the station's language, through the voice when [access] speech is on."""
    from kiosk.ui.notready import NotReadyWindow

    window = NotReadyWindow("the pack is damaged", load_catalogue("fr"), speech=True)
    qtbot.addWidget(window)
    window.resize(1024, 600)
    window.show()
    qtbot.waitUntil(lambda: len(window.said) == 1)
    assert window.voice is not None
    assert window.said[0].language == "fr"
    assert window.said[0].text.startswith("Borne indisponible\u00a0: appelez un arbitre.")
    QApplication.sendEvent(
        window, QKeyEvent(QKeyEvent.Type.KeyPress, K.Key_A, Qt.KeyboardModifier.NoModifier, "a")
    )
    assert len(window.said) == 2
    held = QKeyEvent(QKeyEvent.Type.KeyPress, K.Key_A, Qt.KeyboardModifier.NoModifier, "a", True)
    QApplication.sendEvent(window, held)
    assert len(window.said) == 2  # a key held down: said once
    silent = NotReadyWindow("the pack is damaged")
    qtbot.addWidget(silent)
    assert silent.voice is None  # a station that does not speak: screen readers only
