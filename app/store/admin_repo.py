"""The admin's sign-ins (app/services/admin_sessions.py): when the admin last signed out,
kept in ``server_keys`` (one row, ``admin_signed_out``) so that every process of the server
sees it."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import Connection, Table, delete, insert, select

from app.store.models import ServerKey

server_keys: Table = ServerKey.__table__  # type: ignore[assignment]
SIGNED_OUT = "admin_signed_out"


def signed_out_at(conn: Connection) -> int | None:
    """When the admin last signed out (microseconds since the epoch), if ever."""
    found = conn.scalar(select(server_keys.c.value).where(server_keys.c.name == SIGNED_OUT))
    return int(found) if found is not None and str(found).isdigit() else None


def sign_out(conn: Connection, at_us: int) -> None:
    conn.execute(delete(server_keys).where(server_keys.c.name == SIGNED_OUT))
    conn.execute(
        insert(server_keys).values(name=SIGNED_OUT, value=str(at_us), created_at=datetime.now(UTC))
    )
