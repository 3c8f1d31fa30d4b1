"""Listens on the accessibility bus as a screen reader does, and writes what it hears, one JSON line
an event: run by Debian's python3 (python3-pyatspi), not the project's venv, from
``tests/ui/test_atspi.py``. Prints "listening" once registered; stops on SIGTERM.

Usage: /usr/bin/python3 tests/ui/atspi_listen.py OUTPUT
"""

import json
import signal
import sys
from pathlib import Path

import pyatspi  # type: ignore[import-not-found]

EVENTS = (
    "object:announcement",
    "object:state-changed:focused",
    "object:property-change:accessible-name",
    "object:text-changed:insert",
    "window:activate",
)


def main() -> None:
    out = Path(sys.argv[1]).open("a", encoding="utf-8", buffering=1)  # noqa: SIM115 (open for the run)

    def heard(event: object) -> None:
        source = event.source  # type: ignore[attr-defined]
        try:
            name = source.name
            role = source.getRoleName()
            app = source.getApplication().name
        except Exception:  # a node gone by the time it is asked
            name, role, app = "", "", ""
        record = {
            "type": str(event.type),  # type: ignore[attr-defined]
            "detail1": event.detail1,  # type: ignore[attr-defined]
            "any": str(event.any_data),  # type: ignore[attr-defined]
            "name": name,
            "role": role,
            "app": app,
        }
        out.write(json.dumps(record) + "\n")

    for kind in EVENTS:
        pyatspi.Registry.registerEventListener(heard, kind)
    signal.signal(signal.SIGTERM, lambda *_: pyatspi.Registry.stop())
    print("listening", flush=True)
    pyatspi.Registry.start()


if __name__ == "__main__":
    main()
