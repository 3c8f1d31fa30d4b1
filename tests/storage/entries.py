"""Challenge entries for storage tests: a hypothesis strategy and a plain factory; station heartbeats."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta, timezone

from hypothesis import strategies as st

from kiosk.core.log.challenge import ChallengeEntry, ChallengeId, SecondOpinion
from kiosk.core.log.heartbeat import DivisionPack, Heartbeat, StationId, StationState
from kiosk.core.log.overview import Board
from kiosk.core.play.adjudication import Ruling, Verdict, WordResult, WordStatus

TEXT = st.text(alphabet=st.characters(codec="utf-8", exclude_characters="\x00"))  # no surrogates, no NUL
WORD = st.text(
    alphabet=st.characters(min_codepoint=ord("A"), max_codepoint=ord("Z")), min_size=2, max_size=15
)
OFFSETS = st.builds(
    timezone,
    st.timedeltas(min_value=timedelta(hours=-23, minutes=-59), max_value=timedelta(hours=23, minutes=59)),
)


@st.composite
def entries(draw: st.DrawFn, words: st.SearchStrategy[str] = TEXT) -> ChallengeEntry:
    results = tuple(
        draw(st.lists(st.builds(WordResult, words, st.sampled_from(WordStatus)), min_size=1, max_size=8))
    )
    judged_at = draw(
        st.datetimes(
            min_value=datetime(2000, 1, 1), max_value=datetime(2100, 1, 1), timezones=st.just(UTC) | OFFSETS
        )
    )
    return ChallengeEntry(
        challenge_id=ChallengeId(draw(st.uuids())),
        judged_at=judged_at,
        station=draw(TEXT),
        division=draw(TEXT),
        rule_profile=draw(TEXT),
        table=draw(st.none() | st.integers(1, 999)),
        ruling=Ruling(
            words=tuple(result.word for result in results),
            verdict=draw(st.sampled_from(Verdict)),
            results=results,
            youth_rules=draw(st.booleans()),
            pack_name=draw(TEXT),
            pack_edition=draw(TEXT),
            set_hash=draw(TEXT),
            youth_set_hash=draw(st.none() | TEXT),
        ),
        published_edition=draw(st.none() | TEXT),
        edition_checked=draw(st.booleans()),
        second_opinion=draw(st.none() | st.builds(SecondOpinion, TEXT, TEXT, TEXT, st.sampled_from(Verdict))),
    )


def make_entry(
    words: Sequence[str] = ("CAT", "DOGZ"),
    *,
    station: str = "Table 1",
    division: str = "Open",
    judged_at: datetime | None = None,
    bad: Sequence[str] = ("DOGZ",),
    table: int | None = None,
) -> ChallengeEntry:
    results = tuple(
        WordResult(word, WordStatus.NOT_IN_LEXICON if word in bad else WordStatus.ACCEPTABLE)
        for word in words
    )
    acceptable = all(result.status is WordStatus.ACCEPTABLE for result in results)
    return ChallengeEntry(
        challenge_id=ChallengeId(uuid.uuid4()),
        judged_at=judged_at or datetime.now(UTC),
        station=station,
        division=division,
        rule_profile="double challenge",
        table=table,
        ruling=Ruling(
            words=tuple(words),
            verdict=Verdict.ACCEPTABLE if acceptable else Verdict.UNACCEPTABLE,
            results=results,
            youth_rules=False,
            pack_name="Test list",
            pack_edition="test",
            set_hash="0123abcd",
        ),
    )


def read_board(url: str) -> Board:
    """The director's board of the log at ``url``, read as the view reads it ("today": the last hour)."""
    from kiosk.storage.overview import LogReader

    reader = LogReader(url)
    try:
        since = datetime.now(UTC) - timedelta(hours=1)
        return reader.board(since, since)
    finally:
        reader.close()


def make_beat(
    name: str = "Table 1",
    state: StationState = StationState.READY,
    *,
    ago_s: float | None = None,
    reason: str = "",
    number: int = 7,
) -> Heartbeat:
    """A station's report; ``ago_s``: written that long ago (None: not written yet, no time)."""
    return Heartbeat(
        station_id=StationId(uuid.UUID(int=number)),
        station=name,
        host=f"kiosk-{number:02}",
        state=state,
        packs=(
            DivisionPack("Open", "CSW", "24"),
            DivisionPack("Schools", "School list", "2026", served=False),
        ),
        rule_profile="penalty-5-challenger_loses",
        version="1.0",
        reason=reason,
        ask_table=True,
        reported_at=None if ago_s is None else datetime.now(UTC) - timedelta(seconds=ago_s),
    )
