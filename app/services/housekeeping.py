"""Running a server: the admin's list of rooms, closing a room, expiring idle rooms.

Idle rooms go after ``ALLFOURS_ROOM_TTL_DAYS`` without a change; rooms never started (nobody
sat down, or nobody came back to start) after ``ALLFOURS_EMPTY_ROOM_TTL_HOURS``, so a flood
of new rooms costs hours of storage, not a month. A room with a seat's stream open in this
process is not idle. The same hourly sweep prunes this process's presence.

Removing a room announces one more version for it (NOTIFY inside the delete's transaction,
then the local hub): every open stream of that room, in every process, wakes, finds the
room gone and ends; the browsers' reconnects then get 404.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Collection
from contextlib import suppress
from datetime import UTC, datetime, timedelta
from typing import Any

from app.live.presence import Presence
from app.services import errors
from app.services.rooms import Rooms
from app.services.view import room_view
from app.store import housekeeping as store
from app.store import push_repo, review_repo
from app.store.db import read, write

log = logging.getLogger("allfours.housekeeping")

Json = dict[str, Any]


class Housekeeping:
    def __init__(self, rooms: Rooms, presence: Presence) -> None:
        self.all_rooms = rooms
        self.presence = presence

    def rooms(self, *, limit: int, offset: int = 0) -> Json:
        """Rooms with their state, the most recently changed first (for the admin)."""
        with read(self.all_rooms.engine) as conn:
            total = store.count_rooms(conn)
            found = store.recent_rooms(conn, limit=limit, offset=offset)
        listed = []
        for activity in found:
            try:
                snap = self.all_rooms.snapshot(activity.code)
            except errors.NotFound:
                continue  # removed since the listing was read
            view = room_view(snap, None, self.presence)
            listed.append(
                {
                    "code": snap.code,
                    "version": snap.version,
                    "phase": view.phase,
                    "game_number": view.game_number,
                    "hand_number": view.hand_number,
                    "scores": view.scores,
                    "seats": [
                        None
                        if s is None
                        else s.model_dump(include={"seat", "name", "bot", "connected", "auto"})
                        for s in view.seats
                    ],
                    "created_at": activity.created_at.isoformat(),
                    "last_change": activity.last_change.isoformat(),
                }
            )
        return {"total": total, "offset": offset, "rooms": listed}

    def figures(self) -> dict[str, int]:
        """What the database knows for every app process: rooms, games in play, reviews not
        done yet, notifications waiting to be sent."""
        with read(self.all_rooms.engine) as conn:
            return {
                "rooms": store.count_rooms(conn),
                "games_in_play": store.count_games_in_play(conn),
                "reviews_queued": review_repo.count_unfinished(conn),
                "push_waiting": push_repo.waiting(conn),
            }

    def close(self, code: str) -> None:
        """Remove a room now, whatever its state."""
        for _ in range(8):
            with write(self.all_rooms.engine) as conn:
                activity = store.room_activity(conn, code)
                if activity is None:
                    raise errors.NotFound(errors.NO_ROOM, code=code)
                if not self._remove(conn, activity):
                    continue  # a move came in meanwhile: read the new version, remove that
            self._announce(activity)
            log.info("room closed", extra={"event": "close", "room": code})
            return
        raise errors.Conflict(errors.ROOM_BUSY)

    def expire_idle(
        self,
        *,
        ttl_days: float,
        empty_ttl_hours: float = 0,
        now: datetime | None = None,
        keep: Collection[str] = (),
    ) -> list[str]:
        """Remove every room with no change for ``ttl_days``, and every room never started
        with no change for ``empty_ttl_hours`` (0: that rule is off), except those in
        ``keep``; returns their codes."""
        now = now or datetime.now(UTC)
        removed: dict[str, store.RoomActivity] = {}
        with write(self.all_rooms.engine) as conn:
            found: list[store.RoomActivity] = []
            if ttl_days > 0:
                found += store.idle_rooms(conn, before=now - timedelta(days=ttl_days))
            if empty_ttl_hours > 0:
                found += store.empty_rooms(conn, before=now - timedelta(hours=empty_ttl_hours))
            for activity in found:
                if activity.code in keep or activity.code in removed:
                    continue
                if self._remove(conn, activity):
                    removed[activity.code] = activity
        for activity in removed.values():
            self._announce(activity)
        return list(removed)

    def missing(self, codes: Collection[str]) -> set[str]:
        """Those of ``codes`` that are no longer rooms (removed by any process)."""
        if not codes:
            return set()
        with read(self.all_rooms.engine) as conn:
            return set(codes) - store.existing_codes(conn, codes)

    def _remove(self, conn: Any, activity: store.RoomActivity) -> bool:
        if not store.delete_room(conn, activity.id, activity.version):
            return False
        self.all_rooms.notifier.in_transaction(conn, activity.code, activity.version + 1)
        return True

    def _announce(self, activity: store.RoomActivity) -> None:
        self.all_rooms.notifier.after_commit(activity.code, activity.version + 1)


class RoomSweeper:
    """The periodic job: expire idle rooms at start, then every ``every_s`` seconds, and
    prune what this process's presence keeps (signs of life older than
    ``presence_horizon_s``, everything of rooms gone)."""

    def __init__(
        self,
        housekeeping: Housekeeping,
        *,
        ttl_days: float,
        empty_ttl_hours: float = 0,
        every_s: float = 3600,
        presence_horizon_s: float = 3600,
    ):
        self.housekeeping = housekeeping
        self.ttl_days = ttl_days
        self.empty_ttl_hours = empty_ttl_hours
        self.every_s = every_s
        self.presence_horizon_s = presence_horizon_s
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        if self._task is not None and not self._task.done():
            return  # already running (a second lifespan of the same app keeps it)
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
        presence = self.housekeeping.presence
        removed: list[str] = []
        if self.ttl_days > 0 or self.empty_ttl_hours > 0:
            removed = await asyncio.to_thread(
                self.housekeeping.expire_idle,
                ttl_days=self.ttl_days,
                empty_ttl_hours=self.empty_ttl_hours,
                keep=presence.connected_rooms(),
            )
        if removed:
            log.info(
                "idle rooms removed",
                extra={
                    "event": "expire",
                    "rooms": len(removed),
                    "ttl_days": self.ttl_days,
                    "empty_ttl_hours": self.empty_ttl_hours,
                },
            )
        # Presence lives on the event loop: read and pruned here, the database in a thread.
        # The rooms just removed are among those missing now, with those removed elsewhere.
        presence.forget(await asyncio.to_thread(self.housekeeping.missing, presence.rooms()))
        presence.prune(self.presence_horizon_s)
        return removed

    async def _run(self) -> None:
        while True:
            try:
                await self.sweep()
            except Exception:  # a database hiccup must not end the job: try again next time
                log.exception("expiring idle rooms failed")
            await asyncio.sleep(self.every_s)
