"""HTTPS for the director's page on a venue network: a certificate it makes, or one it is given.

Over plain HTTP the judge PIN and the challenges' words cross the venue's network in clear, for
anyone on it to read. ``kiosk director --https`` serves over TLS with a certificate of its own:
made the first time (an ECDSA P-256 key, self-signed, naming this computer's addresses and names),
kept in the data directory (``director-certificate.pem``, and ``director-key.pem`` readable by
its owner only) and used again at every start, so a browser that was told to trust it once keeps
trusting it. A browser warns about a certificate no authority signed: the director prints its
SHA-256 fingerprint, the judge compares it with the one the browser shows (the certificate's
details), and accepts it once per browser. It is made anew only when it would expire within
``RENEW_DAYS`` or does not name the address served.

``--certificate FILE --key FILE`` serves with a certificate the director was given (by the venue,
or by the club's own authority, whose certificate the judges' browsers already trust): used as it
is, never rewritten; its DNS names are accepted as the page's host names.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import ipaddress
import os
import socket
import ssl
from dataclasses import dataclass
from pathlib import Path

from kiosk.core.errors import KioskError

__all__ = [
    "CERTIFICATE_FILE",
    "KEY_FILE",
    "RENEW_DAYS",
    "VALID_DAYS",
    "Certificate",
    "given_certificate",
    "kept_certificate",
    "tls_context",
]

CERTIFICATE_FILE = "director-certificate.pem"
KEY_FILE = "director-key.pem"
VALID_DAYS = 397  # the longest a browser accepts for a certificate it is asked to trust
RENEW_DAYS = 30
WILDCARDS = frozenset({"0.0.0.0", "::"})
PROBE_ADDRESS = "192.0.2.1"  # TEST-NET-1: a UDP "connect" to it sends nothing, and names the outgoing address

Address = ipaddress.IPv4Address | ipaddress.IPv6Address


@dataclass(frozen=True)
class Certificate:
    """A certificate and its key on disk, and what it says."""

    certificate: Path
    key: Path
    fingerprint: str  # SHA-256, as browsers show it: AB:CD:...
    names: tuple[str, ...]  # its DNS names
    addresses: tuple[str, ...]  # its IP addresses
    not_after: dt.datetime
    made: bool = False  # made by this start (not found, expiring, or not naming the address)


def _this_computer(host: str) -> tuple[list[str], list[Address]]:
    """The names and addresses a certificate for this computer, served on ``host``, names."""
    own = socket.gethostname()
    names = ["localhost", own, f"{own}.local"]
    fqdn = socket.getfqdn()
    if "." in fqdn and not fqdn.lower().startswith("localhost"):
        names.append(fqdn)
    addresses: list[Address] = [ipaddress.ip_address("127.0.0.1"), ipaddress.ip_address("::1")]
    if host not in WILDCARDS:
        try:
            addresses.append(ipaddress.ip_address(host))
        except ValueError:
            names.append(host)
    else:
        found: set[str] = set()
        with contextlib.suppress(OSError):
            found |= {str(info[4][0]) for info in socket.getaddrinfo(own, None)}
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
                probe.connect((PROBE_ADDRESS, 9))
                found.add(str(probe.getsockname()[0]))
        except OSError:
            pass
        for text in sorted(found):
            try:
                addresses.append(ipaddress.ip_address(text.split("%")[0]))
            except ValueError:
                continue
    return list(dict.fromkeys(names)), list(dict.fromkeys(addresses))


def _read(certificate: Path, key: Path, *, made: bool = False) -> Certificate:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization

    try:
        cert = x509.load_pem_x509_certificate(certificate.read_bytes())
    except (OSError, ValueError) as exc:
        raise KioskError(f"the certificate {certificate} cannot be read: {exc}") from exc
    try:
        serialization.load_pem_private_key(key.read_bytes(), password=None)
    except (OSError, ValueError, TypeError) as exc:
        raise KioskError(
            f"the key {key} cannot be read (a PEM private key without a password is needed): {exc}"
        ) from exc
    try:
        san = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
        names = tuple(san.get_values_for_type(x509.DNSName))
        addresses = tuple(str(a) for a in san.get_values_for_type(x509.IPAddress))
    except x509.ExtensionNotFound:
        names, addresses = (), ()
    digest = cert.fingerprint(hashes.SHA256()).hex().upper()
    fingerprint = ":".join(digest[i : i + 2] for i in range(0, len(digest), 2))
    return Certificate(certificate, key, fingerprint, names, addresses, cert.not_valid_after_utc, made)


def given_certificate(certificate: Path, key: Path) -> Certificate:
    """A certificate the director was given; KioskError naming the file that cannot be used."""
    found = _read(certificate, key)
    try:
        tls_context(found)
    except ssl.SSLError as exc:
        raise KioskError(
            f"the certificate {certificate} and the key {key} do not go together: {exc}"
        ) from exc
    return found


def _write_private(path: Path, data: bytes) -> None:
    """Write ``path`` readable by its owner only, whole or not at all."""
    partial = path.with_name(path.name + ".partial")
    partial.unlink(missing_ok=True)
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(data)
        out.flush()
        os.fsync(out.fileno())
    partial.replace(path)


def _make(folder: Path, host: str, now: dt.datetime) -> Certificate:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    names, addresses = _this_computer(host)
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name(
        [
            x509.NameAttribute(NameOID.COMMON_NAME, f"kiosk director on {socket.gethostname()}"[:64]),
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "challenge-kiosk"),
        ]
    )
    alternatives: list[x509.GeneralName] = [x509.DNSName(n) for n in names]
    alternatives += [x509.IPAddress(a) for a in addresses]
    cert = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(hours=1))
        .not_valid_after(now + dt.timedelta(days=VALID_DAYS))
        .add_extension(x509.SubjectAlternativeName(alternatives), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .sign(key, hashes.SHA256())
    )
    folder.mkdir(parents=True, exist_ok=True)
    key_path, cert_path = folder / KEY_FILE, folder / CERTIFICATE_FILE
    _write_private(
        key_path,
        key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        ),
    )
    _write_private(cert_path, cert.public_bytes(serialization.Encoding.PEM))
    return _read(cert_path, key_path, made=True)


def _names_host(found: Certificate, host: str) -> bool:
    if host in WILDCARDS:
        return True
    try:
        return str(ipaddress.ip_address(host)) in found.addresses
    except ValueError:
        return host.lower() in (n.lower() for n in found.names)


def kept_certificate(folder: Path, host: str, now: dt.datetime | None = None) -> Certificate:
    """This computer's own certificate in ``folder``: the one kept there, or a new one if there is
    none, it expires within ``RENEW_DAYS``, or it does not name ``host``; KioskError if the folder
    cannot hold it."""
    now = now or dt.datetime.now(dt.UTC)
    cert_path, key_path = folder / CERTIFICATE_FILE, folder / KEY_FILE
    try:
        if cert_path.is_file() and key_path.is_file():
            try:
                found = _read(cert_path, key_path)
            except KioskError:
                found = None
            if (
                found is not None
                and found.not_after - now > dt.timedelta(days=RENEW_DAYS)
                and _names_host(found, host)
            ):
                return found
        return _make(folder, host, now)
    except OSError as exc:
        raise KioskError(
            f"the director's certificate cannot be kept in {folder}: {exc.strerror or exc}"
        ) from exc


def tls_context(found: Certificate) -> ssl.SSLContext:
    """A server context for ``found``: TLS 1.2 at least, the standard library's ciphers."""
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(found.certificate, found.key)
    return context
