"""Packs: each pack in use, whether it is still the file on disk, and Reload packs.

A reload verifies every file as start-up does and is swapped in only if all of them load (on the
ready screen: see ``StationController.take_reload``); otherwise the station keeps the packs it had
and this page says which file failed and why.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from pathlib import Path

from kiosk.core.edition import PackRecognition
from kiosk.core.judge import JudgeState, Typed
from kiosk.core.packs.lexicon import MarisaLexicon
from kiosk.core.station.config import LoadedDivision
from kiosk.core.station.reload import DiskState, OnDisk, ReloadResult
from kiosk.core.wording import Text
from kiosk.core.words.language import Catalogue, english, marked
from kiosk.core.words.plural import counted
from kiosk.ui import theme
from kiosk.ui.judge.page import Send, TextPage, keyed

__all__ = ["PacksPage", "pack_lines", "reload_summary"]

LINE_CHARS = 96  # a problem is wrapped by words at this width, then the page fits it to the screen
SET_HASH_HEX_SHOWN = 16

# The page's words (and those of ``pack_lines`` below).
HINT = marked("The packs are read from disk again only when asked \u00b7 Esc: back to the menu")
TOUCH_HINT = marked("The packs are read from disk again only when asked \u00b7 \u25c0 Menu: back to the menu")
RELOAD = marked("Reload packs")
CHECKING = marked("Reading the pack files\u2026")
RELOADING = marked("Reading and verifying every pack again\u2026")
AT_START_UP = marked("at start-up")


def reload_summary(result: ReloadResult, t: Catalogue | None = None) -> str:
    """The outcome of a reload, in one line for the judge."""
    t = t or english()
    if not result.accepted:
        return t.text("Not reloaded: the station keeps judging with the packs it had")
    if not result.changes:
        return t.text("Reloaded: every pack verified again; no words changed")
    if len(result.changes) == 1:
        return t.text("Reloaded: {change}", change=t.say(result.changes[0]))
    return t.plural(
        "Reloaded: {count} pack changed (listed above)",
        "Reloaded: {count} packs changed (listed above)",
        len(result.changes),
    )


def _wrapped(text: str, first: str, rest: str) -> list[str]:
    return textwrap.wrap(
        text, LINE_CHARS, initial_indent=first, subsequent_indent=rest, break_on_hyphens=False
    )


# A pack's size on the Packs page: (counted in tiles, with a youth list) -> the message
_SIZE = {
    (False, False): marked("{words} (up to {maximum} letters)"),
    (False, True): marked("{words} (up to {maximum} letters), youth list {youth}"),
    (True, False): marked("{words} (up to {maximum} tiles)"),
    (True, True): marked("{words} (up to {maximum} tiles), youth list {youth}"),
}


def pack_lines(
    divisions: Sequence[LoadedDivision],
    on_disk: Mapping[Path, OnDisk],
    *,
    verified: str,
    result: ReloadResult | None = None,
    waiting: bool = False,
    t: Catalogue | None = None,
) -> list[str]:
    """The Packs page: the outcome of the last reload, then each pack in use and its file.

    ``verified`` says when the packs in use were verified ("at start-up"); ``waiting`` that a
    reloaded set is verified and waits for the ready screen to be swapped in.
    """
    t = t or english()
    lines: list[str] = []
    shown: set[Text] = set()
    # The outcome itself is the page's notice (``reload_summary``); the lines say only what
    # it does not: which files failed and why, or each change when there are several.
    if result is not None and not result.accepted:
        lines.append(t.text("The files the reload refused:"))
        for problem in result.problems:
            lines += _wrapped(t.say(problem), "  \u2717 ", "     ")
            shown.add(problem)
    elif result is not None:
        if len(result.changes) > 1:
            lines.append(t.text("Changed by the reload:"))
            lines += [f"  {t.say(change)}" for change in result.changes]
        if waiting:
            lines.append(
                t.text("The reloaded packs are used from the ready screen, once this challenge ends.")
            )
    seen: dict[str, list[str]] = {}
    lexicons: list[tuple[Path, MarisaLexicon]] = []
    recognitions: dict[str, PackRecognition] = {}
    second_opinion = t.text(" (second opinion)")
    for loaded in divisions:
        for path, lexicon, role in (
            (loaded.division.pack, loaded.lexicon, ""),
            (loaded.division.second_opinion_pack, loaded.second_opinion, second_opinion),
        ):
            if path is None or lexicon is None:
                continue
            key = f"{path}\n{lexicon.info.set_hash}"
            if key not in seen:
                seen[key] = []
                lexicons.append((path, lexicon))
            seen[key].append(loaded.division.name + role)
            if not role:
                recognitions.setdefault(key, loaded.recognition)
    for path, lexicon in lexicons:
        if lines:
            lines.append("")
        info = lexicon.info
        words = counted(info.word_count, "word", "words", t)
        youth = counted(info.youth_exclusion_count, "word", "words", t) if lexicon.has_youth_list else ""
        # lengths are tiles where a tile may be two letters (Spanish CH, Catalan L·L)
        size = t.text(
            _SIZE[not info.alphabet.simple, bool(youth)], words=words, maximum=info.max_length, youth=youth
        )
        digest = (info.set_hash.partition(":")[2] or info.set_hash)[:SET_HASH_HEX_SHOWN]
        set_hash = " ".join(digest[i : i + 4] for i in range(0, len(digest), 4))
        users = ", ".join(seen[f"{path}\n{info.set_hash}"])
        lines += [
            t.text(
                "{lexicon} \u2014 edition {edition}: {divisions}",
                lexicon=info.name,
                edition=info.edition,
                divisions=users,
            )
            if info.edition.strip()
            else t.text("{lexicon}: {divisions}", lexicon=info.name, divisions=users),
            f"    {size}",
            "    "
            + t.text(
                "set {digest} \u2026 \u00b7 verified {when} \u00b7 {trust}",
                digest=set_hash,
                when=verified,
                trust=lexicon.trust.label_in(t),
            ),
        ]
        recognition = recognitions.get(f"{path}\n{info.set_hash}")
        if recognition is not None:
            lines += [f"    {line}" for line in recognition.lines(t)]
        disk = on_disk.get(path)
        if disk is None:
            continue
        if disk.state is DiskState.IN_USE:
            lines.append("    " + t.text("in use: the file on disk now ({file})", file=path.name))
        elif disk.state is DiskState.CHANGED:
            lines.append(
                "    "
                + t.text(
                    "in use: an older copy kept in memory; {file} on disk is now {pack}",
                    file=path.name,
                    pack=disk.detail,
                )
            )
        elif disk.detail in shown:
            lines.append(
                "    "
                + t.text(
                    "in use: an older copy kept in memory; {file} on disk is refused (above)", file=path.name
                )
            )
        else:
            lines.append(
                "    "
                + t.text("in use: an older copy kept in memory; {file} on disk is refused:", file=path.name)
            )
            lines += _wrapped(t.say(disk.detail), "      ", "      ")
            shown.add(disk.detail)
    return lines


class PacksPage(TextPage):
    hint = HINT
    touch_hint = TOUCH_HINT

    def __init__(self, send: Send, *, touch: bool) -> None:
        super().__init__(send, touch=touch, buttons=[(keyed(RELOAD, "R", touch=touch), Typed("r"))])
        self.reload_button = self.commands[0]
        self.reload_button.setObjectName("packs-reload")

    def show_state(self, state: JudgeState, *, looking: bool) -> None:
        t = self.catalogue
        self.reload_button.setText(keyed(t.text(RELOAD), "R", touch=self.touch))
        packs, station = state.packs, state.station
        when = station.packs_verified_at
        verified = (
            t.text(AT_START_UP)
            if when is None
            else t.text("by the reload at {time}", time=f"{when.astimezone():%H:%M}")
        )
        lines = pack_lines(
            station.divisions,
            dict(packs.on_disk),
            verified=verified,
            result=packs.result,
            waiting=station.reload_waiting,
            t=t,
        )
        if looking and packs.checking is not None:
            lines += ["", t.text(CHECKING)]
        self.show_lines(lines)
        if looking and packs.reloading is not None:
            self.notice.set_colour(theme.NOTICE)
            self.notice.setText(t.text(RELOADING))
        elif packs.result is not None:
            self.notice.set_colour(theme.GOOD if packs.result.accepted else theme.NOTICE)
            self.notice.setText(reload_summary(packs.result, t))
        else:
            self.notice.setText("")
