"""A player's event stream, opened with their key, ends as soon as that device is signed out
or the profile deleted (API.md § Players): it shows nothing more of the seat."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator

import httpx
import pytest

from tests.live.server import ServerProcess
from tests.live.test_events import Stream, bearer, until


@pytest.fixture(scope="module")
def server(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    log = tmp_path_factory.mktemp("server") / "server.log"
    proc = ServerProcess(database_url, log, ALLFOURS_AWAY_S="3600").start()
    yield proc
    proc.stop()


async def _seated_player(client: httpx.AsyncClient, handle: str) -> tuple[str, str, str]:
    """A room, a player seated at it by their key, and a second device's key."""
    made = await client.post("/api/players", json={"handle": handle, "name": "Ann"})
    key = made.json()["key"]
    code = (await client.post("/api/rooms", json={})).json()["code"]
    joined = await client.post(f"/api/rooms/{code}/join", json={"name": "x"}, headers=bearer(key))
    assert joined.json()["seat"] == 0
    link = (await client.post("/api/me/signin-links", headers=bearer(key))).json()
    other = (await client.post("/api/signin", json={"code": link["code"]})).json()["key"]
    return code, key, other


@pytest.mark.parametrize("ending", ["sign_out", "delete"])
async def test_a_players_stream_ends_when_the_key_acts_no_more(
    server: ServerProcess, ending: str
) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
        code, key, other = await _seated_player(client, f"stream-{ending}")
        stream = Stream(client, f"/api/rooms/{code}/events", bearer(key))
        watcher = Stream(client, f"/api/rooms/{code}/events", {})
        await until(lambda: len(stream.states()) == 1 and len(watcher.states()) == 1, "first")
        assert json.loads(stream.states()[0]["data"])["you"] == 0
        if ending == "sign_out":
            devices = (await client.get("/api/me/devices", headers=bearer(other))).json()
            mine = next(d["id"] for d in devices if not d["this_device"])
            gone = await client.delete(f"/api/me/devices/{mine}", headers=bearer(other))
        else:
            gone = await client.delete("/api/me", headers=bearer(other))
        assert gone.status_code == 204
        # the next version (a guest sits down) reaches the spectator, not the player
        joined = await client.post(f"/api/rooms/{code}/join", json={"name": "Ben"})
        assert joined.status_code == 200
        await until(lambda: len(watcher.states()) >= 2, "the spectator's next version")
        await until(lambda: stream.task.done(), "the player's stream to end")
        assert len(stream.states()) == 1
        await asyncio.gather(stream.close(), watcher.close())


@pytest.mark.parametrize("ending", ["sign_out", "delete"])
async def test_a_signed_out_devices_stream_ends_on_a_quiet_table(
    server: ServerProcess, ending: str
) -> None:
    """A signed-out device's stream stayed open, getting pings, until the room's next event
    (finding 7 of the security review, round 5): on a quiet table, for ever. Now the sign-out
    wakes it: it ends with no event at the table, while the spectator's stays open."""
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
        code, key, other = await _seated_player(client, f"quiet-{ending}")
        stream = Stream(client, f"/api/rooms/{code}/events", bearer(key))
        watcher = Stream(client, f"/api/rooms/{code}/events", {})
        await until(lambda: len(stream.states()) == 1 and len(watcher.states()) == 1, "first")
        if ending == "sign_out":
            devices = (await client.get("/api/me/devices", headers=bearer(other))).json()
            mine = next(d["id"] for d in devices if not d["this_device"])
            gone = await client.delete(f"/api/me/devices/{mine}", headers=bearer(other))
        else:
            gone = await client.delete("/api/me", headers=bearer(other))
        assert gone.status_code == 204
        await until(lambda: stream.task.done(), "the signed-out device's stream to end")
        assert stream.task.exception() is None  # ended by the server, not cut off
        assert not watcher.task.done()
        assert len(stream.states()) == 1
        if ending == "sign_out":
            assert len(watcher.states()) == 1  # a quiet table: no event came
        await watcher.close()


async def test_a_signed_out_devices_key_is_refused_at_once_though_it_acted_a_moment_before(
    server: ServerProcess,
) -> None:
    """A key's seat is served from memory while the key lives (issue #47): the sign-out clears
    it at once, so the very next request with the key acts for no seat and changes nothing."""
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
        code, key, other = await _seated_player(client, "refused-at-once")
        for _ in range(3):  # the key checked, and kept
            seen = await client.get(f"/api/rooms/{code}", headers=bearer(key))
            assert seen.json()["you"] == 0
        devices = (await client.get("/api/me/devices", headers=bearer(other))).json()
        mine = next(d["id"] for d in devices if not d["this_device"])
        gone = await client.delete(f"/api/me/devices/{mine}", headers=bearer(other))
        assert gone.status_code == 204
        assert (await client.get(f"/api/rooms/{code}", headers=bearer(key))).json()["you"] is None
        bot = await client.post(f"/api/rooms/{code}/bots", json={"seat": 1}, headers=bearer(key))
        assert bot.status_code == 401 and bot.json()["code"] == "token_holds_no_seat"
        assert (await client.get(f"/api/rooms/{code}")).json()["seats"][1] is None
        assert (await client.get("/api/me", headers=bearer(key))).status_code == 401
        # the other device acts for the seat still
        seen = await client.get(f"/api/rooms/{code}", headers=bearer(other))
        assert seen.json()["you"] == 0
