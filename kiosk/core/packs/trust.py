"""Trusted organiser keys and pack signatures: whose pack a station is judging with.

A pack may end with a signature block (see ``kiosk.core.packs.pack``): an Ed25519 public key and a
signature over every byte before the block, manifest included. The digest already proves a pack is
what *some* builder wrote; the signature says *which organiser* vouches for it.

The policy, in one place:

* a signature that does not verify is always refused: the pack was changed after signing, or the
  block was damaged, and either way it is not what the organiser sent;
* with no trusted keys configured, an unsigned pack or one signed by any key is accepted, and the
  station shows which (``PackTrust.label``);
* with trusted keys configured, only a pack signed by one of them is accepted.

Signing itself lives in ``lexicon_build.signing``: a station only ever verifies.
"""

from __future__ import annotations

import base64
import binascii
import enum
import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from kiosk.core.errors import ConfigError, PackSignatureError
from kiosk.core.packs.pack import PUBLIC_KEY_BYTES, PackContents, SealedPack, SignatureBlock
from kiosk.core.wording import Text, Wording
from kiosk.core.words.language import Catalogue, english, marked

__all__ = [
    "PackTrust",
    "SignatureStatus",
    "TrustedKey",
    "check_pack_signature",
    "key_fingerprint",
    "trusted_keys_from_config",
]

FINGERPRINT_HEX_CHARS = 16
_CONFIG_KEYS = frozenset({"name", "public_key"})


def key_fingerprint(public_key: bytes) -> str:
    """A short, readable name for a key: the first 64 bits of its SHA-256, in groups of four."""
    digest = hashlib.sha256(public_key).hexdigest()[:FINGERPRINT_HEX_CHARS]
    return " ".join(digest[i : i + 4] for i in range(0, len(digest), 4))


@dataclass(frozen=True)
class TrustedKey:
    """An organiser's Ed25519 public key (32 raw bytes) and the name shown for its signatures."""

    name: str
    public_key: bytes

    def __post_init__(self) -> None:
        if not self.name.strip():
            raise ConfigError(marked("a trusted key needs a name (shown on the station for its signatures)"))
        if len(self.public_key) != PUBLIC_KEY_BYTES:
            raise ConfigError(
                marked(
                    "trusted key {name} is {count} bytes; an Ed25519 public key is {size}. Copy the "
                    "public_key line from the organiser's .pub file"
                ),
                name=repr(self.name),
                count=len(self.public_key),
                size=PUBLIC_KEY_BYTES,
            )

    @property
    def fingerprint(self) -> str:
        return key_fingerprint(self.public_key)

    def to_base64(self) -> str:
        return base64.b64encode(self.public_key).decode("ascii")

    @classmethod
    def from_base64(cls, name: str, text: str, *, where: Text = "trusted key") -> TrustedKey:
        """Read the form a station's config holds: base64 of the raw 32-byte public key."""
        try:
            raw = base64.b64decode(text.strip(), validate=True)
        except (binascii.Error, ValueError) as exc:
            raise ConfigError(
                marked(
                    "{where}: public_key for {name} is not base64 ({detail}); copy the public_key line "
                    "from the organiser's .pub file (made by 'lexicon-build keygen')"
                ),
                where=where,
                name=repr(name),
                detail=str(exc),
            ) from exc
        if len(raw) != PUBLIC_KEY_BYTES:
            raise ConfigError(
                marked(
                    "{where}: public_key for {name} decodes to {count} bytes; an Ed25519 public key is "
                    "{size}. Copy the public_key line from the organiser's .pub file"
                ),
                where=where,
                name=repr(name),
                count=len(raw),
                size=PUBLIC_KEY_BYTES,
            )
        return cls(name=name, public_key=raw)


def trusted_keys_from_config(entries: object, where: str) -> tuple[TrustedKey, ...]:
    """Read the ``[[trusted_keys]]`` tables of a TOML file (already parsed) into keys.

    ``entries`` is the parsed value (a list of tables, each ``name`` and ``public_key``);
    ``where`` names the file in messages. Raises ConfigError on anything else, and on a name or
    key given twice (a station must never show two names for one signature).
    """
    if not isinstance(entries, list):
        raise ConfigError(
            marked(
                "{where}: trusted_keys must be a list of tables ([[trusted_keys]] with name and "
                "public_key), not a single value"
            ),
            where=where,
        )
    keys: list[TrustedKey] = []
    for index, entry in enumerate(entries):
        here = Wording(marked("{where}: {key}"), where=where, key=f"trusted_keys[{index}]")
        if not isinstance(entry, Mapping):
            raise ConfigError(marked("{where} must be a table with name and public_key"), where=here)
        unknown = sorted(set(entry) - _CONFIG_KEYS)
        missing = sorted(_CONFIG_KEYS - set(entry))
        if unknown or missing:
            if unknown:
                raise ConfigError(
                    marked("{where}: unknown key {key}{missing} (a trusted key has name and public_key)"),
                    where=here,
                    key=repr(unknown[0]),
                    missing=Wording(marked("; missing {keys}"), keys=", ".join(missing)) if missing else "",
                )
            raise ConfigError(
                marked("{where}: missing {keys} (a trusted key has name and public_key)"),
                where=here,
                keys=", ".join(missing),
            )
        name, text = entry["name"], entry["public_key"]
        if not isinstance(name, str) or not isinstance(text, str):
            raise ConfigError(marked("{where}: name and public_key must both be strings"), where=here)
        if not name.strip():
            raise ConfigError(
                marked("{where}: name is empty; give the organiser's name shown for the signature"),
                where=here,
            )
        key = TrustedKey.from_base64(name, text, where=here)
        for other in keys:
            if other.name == key.name:
                raise ConfigError(
                    marked("{where}: the name {name} is used for two keys; names must differ"),
                    where=here,
                    name=repr(name),
                )
            if other.public_key == key.public_key:
                raise ConfigError(
                    marked("{where}: the key of {name} is already trusted as {other}"),
                    where=here,
                    name=repr(name),
                    other=repr(other.name),
                )
        keys.append(key)
    return tuple(keys)


