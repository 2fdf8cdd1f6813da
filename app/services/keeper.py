"""The table keeper: after each new version, plays the turn of a bot, or of a human who has
gone (the away cover), in this process.

Two processes may both try the same turn: the move is committed only against the version
it was chosen for (the conditional UPDATE), so a version is never played twice.
"""

from __future__ import annotations

import asyncio
import logging
import time
from datetime import UTC, datetime
from typing import Literal

from app import bots
from app.bots.renege import call_due
from app.live.hub import Hub
from app.live.notifier import NIGHT_PREFIX
from app.live.presence import Presence
from app.rules import Action, Phase, observe
from app.services import clocks
from app.services.errors import ApiError, NotFound
from app.services.room_tasks import RoomTasks
from app.services.rooms import Rooms
from app.services.snapshot import RoomSnap

log = logging.getLogger("allfours.keeper")


class RoomKeeper:
    def __init__(
        self,
        rooms: Rooms,
        hub: Hub,
        presence: Presence,
        *,
        bot_delay_s: float,
        away_s: float,
        shared_presence: bool = False,
    ) -> None:
        self.rooms = rooms
        self.hub = hub
        self.presence = presence
        self.bot_delay_s = bot_delay_s
        self.away_s = away_s
        # Several app processes on one database: signs of life go through the seats table.
        self.shared_presence = shared_presence
        self.heartbeat_s = max(1.0, min(15.0, away_s / 4))
        self._tasks = RoomTasks(self._failed)
        self._heartbeat: asyncio.Task[None] | None = None
        self._closed = False
        hub.on_version(self.on_version)
        hub.on_resync(self._on_resync)

    def on_version(self, code: str, version: int) -> None:
        """A new version of a room was committed (here or by another process). A club
        night's own versions share the channel; they are the night steward's, not a room's."""
        if self._closed or code.startswith(NIGHT_PREFIX):
            return
        self._tasks.start(code, version, lambda: self._keep(code, version))

    @staticmethod
    def _failed(code: str, task: asyncio.Task[None]) -> None:
        # A room closed or expired meanwhile (NotFound) is nothing to report.
        if not isinstance(task.exception(), (NotFound, type(None))):
            log.error("keeping room %s failed", code, exc_info=task.exception())

    def _on_resync(self) -> None:
        if not self._closed:
            asyncio.get_running_loop().create_task(self.resume_all())

    async def resume_all(self) -> None:
        """Start keeping every game that waits for a seat (after a start or a reconnect)."""
        codes = await asyncio.to_thread(self._rooms_in_play)
        for code in codes:
            try:
                snap = await asyncio.to_thread(self.rooms.snapshot, code)
            except ApiError:
                continue
            self.on_version(code, snap.version)

    def _rooms_in_play(self) -> list[str]:
        from app.store import repo
        from app.store.db import read

        with read(self.rooms.engine) as conn:
            return repo.rooms_in_play(conn)

    def start_heartbeat(self) -> None:
        if self.shared_presence and self._heartbeat is None:
            self._heartbeat = asyncio.get_running_loop().create_task(self._beat())

    async def _beat(self) -> None:
        """Write this process's signs of life (open streams, recent requests) to the seats."""
        while True:
            seen = self.presence.take_seen()
            if seen:
                try:
                    await asyncio.to_thread(self._mark_seen, seen)
                except Exception:  # a database hiccup: the next beat writes them again
                    log.warning("could not record presence", exc_info=True)
            await asyncio.sleep(self.heartbeat_s)

    def _mark_seen(self, seen: list[tuple[str, int]]) -> None:
        from app.store import repo
        from app.store.db import write

        with write(self.rooms.engine) as conn:
            repo.mark_seen(conn, seen, datetime.now(UTC))

    def someone_here(self, snap: RoomSnap) -> bool:
        """Whether a person seated at the table is here: a stream of theirs open in this
        process, or a sign of life of theirs within ``away_s`` (a request here; their seat's
        join, or another process's heartbeat). Play now seats nobody at a table whose people
        have all gone: a latecomer's next deal would wait on their away cover."""
        from app.store import repo
        from app.store.db import read

        people = [s.seat for s in snap.seats if s is not None and not s.bot]
        if any(self.presence.seen_within(snap.code, seat, self.away_s) for seat in people):
            return True
        if not people:
            return False
        with read(self.rooms.engine) as conn:
            seen = repo.people_seen_at(conn, snap.code)
        ago = None if seen is None else (datetime.now(UTC) - seen).total_seconds()
        return ago is not None and ago <= self.away_s + self.heartbeat_s

    def _seen_elsewhere_s(self, code: str, seat: int) -> float | None:
        """Seconds since another process last saw this seat, or None."""
        from app.store import repo
        from app.store.db import read

        with read(self.rooms.engine) as conn:
            seen = repo.seen_at(conn, code, seat)
        if seen is None:
            return None
        return (datetime.now(UTC) - seen).total_seconds()

    async def close(self) -> None:
        self._closed = True
        heartbeat, self._heartbeat = self._heartbeat, None
        await self._tasks.close(*([heartbeat] if heartbeat is not None else []))

    async def _keep(self, code: str, version: int) -> None:
        snap = self.rooms.cached(code, version)
        if snap is None:
            snap = await asyncio.to_thread(self.rooms.snapshot, code, version)
        if snap.version != version or snap.game is None:
            return
        if snap.game.state.phase is Phase.RECKONING:
            await self._reckon(snap)
            return
        seat = snap.game.state.turn
        if seat is None:
            return
        info = snap.seats[seat]
        if info is None:
            return
        if info.bot:
            await asyncio.sleep(self.bot_delay_s)
            await self._play(snap, seat, info.level or bots.DEFAULT_LEVEL)
            return
        await self._cover_when_away(snap, seat)

    async def _reckon(self, snap: RoomSnap) -> None:
        """R23: the computer players say "score it" at once, one a version (R26's calls
        first); then the hand waits for the people until the reckoning's time is up."""
        assert snap.game is not None
        state = snap.game.state
        for info in snap.seats:
            if info is not None and info.bot and not state.reckoned >> info.seat & 1:
                lift = call_due(observe(state, info.seat))
                if lift is not None:
                    await self._table_act(snap, "call", info.seat, lift)
                else:
                    await self._table_act(snap, "reckoned", info.seat)
                return
        deadline = clocks.reckon_deadline(snap, self.presence.turn_scale)
        if deadline is None:
            return
        await asyncio.sleep(max(0.0, deadline - time.time()))
        await self._table_act(snap, "score", None)

    async def _table_act(
        self,
        snap: RoomSnap,
        type: Literal["call", "reckoned", "score"],
        seat: int | None,
        lift: int | None = None,
    ) -> None:
        try:
            await asyncio.to_thread(
                lambda: self.rooms.table_act(
                    code=snap.code, type=type, seat=seat, expected=snap.version, lift=lift
                )
            )
        except ApiError as err:
            # Someone else moved first (a call, a "score it", another process): fine.
            log.debug("%s in %s at version %s not applied: %s", type, snap.code, snap.version, err)

    async def _cover_when_away(self, snap: RoomSnap, seat: int) -> None:
        """Wait while the human is here; once gone for ``away_s`` on their turn, play for them.
        With a turn timer, make this one decision for them when it runs out (they keep the
        seat: no cover). Both clocks are app/services/clocks.py's, as the view shows them."""
        code = snap.code
        timer = clocks.turn_deadline(snap, self.presence.turn_scale)
        with self.hub.subscribe(code, counted=False, talk=False) as sub:
            while True:
                timer_left = None if timer is None else timer - time.time()
                if timer_left is not None and timer_left <= 0:
                    await self._play(snap, seat, bots.DEFAULT_LEVEL)
                    return
                if self.presence.covered(code, seat):
                    # Already covered: play at bot pace, unless they come back meanwhile.
                    if await sub.wait(self.bot_delay_s) and not self.presence.covered(code, seat):
                        continue
                    if sub.latest > snap.version:
                        return
                    if self.presence.covered(code, seat):
                        await self._play(snap, seat, bots.DEFAULT_LEVEL)
                        return
                    continue
                if self.presence.connected(code, seat):
                    await sub.wait(timer_left)
                    if sub.latest > snap.version:
                        return
                    continue
                away = clocks.away_deadline(snap, self.presence, self.away_s)
                remaining = (away - time.time()) if away is not None else 0.0
                if remaining <= 0 and self.shared_presence:
                    ago = await asyncio.to_thread(self._seen_elsewhere_s, code, seat)
                    if ago is not None:
                        remaining = self.away_s + self.heartbeat_s - ago
                if remaining <= 0:
                    self.presence.cover(code, seat)
                    continue
                await sub.wait(remaining if timer_left is None else min(remaining, timer_left))
                if sub.latest > snap.version:
                    return

    async def _play(self, snap: RoomSnap, seat: int, level: str) -> None:
        assert snap.game is not None
        observation = observe(snap.game.state, seat)
        if not observation.legal:
            return
        lift = call_due(observation)
        if lift is not None:  # R26: a proven renege is called before acting
            await self._table_act(snap, "call", seat, lift)
            return
        try:
            # The game's seed and version seed the bot: a seeded game replays move for move
            # (unless the level's wall-clock cap cut a search short).
            rng = bots.rng_for(snap.game.state.seed, snap.version)
            action: Action = await asyncio.to_thread(
                lambda: bots.choose(observation, level, rng=rng)  # type: ignore[arg-type]
            )
        except Exception:
            log.exception(
                "the %s bot failed in room %s: playing its first legal action", level, snap.code
            )
            action = observation.legal[0]
        try:
            await asyncio.to_thread(
                self.rooms.act,
                code=snap.code,
                token=None,
                action=action,
                expected=snap.version,
                seat=seat,
                auto=True,
            )
        except ApiError as err:
            # Someone else moved first (a human back at the table, another process): fine.
            log.debug("bot move in %s at version %s not applied: %s", snap.code, snap.version, err)
