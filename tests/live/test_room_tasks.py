"""The latest task per room (app/services/room_tasks.py), as the table keeper and the night
steward use it: a newer version replaces the older one's task, close cancels them all, also
those on another event loop; and the keeper leaves a club night's announcements alone."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

from app.live.hub import Hub
from app.live.notifier import NIGHT_PREFIX, LocalNotifier
from app.live.presence import Presence
from app.services.keeper import RoomKeeper
from app.services.room_tasks import RoomTasks
from app.services.rooms import Rooms
from app.store.db import make_engine
from tests.databases import make_database


def test_a_newer_version_replaces_the_task_and_an_older_one_is_ignored() -> None:
    failed: list[str] = []

    async def main() -> None:
        tasks = RoomTasks(lambda code, task: failed.append(code))
        ran: list[int] = []
        forever = asyncio.Event()

        async def work(version: int) -> None:
            ran.append(version)
            await forever.wait()

        tasks.start("room", 2, lambda: work(2))
        await asyncio.sleep(0)
        tasks.start("room", 1, lambda: work(1))  # older: ignored
        tasks.start("room", 2, lambda: work(2))  # the same: ignored
        tasks.start("room", 3, lambda: work(3))  # newer: the task for 2 is cancelled
        await asyncio.sleep(0)
        assert ran == [2, 3] and len(tasks) == 1

        async def boom() -> None:
            raise RuntimeError("boom")

        tasks.start("other", 1, boom)
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        assert failed == ["other"] and len(tasks) == 1
        await tasks.close()
        assert len(tasks) == 0

    asyncio.run(main())
    assert failed == ["other"]  # the cancelled tasks are no failures


def test_close_cancels_a_task_running_on_another_loop() -> None:
    other = asyncio.new_event_loop()
    thread = threading.Thread(target=other.run_forever, daemon=True)
    thread.start()
    tasks = RoomTasks(lambda code, task: None)
    cancelled = threading.Event()

    async def work() -> None:
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            cancelled.set()
            raise

    async def begin() -> None:
        tasks.start("room", 1, work)

    asyncio.run_coroutine_threadsafe(begin(), other).result()
    asyncio.run(tasks.close())
    assert cancelled.wait(5)
    other.call_soon_threadsafe(other.stop)
    thread.join(5)
    other.close()


def test_the_keeper_ignores_a_nights_announcements(tmp_path: Path) -> None:
    url = next(make_database("sqlite", tmp_path))
    hub = Hub()
    rooms = Rooms(make_engine(url), LocalNotifier(hub))

    async def main() -> None:
        keeper = RoomKeeper(rooms, hub, Presence(), bot_delay_s=0, away_s=30)
        keeper.on_version(NIGHT_PREFIX + "abcd", 7)
        assert len(keeper._tasks) == 0  # no task, so no read of a room named night-abcd
        keeper.on_version("abcd", 7)
        assert len(keeper._tasks) == 1  # a room's version is kept as before
        await keeper.close()

    asyncio.run(main())