class SignatureStatus(enum.Enum):
    """What a loaded pack's signature says. A signature that fails to verify never gets this far."""

    SIGNED = "signed"
    UNSIGNED = "unsigned"
    UNKNOWN_SIGNER = "unknown signer"


@dataclass(frozen=True)
class PackTrust:
    """Whose signature a loaded pack carries, for the ready screen and judge mode."""

    status: SignatureStatus
    signer: str | None = None
    """The trusted key's name, when ``status`` is SIGNED."""
    fingerprint: str | None = None
    """The fingerprint of the key in the signature block, whenever the pack is signed."""
    keys_configured: bool = False
    """Whether the station had trusted keys (and so refused anything else)."""

    @property
    def is_trusted(self) -> bool:
        return self.status is SignatureStatus.SIGNED

    @property
    def label(self) -> str:
        """One line for a screen: ``signed by NASPA``, ``unsigned``, ``signed by an unknown key (…)``."""
        return self.label_in(english())

    def label_in(self, t: Catalogue) -> str:
        """``label`` in the language of ``t``."""
        return t.say(self.wording)

    @property
    def wording(self) -> Wording:
        """``label``, kept to be said in a screen's language."""
        if self.status is SignatureStatus.SIGNED:
            return Wording(marked("signed by {signer}"), signer=self.signer)
        if self.status is SignatureStatus.UNKNOWN_SIGNER:
            return Wording(marked("signed by an unknown key ({fingerprint})"), fingerprint=self.fingerprint)
        return Wording(marked("unsigned"))


# Ed25519 public keys of small order (the neutral point and the points of order 2, 4 and 8): under
# such a key, signatures anyone can make "verify" for one message in eight or more (OpenSSL accepts
# them), so no real signer has one. Named by their y coordinate, which the key encodes below its
# top bit (the sign of x), taken modulo p to catch non-canonical encodings too, as libsodium's
# blocklist does; tests/test_trust.py checks that each has small order.
ED25519_P = 2**255 - 19
ED25519_ORDER_8_Y = 0x05FC536D880238B13933C6D305ACDFD5F098EFF289F4C345B027B2C28F95E826
SMALL_ORDER_Y = frozenset({0, 1, ED25519_P - 1, ED25519_ORDER_8_Y, ED25519_P - ED25519_ORDER_8_Y})


def has_small_order(public_key: bytes) -> bool:
    y = int.from_bytes(public_key, "little") & ((1 << 255) - 1)
    return y % ED25519_P in SMALL_ORDER_Y


def _verifies(block: SignatureBlock) -> bool:
    if has_small_order(block.public_key):
        return False
    # Imported here, not at the top: most stations judge with unsigned packs, and cryptography
    # costs ~8 ms of the start-up budget (see bench/bench_station.py). Only a signature pays it.
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    try:
        Ed25519PublicKey.from_public_bytes(block.public_key).verify(block.signature, block.signed_bytes)
    except (InvalidSignature, ValueError):
        return False
    return True


def check_pack_signature(
    contents: SealedPack | PackContents, trusted_keys: Iterable[TrustedKey] = ()
) -> PackTrust:
    """Verify a checked pack's signature against the trusted keys; raise PackSignatureError if refused.

    With no trusted keys, only a signature that fails to verify is refused; with keys, anything not
    signed by one of them is. A ``SealedPack`` is enough (nothing parsed): check it before
    ``unseal`` parses what the signature covers.
    """
    keys = tuple(trusted_keys)
    where = str(contents.path) if contents.path is not None else "the pack"
    names = ", ".join(repr(k.name) for k in keys)
    block = contents.signature
    if block is None:
        if keys:
            raise PackSignatureError(
                marked(
                    "{path} is not signed, and only packs signed by {signers} are accepted here; ask the "
                    "organiser for the signed pack (or sign it with 'lexicon-build sign PACK --key KEY')"
                ),
                path=where,
                signers=names,
            )
        return PackTrust(SignatureStatus.UNSIGNED)
    fingerprint = key_fingerprint(block.public_key)
    if not _verifies(block):
        raise PackSignatureError(
            marked(
                "{path} carries a signature (key {fingerprint}) that does not match its contents: the "
                "pack was changed after it was signed, or its signature was damaged. Do not judge with "
                "it; copy the organiser's signed original again"
            ),
            path=where,
            fingerprint=fingerprint,
        )
    for key in keys:
        if key.public_key == block.public_key:
            return PackTrust(SignatureStatus.SIGNED, key.name, fingerprint, keys_configured=True)
    if keys:
        raise PackSignatureError(
            marked(
                "{path} is signed by a key that is not trusted here (fingerprint {fingerprint}); the "
                "trusted keys are {signers}. Ask the organiser for a pack signed with one of those keys, "
                "or add the organiser's public key to [[trusted_keys]] in the station configuration"
            ),
            path=where,
            fingerprint=fingerprint,
            signers=names,
        )
    return PackTrust(SignatureStatus.UNKNOWN_SIGNER, fingerprint=fingerprint)
