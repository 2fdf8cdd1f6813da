"""Who is who at a table: seat tokens (only their hashes are stored) and room codes."""

from __future__ import annotations

import functools
import hashlib
import hmac
import secrets

from app.services import errors
from app.services.snapshot import RoomSnap

CODE_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i: read aloud, typed by hand
CODE_LENGTH = 12  # ~59 bits: unguessable

_CODE_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")


def new_token() -> str:
    return secrets.token_urlsafe(32)  # 256 random bits


# A seat's token is hashed at every request and every event of its streams (who is asking,
# has the seat changed): the hashes of the tokens in use are kept, as the tokens are anyway.
@functools.lru_cache(maxsize=16_384)
def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_room_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


CODE_GROUP = 4  # read aloud and shown as "p9d5 btxd hggh"
# What people put between the groups: spaces (a no-break one from a copied page), dashes
# (keyboards turn "-" into the longer ones).
_SEPARATORS = str.maketrans("", "", " \t\n\r\u00a0-\u2010\u2011\u2012\u2013\u2014")


def grouped_code(code: str) -> str:
    """A room code as a person reads it aloud: ``"p9d5btxdhggh"`` -> ``"p9d5 btxd hggh"``."""
    return " ".join(code[i : i + CODE_GROUP] for i in range(0, len(code), CODE_GROUP))


def typed_code(typed: str) -> str:
    """A room code as a person types or pastes it: any case, with or without spaces or
    dashes, or the whole invite link -> the code itself."""
    last = typed.strip().rstrip("/").rsplit("/", 1)[-1]
    return last.translate(_SEPARATORS).lower()


def check_code(code: str) -> None:
    """Codes are short and plain; anything else is no room (and never reaches the database:
    PostgreSQL refuses a NUL in a string with an error)."""
    if not 1 <= len(code) <= 32 or not _CODE_CHARS.issuperset(code):
        raise errors.NotFound(errors.NO_ROOM, code=code[:40])


def seat_of(snap: RoomSnap, token: str | None) -> int | None:
    """The caller's seat, comparing token hashes in constant time; None = spectator."""
    if not token:
        return None
    digest = token_hash(token)
    found = None
    for info in snap.seats:
        hashed = info.token_hash if info is not None else None
        if hashed is not None and hmac.compare_digest(hashed, digest):
            found = info.seat if info is not None else None
    return found


# The home page's "Your table" entries (issue 32) name each seat a browser holds by a mark
# in a cookie the whole site sees: neither the token (it stays in its room's cookie, the only
# one that acts) nor its hash as stored, but a hash of that, which the room's seats check.
MARK_LENGTH = 32  # hex digits: 128 bits


def _mark_of_hash(hashed: str) -> str:
    return hashlib.sha256(f"home:{hashed}".encode()).hexdigest()[:MARK_LENGTH]


def seat_mark(token: str) -> str:
    """The mark of a seat token that the home page's cookie keeps."""
    return _mark_of_hash(token_hash(token))


def seat_of_mark(snap: RoomSnap, mark: str) -> int | None:
    """The seat whose token ``mark`` was made from (None: none of this room's seats)."""
    found = None
    for info in snap.seats:
        hashed = info.token_hash if info is not None else None
        if hashed is not None and hmac.compare_digest(_mark_of_hash(hashed), mark):
            found = info.seat if info is not None else None
    return found
