"""Organiser keys and pack signing: ``lexicon-build keygen``, ``sign`` and ``verify --trust``.

Ed25519 through ``cryptography``; no home-made crypto. Files:

* the private key: PKCS#8 PEM, unencrypted, created with permissions 0600 (keep it off stations);
* the public key (``.pub``): a ``[[trusted_keys]]`` TOML table, name and base64 of the raw 32-byte
  key, pasted as is into a station's configuration and read back by ``verify --trust``.

A station never signs; it only verifies (``kiosk.core.packs.trust``).
"""

from __future__ import annotations

import base64
import binascii
import tomllib
from dataclasses import dataclass
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from kiosk.core.errors import ConfigError, SourceError
from kiosk.core.files.kind import Role, refusal, refusal_for_bytes
from kiosk.core.files.output import check_output
from kiosk.core.packs.pack import PUBLIC_KEY_BYTES, SIGNATURE_BLOCK_BYTES, encode_signature_block, parse_pack
from kiosk.core.packs.trust import TrustedKey, check_pack_signature, key_fingerprint, trusted_keys_from_config
from kiosk.core.packs.verification import PackWalker
from lexicon_build.builder import write_atomically

__all__ = [
    "KeyPair",
    "generate_key_pair",
    "load_private_key",
    "load_trusted_keys",
    "public_key_text",
    "sign_pack",
]

PRIVATE_KEY_MODE = 0o600
PUBLIC_KEY_MODE = 0o644


@dataclass(frozen=True)
class KeyPair:
    """What keygen wrote: both files and the public key's fingerprint."""

    private_path: Path
    public_path: Path
    trusted_key: TrustedKey


def public_key_path(private_path: Path) -> Path:
    """``organiser.key`` -> ``organiser.pub``; a name without a suffix gets ``.pub`` added."""
    if private_path.suffix and private_path.suffix != ".pub":
        return private_path.with_suffix(".pub")
    return private_path.with_name(private_path.name + ".pub")


def public_key_text(key: TrustedKey) -> str:
    """The .pub file: a TOML table a station's configuration takes as it is."""
    quoted = key.name.replace("\\", "\\\\").replace('"', '\\"')
    return (
        f"# Public key of {key.name!r} for signed lexicon packs (lexicon-build keygen),\n"
        f"# fingerprint {key.fingerprint}.\n"
        "# To make a station accept only packs signed with this key, paste these lines into its\n"
        "# configuration file. Check it with: lexicon-build verify PACK --trust THIS-FILE\n"
        "[[trusted_keys]]\n"
        f'name = "{quoted}"\n'
        f'public_key = "{key.to_base64()}"\n'
    )


def generate_key_pair(
    private_path: Path, name: str, *, overwrite: bool = False, passphrase: bytes | None = None
) -> KeyPair:
    """Make an Ed25519 key pair: the private key file (0600) and the .pub file beside it.

    With a passphrase the private key is encrypted (PKCS#8, the best scheme ``cryptography``
    offers): a copied key file alone cannot sign packs.
    """
    if not name.strip():
        raise SourceError("a key needs a --name: the organiser's name that stations show for its signatures")
    public_path = public_key_path(private_path)
    # Only a key replaces a key, and only with --force: never a word list or a pack by mistake.
    check_output(private_path, Role.PRIVATE_KEY, force=overwrite, example="organiser.key")
    check_output(public_path, Role.PUBLIC_KEY, force=overwrite, example="organiser.key")
    private_key = Ed25519PrivateKey.generate()
    encryption: serialization.KeySerializationEncryption = (
        serialization.NoEncryption()
        if passphrase is None
        else serialization.BestAvailableEncryption(passphrase)
    )
    pem = private_key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, encryption)
    raw_public = private_key.public_key().public_bytes(
        serialization.Encoding.Raw, serialization.PublicFormat.Raw
    )
    trusted = TrustedKey(name=name, public_key=raw_public)
    write_atomically(private_path, pem, mode=PRIVATE_KEY_MODE)
    write_atomically(public_path, public_key_text(trusted).encode("utf-8"), mode=PUBLIC_KEY_MODE)
    return KeyPair(private_path=private_path, public_path=public_path, trusted_key=trusted)


def private_key_is_encrypted(path: Path) -> bool:
    """Whether the key file needs a passphrase (so the CLI asks for one only then)."""
    try:
        return b"-----BEGIN ENCRYPTED PRIVATE KEY-----" in path.read_bytes()
    except OSError:
        return False


