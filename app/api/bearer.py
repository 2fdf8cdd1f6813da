"""The one reading of ``Authorization: Bearer <token>``: a seat's, a night director's or
player's, or the admin's token, each door then falling back to its own cookie or header."""

from __future__ import annotations

from starlette.requests import HTTPConnection


def bearer_token(request: HTTPConnection) -> str | None:
    """The token after ``Bearer`` (any case, spaces around it trimmed); None without one."""
    scheme, _, value = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer":
        return None
    return value.strip() or None
