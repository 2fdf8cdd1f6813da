"""The night steward: after each version of a night's room (made here or in another
process), settles its table (app/services/nights.py ``settle``), deals the match's next
game, and wakes the night's open pages and streams in this process.

Two processes may settle the same table: what ``settle`` writes is the same whichever does,
and the next game is dealt once (the room's conditional UPDATE).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import defaultdict

from app.live.hub import Hub
from app.live.notifier import NIGHT_PREFIX
from app.night.state import Json
from app.services.errors import ApiError
from app.services.night_view import night_json, with_grace
from app.services.nights import Nights
from app.services.room_tasks import RoomTasks

log = logging.getLogger("allfours.nights")

NOT_NIGHT_MAX = 50_000  # rooms known to be no night's, remembered (then forgotten at once)


class NightSteward:
    def __init__(self, nights: Nights, hub: Hub, *, next_game_s: float = 8.0) -> None:
        self.nights = nights
        # How long a table with a person at it shows a game's result before the match's next
        # game is dealt (they may deal it sooner); computer players go on at once.
        self.next_game_s = next_game_s
        self._night_of: dict[str, str] = {}  # room -> night
        self._not_night: set[str] = set()
        self._watchers: dict[str, set[asyncio.Event]] = defaultdict(set)
        # A watched night's JSON, built once per wake for all its streams in this process:
        # each wake raises the night's generation; a body is good for the generation it was
        # begun at (whatever changed after its build began wakes the streams again).
        self._generation: dict[str, int] = {}
        self._built: dict[str, tuple[int, Json]] = {}
        self._building: dict[str, tuple[int, asyncio.Task[Json]]] = {}
        self._texts: dict[str, tuple[int, str, str]] = {}  # night -> generation, graces, text
        self._tasks = RoomTasks(self._failed)
        self._closed = False
        hub.on_version(self.on_version)
        hub.on_resync(self._on_resync)

    # -- the pages' side -----------------------------------------------------------------

    def watch(self, night: str) -> asyncio.Event:
        """An event set whenever the night or one of its rooms changes (``unwatch`` after)."""
        event = asyncio.Event()
        self._watchers[night].add(event)
        return event

    def unwatch(self, night: str, event: asyncio.Event) -> None:
        found = self._watchers.get(night)
        if found is not None:
            found.discard(event)
            if not found:
                del self._watchers[night]
                for kept in (self._generation, self._built, self._building, self._texts):
                    kept.pop(night, None)

    def _wake(self, night: str) -> None:
        events = self._watchers.get(night)
        if not events:
            return
        self._generation[night] = self._generation.get(night, 0) + 1
        for event in events:
            event.set()

    async def night_body(self, night: str) -> Json:
        """The night's JSON now (app/services/night_view.py ``night_json``; its grace times
        as of its build: ``with_grace`` makes them current), read from the database once per
        change however many of its pages and streams are open here."""
        generation = self._generation.get(night, 0)
        built = self._built.get(night)
        if built is not None and built[0] == generation:
            return built[1]
        building = self._building.get(night)
        if building is None or building[0] != generation:
            task = asyncio.get_running_loop().create_task(self.nights.read(self._night_json, night))
            building = (generation, task)
            self._building[night] = building
        try:
            # One stream going away (cancelled) leaves the build to the others.
            body = await asyncio.shield(building[1])
        except Exception:
            if self._building.get(night) is building:
                del self._building[night]  # the next read tries again
            raise
        if night in self._watchers and self._building.get(night) is building:
            del self._building[night]
            self._built[night] = (generation, body)
        return body

    async def night_text(self, night: str) -> str:
        """The night's JSON as the events send it, grace times current."""
        generation = self._generation.get(night, 0)
        body = with_grace(await self.night_body(night))
        graces = ",".join(str(r["grace_left"]) for r in body["rounds"])
        kept = self._texts.get(night)
        if kept is not None and kept[:2] == (generation, graces):
            return kept[2]
        text = json.dumps(body)
        if night in self._watchers:
            self._texts[night] = (generation, graces, text)
        return text

    def _night_json(self, night: str) -> Json:
        return night_json(self.nights.load(night), self.nights.snapshot)

    def knows(self, room: str, night: str) -> None:
        self._night_of[room] = night
        self._not_night.discard(room)

    # -- the rooms' side -----------------------------------------------------------------

    def on_version(self, code: str, version: int) -> None:
        if self._closed:
            return
        if code.startswith(NIGHT_PREFIX):
            self._wake(code.removeprefix(NIGHT_PREFIX))
            return
        if code in self._not_night:
            return
        night = self._night_of.get(code)
        if night is not None:
            self._wake(night)
        self._tasks.start(code, version, lambda: self._keep(code))

    @staticmethod
    def _failed(code: str, task: asyncio.Task[None]) -> None:
        if task.exception() is not None:
            log.error("settling room %s failed", code, exc_info=task.exception())

    async def _keep(self, room: str) -> None:
        if room not in self._night_of:
            night = await asyncio.to_thread(self.nights.night_of_room, room)
            if night is None:
                if len(self._not_night) >= NOT_NIGHT_MAX:
                    self._not_night.clear()
                self._not_night.add(room)
                return
            self.knows(room, night)
            self._wake(night)
        try:
            settled = await asyncio.to_thread(self.nights.settle, room)
        except ApiError:
            return  # the room went away meanwhile
        if settled is None or not settled.deal_next:
            return
        if not settled.all_bots:
            await asyncio.sleep(self.next_game_s)
        await asyncio.to_thread(self.nights.deal_next, room)

    def _on_resync(self) -> None:
        if not self._closed:
            asyncio.get_running_loop().create_task(self.resume_all())
            for night in list(self._watchers):
                self._wake(night)

    async def resume_all(self) -> None:
        """After a start or a lost notification channel: settle every table still playing."""
        for room, night in await asyncio.to_thread(self.nights.open_tables):
            self.knows(room, night)
            self.on_version(room, 0)

    async def close(self) -> None:
        self._closed = True
        await self._tasks.close()
