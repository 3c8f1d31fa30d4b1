import base64
from pathlib import Path

import pytest

from kiosk.core.errors import ConfigError, PackSignatureError
from kiosk.core.packs.trust import TrustedKey
from kiosk.core.play.rules import PenaltyParty, ProfileKind
from kiosk.core.station.config import (
    Access,
    Division,
    StationConfig,
    load_config,
    load_divisions,
    parse_config,
)
from tests.conftest import PackFactory

DEFAULT = Path("/embedded/default.kxpack")
FULL = """
station_name = "Station 3"
touch = true
database_url = "postgresql+psycopg://kiosk@judges/challenges"
data_dir = "state"

[rules]
profile = "penalty"
points_per_word = 10
penalty = "both"

[timings]
key_lockout_ms = 700
verdict_display_ms = 8000
idle_entry_ms = 20000

[[divisions]]
name = "Open"
pack = "csw.kxpack"
colour = "#AABBCC"
second_opinion_pack = "/packs/nwl.kxpack"

[[divisions]]
name = "Schools"
pack = "school.kxpack"
youth_rules = true

[judge]
idle_lock_seconds = 90

[[trusted_keys]]
name = "TD"
public_key = "{key}"
"""


def parse(text: str) -> object:
    return parse_config(text, where="station.toml", base=Path("/etc/kiosk"), default_pack=DEFAULT)


def test_a_full_config_is_parsed_with_paths_relative_to_the_file() -> None:
    key = base64.b64encode(bytes(range(32))).decode()
    config = parse_config(
        FULL.replace("{key}", key), where="station.toml", base=Path("/etc/kiosk"), default_pack=DEFAULT
    )
    assert config.station_name == "Station 3"
    assert config.touch
    assert config.database_url == "postgresql+psycopg://kiosk@judges/challenges"
    assert config.data_dir == Path("/etc/kiosk/state")
    assert config.rules.kind is ProfileKind.PENALTY
    assert config.rules.points_per_word == 10
    assert config.rules.penalty_party is PenaltyParty.BOTH
    assert config.timings.key_lockout_ms == 700
    assert config.timings.verdict_display_ms == 8000
    assert config.timings.idle_entry_ms == 20000
    open_, school = config.divisions
    assert open_.pack == Path("/etc/kiosk/csw.kxpack")
    assert open_.colour == "#aabbcc"
    assert open_.second_opinion_pack == Path("/packs/nwl.kxpack")
    assert not open_.youth_rules
    assert school.youth_rules
    assert school.colour != open_.colour
    assert config.judge.idle_lock_seconds == 90
    assert config.trusted_keys[0].name == "TD"
    assert config.trusted_keys[0].public_key == bytes(range(32))


def test_an_empty_config_runs_one_division_on_the_default_pack() -> None:
    config = parse_config("", where="x.toml", base=Path("/"), default_pack=DEFAULT)
    assert [d.pack for d in config.divisions] == [DEFAULT]
    assert config.rules.kind is ProfileKind.DOUBLE
    assert config.database_url is None
    assert config.trusted_keys == ()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("station_name = ", "station.toml is not valid TOML"),
        ("youth_rule = true", "unknown key 'youth_rule'"),
        ("[[divisions]]\nname='A'\nyouth_rule=true", "division 1: unknown key 'youth_rule'"),
        ("[[divisions]]\npack='a.kxpack'", "division 1: give it a name"),
        ("[judge]\nidle_lock_second = 90", "[judge]: unknown key 'idle_lock_second'"),
        ("[[divisions]]\nname='A'\ncolour='blue'", "'colour' must be a colour"),
        ("[[divisions]]\nname='A'\n[[divisions]]\nname='a'", "two divisions are named"),
        ("[rules]\nprofile='triple'", "'profile' must be one of"),
        ("[rules]\npoints_per_word=0", "'points_per_word' must be a whole number from 1 to 100"),
        ("[timings]\nkey_lockout_ms=true", "'key_lockout_ms' must be a whole number"),
        ("[timings]\nkey_lockout_ms=5000\nverdict_display_ms=4000", "must be shorter than"),
        ("touch = 'yes'", "'touch' must be true or false"),
        ("[[trusted_keys]]\nname='TD'\npublic_key='not base64!'", "is not base64"),
        ("[[trusted_keys]]\nname='TD'\npublic_key='AAAA'", "decodes to 3 bytes"),
        ("[[trusted_keys]]\nname='TD'", "missing public_key"),
        ("divisions = 3", "'divisions' must be a list of tables"),
    ],
)
def test_bad_configs_are_refused_by_file_and_key(text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=r"station\.toml") as excinfo:
        parse(text)
    assert message in str(excinfo.value)


def test_load_config_names_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"nope\.toml does not exist"):
        load_config(tmp_path / "nope.toml", default_pack=DEFAULT)


def test_load_config_records_its_source(tmp_path: Path) -> None:
    path = tmp_path / "station.toml"
    path.write_text('[[divisions]]\nname = "Open"\npack = "p.kxpack"\n', encoding="utf-8")
    config = load_config(path, default_pack=DEFAULT)
    assert config.source == path
    assert config.divisions[0].pack == tmp_path.resolve() / "p.kxpack"


def test_trusted_keys_refuse_an_unsigned_pack(make_pack: PackFactory) -> None:
    pack = make_pack(["CAT", "DOG"])
    config = StationConfig(divisions=(Division("Open", pack),), trusted_keys=(TrustedKey("TD", bytes(32)),))
    with pytest.raises(PackSignatureError, match=str(pack)):
        load_divisions(config)
    plain = load_divisions(StationConfig(divisions=(Division("Open", pack),)))
    assert plain[0].lexicon.trust.label == "unsigned"


def test_divisions_sharing_a_pack_load_it_once(make_pack: PackFactory) -> None:
    pack = make_pack(["CAT", "DOG"], youth=["DOG"])
    config = StationConfig(divisions=(Division("Open", pack), Division("Kids", pack, youth_rules=True)))
    open_, kids = load_divisions(config)
    assert open_.lexicon is kids.lexicon


def test_the_access_settings_are_read_and_checked() -> None:
    def read(text: str) -> StationConfig:
        return parse_config(text, where="station.toml", base=Path("/etc/kiosk"), default_pack=DEFAULT)

    assert read("").access == Access()
    config = read("[access]\nspeech = true\nhigh_contrast = true\nlarge_text = true\n")
    assert config.access == Access(speech=True, high_contrast=True, large_text=True)
    with pytest.raises(ConfigError, match="speech"):
        parse('[access]\nspeech = "yes"\n')
    with pytest.raises(ConfigError, match="magnify"):
        parse("[access]\nmagnify = 2\n")
