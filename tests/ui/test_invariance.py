"""Nothing about the verdict screen may depend on which word failed.

The screens for [GOOD, BAD] and [BAD, GOOD] differ only in the words as typed; an all-good and a
one-bad challenge differ only in the ruling. Compared: every widget's class, name, visibility,
geometry, text, font size, colours and accessible name, and the controller's timers.
"""

from __future__ import annotations

from PySide6.QtWidgets import QAbstractButton, QLabel, QWidget

from kiosk.ui.window import StationWindow
from tests.ui.conftest import StationFactory, tab, type_text

Snapshot = dict[str, tuple[object, ...]]


def snapshot(window: StationWindow) -> Snapshot:
    """Every property of every visible widget, keyed by its place in the tree."""
    shot: Snapshot = {}

    def walk(widget: QWidget, path: str) -> None:
        if not widget.isVisible():  # hidden screens (the entry behind the verdict) are not seen
            shot[path] = (type(widget).__name__, False)
            return
        text = widget.text() if isinstance(widget, QLabel | QAbstractButton) else None
        shot[path] = (
            type(widget).__name__,
            widget.isVisible(),
            widget.geometry().getRect(),
            text,
            widget.font().pixelSize(),
            # only widgets that fill their background paint its colour
            widget.palette().color(widget.backgroundRole()).name() if widget.autoFillBackground() else None,
            widget.styleSheet(),
            widget.accessibleName(),
            getattr(widget, "acceptable", None),
        )
        children = [c for c in widget.children() if isinstance(c, QWidget)]
        for index, child in enumerate(children):
            walk(child, f"{path}/{index}:{child.objectName()}")

    walk(window, "window")
    controller = window.controller
    for name in ("lockout_timer", "verdict_timer", "idle_timer"):
        timer = getattr(controller, name)
        shot[name] = (timer.interval(), timer.isActive(), timer.isSingleShot())
    shot["current"] = (window.stack.currentWidget() is window.verdict,)
    return shot


def verdict_for(station: StationFactory, typed: str) -> Snapshot:
    window = station().window
    type_text(window, typed)
    tab(window)
    assert window.stack.currentWidget() is window.verdict
    return snapshot(window)


def differences(a: Snapshot, b: Snapshot) -> dict[str, tuple[tuple[object, ...], tuple[object, ...]]]:
    assert a.keys() == b.keys()
    return {key: (a[key], b[key]) for key in a if a[key] != b[key]}


def test_which_word_failed_changes_only_the_words_shown(station: StationFactory) -> None:
    good_bad = verdict_for(station, "2cat zax")
    bad_good = verdict_for(station, "2zax cat")
    changed = differences(good_bad, bad_good)
    assert set(changed) == {key for key in good_bad if key.endswith(("slot-1-word", "slot-2-word"))}
    for before, after in changed.values():
        # only the word differs (its text and, for screen readers, its name): same geometry,
        # same font, same colours
        assert before[:3] == after[:3]
        assert before[4:7] == after[4:7]
        assert before[8:] == after[8:]
        assert {str(before[3]).rstrip("_"), str(after[3]).rstrip("_")} == {"CAT", "ZAX"}
        assert (before[7], after[7]) == (str(before[3]).rstrip("_"), str(after[3]).rstrip("_"))


def test_one_bad_word_changes_only_the_ruling(station: StationFactory) -> None:
    all_good = verdict_for(station, "3cat dog qi")
    one_bad = verdict_for(station, "3cat dog qix")
    also_bad = verdict_for(station, "3cax dog qi")
    changed = differences(all_good, one_bad)
    ruling_parts = ("verdict", "verdict-icon", "verdict-headline", "verdict-outcome", "verdict-consequence")
    words = ("slot-3-word",)
    for key in changed:
        assert key.endswith(ruling_parts + words), key
    assert any(key.endswith("verdict-headline") for key in changed)
    # two different bad words: nothing but the words differs between them
    bad_vs_bad = differences(one_bad, also_bad)
    assert all(key.endswith(("slot-1-word", "slot-3-word")) for key in bad_vs_bad)
