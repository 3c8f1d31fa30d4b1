"""What a Linux station needs from Debian, worked out from the files instead of from this machine.

``packaging/linux/debian-packages.txt`` is the one list of Debian packages a station needs. This
module proves it is enough: it follows the ``NEEDED`` entries of the ELF files the station loads
(its executables, its Python extension modules and the Qt plugins its sessions load) the way the
dynamic loader does, keeps every library that the bundle (or the source checkout's PySide6) does not
carry itself, and maps each one to the Debian package that ships it (``dpkg-query -S``). A library
is covered when that package is listed, is the base system, or is pulled in by either -- never
because it happens to be installed here.

The base system is defined mechanically: every package of Priority ``required`` or ``important``
(what debootstrap and the Debian installer put on every machine), with what they depend on.
A dependency with alternatives (``a | b``) counts as its first alternative, the one apt installs
on a machine that has none of them; a virtual package counts as every installed package that
provides it.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from elftools.common.exceptions import ELFError
from elftools.elf.dynamic import DynamicSection
from elftools.elf.elffile import ELFFile

from tests.conftest import REPO_ROOT

__all__ = [
    "BASE_PRIORITIES",
    "PACKAGE_LIST",
    "QT_LIBRARY_LOG",
    "SESSION_PLUGINS",
    "Installed",
    "debian_python",
    "external_libraries",
    "library_owners",
    "library_problems",
    "loaded_plugins",
    "package_groups",
    "plugins_outside_the_sessions",
    "session_plugins",
    "unit_groups",
    "unit_programs",
]

PACKAGE_LIST = REPO_ROOT / "packaging" / "linux" / "debian-packages.txt"
BASE_PRIORITIES = frozenset({"required", "important"})
_GROUP = re.compile(r"^\[([a-z0-9-]+)\]$")
_ELF_MAGIC = b"\x7fELF"

# The Qt plugins the stations' sessions load, under Qt's plugins folder: the platform plugins of
# the two units (wayland under cage, xcb under xinit) and offscreen (--smoke without a screen);
# what those load to make a window (wayland shell, decoration and graphics integrations, xcb's GL
# integrations); and the compose input context, which every session loads. No session loads the
# other platforms (eglfs, linuxfb, minimal, vnc, vkkhrdisplay), what only they load
# (egldeviceintegrations, generic), a platform theme, an image format or an icon engine: the
# cage, Xvfb and offscreen tests hold every session to this list with Qt's own record of what
# it loaded (QT_LIBRARY_LOG).
SESSION_PLUGINS = (
    "platforms/libqwayland*.so",
    "platforms/libqxcb.so",
    "platforms/libqoffscreen.so",
    "wayland-shell-integration/*.so",
    "wayland-decoration-client/*.so",
    "wayland-graphics-integration-client/*.so",
    "xcbglintegrations/*.so",
    "platforminputcontexts/libcompose*.so",
)
QT_LIBRARY_LOG = "qt.core.library.debug=true"  # QT_LOGGING_RULES: Qt names each library it loads
_LOADED = re.compile(r'^qt\.core\.library: "(?P<path>[^"]+)" loaded library', re.MULTILINE)


def debian_python() -> str | None:
    """``3.11`` if the Python running this is Debian's own (its shared library is then a package of
    its own, libpython3.11), else None: what ./dev.sh decides for the ``{python}`` of the list."""
    owner = subprocess.run(
        ["dpkg-query", "-S", str(Path(sys.executable).resolve())], capture_output=True, check=False
    )
    return f"{sys.version_info.major}.{sys.version_info.minor}" if owner.returncode == 0 else None


def package_groups(path: Path = PACKAGE_LIST, python: str | None = None) -> dict[str, tuple[str, ...]]:
    """The list's groups in order: ``[name]`` starts one; ``#`` starts a comment. A name holding
    ``{python}`` is that version's package, and is left out when ``python`` is None."""
    groups: dict[str, list[str]] = {}
    current: list[str] | None = None
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        group = _GROUP.match(line)
        if group:
            current = groups.setdefault(group.group(1), [])
        elif current is None or not re.fullmatch(r"[a-z0-9][a-z0-9+.-]*(\{python\})?[a-z0-9+.-]*", line):
            raise ValueError(f"{path}:{number}: expected a [group] line or one package name: {raw!r}")
        elif "{python}" not in line:
            current.append(line)
        elif python is not None:
            current.append(line.replace("{python}", python))
    return {name: tuple(packages) for name, packages in groups.items()}


