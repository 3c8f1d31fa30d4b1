"""Files: what a file handed over is and what to do with it (``kind``), and where a command may
write (``output``, the output-file policy of both programs)."""
