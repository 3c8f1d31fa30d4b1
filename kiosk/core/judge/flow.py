"""Judge mode's one transition: the state, an event in, a new state and the effects out."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from kiosk.core.judge.event import (
    ApplyChoice,
    CheckPacks,
    CheckPin,
    Closed,
    CountsRead,
    DoorRead,
    Effect,
    Event,
    ExitStation,
    Exported,
    Failed,
    Forward,
    Forwarded,
    Journal,
    KeptRecorded,
    Key,
    Leave,
    ListMounts,
    LogRead,
    MountsListed,
    Opened,
    PacksChecked,
    PinChecked,
    Pressed,
    ReadCounts,
    ReadDoor,
    ReadLog,
    ReadStatus,
    RecordKept,
    Reloaded,
    ReloadPacks,
    Request,
    RowTapped,
    Saved,
    SaveSettings,
    SettingStepped,
    SettleKept,
    StationChanged,
    StationStepped,
    StatusRead,
    TakeReload,
    Ticked,
    Touched,
    Typed,
    WriteExport,
)
from kiosk.core.judge.state import (
    EXPORT_FOLDER_NAME,
    RECHECK_ROWS,
    Counts,
    Door,
    JudgePage,
    JudgeSession,
    JudgeState,
    Moment,
    Notice,
    Refusal,
    Said,
    Written,
    export_file_name,
    export_folders,
    first_row,
    menu_page,
    periods,
)
from kiosk.core.log.challenge import local_midnight
from kiosk.core.packs.lexicon import MarisaLexicon
from kiosk.core.station.pin import PinOutcome
from kiosk.core.station.reload import ReloadResult
from kiosk.core.station.settings import Field, saved_names, stepped
from kiosk.core.wording import Text

__all__ = ["Step", "transition"]


@dataclass(frozen=True)
class Step:
    state: JudgeState
    effects: tuple[Effect, ...] = ()


# -- the transition ---------------------------------------------------------------------------------------


def _ticket(state: JudgeState) -> tuple[JudgeState, int]:
    ticket = state.tickets + 1
    return replace(state, tickets=ticket), ticket


def _close(state: JudgeState, *, clear_fault: bool = False, why: str = "") -> Step:
    effects: list[Effect] = []
    if why:
        effects.append(Journal(why))
    if state.unsaved:  # kept for the judge who comes back, who is told so
        effects.append(Journal("judge mode: settings left unsaved (kept for the next judge)"))
    effects.append(Leave(clear_fault=clear_fault))
    return Step(replace(state, page=None, session=None, door=Door()), tuple(effects))


def _open_door(state: JudgeState, at: Moment) -> Step:
    state, ticket = _ticket(replace(state, now=at, session=None, door_touched_s=at.monotonic_s))
    return Step(replace(state, page=JudgePage.DOOR, door=Door(asking=ticket)), (ReadDoor(ticket),))


def _read_log(state: JudgeState) -> Step:
    choices = periods(state.now.local)
    recheck = replace(state.recheck, period=min(state.recheck.period, len(choices) - 1))
    state, ticket = _ticket(state)
    request = ReadLog(ticket, choices[recheck.period], recheck.station)
    return Step(replace(state, recheck=replace(recheck, asking=ticket)), (request,))


def _read_counts(state: JudgeState) -> Step:
    state, ticket = _ticket(state)
    since = local_midnight(state.now.local.date())
    return Step(replace(state, counts=replace(state.counts, asking=ticket)), (ReadCounts(ticket, since),))


def _read_status(state: JudgeState) -> Step:
    state, ticket = _ticket(state)
    return Step(replace(state, status=replace(state.status, asking=ticket)), (ReadStatus(ticket),))


def _check_packs(state: JudgeState) -> Step:
    in_use: dict[Path, MarisaLexicon] = {}
    for loaded in state.station.divisions:
        for path, lexicon in (
            (loaded.division.pack, loaded.lexicon),
            (loaded.division.second_opinion_pack, loaded.second_opinion),
        ):
            if path is not None and lexicon is not None:
                in_use.setdefault(path, lexicon)
    state, ticket = _ticket(state)
    request = CheckPacks(ticket, tuple(in_use.items()), state.station.config.trusted_keys)
    return Step(replace(state, packs=replace(state.packs, checking=ticket)), (request,))


def _list_mounts(state: JudgeState) -> Step:
    if state.export.listing is not None:
        return Step(state)
    state, ticket = _ticket(state)
    return Step(replace(state, export=replace(state.export, listing=ticket)), (ListMounts(ticket),))


def _go(state: JudgeState, page: JudgePage) -> Step:
    """A menu choice: open its page, and ask for what it shows."""
    if page is JudgePage.BACK:
        return _close(state, clear_fault=True)
    state = replace(state, page=page)
    if page is JudgePage.RECHECK:
        return _read_log(state)
    if page is JudgePage.COUNTS:
        return _read_counts(replace(state, counts=Counts()))
    if page is JudgePage.STATUS:  # (a forwarding still under way goes on, and is told)
        return _read_status(replace(state, status=replace(state.status, log=None, notice=None, problem="")))
    if page is JudgePage.PACKS:
        return _check_packs(replace(state, packs=replace(state.packs, result=None)))
    if page is JudgePage.SETTINGS:
        settings = state.settings
        if state.unsaved:  # judge mode locked itself over changes not saved: they are kept, and said
            settings = replace(settings, notice=Notice(Said.KEPT_FROM_BEFORE))
        else:
            settings = replace(settings, draft=state.station.choice, notice=None)
        return Step(replace(state, settings=replace(settings, line=0, warned=False)))
    if page is JudgePage.EXPORT:
        folders = tuple(export_folders(state.data_dir, (), state.export.roots))
        export = replace(state.export, folders=folders, index=0, listed=False, written=None, notice=None)
        return _list_mounts(replace(state, export=export))
    return Step(state)


def _on_door(state: JudgeState, event: Event) -> Step:
    door, now_s = state.door, state.now.monotonic_s
    if isinstance(event, Pressed) and event.key is Key.ESCAPE:
        return _close(state)  # back to the station
    if door.shut(now_s) or door.asking is not None:
        return Step(state)  # the keypad is shut while the back-off runs, or while the PIN is checked
    if isinstance(event, Typed):
        door = door.typed_text(event.text)
    elif isinstance(event, Pressed) and event.key is Key.BACKSPACE:
        door = door.erased()
    elif isinstance(event, Pressed) and event.key is Key.ENTER:
        door, pin = door.submitted()
        if pin is not None:
            state, ticket = _ticket(state)
            return Step(replace(state, door=replace(door, asking=ticket)), (CheckPin(ticket, pin),))
    return Step(replace(state, door=door))


def _on_pin(state: JudgeState, event: PinChecked) -> Step:
    check, door, now_s = event.check, replace(state.door, asking=None), state.now.monotonic_s
    if state.page is not JudgePage.DOOR:
        return Step(replace(state, door=door))  # the judge left before the answer: nothing opens
    if check.accepted:
        session = JudgeSession.opened(now_s, idle_lock_s=state.idle_lock_s)
        return Step(replace(state, page=JudgePage.MENU, session=session, door=Door(), cleared=check.cleared))
    if check.outcome is PinOutcome.NO_PIN:
        return Step(replace(state, door=Door(has_pin=False)))
    wrong = check.outcome is PinOutcome.WRONG
    refusal = Refusal(failures=check.failures) if wrong else Refusal(too_soon=True)
    refused = replace(door, refusal=refusal, shut_until_s=now_s + check.wait_s)
    effects: tuple[Effect, ...] = ()
    if wrong:  # the journal keeps what the judge may ask about later
        effects = (Journal(f"judge mode: a wrong PIN ({check.failures} in a row)"),)
    return Step(replace(state, door=refused), effects)


def _on_menu(state: JudgeState, event: Event) -> Step:
    if isinstance(event, Pressed) and event.key is Key.ESCAPE:
        return _close(state)
    if isinstance(event, Typed):
        page = menu_page(event.text)
        if page is not None:
            return _go(state, page)
    return Step(state)


def _select(state: JudgeState, selected: int) -> JudgeState:
    if not state.cards:
        return state
    return replace(state, recheck=replace(state.recheck, selected=max(0, min(state.cards - 1, selected))))


_MOVES = {Key.UP: -1, Key.DOWN: 1, Key.PAGE_UP: -RECHECK_ROWS, Key.PAGE_DOWN: RECHECK_ROWS}


def _on_recheck(state: JudgeState, event: Event) -> Step:
    recheck = state.recheck
    if isinstance(event, Pressed) and event.key in _MOVES:
        return Step(_select(state, recheck.selected + _MOVES[event.key]))
    if isinstance(event, RowTapped):
        return Step(_select(state, first_row(recheck.selected, state.cards) + event.row))
    if isinstance(event, Pressed) and event.key in (Key.LEFT, Key.RIGHT):
        delta = -1 if event.key is Key.LEFT else 1
        last = len(periods(state.now.local)) - 1
        recheck = replace(recheck, period=max(0, min(last, recheck.period + delta)), selected=0)
        return _read_log(replace(state, recheck=recheck))
    if isinstance(event, Typed) and event.text.lower() == "s":
        event = StationStepped(1)
    if isinstance(event, StationStepped):
        choices: tuple[str | None, ...] = (None, *recheck.stations)
        at = choices.index(recheck.station) if recheck.station in choices else 0
        chosen = choices[(at + event.delta) % len(choices)]
        return _read_log(replace(state, recheck=replace(recheck, station=chosen, selected=0)))
    return Step(state)


def _on_packs(state: JudgeState, event: Event) -> Step:
    if isinstance(event, Typed) and event.text.lower() == "r" and state.packs.reloading is None:
        state, ticket = _ticket(state)
        station = state.station
        request = ReloadPacks(ticket, station.config, station.divisions, station.verifier)
        return Step(replace(state, packs=replace(state.packs, reloading=ticket)), (request,))
    return Step(state)


def _on_status(state: JudgeState, event: Event) -> Step:
    status = state.status
    if not isinstance(event, Typed) or status.working:
        return Step(state)
    letter = event.text.lower()
    if letter == "f" and status.log is not None and status.log.shared:
        state, ticket = _ticket(state)
        return Step(replace(state, status=replace(status, forwarding=ticket)), (Forward(ticket),))
    if letter == "r" and state.station.kept:
        state, ticket = _ticket(state)
        request = RecordKept(ticket, state.station.kept)
        return Step(replace(state, status=replace(status, recording=ticket)), (request,))
    return Step(state)


def _change(state: JudgeState, line: int, delta: int) -> Step:
    settings, fields = state.settings, state.fields
    if line >= len(fields) or settings.draft is None:
        return Step(state)
    before = settings.draft
    draft = stepped(before, fields[line], delta, len(state.station.divisions))
    notice: Notice | None = None
    if draft == before and fields[line] in (Field.KEY_LOCKOUT, Field.VERDICT_DISPLAY):
        notice = Notice(Said.LOCKOUT_RULE)
    elif draft != state.station.choice:
        notice = Notice(Said.NOT_SAVED_YET)  # the button below says how
    settings = replace(settings, draft=draft, line=line, warned=False, notice=notice)
    return Step(replace(state, settings=settings))


def _on_settings(state: JudgeState, event: Event) -> Step:
    settings = state.settings
    if isinstance(event, SettingStepped):
        return _change(state, event.line, event.delta)
    if not isinstance(event, Pressed):
        return Step(state)
    if event.key in (Key.UP, Key.DOWN):
        line = max(0, min(len(state.fields) - 1, settings.line + (1 if event.key is Key.DOWN else -1)))
        return Step(replace(state, settings=replace(settings, line=line)))
    if event.key in (Key.LEFT, Key.RIGHT):
        return _change(state, settings.line, -1 if event.key is Key.LEFT else 1)
    if event.key is Key.ENTER and settings.draft is not None and settings.saving is None:
        division, profile, timings = saved_names(settings.draft, state.station.division_names)
        state, ticket = _ticket(state)
        request = SaveSettings(ticket, settings.draft, division, profile, tuple(sorted(timings.items())))
        return Step(replace(state, settings=replace(settings, saving=ticket)), (request,))
    return Step(state)


def _on_export(state: JudgeState, event: Event) -> Step:
    export = state.export
    if isinstance(event, Pressed) and event.key in (Key.LEFT, Key.RIGHT) and export.folders:
        index = (export.index + (-1 if event.key is Key.LEFT else 1)) % len(export.folders)
        return Step(replace(state, export=replace(export, index=index, written=None, notice=None)))
    if isinstance(event, Pressed) and event.key is Key.ENTER and export.folders and export.writing is None:
        name = export_file_name(state.station.config.station_name, state.now.local)
        state, ticket = _ticket(state)
        request = WriteExport(ticket, export.folders[export.index] / name)
        return Step(replace(state, export=replace(export, writing=ticket, notice=None)), (request,))
    return Step(state)


def _on_exit(state: JudgeState, event: Event) -> Step:
    if isinstance(event, Pressed) and event.key is Key.ENTER:
        return Step(state, (ExitStation(),))
    return Step(state)


_PAGE_KEYS = {
    JudgePage.RECHECK: _on_recheck,
    JudgePage.PACKS: _on_packs,
    JudgePage.SETTINGS: _on_settings,
    JudgePage.STATUS: _on_status,
    JudgePage.EXPORT: _on_export,
    JudgePage.EXIT: _on_exit,
}


def _leave_page(state: JudgeState) -> Step:
    """Esc (or ◀ Menu) on a page: back to the menu; with settings not saved, say so once first."""
    if state.page is JudgePage.SETTINGS:
        settings = state.settings
        if state.unsaved and not settings.warned:
            notice = Notice(Said.LEAVE_UNSAVED)
            return Step(replace(state, settings=replace(settings, warned=True, notice=notice)))
        state = replace(state, settings=replace(settings, draft=state.station.choice))
    return Step(replace(state, page=JudgePage.MENU))


def _on_input(state: JudgeState, event: Event) -> Step:
    page = state.page
    if page is JudgePage.DOOR:
        return _on_door(state, event)
    if state.session is None:
        return Step(state)
    if page is JudgePage.MENU:
        return _on_menu(state, event)
    if isinstance(event, Pressed) and event.key is Key.ESCAPE:
        return _leave_page(state)
    handler = _PAGE_KEYS.get(page) if page is not None else None
    return handler(state, event) if handler is not None else Step(state)


def _on_tick(state: JudgeState, at: Moment) -> Step:
    state = replace(state, now=at)
    session = state.session
    if session is not None and session.is_locked(at.monotonic_s):
        return _close(state, why="judge mode locked itself after being left idle")
    if state.page is JudgePage.DOOR and at.monotonic_s - state.door_touched_s >= state.idle_lock_s:
        # Left alone (a player's Esc, a judge called away): back to the players, the digits forgotten.
        return _close(state, why="the judge PIN door closed itself after being left idle")
    if state.page is JudgePage.EXPORT:
        return _list_mounts(state)
    return Step(state)


def _recorded_kept(state: JudgeState, event: KeptRecorded) -> Step:
    left = sum(1 for entry in state.station.kept if entry.challenge_id not in event.recorded)
    notice = Notice(Said.KEPT_ALL_RECORDED) if left == 0 else Notice(Said.KEPT_LEFT, count=left)
    state = replace(state, status=replace(state.status, recording=None, notice=notice))
    step = _read_status(state) if state.page is JudgePage.STATUS else Step(state)
    return Step(step.state, (SettleKept(event.recorded, event.problem), *step.effects))


def _saved(state: JudgeState, event: Saved) -> Step:
    settings = state.settings
    draft = event.choice if settings.draft in (None, event.choice) else settings.draft
    notice = Notice(Said.SAVED) if draft == event.choice else settings.notice
    settings = replace(settings, saving=None, draft=draft, notice=notice)
    return Step(replace(state, settings=settings), (ApplyChoice(event.choice),))


def _listed(state: JudgeState, event: MountsListed) -> Step:
    export = state.export
    folders = tuple(export_folders(state.data_dir, event.mounts, export.roots))
    export = replace(export, listing=None)
    if folders == export.folders:
        return Step(replace(state, export=replace(export, listed=True)))
    chosen = export.folders[export.index] if export.folders else None
    new_sticks = [f for f in folders[1:] if f not in export.folders]
    if export.listed and new_sticks:
        chosen = new_sticks[0]  # a stick just plugged in is where the judge wants the file
    index = folders.index(chosen) if chosen in folders else 0
    return Step(replace(state, export=replace(export, folders=folders, index=index, listed=True)))


def _on_answer(state: JudgeState, event: Event) -> Step:
    """The answer to a request, taken whatever page is shown now (a read only if still wanted)."""
    if isinstance(event, DoorRead) and event.ticket == state.door.asking:
        door = Door(has_pin=event.has_pin, shut_until_s=state.now.monotonic_s + event.wait_s)
        return Step(replace(state, door=door))
    if isinstance(event, PinChecked) and event.ticket == state.door.asking:
        return _on_pin(state, event)
    if isinstance(event, LogRead) and event.ticket == state.recheck.asking:
        recheck = replace(
            state.recheck,
            stations=event.stations,
            entries=event.entries,
            local_only=event.local_only,
            left_out=event.left_out,
            problem="",
            asking=None,
        )
        state = replace(state, recheck=recheck)
        return Step(_select(state, recheck.selected) if state.cards else state)
    if isinstance(event, CountsRead) and event.ticket == state.counts.asking:
        counts = Counts(counts=event.counts, at=state.now.local, local_only=event.local_only)
        return Step(replace(state, counts=counts))
    if isinstance(event, StatusRead) and event.ticket == state.status.asking:
        return Step(replace(state, status=replace(state.status, log=event.log, problem="", asking=None)))
    if isinstance(event, Forwarded) and event.ticket == state.status.forwarding:
        notice = Notice(Said.FORWARDED, count=event.count)
        return _read_status(replace(state, status=replace(state.status, forwarding=None, notice=notice)))
    if isinstance(event, KeptRecorded) and event.ticket == state.status.recording:
        return _recorded_kept(state, event)
    if isinstance(event, Saved) and event.ticket == state.settings.saving:
        return _saved(state, event)
    if isinstance(event, PacksChecked) and event.ticket == state.packs.checking:
        return Step(replace(state, packs=replace(state.packs, on_disk=event.on_disk, checking=None)))
    if isinstance(event, Reloaded) and event.ticket == state.packs.reloading:
        # Which file is in use is read again once the station has taken the reload (and says
        # so with StationChanged): the packs it judges with may have changed.
        packs = replace(state.packs, result=event.result, reloading=None, check_after_reload=True)
        return Step(replace(state, packs=packs), (TakeReload(event.result),))
    if isinstance(event, MountsListed) and event.ticket == state.export.listing:
        return _listed(state, event)
    if isinstance(event, Exported) and event.ticket == state.export.writing:
        on_stick = event.path.parent != state.data_dir / EXPORT_FOLDER_NAME
        written = Written(
            event.path, event.count, on_stick=on_stick, local_only=event.local_only, left_out=event.left_out
        )
        return Step(replace(state, export=replace(state.export, writing=None, written=written)))
    if isinstance(event, Failed):
        return _on_failure(state, event.request, event.problem)
    return Step(state)  # an answer nobody waits for any more


def _on_failure(state: JudgeState, request: Request, problem: Text) -> Step:
    ticket = request.ticket
    if ticket == state.door.asking:
        if isinstance(request, CheckPin):
            return Step(
                replace(state, door=replace(state.door, asking=None, refusal=Refusal(problem=problem)))
            )
        return Step(replace(state, door=Door(unreadable=problem)))
    if ticket == state.recheck.asking:
        recheck = replace(
            state.recheck, entries=(), problem=problem, local_only=False, left_out=(), asking=None
        )
        return Step(replace(state, recheck=recheck))
    if ticket == state.counts.asking:
        return Step(replace(state, counts=Counts(problem=problem)))
    if ticket == state.status.asking:
        return Step(replace(state, status=replace(state.status, log=None, problem=problem, asking=None)))
    if ticket == state.status.recording:  # not one of them could be recorded
        return _recorded_kept(state, KeptRecorded(ticket, (), problem))
    if ticket == state.status.forwarding:
        notice = Notice(Said.NOT_FORWARDED, detail=problem)
        return _read_status(replace(state, status=replace(state.status, forwarding=None, notice=notice)))
    if ticket == state.settings.saving:
        notice = Notice(Said.NOT_SAVED, detail=problem)
        return Step(replace(state, settings=replace(state.settings, saving=None, notice=notice)))
    if ticket == state.packs.checking:
        return Step(replace(state, packs=replace(state.packs, on_disk=(), checking=None)))
    if ticket == state.packs.reloading:  # refused whole: the station keeps the packs it had
        return _on_answer(state, Reloaded(ticket, ReloadResult(divisions=None, problems=(problem,))))
    if ticket == state.export.listing:
        return Step(replace(state, export=replace(state.export, listing=None)))
    if ticket == state.export.writing:
        notice = Notice(Said.NOT_WRITTEN, detail=problem)
        return Step(replace(state, export=replace(state.export, writing=None, notice=notice)))
    return Step(state)


_INPUT = (Typed, Pressed, RowTapped, StationStepped, SettingStepped)


def transition(state: JudgeState, event: Event) -> Step:
    """The one way judge mode moves: a new state, and what the view must do for it."""
    if isinstance(event, StationChanged):
        state = replace(state, station=event.station)
        if state.packs.check_after_reload:
            state = replace(state, packs=replace(state.packs, check_after_reload=False))
            return _check_packs(state) if state.page is JudgePage.PACKS else Step(state)
        return Step(state)
    if isinstance(event, Opened):
        return _open_door(state, event.at) if state.page is None else Step(state)
    if isinstance(event, Closed):
        return _close(state) if state.page is not None else Step(state)
    if isinstance(event, Touched):
        session = state.session
        touched = None if session is None else session.touched(event.at.monotonic_s)
        door_touched_s = state.door_touched_s
        if state.page is JudgePage.DOOR:
            door_touched_s = max(door_touched_s, event.at.monotonic_s)
        return Step(replace(state, now=event.at, session=touched, door_touched_s=door_touched_s))
    if isinstance(event, Ticked):
        return _on_tick(state, event.at) if state.page is not None else Step(replace(state, now=event.at))
    if isinstance(event, _INPUT):
        return _on_input(state, event) if state.page is not None else Step(state)
    return _on_answer(state, event)
