"""Frozen entry point of the `lexicon-build` program.

``verify``, ``info`` and ``sign`` walk a pack's tries in a process of their own: frozen, that is
this very program started with WALK_ARGUMENT (kiosk.core.walk).
"""

import sys

from kiosk.core.walk import WALK_ARGUMENT, child_main

if __name__ == "__main__":
    if sys.argv[1:] == [WALK_ARGUMENT]:
        sys.exit(child_main())
    from lexicon_build.cli import main

    main()
