"""Live events against a real uvicorn: four seat streams and a spectator get every version,
in order, each rendered for its own viewer; reconnecting with Last-Event-ID starts with the
current view; ``connected`` follows the open streams."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.api.table import assert_no_leak, current_cards
from tests.live.server import ServerProcess, parse_sse

DEADLINE_S = 60  # a bound on waiting, not a speed requirement


@pytest.fixture(scope="module")
def server(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    log = tmp_path_factory.mktemp("server") / "server.log"
    proc = ServerProcess(database_url, log, ALLFOURS_AWAY_S="3600").start()
    yield proc
    proc.stop()


async def until(predicate: Callable[[], bool], what: str) -> None:
    end = time.monotonic() + DEADLINE_S
    while not predicate():
        assert time.monotonic() < end, f"gave up waiting for {what}"
        await asyncio.sleep(0.01)


class Stream:
    """One open event stream, collecting its events."""

    def __init__(self, client: httpx.AsyncClient, url: str, headers: dict[str, str]) -> None:
        self.events: list[dict[str, Any]] = []
        self.response_headers: httpx.Headers | None = None
        self.task = asyncio.create_task(self._read(client, url, headers))

    async def _read(self, client: httpx.AsyncClient, url: str, headers: dict[str, str]) -> None:
        async with client.stream("GET", url, headers=headers) as r:
            assert r.status_code == 200
            self.response_headers = r.headers
            lines: list[str] = []
            async for line in r.aiter_lines():
                if line == "":
                    if lines:
                        self.events.append(parse_sse(lines))
                    lines = []
                elif not line.startswith(":"):
                    lines.append(line)

    def states(self) -> list[dict[str, Any]]:
        return [e for e in self.events if e["event"] == "state"]

    async def close(self) -> None:
        self.task.cancel()
        await asyncio.gather(self.task, return_exceptions=True)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def test_four_streams_receive_every_version_and_reconnect(server: ServerProcess) -> None:
    async with (
        httpx.AsyncClient(base_url=server.url, timeout=30) as api,
        httpx.AsyncClient(base_url=server.url, timeout=httpx.Timeout(30, read=None)) as sse,
    ):
        code = (await api.post("/api/rooms")).json()["code"]
        tokens = []
        for name in ("Ann", "Ben", "Cal", "Dee"):
            tokens.append(
                (await api.post(f"/api/rooms/{code}/join", json={"name": name})).json()["token"]
            )
        url = f"/api/rooms/{code}/events"
        streams = [Stream(sse, url, bearer(t)) for t in tokens]
        spectator = Stream(sse, url, {})
        everyone = [*streams, spectator]
        await until(lambda: all(s.states() for s in everyone), "the first events")
        for seat, s in enumerate(streams):
            first = s.states()[0]
            assert first["id"] == "4" and first["view"]["version"] == 4
            assert first["view"]["you"] == seat
            assert s.response_headers is not None
            assert s.response_headers["content-type"].startswith("text/event-stream")
            assert s.response_headers["x-accel-buffering"] == "no"
        assert spectator.states()[0]["view"]["you"] is None

        async def seats_connected() -> list[bool]:
            v = (await api.get(f"/api/rooms/{code}")).json()
            return [s["connected"] for s in v["seats"]]

        assert await seats_connected() == [True] * 4

        start = await api.post(f"/api/rooms/{code}/start", headers=bearer(tokens[0]))
        version = start.json()["version"]
        rng = random.Random(11)
        for _ in range(30):
            v = (await api.get(f"/api/rooms/{code}")).json()
            if v["turn"] is None:
                break
            seat = v["turn"]
            mine = (await api.get(f"/api/rooms/{code}", headers=bearer(tokens[seat]))).json()
            move = {**rng.choice(mine["legal"]), "version": mine["version"]}
            r = await api.post(
                f"/api/rooms/{code}/actions", json=move, headers=bearer(tokens[seat])
            )
            assert r.status_code == 200, r.text
            version = r.json()["version"]

        expected = [str(n) for n in range(4, version + 1)]
        await until(
            lambda: all([e["id"] for e in s.states()] == expected for s in everyone),
            "every stream to get every version",
        )
        for s in everyone:
            for e in s.states():
                assert e["view"]["version"] == int(e["id"])
        # Each event is rendered for its own viewer, and hides the others' hands.
        by_version = [{e["id"]: e["view"] for e in s.states()} for s in everyone]
        for n in expected[1:]:
            views = [by_version[seat][n] for seat in range(4)]
            for seat, view in enumerate(views):
                assert view["you"] == seat
            assert_no_leak(views, by_version[4][n])
            assert not current_cards(by_version[4][n]) & set().union(*(v["hand"] for v in views))

        # Ann's stream drops: she is no longer connected. She reconnects with Last-Event-ID.
        await streams[0].close()
        await until(lambda: True, "")
        for _ in range(50):
            if (await seats_connected())[0] is False:
                break
            await asyncio.sleep(0.02)
        assert (await seats_connected()) == [False, True, True, True]
        back = Stream(sse, url, {**bearer(tokens[0]), "Last-Event-ID": expected[-3]})
        await until(lambda: bool(back.states()), "the reconnected stream's first event")
        first = back.states()[0]
        assert first["id"] == str(version) and first["view"]["you"] == 0
        assert first["view"]["hand"] == by_version[0][str(version)]["hand"]
        assert (await seats_connected())[0] is True
        for s in [back, *streams[1:], spectator]:
            await s.close()


async def test_events_for_an_unknown_room_are_404(server: ServerProcess) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as api:
        r = await api.get("/api/rooms/nosuchroom/events")
        assert r.status_code == 404
        assert set(r.json()) == {"error", "detail", "code", "params"}


def test_server_log_has_no_tracebacks(server: ServerProcess) -> None:
    text = Path(server.log).read_text()
    assert "Traceback" not in text, text[-3000:]
