"""Export the log: the whole log as one CSV file, to this station's data folder or a USB stick.

The sticks are looked for again every second, so a stick plugged in while the page is open
appears (and is chosen) by itself.
"""

from __future__ import annotations

from pathlib import Path

from kiosk.core.judge import Export, JudgeState, Key, Pressed, Said
from kiosk.core.plural import counted
from kiosk.ui import theme
from kiosk.ui.judge.page import Send, TextPage, keyed

__all__ = ["ExportPage", "export_lines"]

# The page's words.
HINT = "\u2190\u2192 choose where \u00b7 Esc: back to the menu"
TOUCH_HINT = "\u25c0 Folder \u25b6 chooses where \u00b7 \u25c0 Menu: back to the menu"
EARLIER, LATER = "\u25c0 Folder", "Folder \u25b6"
WRITE = "Write the CSV"
WRITING = "Writing the CSV\u2026"
WHAT = "The whole log, per-word results included, as one CSV file."
LOOKING_FOR_STICKS = "Looking for USB sticks\u2026"
LOCAL_ONLY = "Only this station's challenges: the shared log could not be reached. Write it again later."


def export_lines(export: Export, *, touch: bool) -> list[str]:
    """Where the file goes (or went), and what to do about a USB stick."""
    written = export.written
    if written is not None:
        where = "the USB stick" if written.on_stick else "this station's data folder"
        lines = [f"Wrote {counted(written.count, 'challenge')} to {where}:", f"    {written.path}", ""]
        if written.local_only:
            lines += [LOCAL_ONLY, ""]
        if written.on_stick:
            lines.append("The file is saved: you can take the stick out now.")
        else:
            lines.append("To take it away, plug in a USB stick and write it again there.")
        return lines
    folder = export.folders[export.index]
    lines = [WHAT, ""]
    if export.index == 0:
        lines += ["Save to this station's data folder:", f"    {folder}"]
    else:
        lines += [f"Save to the USB stick ({export.index} of {export.sticks}):", f"    {folder}"]
    lines.append("")
    if not export.listed:
        lines.append(LOOKING_FOR_STICKS)
    elif export.sticks == 0:
        roots = ", ".join(str(root) for root in export.roots)
        lines += [
            "No USB stick found. Plug one in: it appears here by itself.",
            f"(A stick is found once the system mounts it under {roots}.)",
        ]
    elif export.index == 0:
        choose = "\u25c0 Folder \u25b6" if touch else "\u2190 \u2192"
        lines.append(f"{counted(export.sticks, 'USB stick')} found: {choose} chooses it.")
    return lines


class ExportPage(TextPage):
    hint = HINT
    touch_hint = TOUCH_HINT

    def __init__(self, send: Send, *, touch: bool) -> None:
        super().__init__(
            send,
            touch=touch,
            buttons=[
                (EARLIER, Pressed(Key.LEFT)),
                (keyed(WRITE, "Enter", touch=touch), Pressed(Key.ENTER)),
                (LATER, Pressed(Key.RIGHT)),
            ],
        )
        self.write_button = self.commands[1]
        self.write_button.set_colour(theme.SAFE)
        self.write_button.setObjectName("export-write")
        self.commands[0].setObjectName("export-folder-back")
        self.commands[2].setObjectName("export-folder-next")
        self.written: Path | None = None  # the file last written, while the page says so

    def show_state(self, state: JudgeState, *, looking: bool) -> None:
        export = state.export
        self.written = None if export.written is None else export.written.path
        for button in (self.commands[0], self.commands[2]):
            button.setEnabled(export.sticks > 0)  # nowhere else to choose until a stick is found
        if not export.folders:
            return
        self.show_lines(export_lines(export, touch=self.touch))
        if looking and export.writing is not None:
            self.notice.setText(WRITING)
        elif export.notice is not None and export.notice.said is Said.NOT_WRITTEN:
            self.notice.setText(f"Not written: {export.notice.detail}")
        elif export.written is not None:
            again = "tap Write the CSV" if self.touch else "press Enter"
            self.notice.setText(f"Written. To write it again, {again}")
        else:
            self.notice.setText("")
