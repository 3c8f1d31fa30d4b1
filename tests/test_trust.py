"""Signed packs: keygen, sign, verify, and a station's trusted keys refusing everything else."""

from __future__ import annotations

import hashlib
import stat
import struct
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from kiosk.core.errors import ConfigError, OutputError, PackCorruptError, PackSignatureError, SourceError
from kiosk.core.packs.lexicon import load_lexicon
from kiosk.core.packs.pack import DIGEST_BYTES, SIGNATURE_BLOCK_BYTES, SIGNATURE_MAGIC
from kiosk.core.packs.trust import (
    ED25519_P,
    SMALL_ORDER_Y,
    SignatureStatus,
    TrustedKey,
    key_fingerprint,
    trusted_keys_from_config,
)
from lexicon_build.cli import main
from lexicon_build.signing import KeyPair, generate_key_pair, load_private_key, sign_pack
from tests.conftest import PackFactory

WORDS = ["CAT", "CATS", "DOG", "DOGS", "QI", "ZA"]


@pytest.fixture
def organiser(tmp_path: Path) -> KeyPair:
    return generate_key_pair(tmp_path / "organiser.key", "Club Organiser")


@pytest.fixture
def stranger(tmp_path: Path) -> KeyPair:
    return generate_key_pair(tmp_path / "stranger.key", "Stranger")


def signed(pack: Path, keys: KeyPair) -> Path:
    pack.write_bytes(sign_pack(pack.read_bytes(), load_private_key(keys.private_path), pack))
    return pack


def redigest(data: bytearray) -> bytes:
    """Recompute a pack's SHA-256 after altering it: what a deliberate tamperer would do."""
    (content_length,) = struct.unpack_from("<Q", data, 12)
    data[content_length : content_length + DIGEST_BYTES] = hashlib.sha256(data[:content_length]).digest()
    return bytes(data)


def test_keygen_writes_a_private_key_only_its_owner_reads(organiser: KeyPair) -> None:
    assert stat.S_IMODE(organiser.private_path.stat().st_mode) == 0o600
    assert organiser.public_path.name == "organiser.pub"
    assert b"PRIVATE KEY" in organiser.private_path.read_bytes()


def test_the_public_key_file_pastes_into_a_station_config(organiser: KeyPair) -> None:
    config = "[station]\nname = 'Table 1'\n\n" + organiser.public_path.read_text(encoding="utf-8")
    keys = trusted_keys_from_config(tomllib.loads(config)["trusted_keys"], "station.toml")
    assert keys == (organiser.trusted_key,)
    assert len(keys[0].public_key) == 32
    assert organiser.trusted_key.fingerprint in organiser.public_path.read_text(encoding="utf-8")


def test_keygen_never_replaces_a_key_unless_forced(organiser: KeyPair) -> None:
    with pytest.raises(OutputError, match="already exists"):
        generate_key_pair(organiser.private_path, "Again")
    again = generate_key_pair(organiser.private_path, "Again", overwrite=True)
    assert again.trusted_key.public_key != organiser.trusted_key.public_key
    assert stat.S_IMODE(again.private_path.stat().st_mode) == 0o600


def test_an_unsigned_pack_loads_as_unsigned_without_trusted_keys(make_pack: PackFactory) -> None:
    lexicon = load_lexicon(make_pack(WORDS))
    assert lexicon.trust.status is SignatureStatus.UNSIGNED
    assert lexicon.trust.label == "unsigned"
    assert not lexicon.trust.is_trusted


def test_a_signed_pack_names_its_signer(make_pack: PackFactory, organiser: KeyPair) -> None:
    pack = signed(make_pack(WORDS), organiser)
    lexicon = load_lexicon(pack, trusted_keys=[organiser.trusted_key])
    assert lexicon.trust.status is SignatureStatus.SIGNED
    assert lexicon.trust.label == "signed by Club Organiser"
    assert lexicon.trust.is_trusted
    assert "QI" in lexicon


def test_without_trusted_keys_a_good_signature_shows_its_fingerprint(
    make_pack: PackFactory, organiser: KeyPair
) -> None:
    lexicon = load_lexicon(signed(make_pack(WORDS), organiser))
    assert lexicon.trust.status is SignatureStatus.UNKNOWN_SIGNER
    assert lexicon.trust.label == f"signed by an unknown key ({organiser.trusted_key.fingerprint})"


def test_with_trusted_keys_an_unsigned_pack_is_refused(make_pack: PackFactory, organiser: KeyPair) -> None:
    pack = make_pack(WORDS)
    with pytest.raises(PackSignatureError) as caught:
        load_lexicon(pack, trusted_keys=[organiser.trusted_key])
    assert str(pack) in str(caught.value)
    assert "not signed" in str(caught.value)
    assert "'Club Organiser'" in str(caught.value)


