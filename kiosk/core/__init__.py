"""The pure domain: no Qt, no SQLAlchemy (an import-linter contract keeps it so)."""
