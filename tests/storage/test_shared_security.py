"""The shared log guarded by PostgreSQL itself: every attack of issue 20 §5, on a real server.

The server is our own, on loopback, as an event's is: passwords (SCRAM) over TCP, the superuser
through the socket only (``secure_postgres``). Each test sets a log up with ``kiosk shared-log
setup``'s own function, then attacks it with a station's credential, as anyone holding a
``station.toml`` could: through the kiosk where the kiosk would do it, and in raw SQL where a
hostile client would.
"""

from __future__ import annotations

import contextlib
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import psycopg
import pytest
from psycopg import errors

from kiosk.core.errors import StorageError
from kiosk.core.log.challenge import LogQuery
from kiosk.core.log.heartbeat import UNSEEN_AFTER_S
from kiosk.core.log.overview import build_board
from kiosk.storage import StationStorage, open_station_storage
from kiosk.storage.heartbeat import HeartbeatStore
from kiosk.storage.migrations import SCHEMA_VERSION
from kiosk.storage.overview import LogReader
from kiosk.storage.server import SharedLogSetUp, set_up_shared_log
from tests.storage.entries import make_beat, make_entry, read_board
from tests.storage.postgres import PostgresServer

WAIT_S = 120
NOW_SLACK = timedelta(minutes=2)


@dataclass(frozen=True)
class Event:
    """A shared log as ``kiosk shared-log setup`` leaves it: two stations and the director."""

    setup: SharedLogSetUp
    admin: str  # the superuser's URL of the event's database (the socket)

    def url(self, station: str) -> str:
        found = next(s.url for s in self.setup.stations if s.station == station)
        assert found is not None
        return found

    @property
    def director(self) -> str:
        assert self.setup.director is not None
        assert self.setup.director.url is not None
        return self.setup.director.url


def libpq(url: str) -> str:
    return url.replace("postgresql+psycopg://", "postgresql://", 1)


@contextlib.contextmanager
def raw(url: str) -> Iterator[psycopg.Connection[tuple[object, ...]]]:
    """A hostile client's connection with the credential: plain SQL, autocommit."""
    with psycopg.connect(libpq(url), autocommit=True, connect_timeout=10) as conn:
        yield conn


def admin(event: Event) -> psycopg.Connection[tuple[object, ...]]:
    url = event.admin.replace("postgresql+psycopg://", "postgresql://", 1)
    return psycopg.connect(url, autocommit=True)


@pytest.fixture
def event(secure_postgres: PostgresServer) -> Event:
    database = f"ev_{uuid.uuid4().hex[:10]}"
    done = set_up_shared_log(
        secure_postgres.admin_url(), database=database, stations=["Table 1", "Table 2"], host="127.0.0.1"
    )
    return Event(done, secure_postgres.admin_url(database))


CHALLENGE_COLUMNS = (
    "id, judged_at, station, division, rule_profile, pack_name, pack_edition, set_hash, youth_rules, "
    "word_count, verdict, edition_checked"
)


def insert_challenge(
    conn: psycopg.Connection[tuple[object, ...]],
    station: str,
    *,
    verdict: str = "ACCEPTABLE",
    words: tuple[str, ...] = ("CAT",),
    challenge: uuid.UUID | None = None,
) -> uuid.UUID:
    """A challenge and its words in one transaction, as the forwarder writes them."""
    challenge = challenge or uuid.uuid4()
    with conn.transaction():
        conn.execute(
            f"INSERT INTO challenge ({CHALLENGE_COLUMNS}) VALUES (%s, timezone('UTC', now()), %s, "
            "'Open', 'double', 'Test list', 'test', 'ab', false, %s, %s, false)",
            (challenge, station, len(words), verdict),
        )
        for position, word in enumerate(words):
            conn.execute(
                "INSERT INTO challenge_word VALUES (%s, %s, %s, 'ACCEPTABLE')", (challenge, position, word)
            )
    return challenge


def forwarded(storage: StationStorage) -> None:
    deadline = time.monotonic() + WAIT_S
    while storage.log.status().backlog:
        with contextlib.suppress(StorageError):
            storage.log.forward_backlog()
        assert time.monotonic() < deadline, storage.log.status()
        time.sleep(0.05)


# -- the stations' way works --------------------------------------------------------------------


