"""Passkeys (WebAuthn) as the players' layer sees them: the relying party a ceremony is
bound to, the user handle that names a profile inside a credential, a passkey's name, and
a passkey as its list shows it. No I/O: app/services/passkeys.py runs the ceremonies."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from datetime import datetime
from urllib.parse import urlsplit

RP_NAME = "All Fours"  # what the browser's passkey dialog names the site
NAME_MAX = 80  # the column's width (app/store/models.py Passkey.name)
DEFAULT_NAME = "Passkey"  # a passkey added by a browser that says nothing of itself
_HANDLE_BYTES = 8


@dataclass(frozen=True, slots=True)
class RelyingParty:
    """Who a ceremony is for: the browser binds a credential to ``id`` (a host name) and
    signs the ``origin`` (scheme, host, port) the page was at."""

    id: str
    origin: str


def relying_party(public_url: str | None, request_url: str) -> RelyingParty:
    """The site's relying party: from ``ALLFOURS_PUBLIC_URL`` when set (behind a proxy the
    request's own URL may be the inner one), else the request's own origin."""
    parts = urlsplit(public_url or request_url)
    host = (parts.hostname or "localhost").lower()
    return RelyingParty(id=host, origin=f"{parts.scheme}://{parts.netloc.lower()}")


def user_handle(player_id: int) -> bytes:
    """The WebAuthn user handle of a profile: its id as 8 bytes (no name, no handle: the
    spec asks for nothing that identifies a person), stable for the profile's life."""
    return player_id.to_bytes(_HANDLE_BYTES, "big")


def player_of_handle(handle: bytes | None) -> int | None:
    """The profile a credential's user handle names (None: not one of ours)."""
    if handle is None or len(handle) != _HANDLE_BYTES:
        return None
    return int.from_bytes(handle, "big")


def passkey_name(given: str | None, device: str) -> str:
    """The name a passkey is listed by: the player's, else the browser that made it; one
    line, no control characters, at most NAME_MAX characters."""
    text = "".join(
        " " if unicodedata.category(c).startswith(("C", "Z")) else c for c in given or ""
    )
    text = " ".join(text.split())[:NAME_MAX].strip()
    return text or device[:NAME_MAX] or DEFAULT_NAME


@dataclass(frozen=True, slots=True)
class PasskeyRow:
    """A passkey of a player's, as its list shows it (never its key or credential id)."""

    id: int
    name: str
    created_at: datetime
    used_at: datetime | None

    @property
    def last_used(self) -> datetime | None:
        """As the API and the profile page's list (_passkeys.html) name it."""
        return self.used_at


@dataclass(frozen=True, slots=True)
class StoredPasskey:
    """What a sign-in checks an assertion against."""

    id: int
    player_id: int
    public_key: str  # base64url, COSE
    sign_count: int
