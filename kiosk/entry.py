"""The ``kiosk`` console script: the program under ``kiosk.console.run_guarded``.

Nothing but the guard is imported before it runs, so that even a broken installation (a library
missing) ends as an error, exit 2, with what is missing -- never with Python's own exit code 1,
which is an UNACCEPTABLE ruling's.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import NoReturn

from kiosk.console import run_guarded

__all__ = ["run"]


def run(argv: Sequence[str] | None = None) -> NoReturn:
    """The ``kiosk`` program: 0 ACCEPTABLE, 1 UNACCEPTABLE, 2 anything that went wrong."""

    def start() -> object:
        if getattr(sys, "frozen", False):  # frozen, the station walks packs' tries with itself
            from kiosk.core.packs.verification import WALK_ARGUMENT, child_main

            if list(sys.argv[1:] if argv is None else argv) == [WALK_ARGUMENT]:
                return child_main()
        from kiosk.cli import kiosk

        return kiosk.main(args=None if argv is None else list(argv), standalone_mode=False)

    run_guarded(start)
