"""The station: its configuration (``config``), what a judge may switch while it runs
(``settings``), packs reloaded in a running station (``reload``) and the judge PIN (``pin``)."""
