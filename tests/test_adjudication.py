"""Adjudication: one verdict for the whole play, input errors decided before any lookup."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kiosk.core import errors
from kiosk.core.packs.lexicon import MarisaLexicon, load_lexicon
from kiosk.core.play.adjudication import Verdict, adjudicate
from lexicon_build.builder import build_pack
from lexicon_build.recipe import Recipe, SourceSpec
from tests.conftest import write_list

GOLDEN = tomllib.loads((Path(__file__).parent / "golden" / "adjudication.toml").read_text("utf-8"))


@pytest.fixture(scope="module")
def golden_lexicon(tmp_path_factory: pytest.TempPathFactory) -> MarisaLexicon:
    folder = tmp_path_factory.mktemp("golden")
    recipe = Recipe(
        name="Golden",
        sources=(SourceSpec(path=write_list(folder / "words.txt", GOLDEN["words"])),),
        youth_exclusions=SourceSpec(path=write_list(folder / "youth.txt", GOLDEN["youth_exclusions"])),
    )
    return load_lexicon(build_pack(recipe).data)


@pytest.mark.parametrize("case", GOLDEN["case"], ids=lambda c: repr(c["play"]))
def test_golden_case(case: dict[str, Any], golden_lexicon: MarisaLexicon) -> None:
    youth = bool(case.get("youth", False))
    expected = case["expect"]
    if expected in ("ACCEPTABLE", "UNACCEPTABLE"):
        ruling = adjudicate(case["play"], golden_lexicon, youth=youth)
        assert ruling.verdict is Verdict(expected)
        if "results" in case:
            assert [r.status.value for r in ruling.results] == case["results"]
    else:
        with pytest.raises(getattr(errors, expected)):
            adjudicate(case["play"], golden_lexicon, youth=youth)


def test_the_ruling_names_the_pack_it_was_judged_with(small_lexicon: MarisaLexicon) -> None:
    ruling = adjudicate("cat", small_lexicon)
    assert ruling.pack_name == small_lexicon.info.name
    assert ruling.set_hash == small_lexicon.info.set_hash
    assert ruling.words == ("CAT",)


def test_max_words_is_configurable(small_lexicon: MarisaLexicon) -> None:
    assert adjudicate("cat dog qi", small_lexicon, max_words=3).acceptable
    with pytest.raises(errors.WordCountError):
        adjudicate("cat dog qi", small_lexicon, max_words=2)


class CountingLexicon:
    """A real lexicon that records every lookup, to prove errors come before any of them."""

    def __init__(self, inner: MarisaLexicon) -> None:
        self.inner = inner
        self.lookups: list[object] = []
        self.info = inner.info

    def __contains__(self, word: object) -> bool:
        self.lookups.append(word)
        return word in self.inner

    def is_youth_excluded(self, word: str) -> bool:
        self.lookups.append(word)
        return self.inner.is_youth_excluded(word)


def test_input_errors_are_raised_before_any_lookup(small_lexicon: MarisaLexicon) -> None:
    counting = CountingLexicon(small_lexicon)
    for play in ("cat d0g", "cat " + "x" * 16, "cat dog qi za cat dog qi za cat"):
        with pytest.raises(errors.InputError):
            adjudicate(play, counting)
    assert counting.lookups == []


@given(
    words=st.lists(
        st.sampled_from(["CAT", "CATS", "DOGS", "JINN", "QI", "XU", "QAT", "ZZZ"]), min_size=1, max_size=8
    ),
    youth=st.booleans(),
)
def test_verdict_is_acceptable_iff_every_word_is(
    words: list[str], youth: bool, golden_lexicon: MarisaLexicon
) -> None:
    good = {"CAT", "CATS", "QI"} | (set() if youth else {"DOGS", "JINN"})
    ruling = adjudicate(words, golden_lexicon, youth=youth)
    assert ruling.acceptable == all(w in good for w in words)
    assert [r.status.acceptable for r in ruling.results] == [w in good for w in words]
