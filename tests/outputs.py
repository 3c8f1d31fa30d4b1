"""What the programs of a failing end-to-end test printed, for its assertion message.

A test that runs a compositor, an X server or a build and fails with "(no output)" tells nobody
why: every such test keeps what each program printed and shows all of it when it fails.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

__all__ = ["read_output", "report"]


def read_output(path: Path) -> str:
    """A program's saved output, or a line saying it left none."""
    if not path.exists():
        return f"(nothing: {path.name} was never written)"
    text = path.read_text(encoding="utf-8", errors="replace")
    return text if text.strip() else "(no output)"


def report(outputs: Mapping[str, str | bytes | None]) -> str:
    """Each program's output under its name."""
    parts = []
    for name, output in outputs.items():
        if isinstance(output, bytes):
            output = output.decode("utf-8", errors="replace")
        text = output if output and output.strip() else "(no output)"
        parts.append(f"--- {name} ---\n{text.rstrip()}")
    return "\n" + "\n".join(parts)
