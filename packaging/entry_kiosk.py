"""Frozen entry point of the `kiosk` program (the station and its command-line tools).

Frozen, there is no Python to run ``python -m kiosk.core.walk``: the station starts this very
program with WALK_ARGUMENT to walk a pack's tries in a process of their own (kiosk.core.walk).
"""

import sys

from kiosk.core.walk import WALK_ARGUMENT, child_main

if __name__ == "__main__":
    if sys.argv[1:] == [WALK_ARGUMENT]:
        sys.exit(child_main())
    from kiosk.cli import main

    main()
