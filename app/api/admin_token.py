"""The admin token (``ALLFOURS_ADMIN_TOKEN``) as a request carries it."""

from __future__ import annotations

import hmac

from fastapi import Request

from app.api.bearer import bearer_token


def admin_token_given(request: Request) -> str:
    """The admin token a request carries: Bearer header, else X-Admin-Token; "" for none."""
    return bearer_token(request) or request.headers.get("x-admin-token", "")


def is_admin(admin_token: str | None, request: Request) -> bool:
    """The request carries the admin token (and there is one)."""
    if not admin_token:
        return False
    return hmac.compare_digest(admin_token_given(request).encode(), admin_token.encode())
