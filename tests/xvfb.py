"""A real X server of the test's own (Xvfb), for a station typed into with real key events."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.outputs import read_output, report

__all__ = ["require", "xvfb"]


def require(*tools: str) -> None:
    """Skip (fail on CI) unless every tool is installed."""
    missing = [tool for tool in tools if shutil.which(tool) is None]
    if missing:
        message = f"{', '.join(missing)} not installed (./dev.sh test installs them)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


@contextmanager
def xvfb(log: Path, width_px: int, height_px: int) -> Iterator[str]:
    """An Xvfb server of ``width_px`` x ``height_px``, its complaints in ``log``; yields its DISPLAY."""
    require("Xvfb", "xwininfo", "xdotool")
    read_fd, write_fd = os.pipe()
    with log.open("wb") as stderr:
        server = subprocess.Popen(
            ["Xvfb", "-displayfd", str(write_fd), "-screen", "0", f"{width_px}x{height_px}x24",
             "-nolisten", "tcp"],
            pass_fds=(write_fd,),
            stderr=stderr,
        )  # fmt: skip
    os.close(write_fd)
    with os.fdopen(read_fd) as pipe:
        number = pipe.readline().strip()
    try:
        assert number, "Xvfb did not report a display number" + report({"Xvfb": read_output(log)})
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(timeout=10)
