"""Where a command may write: the output-file policy of every command of both programs.

No command writes over a file it read, over a file of another kind, or (without ``--force``) over
one of its own kind; ``output_path`` reads an output's name as it was typed (``nodir/`` names a
folder, never a file ``nodir``). What a file already there is, is ``kiosk.core.files.kind``'s
answer.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from kiosk.core.errors import OutputError
from kiosk.core.files.kind import Kind, Role, recognise

__all__ = ["check_output", "output_path", "same_file"]


def same_file(one: Path, other: Path) -> bool:
    """Whether two paths name the same file (symlinks, hard links, ``./`` and case all seen through)."""
    try:
        return one.samefile(other)
    except OSError:
        return False


def output_path(typed: str, role: Role, *, example: str = "") -> Path:
    """The file an output argument names, as it was typed; OutputError if it names a folder.

    A name ending with a separator (``nodir/``, as a shell completes a folder's name) names a
    folder, whether or not one is there: ``Path`` drops that separator, and the command would write
    a *file* named like the folder. It is refused; ``check_output`` then asks the rest.
    """
    separators = tuple(sep for sep in (os.sep, os.altsep) if sep)
    folder = typed.rstrip("".join(separators))
    if typed != folder and folder:
        inside = f", e.g. {folder}{typed[-1]}{example}" if example else ""
        if Path(folder).is_dir():
            there = ""
        elif os.path.lexists(folder):
            there = f" (but {folder} is not a folder)"
        else:
            there = (
                f" (there is no folder {folder}: is the USB stick mounted? or create it: mkdir -p '{folder}')"
            )
        raise OutputError(
            f"{typed} ends with '{typed[-1]}', so it names a folder, not a file; give a file name for "
            f"{role.noun} inside it{inside}{there}; nothing was written"
        )
    return Path(typed)


def check_output(
    path: Path,
    role: Role,
    *,
    inputs: Iterable[Path] = (),
    force: bool = False,
    example: str = "",
) -> None:
    """Refuse, with OutputError, to write ``path`` where that would destroy something.

    Never: over a file this command reads (``inputs``), over a folder, or over a file of another
    kind than ``role`` (a word list is never replaced by a pack, whatever ``--force`` says). An
    existing file of the role's own kind, or an empty one, is replaced only with ``force``. A
    folder that does not exist is not created: a mistyped folder, or a USB stick that is not
    mounted, must not quietly become a new folder on the local disk.
    """
    shown = str(path)
    suggestion = f", e.g. {example}" if example else ""
    if path.is_dir():
        raise OutputError(
            f"{shown} is a folder; give a file name for {role.noun} inside it{suggestion}; "
            "nothing was written"
        )
    folder = path.absolute().parent
    if not folder.is_dir():
        what = "is not a folder" if folder.exists() else "does not exist"
        raise OutputError(
            f"cannot write {shown}: the folder {folder} {what}; check the path (is the USB stick "
            f"mounted?) or create the folder first (mkdir -p '{folder}'); nothing was written"
        )
    for source in inputs:
        if same_file(path, source):
            also = "" if str(source) == shown else f" ({source})"
            raise OutputError(
                f"{shown} is also a file this command reads{also}; writing {role.noun} there would "
                f"destroy it; choose another name for the output{suggestion}; nothing was written"
            )
    if path.exists():
        found = recognise(path)
        if found.kind not in role.takes | {Kind.EMPTY}:
            raise OutputError(
                f"{shown} already exists and is {found.description}, not {role.noun}; it is never "
                f"written over, even with --force: choose another name{suggestion}; nothing was written"
            )
        if not force:
            raise OutputError(
                f"{shown} already exists ({found.description}); choose another name, or pass --force "
                "to replace it; nothing was written"
            )
        if not os.access(path, os.W_OK):
            raise OutputError(f"cannot write {shown}: you may not change this file; nothing was written")
    if not os.access(folder, os.W_OK):
        raise OutputError(
            f"cannot write {shown}: you may not write in the folder {folder}; choose a folder of your "
            "own; nothing was written"
        )