def test_with_trusted_keys_an_unknown_signer_is_refused(
    make_pack: PackFactory, organiser: KeyPair, stranger: KeyPair
) -> None:
    pack = signed(make_pack(WORDS), stranger)
    with pytest.raises(PackSignatureError) as caught:
        load_lexicon(pack, trusted_keys=[organiser.trusted_key])
    message = str(caught.value)
    assert str(pack) in message
    assert stranger.trusted_key.fingerprint in message
    assert "[[trusted_keys]]" in message


def test_any_of_several_trusted_keys_will_do(
    make_pack: PackFactory, organiser: KeyPair, stranger: KeyPair
) -> None:
    pack = signed(make_pack(WORDS), stranger)
    lexicon = load_lexicon(pack, trusted_keys=[organiser.trusted_key, stranger.trusted_key])
    assert lexicon.trust.signer == "Stranger"


@pytest.mark.parametrize("keys_configured", [False, True])
def test_a_pack_tampered_after_signing_is_refused_even_with_a_fresh_checksum(
    make_pack: PackFactory, organiser: KeyPair, keys_configured: bool
) -> None:
    pack = signed(make_pack(WORDS), organiser)
    data = bytearray(pack.read_bytes())
    at = data.index(b'"Test list"')
    data[at + 1 : at + 5] = b"Fake"  # rename the pack in the manifest, then fix the checksum
    pack.write_bytes(redigest(data))
    keys = [organiser.trusted_key] if keys_configured else []
    with pytest.raises(PackSignatureError) as caught:
        load_lexicon(pack, trusted_keys=keys)
    assert str(pack) in str(caught.value)
    assert "changed after it was signed" in str(caught.value)


def test_a_flipped_bit_in_the_signature_is_refused(make_pack: PackFactory, organiser: KeyPair) -> None:
    pack = signed(make_pack(WORDS), organiser)
    data = bytearray(pack.read_bytes())
    data[-1] ^= 0x01
    pack.write_bytes(bytes(data))
    with pytest.raises(PackSignatureError, match="does not match its contents"):
        load_lexicon(pack)


def test_a_trusted_key_pasted_over_a_strangers_signature_is_refused(
    make_pack: PackFactory, organiser: KeyPair, stranger: KeyPair
) -> None:
    pack = signed(make_pack(WORDS), stranger)
    data = bytearray(pack.read_bytes())
    start = len(data) - SIGNATURE_BLOCK_BYTES + len(SIGNATURE_MAGIC)
    data[start : start + 32] = organiser.trusted_key.public_key
    pack.write_bytes(bytes(data))
    with pytest.raises(PackSignatureError, match="does not match its contents"):
        load_lexicon(pack, trusted_keys=[organiser.trusted_key])


def test_a_signature_moved_from_another_pack_is_refused(make_pack: PackFactory, organiser: KeyPair) -> None:
    good = signed(make_pack(WORDS), organiser)
    other = make_pack(["ZZZ", "QI"])
    other.write_bytes(other.read_bytes() + good.read_bytes()[-SIGNATURE_BLOCK_BYTES:])
    with pytest.raises(PackSignatureError):
        load_lexicon(other, trusted_keys=[organiser.trusted_key])


def test_stripping_the_signature_leaves_an_unsigned_pack_that_trusted_stations_refuse(
    make_pack: PackFactory, organiser: KeyPair
) -> None:
    pack = signed(make_pack(WORDS), organiser)
    pack.write_bytes(pack.read_bytes()[:-SIGNATURE_BLOCK_BYTES])
    assert load_lexicon(pack).trust.status is SignatureStatus.UNSIGNED
    with pytest.raises(PackSignatureError, match="not signed"):
        load_lexicon(pack, trusted_keys=[organiser.trusted_key])


def test_re_signing_replaces_the_signature(
    make_pack: PackFactory, organiser: KeyPair, stranger: KeyPair
) -> None:
    pack = make_pack(WORDS)
    size = pack.stat().st_size
    signed(signed(pack, organiser), stranger)
    assert pack.stat().st_size == size + SIGNATURE_BLOCK_BYTES
    assert load_lexicon(pack, trusted_keys=[stranger.trusted_key]).trust.signer == "Stranger"
    with pytest.raises(PackSignatureError):
        load_lexicon(pack, trusted_keys=[organiser.trusted_key])


def test_signing_is_reproducible(make_pack: PackFactory, organiser: KeyPair) -> None:
    key = load_private_key(organiser.private_path)
    data = make_pack(WORDS).read_bytes()
    assert sign_pack(data, key) == sign_pack(sign_pack(data, key), key)  # Ed25519 is deterministic


