"""Which notifier a database gets: LISTEN/NOTIFY across processes on PostgreSQL, the hub alone
on SQLite (one process). Apart from both notifiers, so neither imports the other."""

from __future__ import annotations

from app.live.hub import Hub
from app.live.notifier import LocalNotifier, Notifier
from app.live.postgres import PostgresNotifier


def make_notifier(database_url: str, hub: Hub) -> Notifier:
    if database_url.startswith(("postgresql", "postgres:")):
        return PostgresNotifier(hub, database_url)
    return LocalNotifier(hub)
