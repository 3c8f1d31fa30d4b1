"""The log, read on a thread of its own every second into an immutable snapshot.

The web pages only ever render the latest ``Snapshot``: a database that is slow, stuck or gone
delays no page; after each read the watcher tells its listeners (the pages' live streams), so a
change reaches an open page as soon as it is read. When the log answers again after failing, the
snapshot remembers when (``back_at``, the log's clock): for a moment the stations' reports are
awaited, not missing (``kiosk.core.log.overview.build_board``). A read that fails keeps the board last
read and records the error and since when; a read that never returns (a server that accepts and
never answers) shows as a snapshot growing old (``Watcher.silent_s``), which the page reports too.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, timedelta

from kiosk.core.errors import KioskError
from kiosk.core.log.challenge import local_midnight
from kiosk.core.log.overview import Board
from kiosk.storage.overview import LogReader

__all__ = ["POLL_S", "Snapshot", "Watcher"]

POLL_S = 1.0  # the board is read this often (a stopped station is flagged within UNSEEN_AFTER_S + this)
WATCHER_JOIN_S = 5.0


def local_now() -> datetime:
    return datetime.now(UTC).astimezone()


@dataclass(frozen=True)
class Snapshot:
    """The board as last read, and how the last read went. ``version`` grows with every read."""

    board: Board | None = None
    read_at: datetime | None = None  # local time of the last good read
    error: str | None = None  # the last read failed: why
    failing_since: datetime | None = None  # local time of the first failure in a row
    version: int = 0
    back_at: datetime | None = None  # the log's clock when it answered again after failing


class Watcher:
    """Reads ``reader``'s board every ``poll_s`` on a daemon thread, until ``close``."""

    def __init__(
        self,
        reader: LogReader,
        *,
        poll_s: float = POLL_S,
        clock: Callable[[], datetime] = local_now,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.reader = reader
        self._poll_s = poll_s
        self._clock = clock
        self._monotonic = monotonic
        self._snapshot = Snapshot()
        self._finished_at = monotonic()
        self._stop = threading.Event()
        self._soon = threading.Event()  # set to read now, or to stop
        self._thread: threading.Thread | None = None
        self._listeners: list[Callable[[], None]] = []

    @property
    def snapshot(self) -> Snapshot:
        return self._snapshot

    @property
    def silent_s(self) -> float:
        """Seconds since a read last finished (grows while one hangs)."""
        return self._monotonic() - self._finished_at

    def read_once(self) -> Snapshot:
        now = self._clock()
        today = local_midnight(date(now.year, now.month, now.day))
        previous = self._snapshot
        try:
            board = self.reader.board(
                today.astimezone(UTC),
                (now - timedelta(hours=1)).astimezone(UTC),
                awaited_since=previous.back_at,
                back_now=previous.error is not None,
            )
        except KioskError as exc:
            snapshot = replace(
                previous,
                error=str(exc),
                failing_since=previous.failing_since or now,
                version=previous.version + 1,
            )
        else:
            snapshot = Snapshot(
                board=board, read_at=now, version=previous.version + 1, back_at=board.awaited_since
            )
        self._snapshot = snapshot
        self._finished_at = self._monotonic()
        for listener in list(self._listeners):
            listener()
        return snapshot

    def subscribe(self, listener: Callable[[], None]) -> None:
        """Call ``listener`` (from the reading thread) after each read."""
        self._listeners.append(listener)

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._loop, name="kiosk-director-watch", daemon=True)
            self._thread.start()

    def _loop(self) -> None:
        while not self._stop.is_set():
            self.read_once()
            self._soon.wait(self._poll_s)
            self._soon.clear()

    def read_soon(self) -> None:
        """Read again now rather than at the next interval (the director changed something)."""
        self._soon.set()

    def close(self) -> None:
        self._stop.set()
        self._soon.set()
        if self._thread is not None:
            self._thread.join(WATCHER_JOIN_S)
            self._thread = None
        self.reader.close()