def test_a_damaged_pack_is_never_signed(make_pack: PackFactory, organiser: KeyPair) -> None:
    data = bytearray(make_pack(WORDS).read_bytes())
    data[40] ^= 0xFF
    with pytest.raises(PackCorruptError):
        sign_pack(bytes(data), load_private_key(organiser.private_path))


def test_a_public_key_is_no_signing_key(organiser: KeyPair) -> None:
    with pytest.raises(SourceError, match="is a public signing key, not a private signing key"):
        load_private_key(organiser.public_path)


@pytest.mark.parametrize(
    ("entries", "problem"),
    [
        ({"name": "A"}, "must be a list of tables"),
        ([{"name": "A"}], "missing public_key"),
        ([{"name": "A", "public_key": "x", "colour": "red"}], "unknown key 'colour'"),
        ([{"name": "", "public_key": "AAAA"}], "name is empty"),
        ([{"name": "A", "public_key": 5}], "must both be strings"),
        ([{"name": "A", "public_key": "not base64!"}], "is not base64"),
        ([{"name": "A", "public_key": "QUJD"}], "decodes to 3 bytes"),
        (
            [{"name": "A", "public_key": "A" * 43 + "="}, {"name": "A", "public_key": "B" * 43 + "="}],
            "used for two keys",
        ),
        (
            [{"name": "A", "public_key": "A" * 43 + "="}, {"name": "B", "public_key": "A" * 43 + "="}],
            "already trusted as 'A'",
        ),
    ],
)
def test_a_wrong_trusted_keys_table_is_refused_by_name(entries: object, problem: str) -> None:
    with pytest.raises(ConfigError) as caught:
        trusted_keys_from_config(entries, "station.toml")
    assert "station.toml" in str(caught.value)
    assert problem in str(caught.value)


def test_a_trusted_key_round_trips_through_base64(organiser: KeyPair) -> None:
    key = organiser.trusted_key
    assert TrustedKey.from_base64(key.name, key.to_base64()) == key
    assert key.fingerprint == key_fingerprint(key.public_key)
    assert len(key.fingerprint.replace(" ", "")) == 16