def test_stations_log_and_report_through_roles_of_their_own(event: Event, tmp_path: Path) -> None:
    one_entry, two_entry = make_entry(["CAT"], station="Table 1"), make_entry(["QI"], station="Table 2")
    with (
        open_station_storage(tmp_path / "one", event.url("Table 1"), forward_in_background=False) as one,
        open_station_storage(tmp_path / "two", event.url("Table 2"), forward_in_background=False) as two,
    ):
        one.log.record(one_entry)
        two.log.record(two_entry)
        for storage, name in ((one, "Table 1"), (two, "Table 2")):
            assert storage.heartbeats is not None
            storage.heartbeats.write(
                replace(make_beat(name, number=hash(name) % 1000), reported_at=datetime.now(UTC))
            )
            forwarded(storage)
        shown = two.log.query(LogQuery())  # a judge's recheck at Table 2 lists Table 1's too
        assert {e.challenge_id for e in shown} == {one_entry.challenge_id, two_entry.challenge_id}
        assert not two.log.status().local_only
    board = read_board(event.director)
    assert {line.name: line.counts.today for line in board.stations} == {"Table 1": 1, "Table 2": 1}
    assert {line.name for line in board.stations if line.beat is not None} == {"Table 1", "Table 2"}
    assert board.left_out == ()
    with admin(event) as conn:
        writers = {row[0]: row[1] for row in conn.execute("SELECT station, written_by FROM challenge")}
    assert writers == {"Table 1": event.setup.stations[0].role, "Table 2": event.setup.stations[1].role}


# -- forged rows -----------------------------------------------------------------------------------


def test_a_station_cannot_add_challenges_for_another_station(event: Event, tmp_path: Path) -> None:
    with (
        raw(event.url("Table 1")) as conn,
        pytest.raises(errors.InsufficientPrivilege, match="row-level security"),
    ):
        insert_challenge(conn, "Table 2")
    # the kiosk itself, given Table 1's credential and another station's name, says why
    forged = make_entry(["CAT"], station="Table 2")
    with open_station_storage(
        tmp_path / "wrong", event.url("Table 1"), forward_in_background=False
    ) as storage:
        storage.log.record(forged)  # kept locally first, as always
        with pytest.raises(
            StorageError, match=r"refuses challenges of station 'Table 2' .* adds only station 'Table 1'"
        ):
            storage.log.forward_backlog()
        assert storage.log.status().backlog == 1  # still waiting, never lost
    with admin(event) as conn:
        assert conn.execute("SELECT count(*) FROM challenge").fetchone() == (0,)


def test_a_station_adds_words_only_to_the_challenge_it_is_inserting(event: Event) -> None:
    with raw(event.url("Table 2")) as two:
        theirs = insert_challenge(two, "Table 2")
    with raw(event.url("Table 1")) as one:
        mine = insert_challenge(one, "Table 1")
        for target in (theirs, mine):  # another station's challenge, or its own committed earlier
            with pytest.raises(errors.InsufficientPrivilege, match="row-level security"):
                one.execute("INSERT INTO challenge_word VALUES (%s, 9, 'ZZZ', 'ACCEPTABLE')", (target,))
    with admin(event) as conn:
        assert conn.execute("SELECT count(*) FROM challenge_word").fetchone() == (2,)


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE challenge SET verdict = 'UNACCEPTABLE'",
        "UPDATE challenge SET verdict = 'UNACCEPTABLE' WHERE station = 'Table 1'",  # its own too
        "DELETE FROM challenge",
        "DELETE FROM challenge_word",
        "TRUNCATE challenge CASCADE",
        "UPDATE challenge_word SET word = 'ZA'",
        "SELECT * FROM station_heartbeat",
        "UPDATE station_heartbeat SET seen_at = '2099-01-01'",
        "INSERT INTO station_heartbeat (station_id, station, host, state, reason, packs, rule_profile, "
        "ask_table, backlog, version, reported_at, seen_at) VALUES (gen_random_uuid(), 'Table 1', 'h', "
        "'ready', '', '[]', 'r', false, 0, '1', '2099-01-01', '2099-01-01')",
        "DELETE FROM station_heartbeat",
        "SELECT * FROM kiosk_station_role",
        "INSERT INTO kiosk_station_role VALUES ('evil', 'Table 9')",
        "UPDATE kiosk_schema SET version = 99",
        "CREATE TABLE mine (a int)",
        "CREATE TEMPORARY TABLE mine (a int)",
    ],
)
def test_a_station_changes_and_deletes_nothing(event: Event, statement: str) -> None:
    with raw(event.url("Table 2")) as two:
        insert_challenge(two, "Table 2")
    with raw(event.url("Table 1")) as one:
        insert_challenge(one, "Table 1")
        with pytest.raises(errors.InsufficientPrivilege):
            one.execute(statement)
    with admin(event) as conn:
        assert conn.execute("SELECT count(*), min(verdict) FROM challenge").fetchone() == (2, "ACCEPTABLE")
        assert conn.execute("SELECT count(*) FROM challenge_word").fetchone() == (2,)


