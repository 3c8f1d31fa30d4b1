"""Judge mode's work off the GUI thread: each request run on a worker, its answer sent back.

The judge-mode flow (``kiosk.core.judge``) decides every read and write; ``perform`` carries one
out against the station's storage, its pack files or a USB stick and turns the outcome into the
event the flow expects. ``Worker`` runs it on a thread of its own pool (as Anki's ``CollectionOp``
keeps collection work off Qt's thread) and delivers the answer on the GUI thread through a queued
signal, so a call that takes 10 s (a shared log that stopped answering, a SQLite file another
process holds locked) leaves the judge screen answering keys and counting down.
"""

from __future__ import annotations

import contextlib
import sys
import traceback
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QStorageInfo, QThreadPool, Signal

from kiosk.core.errors import KioskError
from kiosk.core.judge import (
    CheckPacks,
    CheckPin,
    CountsRead,
    DoorRead,
    Event,
    Exported,
    Failed,
    Forward,
    Forwarded,
    KeptRecorded,
    ListMounts,
    LogRead,
    MountsListed,
    PacksChecked,
    PinChecked,
    ReadCounts,
    ReadDoor,
    ReadLog,
    ReadStatus,
    RecordKept,
    Reloaded,
    ReloadPacks,
    Request,
    Saved,
    SaveSettings,
    StatusRead,
    WriteExport,
)
from kiosk.core.log.challenge import ChallengeLog, LogQuery, record_again
from kiosk.core.station.reload import check_on_disk, reload_divisions
from kiosk.core.words.language import marked

if TYPE_CHECKING:
    from kiosk.storage import StationStorage

__all__ = ["MAX_WORKERS", "StorageFactory", "Worker", "perform", "writable_mounts"]

StorageFactory = Callable[[], "StationStorage"]
MAX_WORKERS = 4  # a read stuck on the shared server must not hold up the PIN check behind it
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)  # "since ever": the station filter lists every station logged


def writable_mounts() -> list[Path]:
    """The volumes mounted now that can be written (a stick the system mounted, among others)."""
    return [Path(v.rootPath()) for v in QStorageInfo.mountedVolumes() if v.isReady() and not v.isReadOnly()]


def perform(
    request: Request,
    storage: StorageFactory | None,
    log: Callable[[], ChallengeLog],
    list_mounts: Callable[[], list[Path]],
) -> Event:
    """Carry out one request (on a worker thread) and return its answer.

    A KioskError (the storage's, a pack's) or an OSError (a stick pulled out, a full disk) is the
    ``Failed`` answer, with what went wrong; anything else is a bug, and is raised.
    """
    try:
        return _perform(request, storage, log, list_mounts)
    except KioskError as exc:
        return Failed(request, exc.wording)
    except OSError as exc:
        return Failed(request, exc.strerror or str(exc))


def _storage(storage: StorageFactory | None) -> StationStorage:
    if storage is None:
        raise KioskError(marked("this station has no database"))
    return storage()


def _perform(
    request: Request,
    storage: StorageFactory | None,
    log: Callable[[], ChallengeLog],
    list_mounts: Callable[[], list[Path]],
) -> Event:
    ticket = request.ticket
    if isinstance(request, ReadDoor):
        access = _storage(storage).judge_access
        return DoorRead(ticket, has_pin=access.has_pin(), wait_s=access.wait_s())
    if isinstance(request, CheckPin):
        return PinChecked(ticket, _storage(storage).judge_access.check_pin(request.pin))
    if isinstance(request, ReadLog):
        station_log = _storage(storage).log
        stations = tuple(sorted(station_log.count_by_station(EPOCH)))
        period = request.period
        query = LogQuery(last=request.last, station=request.station, since=period.since, until=period.until)
        found = station_log.query(query)
        local_only = station_log.status().local_only
        return LogRead(ticket, stations, tuple(found), local_only=local_only, left_out=found.left_out)
    if isinstance(request, ReadCounts):
        station_log = _storage(storage).log
        counts = station_log.count_by_station(request.since)
        ordered = tuple(sorted(counts.items()))
        return CountsRead(ticket, ordered, local_only=station_log.status().local_only)
    if isinstance(request, ReadStatus):
        return StatusRead(ticket, _storage(storage).log.status())
    if isinstance(request, Forward):
        return Forwarded(ticket, _storage(storage).log.forward_backlog())
    if isinstance(request, RecordKept):
        recorded, problem = record_again(log(), request.entries)
        return KeptRecorded(ticket, recorded, problem)
    if isinstance(request, SaveSettings):
        from kiosk.storage import StationSettings

        settings = StationSettings(
            division=request.division, rule_profile=request.rule_profile, timings_ms=dict(request.timings_ms)
        )
        _storage(storage).settings.save(settings)
        return Saved(ticket, request.choice)
    if isinstance(request, CheckPacks):
        on_disk = tuple(
            (path, check_on_disk(lexicon, request.trusted_keys)) for path, lexicon in request.lexicons
        )
        return PacksChecked(ticket, on_disk)
    if isinstance(request, ReloadPacks):
        return Reloaded(ticket, reload_divisions(request.config, request.divisions, request.verifier))
    if isinstance(request, ListMounts):
        return MountsListed(ticket, tuple(list_mounts()))
    if isinstance(request, WriteExport):
        from kiosk.storage import save_csv

        station_log = _storage(storage).log
        newest_first = station_log.query(LogQuery())
        request.path.parent.mkdir(parents=True, exist_ok=True)
        count = save_csv(reversed(newest_first), request.path)  # oldest first, as a spreadsheet reads
        local_only = station_log.status().local_only
        return Exported(
            ticket, request.path, count, local_only=local_only, left_out=len(newest_first.left_out)
        )
    raise TypeError(f"judge mode has no way to carry out {request!r}")


class Worker(QObject):
    """Runs requests on its own threads; ``answered`` brings each answer to the GUI thread."""

    answered = Signal(object)  # the Event that answers a request, emitted on the GUI thread
    _finished = Signal(object)  # the same, emitted on the worker thread that carried it out

    def __init__(self, perform_one: Callable[[Request], Event], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._perform = perform_one
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(MAX_WORKERS)
        self.under_way = 0  # requests started and not answered yet (read on the GUI thread only)
        self._finished.connect(self._deliver)  # queued: this object lives on the GUI thread

    def start(self, request: Request) -> None:
        self.under_way += 1
        self._pool.start(lambda: self._run(request))

    def _run(self, request: Request) -> None:  # on a worker thread
        try:
            answer = self._perform(request)
        except Exception as exc:  # a bug: said on standard error, and the page is not left waiting
            print(f"judge mode: internal error in {request!r}:\n{traceback.format_exc()}", file=sys.stderr)
            answer = Failed(request, f"internal error ({type(exc).__name__}: {exc}); see the journal")
        # If judge mode is gone (the station was left), nobody waits for the answer.
        with contextlib.suppress(RuntimeError):
            self._finished.emit(answer)

    def _deliver(self, answer: Event) -> None:
        self.under_way -= 1  # first, so that whoever hears the answer knows what is still out
        self.answered.emit(answer)