def test_the_cli_keygen_sign_verify_round_trip(tmp_path: Path, make_pack: PackFactory) -> None:
    runner = CliRunner()
    key = tmp_path / "naspa.key"
    result = runner.invoke(main, ["keygen", str(key), "--name", "NASPA"])
    assert result.exit_code == 0, result.output
    pub = tmp_path / "naspa.pub"
    pack = make_pack(WORDS)
    original = pack.read_bytes()

    result = runner.invoke(main, ["verify", str(pack), "--trust", str(pub)])
    assert result.exit_code == 1
    assert "not signed" in result.output

    out = tmp_path / "signed.kxpack"
    result = runner.invoke(main, ["sign", str(pack), "--key", str(key), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert pack.read_bytes() == original  # -o leaves the input alone

    result = runner.invoke(main, ["verify", str(out), "--trust", str(pub)])
    assert result.exit_code == 0, result.output
    assert "signed by NASPA" in result.output

    result = runner.invoke(main, ["verify", str(out)])
    assert result.exit_code == 0, result.output
    assert "signed by an unknown key" in result.output

    base64_key = tomllib.loads(pub.read_text(encoding="utf-8"))["trusted_keys"][0]["public_key"]
    result = runner.invoke(main, ["verify", str(out), "--trust", base64_key])
    assert result.exit_code == 0, result.output

    result = runner.invoke(main, ["sign", str(pack), "--key", str(key)])
    assert result.exit_code == 0, result.output
    assert pack.read_bytes() == out.read_bytes()  # in place, the same bytes


def test_verify_takes_several_trust_options_and_a_station_config(
    tmp_path: Path, make_pack: PackFactory, organiser: KeyPair, stranger: KeyPair
) -> None:
    pack = signed(make_pack(WORDS), stranger)
    station = tmp_path / "station.toml"
    station.write_text(
        "[station]\nname = 'Table 3'\n\n" + stranger.public_path.read_text(encoding="utf-8"), encoding="utf-8"
    )
    runner = CliRunner()
    result = runner.invoke(main, ["verify", str(pack), "--trust", str(organiser.public_path)])
    assert result.exit_code == 1
    assert "not trusted" in result.output
    result = runner.invoke(
        main, ["verify", str(pack), "--trust", str(organiser.public_path), "--trust", str(station)]
    )
    assert result.exit_code == 0, result.output
    assert "signed by Stranger" in result.output


@pytest.mark.parametrize("value", ["nonsense", "QUJD"])
def test_verify_refuses_a_trust_value_that_is_no_key(make_pack: PackFactory, value: str) -> None:
    result = CliRunner().invoke(main, ["verify", str(make_pack(WORDS)), "--trust", value])
    assert result.exit_code == 2  # a mistake in the command, not a verdict on the pack
    assert "is not a public key" in result.output


def test_a_passphrase_protected_key_signs_only_with_its_passphrase(
    make_pack: PackFactory, tmp_path: Path
) -> None:
    runner = CliRunner()
    key = tmp_path / "director.key"
    made = runner.invoke(
        main,
        ["keygen", str(key), "--name", "Director", "--passphrase"],
        input="correct horse\ncorrect horse\n",
    )
    assert made.exit_code == 0, made.output
    assert b"-----BEGIN ENCRYPTED PRIVATE KEY-----" in key.read_bytes()
    with pytest.raises(SourceError, match="protected by a passphrase"):
        load_private_key(key)
    pack = make_pack(["CAT", "DOG"])
    wrong = runner.invoke(main, ["sign", str(pack), "--key", str(key)], input="wrong horse\n")
    assert wrong.exit_code == 2
    assert "wrong passphrase; nothing was signed" in wrong.output
    assert load_lexicon(pack).trust.status is SignatureStatus.UNSIGNED
    right = runner.invoke(main, ["sign", str(pack), "--key", str(key)], input="correct horse\n")
    assert right.exit_code == 0, right.output
    trusted = trusted_keys_from_config(
        tomllib.loads(key.with_suffix(".pub").read_text())["trusted_keys"], "pub"
    )
    assert load_lexicon(pack, trusted_keys=trusted).trust.label == "signed by Director"


def test_keygen_refuses_a_short_or_mismatched_passphrase(tmp_path: Path) -> None:
    runner = CliRunner()
    short = runner.invoke(
        main, ["keygen", str(tmp_path / "a.key"), "--name", "A", "--passphrase"], input="abc\nabc\n"
    )
    assert short.exit_code == 2
    assert "at least 8 characters" in short.output
    assert not (tmp_path / "a.key").exists()
    mismatch = runner.invoke(
        main, ["keygen", str(tmp_path / "b.key"), "--name", "B", "--passphrase"], input="abcdefgh\nabcdefgX\n"
    )
    assert mismatch.exit_code != 0
    assert not (tmp_path / "b.key").exists()


# --- keys of small order: a forged block must not pass for a signature --------------------------


def test_the_small_order_keys_refused_are_exactly_the_points_of_order_dividing_8() -> None:
    """Each y of ``SMALL_ORDER_Y`` is on the curve with a point of order 1, 2, 4 or 8 (checked with
    the curve's own equations, not trusted from a list)."""
    p, d = ED25519_P, -121665 * pow(121666, -1, ED25519_P) % ED25519_P
    for y in SMALL_ORDER_Y:
        x2 = (y * y - 1) * pow(d * y * y + 1, -1, p) % p  # -x^2 + y^2 = 1 + d x^2 y^2
        assert pow(x2, (p - 1) // 2, p) in (0, 1), "y must belong to a point of the curve"
    assert {0, 1, p - 1} <= SMALL_ORDER_Y  # order 4 (y = 0), 1 (the neutral point) and 2
    # order 8: doubling gives y = 0, i.e. x^2 = -y^2, i.e. d y^4 + 2 y^2 - 1 = 0
    for y in SMALL_ORDER_Y - {0, 1, p - 1}:
        assert (d * pow(y, 4, p) + 2 * y * y - 1) % p == 0
    assert len(SMALL_ORDER_Y) == 5


@pytest.mark.parametrize("y", sorted(SMALL_ORDER_Y))
@pytest.mark.parametrize("sign", [0, 1])
def test_a_signature_block_with_a_key_of_small_order_is_refused(
    make_pack: PackFactory, y: int, sign: int
) -> None:
    """Tried on several packs: such a forgery passes OpenSSL's check for about one message in eight."""
    key = (y | sign << 255).to_bytes(32, "little")
    for words in (["QI", "ZA"], ["CAT", "DOG", "QI"], ["AA", "AB"], ["ZA"], ["OX", "XI"], ["JO", "KA"]):
        pack = make_pack(words)
        unsigned = pack.read_bytes()
        for signature in (bytes(64), (1).to_bytes(32, "little") + bytes(32)):  # R = 0 or 1, S = 0
            pack.write_bytes(unsigned + SIGNATURE_MAGIC + key + signature)
            with pytest.raises(PackSignatureError, match="does not match its contents"):
                load_lexicon(pack)
