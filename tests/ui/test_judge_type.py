"""Judge pages' type: what a judge came for is not the smallest thing on the page, and a page that
says little says it in the type of a page, not of a poster broken mid-sentence.

At 1024x600 the recheck drew each word's result in the smallest type of its page (12 px, under a
15 px list), and the counts and log-status pages drew two or three short lines at 53 and 63 px,
broken mid-sentence ("Kept in memory after a log / failure: 0") only to grow larger still.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QLabel

from kiosk.ui.theme import FitLabel
from kiosk.ui.window import StationWindow
from tests.ui.conftest import JudgeFactory, JudgeRig, press, tab, type_text
from tests.ui.test_fit import SIZES, assert_every_text_fits
from tests.ui.test_judge import unlock


def judged(rig: JudgeRig, *plays: str) -> None:
    for play in plays:
        type_text(rig.window, play)
        tab(rig.window)
        rig.controller.verdict_timer.timeout.emit()


def title_px(window: StationWindow) -> int:
    title = window.findChild(QLabel, "judge-title")
    assert title is not None
    assert title.isVisible()
    return title.font().pixelSize()


def assert_broken_only_where_needed(label: FitLabel) -> None:
    """A line is broken only if it does not fit whole at the type the label shows."""
    metrics = QFontMetrics(label.font())
    fits_whole = all(
        metrics.horizontalAdvance(line) <= label.contentsRect().width() for line in label.source.split("\n")
    )
    if fits_whole:
        assert label.text() == label.source, f"{label.objectName()}: broken, though it fits whole"


@pytest.mark.parametrize("size", SIZES)
def test_each_words_result_on_the_recheck_is_larger_than_the_list(
    judge_station: JudgeFactory, size: tuple[int, int]
) -> None:
    rig = judge_station(size=size)
    judged(rig, "1qi", "3cat dogz qi")
    unlock(rig)
    type_text(rig.window, "1")
    recheck = rig.window.judge.recheck
    words = [label.font().pixelSize() for label in recheck.words if label.text()]
    rows = [line.font().pixelSize() for line in recheck.rows if line.text()]
    assert len(words) == 3
    assert len(rows) == 2
    assert min(words) > max(rows), f"each word's result {words} px, the list {rows} px"
    assert min(words) > recheck.details.font().pixelSize()
    assert_every_text_fits(rig.window)


@pytest.mark.parametrize("size", SIZES)
def test_a_judge_page_with_little_to_say_says_it_as_a_page_of_text(
    judge_station: JudgeFactory, size: tuple[int, int]
) -> None:
    rig = judge_station(size=size)
    judged(rig, "1qi")
    unlock(rig)
    window = rig.window
    for key, page in (("4", window.judge.counts), ("6", window.judge.status)):
        type_text(window, key)
        rig.advance(0.0)
        assert window.judge.current is page
        text = page.text
        assert text.isVisible()
        assert text.source.count("\n") <= 3, text.source  # a few short lines
        assert text.font().pixelSize() <= title_px(window), f"{text.objectName()} outgrows the page's title"
        assert_broken_only_where_needed(text)
        assert_every_text_fits(window)
        press(window, Qt.Key.Key_Escape)  # back to the menu
