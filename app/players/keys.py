"""A player's keys: one per device, random, kept only as a hash; and the seat token a
player holds at a room, derived from the profile's secret so that every device of theirs
acts for the seat while none of them holds it (a device signed out acts no more)."""

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


def seat_token(secret: str, room_code: str) -> str:
    """The seat token of the player whose secret this is, at room ``room_code``."""
    mac = hmac.new(bytes.fromhex(secret), f"seat:{room_code}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()).decode().rstrip("=")
