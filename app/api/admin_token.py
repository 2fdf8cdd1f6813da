"""The admin token (``ALLFOURS_ADMIN_TOKEN``) as a request carries it."""

from __future__ import annotations

import hmac

from fastapi import Request

from app.api.bearer import bearer_token
from app.reasons import N_, reason
from app.services import errors

_ADMIN_ONLY = N_("Only the server's admin may do that.")
ADMIN_OFF = reason(
    "admin_off", "the admin endpoints are off (ALLFOURS_ADMIN_TOKEN is unset)", _ADMIN_ONLY
)
ADMIN_TOKEN_NEEDED = reason(
    "admin_token_needed",
    "the admin token is needed (Authorization: Bearer <token>)",
    _ADMIN_ONLY,
)
ADMIN_TOKEN_WRONG = reason("admin_token_wrong", "that is not the admin token", _ADMIN_ONLY)


def admin_token_given(request: Request) -> str:
    """The admin token a request carries: Bearer header, else X-Admin-Token; "" for none."""
    return bearer_token(request) or request.headers.get("x-admin-token", "")


def is_admin(admin_token: str | None, request: Request) -> bool:
    """The request carries the admin token (and there is one)."""
    if not admin_token:
        return False
    return hmac.compare_digest(admin_token_given(request).encode(), admin_token.encode())


def check_admin(admin_token: str | None, given: str) -> None:
    """Refuse unless ``given`` is the admin token: 403 when there is none (the admin's
    doors are off), 401 when none was given, 403 when it is another."""
    if not admin_token:
        raise errors.Forbidden(ADMIN_OFF)
    if not given:
        raise errors.Unauthorized(ADMIN_TOKEN_NEEDED)
    if not hmac.compare_digest(given.encode(), admin_token.encode()):
        raise errors.Forbidden(ADMIN_TOKEN_WRONG)
