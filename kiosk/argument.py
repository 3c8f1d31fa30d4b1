"""The command-line arguments both programs share: a file a command writes.

Every output of ``kiosk`` and ``lexicon-build`` is an ``OutputFile``: its name is read as it was
typed (``kiosk.core.files.kind.output_path``: ``-o nodir/`` names a folder, never a file ``nodir``)
before click turns it into a path, and it stays a ``click.Path(writable=True)``, which is how
``tests/test_cli_errors.py`` finds the outputs to try. Whether the file may then be written is
``kiosk.core.files.kind.check_output``'s question, asked by each command.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from kiosk.core.errors import OutputError
from kiosk.core.files.kind import Role
from kiosk.core.files.output import output_path

__all__ = ["OutputFile"]


class OutputFile(click.Path):
    """A file a command writes, for ``role`` (``example``: a file name the message suggests)."""

    def __init__(self, role: Role, example: str, *, allow_dash: bool = False) -> None:
        super().__init__(path_type=Path, dir_okay=False, writable=True, allow_dash=allow_dash)
        self.role = role
        self.example = example

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and not (self.allow_dash and value == "-"):
            try:
                output_path(value, self.role, example=self.example)
            except OutputError as exc:
                self.fail(str(exc), param, ctx)
        return super().convert(value, param, ctx)
