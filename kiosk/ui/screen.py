"""Putting a window on the station's screen, the same way for the station and its notices."""

from __future__ import annotations

from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QWidget

__all__ = ["fill_screen"]


def fill_screen(window: QWidget, screen_index: int) -> None:
    """Show ``window`` full screen on the configured screen (the primary one if it is missing).

    Without a window manager ``showFullScreen`` does not resize: the geometry is set first.
    """
    screens = QGuiApplication.screens()
    screen = screens[screen_index] if screen_index < len(screens) else QGuiApplication.primaryScreen()
    window.setGeometry(screen.geometry())
    window.showFullScreen()
    window.activateWindow()
    window.setFocus()
