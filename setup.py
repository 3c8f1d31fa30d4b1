"""The one build step pyproject.toml cannot declare: compiling the translation catalogues.

``build_py`` compiles kiosk/locale/*/LC_MESSAGES/kiosk.po into kiosk.mo (packaging/catalogues.py,
with Babel) into the wheel, or, for an editable install (./dev.sh), beside the .po files, where
the editable package reads them. No compiled catalogue is kept in git.
"""

from __future__ import annotations

import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent


class BuildWithCatalogues(build_py):
    def run(self) -> None:
        super().run()
        sys.path.insert(0, str(HERE / "packaging"))
        from catalogues import compile_catalogues

        if self.editable_mode:
            compile_catalogues()
        else:
            compile_catalogues(Path(self.build_lib) / "kiosk" / "locale")


setup(cmdclass={"build_py": BuildWithCatalogues})
