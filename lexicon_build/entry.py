"""The ``lexicon-build`` console script: the program under ``kiosk.console.run_guarded``.

Nothing but the guard is imported before it runs, so that even a broken installation (a library
missing) ends as an error, exit 2, with what is missing -- not as a bare traceback.
"""

from __future__ import annotations

import sys

from kiosk.console import run_guarded

__all__ = ["run"]


def run() -> None:
    """The ``lexicon-build`` program: every error exits 2, whatever the command."""

    def start() -> object:
        if getattr(sys, "frozen", False):  # frozen, verify, info and sign walk tries with this program
            from kiosk.core.packs.verification import WALK_ARGUMENT, child_main

            if sys.argv[1:] == [WALK_ARGUMENT]:
                return child_main()
        from lexicon_build.cli import main

        return main.main(standalone_mode=False)

    run_guarded(start)
