"""``kiosk director``: the director's live view of every station, a read-only web page.

``watch`` reads the log on its own thread every ``POLL_S`` into an immutable ``Snapshot``; the
web app (``app``, Starlette served by uvicorn) only renders the latest snapshot, so a page never
waits on the database, however slow or gone it is, and says so when it is. The first page shows
stations and counts, never a word; the recent challenges, words and per-word results included,
are behind the judge PIN. No Qt here.
"""