def test_a_station_cannot_lock_what_the_director_reads(event: Event) -> None:
    with raw(event.url("Table 1")) as one, pytest.raises(errors.InsufficientPrivilege), one.transaction():
        one.execute("LOCK TABLE station_heartbeat IN ACCESS EXCLUSIVE MODE")
    with raw(event.url("Table 1")) as one, pytest.raises(errors.InsufficientPrivilege), one.transaction():
        one.execute("LOCK TABLE challenge IN ACCESS EXCLUSIVE MODE")


def test_a_station_logs_in_with_its_own_password_only(event: Event) -> None:
    one, two = event.setup.stations
    assert one.password is not None
    as_two_with_ones = event.url("Table 2").replace(str(two.password), one.password)
    with pytest.raises(psycopg.OperationalError, match="password authentication failed"):
        psycopg.connect(libpq(as_two_with_ones), connect_timeout=10).close()
    without = event.url("Table 2").replace(f":{two.password}@", "@")
    with pytest.raises(psycopg.OperationalError):
        psycopg.connect(libpq(without), connect_timeout=10).close()


def test_the_director_reads_and_writes_nothing(event: Event) -> None:
    with raw(event.url("Table 1")) as one:
        insert_challenge(one, "Table 1")
    with raw(event.director) as director:
        assert director.execute("SELECT count(*) FROM challenge").fetchone() == (1,)
        assert director.execute("SHOW default_transaction_read_only").fetchone() == ("on",)
        for statement in (
            "UPDATE challenge SET verdict = 'UNACCEPTABLE'",
            "DELETE FROM challenge",
            "SELECT kiosk_report(gen_random_uuid(), 'Table 1', 'h', 'ready', '', '[]', 'r', false, 0, '1', "
            "now()::timestamp, 3)",
        ):
            with pytest.raises((errors.InsufficientPrivilege, errors.ReadOnlySqlTransaction)):
                director.execute(statement)
        with pytest.raises((errors.InsufficientPrivilege, errors.ReadOnlySqlTransaction)):
            insert_challenge(director, "Table 1")
        director.execute("SET default_transaction_read_only = off")  # its own setting: privileges still hold
        with pytest.raises(errors.InsufficientPrivilege):
            insert_challenge(director, "Table 1")


# -- reports: the server's clock, one a station ------------------------------------------------------


def report(
    conn: psycopg.Connection[tuple[object, ...]],
    station: str,
    *,
    reported_at: str,
    state: str = "ready",
    station_id: uuid.UUID | None = None,
) -> None:
    conn.execute(
        "SELECT kiosk_report(%s, %s, 'kiosk-01', %s, '', '[]', 'double', false, 0, '1.0', %s, NULL)",
        (station_id or uuid.uuid4(), station, state, reported_at),
    )


