import uuid
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from kiosk.core.judge import export_file_name, export_folders, periods
from kiosk.core.log.challenge import ChallengeEntry, ChallengeId, local_midnight
from kiosk.core.packs.lexicon import MarisaLexicon
from kiosk.core.play.adjudication import Verdict, judge_words
from kiosk.ui.judge.counts import count_lines
from kiosk.ui.judge.recheck import period_label, recheck_card


def entry(lexicon: MarisaLexicon, *words: str) -> ChallengeEntry:
    return ChallengeEntry(
        challenge_id=ChallengeId(uuid.uuid4()),
        judged_at=datetime(2026, 5, 1, 12, 30, tzinfo=UTC),
        station="Table 3",
        division="Open",
        rule_profile="double",
        ruling=judge_words(words, lexicon, youth=True),
    )


def test_the_recheck_names_each_words_result(small_lexicon: MarisaLexicon) -> None:
    card = recheck_card(entry(small_lexicon, "CAT", "CATX", "DOGS"))
    assert card.verdict is Verdict.UNACCEPTABLE
    assert [(w.word, w.acceptable, w.status) for w in card.words] == [
        ("CAT", True, "acceptable"),
        ("CATX", False, "not in the lexicon"),
        ("DOGS", False, "on the youth exclusion list"),
    ]
    assert "Table 3" in card.summary
    assert "CAT CATX DOGS" in card.summary
    assert "youth rules" in card.details
    assert "double" in card.details
    assert not card.kept
    assert recheck_card(entry(small_lexicon, "CAT"), kept=True).summary.startswith("NOT IN THE LOG")
    assert "table" not in card.summary


def test_the_recheck_names_the_table_where_the_station_asks(small_lexicon: MarisaLexicon) -> None:
    card = recheck_card(replace(entry(small_lexicon, "CAT"), table=12))
    assert card.summary == "12:30:00  Table 3 \u00b7 Open \u00b7 table 12  ACCEPTABLE  CAT".replace(
        "12:30:00", card.summary[:8]
    )


def test_periods_cover_today_hour_by_hour_then_further_back() -> None:
    now = datetime(2026, 5, 1, 14, 32).astimezone()
    found = periods(now)
    labels = [period_label(p) for p in found]
    assert labels[:4] == ["Last 15 minutes", "Last hour", "Today", "Today 14:00\u201315:00"]
    assert labels[-3:] == ["Yesterday", "Last 7 days", "Everything"]
    today = found[2]
    assert today.since == local_midnight(date(2026, 5, 1))
    assert today.until is None
    assert found[3].until is not None
    assert found[3].since is not None
    assert found[3].until - found[3].since == timedelta(hours=1)
    assert found[-1].since is None


def test_an_early_morning_offers_only_the_hours_since_midnight() -> None:
    now = datetime(2026, 5, 1, 1, 5).astimezone()
    hours = [period_label(p) for p in periods(now) if period_label(p).startswith("Today ")]
    assert hours == ["Today 01:00\u201302:00", "Today 00:00\u201301:00"]


def test_counts_are_listed_busiest_first_with_a_total() -> None:
    assert count_lines({"Table 1": 3, "Table 2": 7}, "Table 1") == [
        "Table 2: 7",
        "Table 1  (this station): 3",
        "All stations: 10",
    ]
    assert count_lines({}, "Table 1") == ["No challenges yet today."]


def test_export_names_and_folders(tmp_path: Path) -> None:
    now = datetime(2026, 5, 1, 14, 32, 5)
    assert export_file_name("Table 3 / Hall B", now) == "challenges-Table_3_Hall_B-2026-05-01-143205.csv"
    mounts = [Path("/"), Path("/media"), Path("/media/judge/USB STICK"), Path("/boot/efi")]
    assert export_folders(tmp_path, mounts) == [tmp_path / "exports", Path("/media/judge/USB STICK")]
