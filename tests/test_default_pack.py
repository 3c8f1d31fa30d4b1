"""The embedded default pack: ENABLE, rebuilt byte for byte from its recipe."""

from __future__ import annotations

import zlib

from kiosk.core.packs.lexicon import load_lexicon
from kiosk.paths import default_pack_path
from lexicon_build.builder import build_pack
from lexicon_build.recipe import load_recipe
from tests.conftest import DATA_DIR


def test_committed_default_pack_is_exactly_what_its_recipe_builds() -> None:
    rebuilt = build_pack(load_recipe(DATA_DIR / "enable-demo.toml"))
    assert default_pack_path().read_bytes() == rebuilt.data, (
        "data/enable-demo.kxpack is stale; rebuild it: "
        "lexicon-build build data/enable-demo.toml -o data/enable-demo.kxpack"
        + (f" (or this Python's zlib, {zlib.ZLIB_RUNTIME_VERSION}, is not zlib's own)")
    )


def test_default_pack_is_named_as_a_demo_not_a_tournament_lexicon() -> None:
    info = load_lexicon(default_pack_path()).info
    assert "demo" in info.name.lower()
    assert "not a tournament lexicon" in info.description
    assert info.max_length == 15
    assert info.youth_exclusion_count > 0
