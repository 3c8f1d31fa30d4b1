"""What the log records and what the director reads: one judged challenge as the log keeps it
(``challenge``), what a station tells the director (``heartbeat``) and the director's overview of
every station and division (``overview``). Storage keeps them; ``kiosk.director`` shows them."""