def load_private_key(path: Path, passphrase: bytes | None = None) -> Ed25519PrivateKey:
    """Read a private key file written by keygen (any PEM Ed25519 key will do)."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise SourceError(f"{path}: cannot be read ({exc.strerror})") from exc
    problem = refusal_for_bytes(data, str(path), Role.PRIVATE_KEY)
    if problem is not None:
        raise SourceError(problem)
    encrypted = b"-----BEGIN ENCRYPTED PRIVATE KEY-----" in data
    if encrypted and passphrase is None:
        raise SourceError(f"{path} is protected by a passphrase; give it to sign")
    try:
        key = serialization.load_pem_private_key(data, password=passphrase if encrypted else None)
    except ValueError as exc:
        if encrypted:
            raise SourceError(f"{path}: wrong passphrase; nothing was signed") from exc
        raise SourceError(
            f"{path}: cannot read the private key ({exc}); make one with 'lexicon-build keygen'"
        ) from exc
    except TypeError as exc:
        raise SourceError(
            f"{path}: cannot read the private key ({exc}); make one with 'lexicon-build keygen'"
        ) from exc
    if not isinstance(key, Ed25519PrivateKey):
        raise SourceError(
            f"{path} holds a {type(key).__name__}, not an Ed25519 key; make one with 'lexicon-build keygen'"
        )
    return key


def sign_pack(
    data: bytes, private_key: Ed25519PrivateKey, path: Path | None = None, *, walker: PackWalker | None = None
) -> bytes:
    """Return the pack's bytes signed with ``private_key``, replacing any signature it had.

    The pack is checked whole first (digest, manifest, any old signature, and its tries walked in a
    child process): a damaged or forged pack is never signed.
    """
    contents = parse_pack(data, path)
    check_pack_signature(contents)
    (walker if walker is not None else PackWalker()).verify(contents)
    unsigned = data[: len(data) - SIGNATURE_BLOCK_BYTES] if contents.signature is not None else data
    public = private_key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return unsigned + encode_signature_block(public, private_key.sign(unsigned))


def _key_from_text(text: str, where: str) -> tuple[TrustedKey, ...]:
    stripped = text.strip()
    if "[[trusted_keys]]" in text or "trusted_keys" in text:
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{where}: not valid TOML ({exc})") from exc
        return trusted_keys_from_config(data.get("trusted_keys", []), where)
    if "BEGIN PUBLIC KEY" in stripped:
        try:
            public = serialization.load_pem_public_key(stripped.encode("utf-8"))
        except (ValueError, TypeError) as exc:
            raise ConfigError(f"{where}: cannot read the PEM public key ({exc})") from exc
        if not isinstance(public, Ed25519PublicKey):
            raise ConfigError(f"{where} holds a {type(public).__name__}, not an Ed25519 public key")
        raw = public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        return (TrustedKey(name=key_fingerprint(raw), public_key=raw),)
    lines = [line.strip() for line in stripped.splitlines() if line.strip() and not line.startswith("#")]
    if len(lines) == 1:
        try:
            raw = base64.b64decode(lines[0], validate=True)
        except (binascii.Error, ValueError):
            raw = b""
        if len(raw) == PUBLIC_KEY_BYTES:
            return (TrustedKey(name=key_fingerprint(raw), public_key=raw),)
    raise ConfigError(
        f"{where} is not a public key: give a .pub file made by 'lexicon-build keygen', a station "
        "configuration with [[trusted_keys]], or the base64 public key itself"
    )


def _names_a_file(spec: str) -> bool:
    """A --trust value that can only be a file name: not a base64 key, and with a dot or a slash."""
    try:
        if len(base64.b64decode(spec, validate=True)) == PUBLIC_KEY_BYTES:
            return False
    except (binascii.Error, ValueError):
        pass
    return "." in spec or "/" in spec or "\\" in spec


def load_trusted_keys(specs: tuple[str, ...]) -> tuple[TrustedKey, ...]:
    """Read ``--trust`` values: .pub files, station configs with ``[[trusted_keys]]``, or base64 keys."""
    keys: list[TrustedKey] = []
    for spec in specs:
        path = Path(spec)
        if not path.exists() and _names_a_file(spec):
            raise ConfigError(f"--trust {spec}: no such file; check the name and the folder of the .pub file")
        if path.exists():
            problem = refusal(path, Role.TRUSTED_KEYS)
            if problem is not None:
                raise ConfigError(problem)
            try:
                text = path.read_text(encoding="utf-8-sig")
            except (OSError, UnicodeDecodeError) as exc:
                raise ConfigError(f"{path}: cannot be read as a public key ({exc})") from exc
            found = _key_from_text(text, str(path))
        else:
            found = _key_from_text(spec, f"--trust {spec!r}")
        if not found:
            raise ConfigError(f"{spec} lists no trusted keys")
        keys.extend(k for k in found if all(k.public_key != o.public_key for o in keys))
    return tuple(keys)
