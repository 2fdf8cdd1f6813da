"""Running a server: the admin's list of rooms, closing a room, expiring idle rooms.

Removing a room announces one more version for it (NOTIFY inside the delete's transaction,
then the local hub): every open stream of that room, in every process, wakes, finds the
room gone and ends; the browsers' reconnects then get 404.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import suppress
from datetime import UTC, datetime, timedelta
from typing import Any

from app.live.presence import Presence
from app.services import errors
from app.services.tables import Tables
from app.services.view import room_view
from app.store import housekeeping as store
from app.store.db import read, write

log = logging.getLogger("allfours.housekeeping")

Json = dict[str, Any]


async def until_gone(events: AsyncIterator[Json]) -> AsyncIterator[Json]:
    """A room's event stream that ends quietly once the room is removed."""
    with suppress(errors.NotFound):
        async for event in events:
            yield event


class Housekeeping:
    def __init__(self, tables: Tables, presence: Presence) -> None:
        self.tables = tables
        self.presence = presence

    def rooms(self, *, limit: int, offset: int = 0) -> Json:
        """Rooms with their state, the most recently changed first (for the admin)."""
        with read(self.tables.engine) as conn:
            total = store.count_rooms(conn)
            found = store.recent_rooms(conn, limit=limit, offset=offset)
        listed = []
        for activity in found:
            try:
                snap = self.tables.snapshot(activity.code)
            except errors.NotFound:
                continue  # removed since the listing was read
            view = room_view(snap, None, self.presence)
            listed.append(
                {
                    "code": snap.code,
                    "version": snap.version,
                    "phase": view["phase"],
                    "game_number": view["game_number"],
                    "hand_number": view["hand_number"],
                    "scores": view["scores"],
                    "seats": [
                        None
                        if s is None
                        else {k: s[k] for k in ("seat", "name", "bot", "connected", "auto")}
                        for s in view["seats"]
                    ],
                    "created_at": activity.created_at.isoformat(),
                    "last_change": activity.last_change.isoformat(),
                }
            )
        return {"total": total, "offset": offset, "rooms": listed}

    def close(self, code: str) -> None:
        """Remove a room now, whatever its state."""
        for _ in range(8):
            with write(self.tables.engine) as conn:
                activity = store.room_activity(conn, code)
                if activity is None:
                    raise errors.NotFound(f"no room {code!r}")
                if not self._remove(conn, activity):
                    continue  # a move came in meanwhile: read the new version, remove that
            self._announce(activity)
            log.info("room closed", extra={"event": "close", "room": code})
            return
        raise errors.Conflict("the room is busy: try again")

    def expire_idle(self, *, ttl_days: float, now: datetime | None = None) -> list[str]:
        """Remove every room with no change for ``ttl_days``; returns their codes."""
        before = (now or datetime.now(UTC)) - timedelta(days=ttl_days)
        removed: list[store.RoomActivity] = []
        with write(self.tables.engine) as conn:
            for activity in store.idle_rooms(conn, before=before):
                if self._remove(conn, activity):
                    removed.append(activity)
        for activity in removed:
            self._announce(activity)
        return [a.code for a in removed]

    def _remove(self, conn: Any, activity: store.RoomActivity) -> bool:
        if not store.delete_room(conn, activity.id, activity.version):
            return False
        self.tables.notifier.in_transaction(conn, activity.code, activity.version + 1)
        return True

    def _announce(self, activity: store.RoomActivity) -> None:
        self.tables.notifier.after_commit(activity.code, activity.version + 1)


class RoomSweeper:
    """The periodic job: expire idle rooms at start, then every ``every_s`` seconds."""

    def __init__(self, housekeeping: Housekeeping, *, ttl_days: float, every_s: float = 3600):
        self.housekeeping = housekeeping
        self.ttl_days = ttl_days
        self.every_s = every_s
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        if self.ttl_days <= 0 or (self._task is not None and not self._task.done()):
            return  # off, or already running (a second lifespan of the same app keeps it)
        self._task = asyncio.create_task(self._run(), name="allfours-room-sweeper")

    async def stop(self) -> None:
        task = self._task
        if task is None or task.get_loop() is not asyncio.get_running_loop():
            return  # the lifespan that started it stops it
        self._task = None
        task.cancel()
        with suppress(asyncio.CancelledError):
            await task

    async def sweep(self) -> list[str]:
        removed = await asyncio.to_thread(self.housekeeping.expire_idle, ttl_days=self.ttl_days)
        if removed:
            log.info(
                "idle rooms removed",
                extra={"event": "expire", "rooms": len(removed), "ttl_days": self.ttl_days},
            )
        return removed

    async def _run(self) -> None:
        while True:
            try:
                await self.sweep()
            except Exception:  # a database hiccup must not end the job: try again next time
                log.exception("expiring idle rooms failed")
            await asyncio.sleep(self.every_s)
