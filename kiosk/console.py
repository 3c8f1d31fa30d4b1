"""How both programs meet the terminal: output that survives any encoding, errors that exit 2.

``kiosk check`` answers with its exit code (0 ACCEPTABLE, 1 UNACCEPTABLE), and scripts read it. So
nothing that goes wrong may end a program with 0 or 1 by accident: not a character the terminal's
encoding lacks (a station named "Стол 3" under cp1252), not a full disk or a closed or broken
standard output, not Ctrl+C at a prompt, not a bug. ``run_guarded`` wraps the whole of each
program (``kiosk`` and ``lexicon-build``, every command) and decides, once:

* human text never fails to encode: a character the output's encoding lacks is written as
  ``\\uXXXX`` (visible, never silent); data meant for other programs (the CSV export) is written
  as UTF-8 bytes by its command, whatever the terminal says;
* output that cannot be written (full disk, closed or broken pipe) is an error: exit 2, with
  what happened on standard error, even if the failure only shows when the output is flushed;
* Ctrl+C or end of input: "Aborted", exit 2; a KioskError no command caught: its message, exit 2;
  a library that cannot be imported: "this installation is incomplete", exit 2; anything else is
  a bug: its traceback, under a line saying so, exit 2.

The console scripts import nothing but this module before ``run_guarded`` starts, so that even a
broken installation cannot end ``kiosk check`` with Python's own exit code 1.

It imports nothing heavy (click only once click is already loaded): the station starts through it.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, NoReturn

if TYPE_CHECKING:
    from kiosk.core.wording import Text

__all__ = ["EXIT_ERROR", "fail", "protect_streams", "run_guarded"]

EXIT_ERROR = 2


class _ClosedOutput(io.TextIOBase):
    """Standard output when the program was started with it closed: every write is an error."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self._name = name

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, f"{self._name} is closed")


def protect_streams() -> None:
    """Make human text survive any encoding, and a closed standard output fail loudly."""
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        if stream is None:
            setattr(sys, name, _ClosedOutput(name.replace("std", "standard ").replace("out", "output")))
        elif isinstance(stream, io.TextIOWrapper) and stream.errors == "strict":
            stream.reconfigure(errors="backslashreplace")


def run_guarded(action: Callable[[], object]) -> NoReturn:
    """Run a whole program; exit with its own code, or 2 for anything that went wrong."""
    protect_streams()
    code = _outcome(action)
    sys.exit(_flushed(code))


def fail(message: Text, code: int = EXIT_ERROR) -> NoReturn:
    """End the program with ``error: message`` on standard error: the one way both programs refuse."""
    _say(f"error: {message}")
    sys.exit(code)


def _say(message: str) -> None:
    with contextlib.suppress(OSError, ValueError):  # standard error is gone too: the code still says it
        print(message, file=sys.stderr, flush=True)


def _outcome(action: Callable[[], object]) -> int:
    stdout = sys.stdout
    try:
        result = action()
    except SystemExit as exc:
        if sys.stdout is not stdout:
            # click met a broken pipe: it swapped standard output for a quiet one and exits 1,
            # which is UNACCEPTABLE's code. Output was lost: that is an error.
            _say(f"error: {_describe_os_error(BrokenPipeError(errno.EPIPE, 'Broken pipe'))}")
            _silence_stdout()
            return EXIT_ERROR
        return _exit_code(exc.code)
    except (KeyboardInterrupt, EOFError):
        _say("\nAborted (Ctrl+C or end of input); nothing more was done.")
        return EXIT_ERROR
    except Exception as exc:
        _report(exc)
        if isinstance(exc, OSError) and exc.filename is None:
            _silence_stdout()  # what is still buffered for the broken output must not fail again
        return EXIT_ERROR
    return result if isinstance(result, int) and not isinstance(result, bool) else 0


def _exit_code(code: object) -> int:
    if code is None:
        return 0
    if isinstance(code, int) and not isinstance(code, bool):
        return code
    _say(str(code))  # sys.exit("message"): Python would print it and exit 1, a ruling's code
    return EXIT_ERROR


def _report(exc: Exception) -> None:
    click = sys.modules.get("click")
    if click is not None and isinstance(exc, click.ClickException):
        with contextlib.suppress(OSError):
            exc.show()
        return
    if click is not None and isinstance(exc, click.Abort):
        _say("\nAborted (Ctrl+C or end of input); nothing more was done.")
        return
    from kiosk.core.errors import KioskError

    if isinstance(exc, KioskError):
        _say(f"error: {exc}")
    elif isinstance(exc, ImportError):
        _say(
            f"error: this installation is incomplete ({type(exc).__name__}: {exc}); install it again "
            "(./dev.sh in a source checkout, or copy the station bundle again)"
        )
    elif isinstance(exc, OSError):
        _say(f"error: {_describe_os_error(exc)}")
    else:
        import traceback

        _say(
            f"error: internal error ({type(exc).__name__}: {exc}). This is a bug in the program, not "
            "your mistake: please report it with the command you ran and the lines below."
        )
        _say("".join(traceback.format_exception(exc)).rstrip())


def _describe_os_error(exc: OSError) -> str:
    if isinstance(exc, BrokenPipeError):
        return "standard output was closed before everything was written (broken pipe)"
    reason = exc.strerror or str(exc)
    if exc.filename is not None:
        return f"{exc.filename}: {reason}"
    return f"the output could not be written: {reason}"


def _flushed(code: int) -> int:
    """Flush standard output; if that fails, the run failed: say so and turn the code into 2."""
    try:
        sys.stdout.flush()
    except (OSError, ValueError) as exc:
        _say(f"error: {_describe_os_error(exc) if isinstance(exc, OSError) else exc}")
        _silence_stdout()
        return EXIT_ERROR
    return code


def _silence_stdout() -> None:
    """Point file descriptor 1 at /dev/null so that the interpreter's last flush cannot fail again."""
    with contextlib.suppress(OSError, ValueError, AttributeError):  # io.UnsupportedOperation too
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