def test_a_station_claiming_2099_is_seen_when_the_server_saw_it(event: Event) -> None:
    with raw(event.url("Table 1")) as one:
        report(one, "Table 1", reported_at="2099-01-01 00:00:00")
        with pytest.raises(errors.InsufficientPrivilege, match="may report only as station 'Table 1'"):
            report(one, "Table 2", reported_at="2099-01-01 00:00:00")
    with admin(event) as conn:
        [(seen, reported)] = conn.execute("SELECT seen_at, reported_at FROM station_heartbeat").fetchall()
        server_now = conn.execute("SELECT timezone('UTC', now())").fetchone()[0]  # type: ignore[index]
    assert reported == datetime(2099, 1, 1)  # what it claimed, kept as a claim
    assert abs(seen - server_now) < NOW_SLACK  # type: ignore[operator]
    # the station is then killed: a minute later it is "not seen", in red, whatever it claimed
    reader = LogReader(event.director)
    try:
        engine = reader._checked()
        beats = HeartbeatStore(engine, where="the event").read().beats
    finally:
        reader.close()
    later = datetime.now(UTC) + timedelta(seconds=UNSEEN_AFTER_S + 1)
    [line] = build_board(later, beats, {}, {}).stations
    assert line.unseen
    assert line.red


def test_a_report_dated_after_now_in_a_log_from_before_is_left_out_and_named(event: Event) -> None:
    """A row written before the server stamped ``seen_at`` (or by hand, by its owner)."""
    with admin(event) as conn:
        conn.execute("ALTER TABLE station_heartbeat DISABLE TRIGGER kiosk_stamp")
        conn.execute(
            "INSERT INTO station_heartbeat (station_id, station, host, state, reason, packs, rule_profile, "
            "ask_table, backlog, version, reported_at, seen_at) VALUES (gen_random_uuid(), 'Table 9', 'h', "
            "'ready', '', '[]', 'r', false, 0, '1', '2099-01-01', '2099-01-01')"
        )
        conn.execute("ALTER TABLE station_heartbeat ENABLE TRIGGER kiosk_stamp")
    with raw(event.url("Table 1")) as one:
        report(one, "Table 1", reported_at="2026-01-01 00:00:00")
    board = read_board(event.director)
    assert [line.name for line in board.stations] == ["Table 1"]
    [named] = board.left_out
    assert "station 'Table 9'" in named
    assert "its time was not stamped by the log's server" in named


def test_a_station_keeps_one_report_however_many_it_sends(event: Event) -> None:
    with raw(event.url("Table 1")) as one:
        for _ in range(300):  # a fresh station id each time, as 20,000 fake stations would
            report(one, "Table 1", reported_at="2026-01-01 00:00:00")
    with admin(event) as conn:
        assert conn.execute("SELECT count(*) FROM station_heartbeat").fetchone() == (1,)


# -- rows a reader cannot read -------------------------------------------------------------------------


def test_a_report_in_an_unknown_state_leaves_the_board_up_and_is_named(event: Event) -> None:
    with raw(event.url("Table 1")) as one:
        report(one, "Table 1", reported_at="2026-01-01 00:00:00", state="dancing")
    with raw(event.url("Table 2")) as two:
        report(two, "Table 2", reported_at="2026-01-01 00:00:00")
    board = read_board(event.director)
    assert [line.name for line in board.stations] == ["Table 2"]
    [named] = board.left_out
    assert "station 'Table 1'" in named
    assert "the state 'dancing'" in named


def test_a_malformed_challenge_leaves_every_judges_recheck_on_the_shared_log_and_is_named(
    event: Event, tmp_path: Path
) -> None:
    with raw(event.url("Table 2")) as two:
        good = insert_challenge(two, "Table 2", words=("QI",))
        bad = insert_challenge(two, "Table 2", verdict="MAYBE")
    with open_station_storage(tmp_path / "one", event.url("Table 1"), forward_in_background=False) as one:
        found = one.log.query(LogQuery(last=50))
        status = one.log.status()
    assert not status.local_only  # not "the shared log cannot be reached"
    assert [entry.challenge_id for entry in found] == [good]
    [named] = found.left_out
    assert (named.challenge, named.station) == (str(bad)[:8], "Table 2")
    assert str(bad) in named.why
    assert "the verdict 'MAYBE'" in named.why
    reader = LogReader(event.director)  # the director's recent challenges too
    try:
        recent = reader.recent(50)
    finally:
        reader.close()
    assert [entry.challenge_id for entry in recent] == [good]


# -- set up again, and over a log made the old way -------------------------------------------------------


