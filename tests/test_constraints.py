"""Every Python package of the test venv has its exact version in packaging/constraints.txt, and
the venv holds that version: a fresh clone (CI, a new organiser's machine) installs what this commit
was checked with, not whatever was released last night."""

from __future__ import annotations

import re
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

CONSTRAINTS = Path(__file__).resolve().parent.parent / "packaging" / "constraints.txt"
# pip's own tools and the project itself are not the project's dependencies
NOT_PINNED = {"pip", "setuptools", "wheel", "challenge-kiosk"}


def pinned() -> dict[str, str]:
    found: dict[str, str] = {}
    for number, line in enumerate(CONSTRAINTS.read_text(encoding="utf-8").splitlines(), start=1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        requirement = Requirement(line)
        versions = [spec.version for spec in requirement.specifier if spec.operator == "=="]
        exact = len(versions) == 1 and len(requirement.specifier) == 1
        assert exact, f"{CONSTRAINTS.name}:{number}: {line!r} is not one exact version (name==version)"
        name = canonicalize_name(requirement.name)
        assert name not in found, f"{CONSTRAINTS.name}:{number}: {requirement.name} twice"
        found[name] = versions[0]
    return found


def test_every_installed_package_is_pinned_at_the_version_installed() -> None:
    versions = pinned()
    assert {"babel", "pyside6-essentials", "marisa-trie", "sqlalchemy", "pytest"} <= set(versions)
    loose = []
    for dist in metadata.distributions():
        name = canonicalize_name(dist.metadata["Name"])
        if name in NOT_PINNED:
            continue
        if name not in versions:
            loose.append(f"{dist.metadata['Name']}=={dist.version}: not in {CONSTRAINTS.name}")
        elif versions[name] != dist.version:
            loose.append(f"{name}: {dist.version} installed, {versions[name]} pinned (run ./dev.sh test)")
    assert loose == []


def test_dev_sh_installs_with_the_constraints() -> None:
    """The one place the venv is filled passes the file to pip."""
    dev = (CONSTRAINTS.parent.parent / "dev.sh").read_text(encoding="utf-8").replace("\\\n", " ")
    installs = re.findall(r"pip install[^\n]*", dev)
    assert installs, "dev.sh installs nothing?"
    assert all("-c packaging/constraints.txt" in line for line in installs), installs