def session_plugins(plugins: Path) -> list[Path]:
    """The SESSION_PLUGINS files under one Qt plugins folder."""
    return sorted(path for pattern in SESSION_PLUGINS for path in plugins.glob(pattern))


def loaded_plugins(output: str) -> list[str]:
    """The libraries Qt says it loaded, from a run with QT_LOGGING_RULES=QT_LIBRARY_LOG."""
    return [match["path"] for match in _LOADED.finditer(output)]


def plugins_outside_the_sessions(output: str, plugins: Path) -> list[str]:
    """Plugins a run loaded from ``plugins`` that SESSION_PLUGINS does not name."""
    allowed = {path.resolve() for path in session_plugins(plugins)}
    return [
        path
        for path in loaded_plugins(output)
        if Path(path).resolve().is_relative_to(plugins.resolve()) and Path(path).resolve() not in allowed
    ]


# --- the ELF side: which libraries the station loads that it does not carry ----------------------


@dataclass(frozen=True)
class _Dynamic:
    needed: tuple[str, ...]
    search: tuple[Path, ...]  # RPATH or RUNPATH, $ORIGIN expanded


def _dynamic(path: Path) -> _Dynamic | None:
    """The NEEDED names and search path of an ELF file; None for anything that is not one."""
    with path.open("rb") as stream:
        if stream.read(4) != _ELF_MAGIC:
            return None
        stream.seek(0)
        try:
            elf = ELFFile(stream)
        except ELFError:
            return None
        needed: list[str] = []
        search: list[Path] = []
        for section in elf.iter_sections():
            if not isinstance(section, DynamicSection):
                continue
            for tag in section.iter_tags():
                # pyelftools sets .needed, .runpath and .rpath on the tag by its kind: the stubs
                # it ships do not know these dynamic attributes, hence vars().
                kind, names = tag.entry.d_tag, vars(tag)
                if kind == "DT_NEEDED":
                    needed.append(str(names["needed"]))
                elif kind in ("DT_RUNPATH", "DT_RPATH"):
                    value = str(names["runpath" if kind == "DT_RUNPATH" else "rpath"])
                    for item in value.split(":"):
                        expanded = item.replace("$ORIGIN", str(path.parent)).replace(
                            "${ORIGIN}", str(path.parent)
                        )
                        search.append(Path(expanded))
    return _Dynamic(tuple(needed), tuple(search))


def external_libraries(
    roots: Iterable[Path], library_path: Iterable[Path] = ()
) -> dict[str, tuple[str, ...]]:
    """Each library the ``roots`` load, directly or through a carried library, that is not carried.

    ``library_path`` plays ``LD_LIBRARY_PATH`` (the PyInstaller bootloader sets it to the bundle's
    ``_internal`` folder). Returns each such soname with the carried files that ask for it.
    """
    extra = tuple(library_path)
    missing: dict[str, set[str]] = {}
    seen: set[Path] = set()
    queue = [path.resolve() for path in roots]
    while queue:
        path = queue.pop()
        if path in seen:
            continue
        seen.add(path)
        dynamic = _dynamic(path)
        if dynamic is None:
            continue
        for soname in dynamic.needed:
            found = next(
                (folder / soname for folder in (*dynamic.search, *extra) if (folder / soname).exists()), None
            )
            if found is None:
                missing.setdefault(soname, set()).add(path.name)
            else:
                queue.append(found.resolve())
    return {soname: tuple(sorted(users)) for soname, users in sorted(missing.items())}


# --- the Debian side: who ships a library, what a package pulls in --------------------------------


def _library_folders() -> frozenset[str]:
    """The folders the dynamic loader searches by default, as dpkg records paths (merged /usr)."""
    triplet = getattr(sys.implementation, "_multiarch", "")
    folders = {"/lib", "/usr/lib", "/lib64", "/usr/lib64"}
    if triplet:
        folders |= {f"/lib/{triplet}", f"/usr/lib/{triplet}"}
    return frozenset(folders)


def _bare(name: str) -> str:
    return name.split(":", 1)[0].strip()


def _alternatives(field: str) -> Iterator[tuple[str, ...]]:
    """``a (>= 1), b | c:any`` -> ("a",), ("b", "c")."""
    for clause in field.split(","):
        names = tuple(_bare(re.sub(r"[\(\[<].*$", "", alt).strip()) for alt in clause.split("|"))
        if names and names[0]:
            yield names