def test_setup_takes_over_a_log_the_stations_shared_and_upgrades_it_in_place(
    secure_postgres: PostgresServer, tmp_path: Path
) -> None:
    database = f"ev_{uuid.uuid4().hex[:10]}"
    shared = f"{database}_everyone"
    with psycopg.connect(libpq(secure_postgres.admin_url()), autocommit=True) as conn:
        conn.execute(f"CREATE ROLE {shared} LOGIN PASSWORD 'in-every-station-toml'")
        conn.execute(f"CREATE DATABASE {database} OWNER {shared}")
    shared_url = (
        f"postgresql+psycopg://{shared}:in-every-station-toml@127.0.0.1:{secure_postgres.port}/{database}"
    )
    old = make_entry(["CAT"], station="Table 1")
    with open_station_storage(tmp_path / "old", shared_url, forward_in_background=False) as storage:
        storage.log.record(old)  # a station of the old way: the shared role owns everything
        forwarded(storage)
    done = set_up_shared_log(
        secure_postgres.admin_url(), database=database, stations=["Table 1"], host="127.0.0.1"
    )
    assert done.schema_version == SCHEMA_VERSION
    assert f"table challenge (owned by {shared})" in done.taken_over
    with pytest.raises(psycopg.OperationalError, match="permission denied for database"):
        psycopg.connect(libpq(shared_url), connect_timeout=10).close()  # the shared password opens nothing
    event = Event(done, secure_postgres.admin_url(database))
    with open_station_storage(tmp_path / "one", event.url("Table 1"), forward_in_background=False) as one:
        one.log.record(new := make_entry(["QI"], station="Table 1"))
        forwarded(one)
        assert {e.challenge_id for e in one.log.query(LogQuery())} == {old.challenge_id, new.challenge_id}
    again = set_up_shared_log(
        secure_postgres.admin_url(), database=database, stations=["Table 1", "Table 2"], host="127.0.0.1"
    )
    kept, added = again.stations
    assert (kept.role, kept.password, kept.url) == (done.stations[0].role, None, None)  # unchanged
    assert again.director is not None
    assert again.director.password is None
    assert added.url is not None
    with raw(event.url("Table 1")) as one, raw(added.url) as two:  # the old password still works
        insert_challenge(one, "Table 1")
        insert_challenge(two, "Table 2")
    renewed = set_up_shared_log(
        secure_postgres.admin_url(),
        database=database,
        stations=["Table 1"],
        host="127.0.0.1",
        new_passwords=True,
    )
    assert renewed.stations[0].url is not None
    with pytest.raises(psycopg.OperationalError, match="password authentication failed"):
        psycopg.connect(libpq(event.url("Table 1")), connect_timeout=10).close()
    with raw(renewed.stations[0].url) as one:
        insert_challenge(one, "Table 1")


def test_setup_refuses_what_it_cannot_do_with_what_to_do(
    secure_postgres: PostgresServer, event: Event
) -> None:
    with pytest.raises(StorageError, match=r"needs a PostgreSQL superuser; \w+_table_1 \(on .*\) is not one"):
        set_up_shared_log(event.url("Table 1").rsplit("/", 1)[0] + "/postgres", stations=["X"])
    with pytest.raises(StorageError, match="cannot name a shared log"):
        set_up_shared_log(secure_postgres.admin_url(), database="Kiosk-2026")
    with pytest.raises(StorageError, match="each --station names one station, once"):
        set_up_shared_log(secure_postgres.admin_url(), stations=["Table 1", "Table 1"])
    with psycopg.connect(libpq(secure_postgres.admin_url()), autocommit=True) as conn:
        conn.execute("CREATE ROLE ev_squat_director LOGIN SUPERUSER PASSWORD 'x'")
        conn.execute("CREATE ROLE ev_squat_station LOGIN PASSWORD 'x'")
        conn.execute("CREATE ROLE ev_taken_table_1 LOGIN")
    with pytest.raises(
        StorageError, match="a PostgreSQL role named ev_squat_station already exists and can log in"
    ):
        set_up_shared_log(secure_postgres.admin_url(), database="ev_squat", stations=["Table 1"])
    with psycopg.connect(libpq(secure_postgres.admin_url()), autocommit=True) as conn:
        conn.execute("DROP ROLE ev_squat_station")
    with pytest.raises(StorageError, match="a PostgreSQL role named ev_squat_director already exists"):
        set_up_shared_log(secure_postgres.admin_url(), database="ev_squat", stations=["Table 1"])
    # a role of that name that is not the log's: the station gets another name, never that role
    done = set_up_shared_log(secure_postgres.admin_url(), database="ev_taken", stations=["Table 1"])
    assert done.stations[0].role == "ev_taken_table_1_2"


