"""The latest task per room, for the services that act after each new version of a room
(the table keeper, the night steward): a newer version cancels the older one's task, an
older or equal one is ignored, and ``close`` cancels them all, on whichever loop each runs.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

# What to do with a task that ended (not cancelled): log its failure, if it failed.
Done = Callable[[str, asyncio.Task[None]], None]


class RoomTasks:
    def __init__(self, done: Done) -> None:
        self._done = done
        self._tasks: dict[str, tuple[int, asyncio.Task[None]]] = {}

    def __len__(self) -> int:
        return len(self._tasks)

    def start(self, code: str, version: int, work: Callable[[], Coroutine[Any, Any, None]]) -> None:
        """Runs ``work()`` for ``version`` of room ``code`` unless a task for that version or
        a later one runs already; an earlier one's task is cancelled."""
        current = self._tasks.get(code)
        if current is not None:
            if current[0] >= version:
                return
            current[1].cancel()
        task = asyncio.get_running_loop().create_task(work())
        self._tasks[code] = (version, task)
        task.add_done_callback(lambda t: self._ended(code, t))

    def _ended(self, code: str, task: asyncio.Task[None]) -> None:
        current = self._tasks.get(code)
        if current is not None and current[1] is task:
            del self._tasks[code]
        if not task.cancelled():
            self._done(code, task)

    async def close(self, *extra: asyncio.Task[None]) -> None:
        """Cancels every task (and ``extra`` ones) and waits for those of this loop. Tasks may
        belong to another event loop when one app had two lifespans (schemathesis keeps its
        own beside a test client): those are cancelled on their loop, not awaited."""
        here = asyncio.get_running_loop()
        tasks = [t for _, t in self._tasks.values()] + list(extra)
        for task in tasks:
            if task.get_loop() is here:
                task.cancel()
            elif not task.get_loop().is_closed():
                task.get_loop().call_soon_threadsafe(task.cancel)
        mine = [t for t in tasks if t.get_loop() is here]
        if mine:
            await asyncio.gather(*mine, return_exceptions=True)
        self._tasks.clear()
