"""Two app processes on one PostgreSQL database: a device signed out, or a profile deleted, on
one process is refused at once on the other, and its open streams on both end within 2 s
(issue #47: a key is checked once per seat and kept in memory while it lives; sign-out and
deletion clear it in every process by the same LISTEN/NOTIFY the rooms' versions use)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

import httpx
import pytest

from tests.hosting.support import Server
from tests.live.test_events import Stream, bearer

ENDED_WITHIN_S = 2.0


async def _within(predicate: Callable[[], bool], what: str, seconds: float) -> None:
    end = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < end, f"not within {seconds} s: {what}"
        await asyncio.sleep(0.01)


@pytest.mark.parametrize("ending", ["sign_out", "delete"])
def test_a_key_ended_on_one_process_is_refused_and_its_streams_end_on_both(
    start_server: Callable[..., Server], postgres_url: str, ending: str
) -> None:
    a = start_server(postgres_url, ALLFOURS_AWAY_S="3600")
    b = start_server(postgres_url, ALLFOURS_AWAY_S="3600")
    asyncio.run(_ended_everywhere(a, b, ending))


async def _ended_everywhere(a: Server, b: Server, ending: str) -> None:
    timeout = httpx.Timeout(30, read=None)
    async with (
        httpx.AsyncClient(base_url=a.url, timeout=timeout) as on_a,
        httpx.AsyncClient(base_url=b.url, timeout=timeout) as on_b,
    ):
        made = await on_a.post("/api/players", json={"handle": f"two-{ending}", "name": "Ann"})
        key = made.json()["key"]
        link = (await on_a.post("/api/me/signin-links", headers=bearer(key))).json()
        other = (await on_a.post("/api/signin", json={"code": link["code"]})).json()["key"]
        code = (await on_b.post("/api/rooms", json={})).json()["code"]
        joined = await on_b.post(f"/api/rooms/{code}/join", json={"name": "x"}, headers=bearer(key))
        assert joined.json()["seat"] == 0
        for client in (on_a, on_b):  # the key checked on both processes, and kept there
            for _ in range(3):
                seen = await client.get(f"/api/rooms/{code}", headers=bearer(key))
                assert seen.json()["you"] == 0
        streams = [Stream(c, f"/api/rooms/{code}/events", bearer(key)) for c in (on_a, on_b)]
        watcher = Stream(on_b, f"/api/rooms/{code}/events", {})
        await _within(
            lambda: all(len(s.states()) == 1 for s in [*streams, watcher]), "first views", 30
        )
        if ending == "sign_out":
            devices = (await on_a.get("/api/me/devices", headers=bearer(other))).json()
            mine = next(d["id"] for d in devices if not d["this_device"])
            gone = await on_a.delete(f"/api/me/devices/{mine}", headers=bearer(other))
        else:
            gone = await on_a.delete("/api/me", headers=bearer(other))
        assert gone.status_code == 204
        ended = time.monotonic()

        async def refused_on_b() -> bool:
            seen = await on_b.get(f"/api/rooms/{code}", headers=bearer(key))
            return bool(seen.json()["you"] is None)

        while not await refused_on_b():
            assert time.monotonic() - ended < ENDED_WITHIN_S, "the key still acts on B"
            await asyncio.sleep(0.01)
        await _within(
            lambda: all(s.task.done() for s in streams),
            "the key's streams to end on both processes",
            ENDED_WITHIN_S - (time.monotonic() - ended),
        )
        assert all(s.task.exception() is None for s in streams)  # ended by the servers
        bot = await on_b.post(f"/api/rooms/{code}/bots", json={"seat": 1}, headers=bearer(key))
        assert bot.status_code == 401 and bot.json()["code"] == "token_holds_no_seat"
        assert (await on_b.get("/api/me", headers=bearer(key))).status_code == 401
        assert not watcher.task.done()  # a spectator's stream is nobody's key
        await watcher.close()
