"""Export the log: the whole log as one CSV file, to this station's data folder or a USB stick.

The sticks are looked for again every second, so a stick plugged in while the page is open
appears (and is chosen) by itself.
"""

from __future__ import annotations

from pathlib import Path

from kiosk.core.judge import Export, JudgeState, Key, Pressed, Said
from kiosk.core.words.language import Catalogue, english, marked
from kiosk.ui import theme
from kiosk.ui.judge.page import ENTER_KEY, Send, TextPage, keyed

__all__ = ["ExportPage", "export_lines"]

# The page's words.
HINT = marked("\u2190\u2192 choose where \u00b7 Esc: back to the menu")
TOUCH_HINT = marked("\u25c0 Folder \u25b6 chooses where \u00b7 \u25c0 Menu: back to the menu")
EARLIER, LATER = marked("\u25c0 Folder"), marked("Folder \u25b6")
WRITE = marked("Write the CSV")
WRITING = marked("Writing the CSV\u2026")
WHAT = marked("The whole log, per-word results included, as one CSV file.")
LOOKING_FOR_STICKS = marked("Looking for USB sticks\u2026")
LOCAL_ONLY = marked(
    "Only this station's challenges: the shared log could not be reached. Write it again later."
)


def export_lines(export: Export, *, touch: bool, t: Catalogue | None = None) -> list[str]:
    """Where the file goes (or went), and what to do about a USB stick."""
    t = t or english()
    written = export.written
    if written is not None:
        if written.on_stick:
            wrote = t.plural(
                "Wrote {count} challenge to the USB stick:",
                "Wrote {count} challenges to the USB stick:",
                written.count,
            )
        else:
            wrote = t.plural(
                "Wrote {count} challenge to this station's data folder:",
                "Wrote {count} challenges to this station's data folder:",
                written.count,
            )
        lines = [wrote, f"    {written.path}", ""]
        if written.local_only:
            lines += [t.text(LOCAL_ONLY), ""]
        if written.left_out:
            left_out = t.plural(
                "{count} challenge in the log cannot be read and is left out of the file.",
                "{count} challenges in the log cannot be read and are left out of the file.",
                written.left_out,
            )
            lines += [left_out, ""]
        if written.on_stick:
            lines.append(t.text("The file is saved: you can take the stick out now."))
        else:
            lines.append(t.text("To take it away, plug in a USB stick and write it again there."))
        return lines
    folder = export.folders[export.index]
    lines = [t.text(WHAT), ""]
    if export.index == 0:
        lines += [t.text("Save to this station's data folder:"), f"    {folder}"]
    else:
        lines += [
            t.text("Save to the USB stick ({number} of {count}):", number=export.index, count=export.sticks),
            f"    {folder}",
        ]
    lines.append("")
    if not export.listed:
        lines.append(t.text(LOOKING_FOR_STICKS))
    elif export.sticks == 0:
        roots = ", ".join(str(root) for root in export.roots)
        lines += [
            t.text("No USB stick found. Plug one in: it appears here by itself."),
            t.text("(A stick is found once the system mounts it under {folders}.)", folders=roots),
        ]
    elif export.index == 0:
        choose = t.text("\u25c0 Folder \u25b6") if touch else "\u2190 \u2192"
        lines.append(
            t.plural(
                "{count} USB stick found: {keys} chooses it.",
                "{count} USB sticks found: {keys} chooses one.",
                export.sticks,
                keys=choose,
            )
        )
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
        t = self.catalogue
        self.commands[0].setText(t.text(EARLIER))
        self.write_button.setText(keyed(t.text(WRITE), t.text(ENTER_KEY), touch=self.touch))
        self.commands[2].setText(t.text(LATER))
        export = state.export
        self.written = None if export.written is None else export.written.path
        for button in (self.commands[0], self.commands[2]):
            button.setEnabled(export.sticks > 0)  # nowhere else to choose until a stick is found
        if not export.folders:
            return
        self.show_lines(export_lines(export, touch=self.touch, t=t))
        if looking and export.writing is not None:
            self.notice.setText(t.text(WRITING))
        elif export.notice is not None and export.notice.said is Said.NOT_WRITTEN:
            self.notice.setText(t.text("Not written: {problem}", problem=t.say(export.notice.detail)))
        elif export.written is not None:
            if self.touch:
                self.notice.setText(t.text("Written. The button below writes it again"))
            else:
                self.notice.setText(t.text("Written. To write it again, press Enter"))
        else:
            self.notice.setText("")
