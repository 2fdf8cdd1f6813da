"""The server's VAPID key (RFC 8292): it signs every push, and browsers subscribe with its
public half, so it must never change under them: made once and kept (the database, or the
host's ALLFOURS_VAPID_PRIVATE_KEY)."""

from __future__ import annotations

import base64

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def new_private_key() -> str:
    """A fresh key, as base64url of its 32 raw bytes (what is kept)."""
    key = ec.generate_private_key(ec.SECP256R1())
    return _b64url(key.private_numbers().private_value.to_bytes(32, "big"))


def signer(private_key: str) -> Vapid02:
    """The key, ready to sign; ``private_key`` is base64url raw bytes or PEM."""
    text = private_key.strip()
    if text.startswith("-----BEGIN"):
        return Vapid02.from_pem(text.encode())
    return Vapid02.from_string(text)


def public_key(vapid: Vapid02) -> str:
    """The public half as browsers take it (applicationServerKey): base64url of the
    uncompressed point."""
    point = vapid.public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return _b64url(point)
