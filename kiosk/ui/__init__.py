"""The only package that imports PySide6: widgets show state and forward input."""
