"""The admin's sign-in on ``/admin`` (API.md § Fifth round, "Sessions end"): each sign-in is
a new cookie (its issue time and a random part, signed with the admin token), it lasts twelve
hours by the server's own clock, and signing out ends every sign-in made before, on every
process (the sign-out's time is in the database). A changed admin token ends them all too.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time

from sqlalchemy import Engine

from app.store import admin_repo
from app.store.db import read, write

SIGNED_IN_S = 12 * 60 * 60


def _now_us() -> int:
    return time.time_ns() // 1000


def _mac(admin_token: str, body: str) -> str:
    message = f"allfours admin page:{body}".encode()
    return hmac.new(admin_token.encode(), message, hashlib.sha256).hexdigest()


def new_sign_in(admin_token: str) -> str:
    """A new sign-in's cookie value: never the token, never the same twice."""
    body = f"{_now_us()}.{secrets.token_urlsafe(16)}"
    return f"{body}.{_mac(admin_token, body)}"


def holds(engine: Engine, admin_token: str | None, given: str) -> bool:
    """Whether ``given`` is a sign-in of this admin token, younger than twelve hours and made
    after the last sign-out."""
    if not admin_token or not given:
        return False
    body, _, mac = given.rpartition(".")
    issued, _, _nonce = body.partition(".")
    if not issued.isdigit() or not hmac.compare_digest(mac, _mac(admin_token, body)):
        return False
    age_s = (_now_us() - int(issued)) / 1e6
    if not 0 <= age_s < SIGNED_IN_S:
        return False
    with read(engine) as conn:
        ended = admin_repo.signed_out_at(conn)
    return ended is None or int(issued) > ended


def sign_out(engine: Engine) -> None:
    """End every sign-in made until now (the cookie a browser kept, or a copy of it)."""
    with write(engine) as conn:
        admin_repo.sign_out(conn, _now_us())
