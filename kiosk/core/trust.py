"""Trusted organiser keys: which pack signatures a station accepts (filled in by the trust work)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["TrustedKey"]


@dataclass(frozen=True)
class TrustedKey:
    """An organiser's Ed25519 public key (32 raw bytes) and the name shown for its signatures."""

    name: str
    public_key: bytes
