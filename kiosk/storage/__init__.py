"""The challenge log and the station's persisted settings: SQLAlchemy 2.x, no Qt."""
