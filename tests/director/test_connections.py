"""The director's book of connections (who is closed to make room) and its quiet complaints."""

from __future__ import annotations

import asyncio
import logging
from typing import cast

from kiosk.director.connection import (
    REPEAT_S,
    Connections,
    GuardedH11Protocol,
    RepeatFilter,
    quiet_loop_errors,
)


class Conn:
    """A connection as the book sees it: something it can close."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.dropped = False

    def drop(self) -> None:
        self.dropped = True


def conn(name: str) -> GuardedH11Protocol:
    return cast(GuardedH11Protocol, Conn(name))


def dropped(c: GuardedH11Protocol) -> bool:
    return cast(Conn, c).dropped


def test_a_full_book_closes_the_oldest_still_waiting_never_one_being_answered() -> None:
    book = Connections(limit=3, per_client=10)
    streaming, slow1, slow2 = conn("stream"), conn("slow1"), conn("slow2")
    for c in (streaming, slow1, slow2):
        assert book.admit(c, "10.0.0.7")
    book.busy(streaming)  # its request came whole: a page or a live stream is being answered
    page = conn("page")
    assert book.admit(page, "10.0.0.8")
    assert dropped(slow1)  # the oldest waiting made room
    assert not dropped(streaming)
    book.busy(page)
    book.busy(slow2)
    assert not book.admit(conn("late"), "10.0.0.9")  # nobody waits: the newcomer is refused
    assert (book.open, book.evicted, book.refused) == (3, 1, 1)


def test_one_device_may_have_only_so_many_connections_being_answered() -> None:
    book = Connections(limit=100, per_client=2)
    first, second = conn("a"), conn("b")
    for c in (first, second):
        assert book.admit(c, "10.0.0.7")
        book.busy(c)
    assert not book.admit(conn("c"), "10.0.0.7")  # two live streams already
    assert book.admit(conn("d"), "10.0.0.8")  # another device is not counted with it
    book.closed(first)
    assert book.admit(conn("e"), "10.0.0.7")


def test_the_loops_complaints_are_one_line_each_at_most_every_few_seconds() -> None:
    lines: list[str] = []
    clock = [0.0]
    loop = asyncio.new_event_loop()
    try:
        quiet_loop_errors(loop, lines.append, lambda: clock[0])
        error = OSError(24, "Too many open files")
        for _ in range(1000):
            loop.call_exception_handler(
                {"message": "socket.accept() out of system resource", "exception": error}
            )
        clock[0] += REPEAT_S
        loop.call_exception_handler({"message": "socket.accept() out of system resource", "exception": error})
    finally:
        loop.close()
    assert lines == [
        "kiosk director: socket.accept() out of system resource: OSError(24, 'Too many open files')",
        "kiosk director: socket.accept() out of system resource: OSError(24, 'Too many open files') "
        "(999 more like it held back)",
    ]


def test_uvicorns_warnings_are_let_through_once_every_few_seconds() -> None:
    clock = [0.0]
    quiet = RepeatFilter(lambda: clock[0])
    record = logging.LogRecord(
        "uvicorn.error", logging.WARNING, __file__, 1, "Invalid HTTP request received.", None, None
    )
    assert quiet.filter(record)
    assert not any(quiet.filter(record) for _ in range(500))
    clock[0] += REPEAT_S
    assert quiet.filter(record)
    assert record.msg == "Invalid HTTP request received. (500 more like it held back)"
