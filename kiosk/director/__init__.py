"""``kiosk director``: the director's live view of every station, a read-only web page.

``watch`` reads the log on its own thread every ``POLL_S`` into an immutable ``Snapshot``; the
web app (``app``, Starlette served by uvicorn) only renders the latest snapshot, so a page never
waits on the database, however slow or gone it is, and says so when it is. The first page shows
stations and counts, never a word nor a path; the recent challenges, words and per-word results
included, and each station's details are behind the judge PIN, checked by the page's own
``door``. Every request passes the ``gate`` (Host, Origin, form tokens, body limits) and every
connection the guarded protocol of ``connection`` (head deadline, connection bound), within
``limits``; ``tls`` makes or loads the certificate of ``--https``. The import contracts keep Qt
out of here, and the station out of the web server.
"""
