"""Where the station finds its files: the embedded default pack and its data directory.

Nothing is resolved at import time; ``main()`` calls these with the flag it was given.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

__all__ = [
    "DATA_DIR_ENV",
    "DEFAULT_PACK_ENV",
    "DEFAULT_PACK_NAME",
    "data_dir",
    "default_pack_path",
    "guide_dir",
]

DEFAULT_PACK_NAME = "enable-demo.kxpack"
DEFAULT_PACK_ENV = "KIOSK_DEFAULT_PACK"
DATA_DIR_ENV = "KIOSK_DATA_DIR"
APP_NAME = "challenge-kiosk"


def _bundle_root() -> Path:
    """The folder holding ``data/``: the PyInstaller bundle when frozen, else the source tree."""
    frozen_root = getattr(sys, "_MEIPASS", None)
    if frozen_root is not None:
        return Path(frozen_root)
    return Path(__file__).resolve().parent.parent


def default_pack_path() -> Path:
    """The embedded default pack (ENABLE, a demo/club list), unless the environment names another."""
    override = os.environ.get(DEFAULT_PACK_ENV)
    if override:
        return Path(override)
    return _bundle_root() / "data" / DEFAULT_PACK_NAME


def guide_dir() -> Path:
    """The guides (``docs/``): beside the programs in the bundle, where an operator looks for them."""
    if getattr(sys, "frozen", False):
        return Path(sys.executable).resolve().parent / "docs"
    return Path(__file__).resolve().parent.parent / "docs"


def data_dir(flag: Path | None = None) -> Path:
    """The station's data directory: the flag, then $KIOSK_DATA_DIR, then the platform's own."""
    if flag is not None:
        return flag
    env = os.environ.get(DATA_DIR_ENV)
    if env:
        return Path(env)
    import platformdirs  # ~5 ms at start-up, paid only when neither the flag nor the variable is set

    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))