# -- the director's only writes: the round, a station retired ----------------------------------------


def test_the_director_sets_the_round_and_retires_stations_only_through_the_servers_functions(
    event: Event, tmp_path: Path
) -> None:
    """Its role holds no write privilege: the round and a retirement go through ``kiosk_set_round``
    and ``kiosk_retire``, stamped by the server; no station may call them, nor write those tables."""
    from kiosk.storage.hall import HallControls

    controls = HallControls(event.director)
    try:
        controls.set_round(7)
        station = uuid.uuid4()
        controls.retire(station)
        with pytest.raises(ValueError, match="1 to 999"):
            controls.set_round(1000)
    finally:
        controls.close()
    with raw(event.director) as director:
        assert director.execute("SELECT round_number, set_by FROM event_round").fetchall() == [
            (7, event.setup.director.role if event.setup.director else "")
        ]
        assert director.execute("SELECT station_id FROM station_retired").fetchall() == [(station,)]
        director.execute("SET default_transaction_read_only = off")
        for statement in (
            "INSERT INTO event_round (round_number, set_at) VALUES (9, now())",
            "DELETE FROM station_retired",
            "UPDATE event_round SET round_number = 1",
        ):
            with pytest.raises(errors.InsufficientPrivilege):
                director.execute(statement)
        with pytest.raises(errors.CheckViolation, match="a round is numbered 1 to 999"):
            director.execute("SELECT kiosk_set_round(0)")
    with raw(event.url("Table 1")) as one:
        assert one.execute("SELECT round_number FROM event_round").fetchall() == [(7,)]  # it reads it
        for statement in (
            "SELECT kiosk_set_round(8)",
            "SELECT kiosk_retire(gen_random_uuid(), true)",
            "INSERT INTO event_round (round_number, set_at) VALUES (8, now())",
            "DELETE FROM station_retired",
        ):
            with pytest.raises(errors.InsufficientPrivilege):
                one.execute(statement)


def test_a_station_stamps_the_round_it_heard_from_the_server_and_the_outbox_carries_it(
    event: Event, tmp_path: Path
) -> None:
    """The round travels server → station (the forwarder), is stamped on each challenge when it is
    judged (locally, no network), and travels back with it: a challenge judged in round 7 and sent
    after the director moved on to round 8 is still round 7's. The server stamps when it arrived."""
    from kiosk.storage.hall import HallControls

    controls = HallControls(event.director)
    try:
        with open_station_storage(
            tmp_path / "one", event.url("Table 1"), forward_in_background=False
        ) as storage:
            storage.log.record(before := make_entry(["QI"], station="Table 1"))  # no round set yet
            controls.set_round(7)
            storage.log.forward_backlog()  # sends the first, hears round 7
            storage.log.record(in_seven := make_entry(["ZA"], station="Table 1"))
            reporter = storage.heartbeat_reporter(interval_s=3600)
            reporter.report(make_beat("Table 1", number=1))
            assert reporter.write_now() is not None
            controls.set_round(8)
            storage.log.forward_backlog()  # sends round 7's challenge and the report; hears round 8
            storage.log.record(in_eight := make_entry(["XU"], station="Table 1"))
            storage.log.forward_backlog()
    finally:
        controls.close()
    reader = LogReader(event.director)
    try:
        rounds = {entry.challenge_id: entry.round for entry in reader.challenges(LogQuery())}
        assert rounds == {before.challenge_id: None, in_seven.challenge_id: 7, in_eight.challenge_id: 8}
        assert [entry.challenge_id for entry in reader.challenges(LogQuery(round=7))] == [
            in_seven.challenge_id
        ]
    finally:
        reader.close()
    with raw(event.director) as director:
        received = director.execute(
            "SELECT bool_and(received_at BETWEEN timezone('UTC', now()) - interval '5 minutes' "
            "AND timezone('UTC', now())) FROM challenge"
        ).fetchone()
        assert received == (True,)  # stamped by the server's clock as it stored them
        assert director.execute("SELECT round_number FROM station_heartbeat").fetchall() == [(7,)]
