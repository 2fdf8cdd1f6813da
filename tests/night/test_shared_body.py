"""A night's JSON is built once per change for all its streams in a process (the night
steward's ``night_body``), and only its grace times follow the clock (``with_grace``)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path

from app.live.hub import Hub
from app.live.notifier import LocalNotifier
from app.night.options import NightOptions
from app.rules import DEFAULT_RULES
from app.services.night_steward import NightSteward
from app.services.night_view import night_json, with_grace
from app.services.nights import Nights
from app.services.rooms import Rooms
from app.store.db import make_engine
from tests.databases import make_database


def test_streams_share_one_body_per_change_and_grace_follows_the_clock(tmp_path: Path) -> None:
    url = next(make_database("sqlite", tmp_path))
    hub = Hub()
    nights = Nights(Rooms(make_engine(url), LocalNotifier(hub)))
    opened = nights.open(
        name="Friday",
        format="round_robin",
        preset=None,
        rules=DEFAULT_RULES,
        options=NightOptions(grace_s=600),
    )
    code, director = opened.code, opened.director_token
    for names in (["Ann", "Bo"], ["Cy", "Di"]):
        nights.register(code, names=names, team=None, director=director)

    async def main() -> None:
        hub.bind(asyncio.get_running_loop())
        steward = NightSteward(nights, hub)
        board, player = steward.watch(code), steward.watch(code)
        first, second = await asyncio.gather(steward.night_body(code), steward.night_body(code))
        assert first is second  # one build for both streams
        assert await steward.night_body(code) is first  # nothing changed: the same body
        text = await steward.night_text(code)
        assert await steward.night_text(code) is text
        # A change to the night (announced as it is to every process): a new body for all.
        await asyncio.to_thread(nights.next_round, code, director=director)
        await asyncio.wait_for(board.wait(), 30)  # handed over on the hub's loop
        assert player.is_set()
        drawn = await steward.night_body(code)
        assert drawn is not first and len(drawn["rounds"]) == 1
        fresh = night_json(nights.load(code), nights.rooms.snapshot)
        assert with_grace(drawn, NOW) == with_grace(fresh, NOW)  # the night as it is
        # The body keeps its grace time as built; with_grace makes it the clock's.
        started = drawn["rounds"][0]["started_at"]
        later = with_grace(drawn, _at(started, seconds=590))
        assert later["rounds"][0]["grace_left"] == 10
        assert with_grace(drawn, _at(started, seconds=700))["rounds"][0]["grace_left"] == 0
        assert drawn["rounds"][0]["grace_left"] > 10  # the shared body is left as it was
        # The last stream gone, nothing is kept for the night.
        steward.unwatch(code, board)
        steward.unwatch(code, player)
        assert not steward._built and not steward._texts and not steward._generation
        await steward.close()

    asyncio.run(main())


NOW = datetime.now(UTC)


def _at(started_at: str, *, seconds: int) -> datetime:
    return datetime.fromisoformat(started_at) + timedelta(seconds=seconds)
