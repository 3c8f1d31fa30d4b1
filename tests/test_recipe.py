"""Recipes: sources with length limits, additions and removals, youth lists, clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.core.errors import SourceError
from kiosk.core.packs.lexicon import load_lexicon
from lexicon_build.builder import build_pack
from lexicon_build.recipe import load_recipe
from tests.conftest import write_list


def test_school_2014_style_recipe_base_list_plus_long_words_of_a_second(tmp_path: Path) -> None:
    write_list(tmp_path / "base.txt", ["CAT", "DOGS", "QI"])
    write_list(tmp_path / "second.txt", ["ZEBRA", "PINEAPPLE", "ABOMINABLE", "EXTRAORDINARY"])
    write_list(tmp_path / "youth.txt", ["DOGS", "NOTINBASE"])
    recipe = tmp_path / "school.toml"
    recipe.write_text(
        """
name = "School 2014"
edition = "2014-01-30"
description = "base plus 9+ letter words of a second dictionary"
additions = ["QAT"]
removals = ["QI"]

[[sources]]
path = "base.txt"

[[sources]]
path = "second.txt"
min_length = 9

[youth_exclusions]
path = "youth.txt"
""",
        encoding="utf-8",
    )
    result = build_pack(load_recipe(recipe))
    lexicon = load_lexicon(result.data)
    assert sorted(lexicon.words.keys()) == ["ABOMINABLE", "CAT", "DOGS", "EXTRAORDINARY", "PINEAPPLE", "QAT"]
    assert "ZEBRA" not in lexicon  # only 5 letters: the second dictionary gives 9+ only
    assert lexicon.is_youth_excluded("DOGS")
    assert lexicon.info.youth_exclusion_count == 1
    assert any("NOTINBASE" in w for w in result.report.warnings)
    assert [s.min_length for s in lexicon.info.sources] == [None, 9, None]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('name = "X"\n', "at least one source"),
        ('[[sources]]\npath = "a.txt"\n', "needs a name"),
        ('name = "X"\nsorces = []\n', "unknown key.*sorces"),
        ('name = "X"\n[[sources]]\npath = "a.txt"\nmin_len = 9\n', r"sources\[0\]: unknown key.*min_len"),
        ('name = "X"\n[[sources]]\npath = "a.txt"\nformat = "csv"\n', "auto, plain, zyzzyva or dwg"),
        ('name = "X"\nmax_length = "15"\n[[sources]]\npath = "a.txt"\n', "max_length must be a whole number"),
        ('name = "X"\nadditions = ["c4t"]\n[[sources]]\npath = "a.txt"\n', r"additions\[0\].*U\+0034"),
        ('name = "X\n', "not valid TOML"),
    ],
)
def test_recipe_errors_name_the_file_and_the_key(tmp_path: Path, text: str, message: str) -> None:
    recipe = tmp_path / "bad.toml"
    recipe.write_text(text, encoding="utf-8")
    with pytest.raises(SourceError, match=message):
        load_recipe(recipe)


def test_a_build_with_bad_lines_fails_listing_every_line(tmp_path: Path) -> None:
    write_list(tmp_path / "a.txt", ["CAT", "D0G", "QI", "X"])
    recipe = tmp_path / "r.toml"
    recipe.write_text('name = "X"\n[[sources]]\npath = "a.txt"\n', encoding="utf-8")
    with pytest.raises(SourceError) as caught:
        build_pack(load_recipe(recipe))
    message = str(caught.value)
    assert f"{tmp_path / 'a.txt'}:2:" in message
    assert f"{tmp_path / 'a.txt'}:4:" in message
    assert "--skip-invalid" in message
    skipped = build_pack(load_recipe(recipe), skip_invalid=True)
    assert skipped.info.word_count == 2
    assert len(skipped.report.rejected) == 2
