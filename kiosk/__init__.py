"""The challenge kiosk: a word-challenge station for Scrabble tournaments.

``kiosk.core`` is the headless heart (normaliser, packs, lexicons, adjudication, the screen flow);
``kiosk.storage`` the challenge log; ``kiosk.ui`` the only package that imports Qt.
"""

__version__ = "0.1.0"
