"""Runs many command lines of ``kiosk`` and ``lexicon-build`` in one process, through their entry points.

Started by ``tests/test_cli_errors.py`` (as root: without CAP_DAC_OVERRIDE, so that unreadable
files and read-only folders refuse it as they refuse an organiser). Reads a JSON list of cases on
standard input; for each, enters the case's folder and environment, gives the program the case's
standard input and a standard output and error that encode strictly as UTF-8 (as a pipe does),
calls the program's real entry point (the console script's, from the package metadata) and records
its exit code and output. Writes the JSON list of results on standard output at the end.
"""

from __future__ import annotations

import importlib.metadata
import io
import json
import os
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any


def entry_point(program: str) -> Callable[[], object]:
    """The function the installed console script ``program`` calls (pyproject's [project.scripts])."""
    (found,) = importlib.metadata.entry_points(group="console_scripts", name=program)
    function: Callable[[], object] = found.load()
    return function


CASE_SECONDS = 60  # a command that waits this long has hung (e.g. opened a named pipe): record it


class CaseHungError(Exception):
    """Raised in the worker by SIGALRM when one case runs for longer than CASE_SECONDS."""


def _hung(signum: int, frame: object) -> None:
    raise CaseHungError(f"the command was still running after {CASE_SECONDS} s")


def run_case(case: dict[str, Any]) -> dict[str, Any]:
    saved = sys.stdin, sys.stdout, sys.stderr, sys.argv, dict(os.environ), Path.cwd()
    out, err = io.BytesIO(), io.BytesIO()
    wrappers = (
        io.TextIOWrapper(io.BytesIO(case["stdin"].encode("utf-8")), encoding="utf-8"),
        io.TextIOWrapper(out, encoding="utf-8", write_through=True),
        io.TextIOWrapper(err, encoding="utf-8", write_through=True),
    )
    sys.stdin, sys.stdout, sys.stderr = wrappers
    sys.argv = [case["program"], *case["args"]]
    os.environ.update(case["env"])
    os.chdir(case["cwd"])
    code: object = None
    signal.signal(signal.SIGALRM, _hung)
    signal.alarm(CASE_SECONDS)
    try:
        entry_point(case["program"])()  # reads sys.argv, as the installed program does
    except SystemExit as exc:
        code = exc.code
    except BaseException as exc:  # the entry point must never let one out: record it
        code = f"escaped {type(exc).__name__}: {exc}"
    finally:
        signal.alarm(0)
        for wrapper in wrappers:
            try:
                wrapper.flush()
                wrapper.detach()  # keep the bytes: closing a wrapper would close them
            except (OSError, ValueError) as exc:
                err.write(f"\n[worker: {exc}]".encode())
        sys.stdin, sys.stdout, sys.stderr, sys.argv = saved[:4]
        os.environ.clear()
        os.environ.update(saved[4])
        os.chdir(saved[5])
    return {
        "id": case["id"],
        "code": code,
        "stdout": out.getvalue().decode("utf-8", "replace"),
        "stderr": err.getvalue().decode("utf-8", "replace"),
    }


def main() -> None:
    cases = json.load(sys.stdin)
    real_stdout = sys.stdout
    results = [run_case(case) for case in cases]
    json.dump(results, real_stdout)


if __name__ == "__main__":
    main()
