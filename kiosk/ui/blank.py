"""A screen's words as it was built, to go back to once what it showed is over.

A hidden screen is still read: a screen reader, a magnifier or any program on the accessibility
bus walks the whole tree, the screens a stack is not showing included. So a players' screen that
showed a pair's words and ruling is put back as it was built before the next pair comes (its
labels' and buttons' texts, and the accessible names and descriptions set since), and shows
nothing of them again until it is painted anew for the next play.
"""

from __future__ import annotations

from dataclasses import dataclass

import shiboken6
from PySide6.QtWidgets import QAbstractButton, QLabel, QWidget

from kiosk.ui.theme import FitButton, FitLabel

__all__ = ["Blank"]


def _text(widget: QWidget) -> str | None:
    if isinstance(widget, FitLabel):
        return widget.source
    if isinstance(widget, FitButton):
        return widget.full_text
    if isinstance(widget, QLabel | QAbstractButton):
        return widget.text()
    return None


@dataclass(frozen=True)
class Blank:
    """What ``view`` and each widget in it said when it was built (``Blank.of``), to ``restore``."""

    view: QWidget
    said: tuple[tuple[QWidget, str | None, str, str], ...]

    @classmethod
    def of(cls, view: QWidget) -> Blank:
        widgets = (view, *view.findChildren(QWidget))
        return cls(view, tuple((w, _text(w), w.accessibleName(), w.accessibleDescription()) for w in widgets))

    def restore(self) -> None:
        """Every widget of the view as it was built; one added since (a touch keyboard for another
        alphabet) holds keys, not a play, and is left as it is."""
        for widget, text, name, description in self.said:
            if not shiboken6.isValid(widget):  # deleted since (a keyboard replaced)
                continue
            if text is not None and _text(widget) != text:
                assert isinstance(widget, QLabel | QAbstractButton)
                widget.setText(text)
            if widget.accessibleName() != name:
                widget.setAccessibleName(name)
            if widget.accessibleDescription() != description:
                widget.setAccessibleDescription(description)
