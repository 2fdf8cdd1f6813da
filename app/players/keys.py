"""A player's keys: one per device, random, kept only as a hash; and the seat token a
player holds at a room, derived from the profile's secret so that every device of theirs
acts for the seat while none of them holds it (a device signed out acts no more).

The profile's secret is in the database; the seat tokens are derived from it with the server
secret, which is not (app/store/server_key.py): a copy of the database alone derives no
seat token."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

# Keys begin with "pk." (never in a seat token's URL-safe alphabet), so the door tells a
# player's key from a seat token without asking the database.
KEY_PREFIX = "pk."
CODE_PREFIX = "sc."


def new_key() -> str:
    return KEY_PREFIX + secrets.token_urlsafe(32)  # 256 random bits


def is_key(token: str | None) -> bool:
    return token is not None and token.startswith(KEY_PREFIX)


def new_secret() -> str:
    return secrets.token_hex(32)


def new_signin_code() -> str:
    """A one-time sign-in code: 128 random bits, in the link a QR code carries."""
    return CODE_PREFIX + secrets.token_urlsafe(16)


def hashed(secret: str) -> str:
    """What is stored of a key or a sign-in code."""
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def seat_key(server_key: bytes, secret: str) -> bytes:
    """What a player's seat tokens are derived from: the profile's secret (in the database)
    keyed with the server secret (outside it)."""
    return hmac.new(server_key, b"seats:" + bytes.fromhex(secret), hashlib.sha256).digest()


def seat_token(seat_key: bytes, room_code: str) -> str:
    """The seat token of the player whose ``seat_key`` this is, at room ``room_code``."""
    mac = hmac.new(seat_key, f"seat:{room_code}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()).decode().rstrip("=")
