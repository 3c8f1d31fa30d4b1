"""Words and alphabets: the players' language (``language``, ``plural``), each federation's tiles
(``alphabet``) and the one normaliser every word passes through (``normalise``)."""
