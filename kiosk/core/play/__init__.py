"""The players' flow and rules: the screen flow as a state machine (``session``), one verdict for a
whole play (``adjudication``), the challenge rule profiles (``rules``) and many plays at once
(``batch``)."""