@dataclass(frozen=True)
class Installed:
    """The installed packages as dpkg knows them: priorities, dependencies, provides."""

    priority: Mapping[str, str]
    depends: Mapping[str, tuple[tuple[str, ...], ...]]
    providers: Mapping[str, tuple[str, ...]]

    @classmethod
    def read(cls) -> Installed:
        fields = "${Package}\\t${Status}\\t${Priority}\\t${Provides}\\t${Pre-Depends}\\t${Depends}\\n"
        out = subprocess.run(
            ["dpkg-query", "-W", "-f", fields], capture_output=True, text=True, check=True
        ).stdout
        priority: dict[str, str] = {}
        depends: dict[str, tuple[tuple[str, ...], ...]] = {}
        providers: dict[str, list[str]] = {}
        for line in out.splitlines():
            name, status, prio, provides, pre, deps = (line.split("\t") + [""] * 6)[:6]
            if not status.endswith(" installed"):
                continue
            priority[name] = prio
            depends[name] = (*_alternatives(pre), *_alternatives(deps))
            for virtual in _alternatives(provides):
                providers.setdefault(virtual[0], []).append(name)
        return cls(priority, depends, {k: tuple(v) for k, v in providers.items()})

    def base(self) -> frozenset[str]:
        return frozenset(name for name, prio in self.priority.items() if prio in BASE_PRIORITIES)

    def closure(self, names: Iterable[str]) -> frozenset[str]:
        """``names`` and everything they pull in (first alternatives; virtual names' providers)."""
        found: set[str] = set()
        queue = list(names)
        while queue:
            name = queue.pop()
            if name in found:
                continue
            found.add(name)
            if name not in self.depends:
                queue.extend(self.providers.get(name, ()))
                continue
            queue.extend(alternatives[0] for alternatives in self.depends[name])
        return frozenset(found)


def library_owners(sonames: Iterable[str]) -> dict[str, tuple[str, ...]]:
    """Each soname with the installed packages that put it where the loader looks by default."""
    wanted = sorted(set(sonames))
    if not wanted:
        return {}
    result = subprocess.run(
        ["dpkg-query", "-S", *(f"*/{soname}" for soname in wanted)],
        capture_output=True,
        text=True,
        check=False,  # exit 1 when a pattern matches nothing: that library is reported below
    )
    folders = _library_folders()
    owners: dict[str, set[str]] = {soname: set() for soname in wanted}
    for line in result.stdout.splitlines():
        packages, _, path = line.partition(": ")
        folder, _, soname = path.strip().rpartition("/")
        if soname in owners and folder in folders:
            owners[soname].update(_bare(package) for package in packages.split(","))
    return {soname: tuple(sorted(names)) for soname, names in owners.items()}


def library_problems(
    libraries: Mapping[str, tuple[str, ...]], listed: Iterable[str], installed: Installed
) -> list[str]:
    """One line for every library that neither the list nor the base system provides."""
    listed = tuple(listed)
    problems = [
        f"{package} is in {PACKAGE_LIST.name} but not installed here, so what it pulls in is "
        "unknown: run ./dev.sh test, which installs the list"
        for package in listed
        if package not in installed.depends
    ]
    covered = installed.closure([*listed, *installed.base()])
    for soname, owners in library_owners(libraries).items():
        needed_by = libraries[soname]
        users = ", ".join(needed_by[:3]) + (f" and {len(needed_by) - 3} more" if len(needed_by) > 3 else "")
        if not owners:
            problems.append(
                f"{soname} (needed by {users}): no Debian package installed here provides it; add "
                f"the package that ships it to {PACKAGE_LIST.name} (search the contents of packages "
                "at https://packages.debian.org) and install the list with ./dev.sh test"
            )
        elif not covered.intersection(owners):
            problems.append(
                f"{soname} (needed by {users}) comes from {' or '.join(owners)}, which is neither in "
                f"{PACKAGE_LIST.name} nor pulled in by a listed or base-system package: add it to the list"
            )
    return problems


def unit_groups(unit_text: str) -> list[str]:
    """The groups of the list a unit's comments say it needs (``[station] and [cage]``)."""
    comments = "\n".join(line for line in unit_text.splitlines() if line.startswith("#"))
    return re.findall(r"\[([a-z0-9-]+)\]", comments)


def unit_programs(unit_text: str) -> list[str]:
    """The absolute programs a systemd unit's Exec lines run (a leading ``-`` or ``@`` dropped)."""
    programs = []
    for match in re.finditer(r"^Exec\w*=(\S+)", unit_text, re.MULTILINE):
        programs.append(match.group(1).lstrip("-@:+!"))
    return programs
