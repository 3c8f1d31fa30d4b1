"""The players' screens: one module per screen, over the layout kit (``kiosk.ui.layout``) and the theme.

The flow is ``kiosk.core.play.session``: a frozen state, one transition, effects. Each screen paints
that state and reports taps as session events, keeping its words in one place: ``ready`` (between
challenges), ``choice`` (which division, which table), ``entry`` (typing the words and checking
them, over the word ``grid`` and the touch ``keys``), ``verdict``, ``fault``, and the ``header``
band over them all. Judge mode (``kiosk.ui.judge``) stands beside them; neither imports the other.
"""
