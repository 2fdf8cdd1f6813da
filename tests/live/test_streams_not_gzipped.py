"""A browser that accepts gzip still gets each live event as it happens: the page
compression (app/main.py) never holds an event stream back to fill a buffer."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator

import httpx
import pytest

from tests.live.server import ServerProcess

DEADLINE_S = 60  # a bound on waiting, not a speed requirement
BROWSER = {"Accept-Encoding": "gzip, deflate, br", "Accept": "text/event-stream"}


@pytest.fixture(scope="module")
def server(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    log = tmp_path_factory.mktemp("server") / "server.log"
    proc = ServerProcess(database_url, log, ALLFOURS_AWAY_S="3600").start()
    yield proc
    proc.stop()


async def _events(response: httpx.Response) -> AsyncIterator[list[str]]:
    """Each event's field lines, as soon as its blank line arrives."""
    lines: list[str] = []
    async for line in response.aiter_lines():
        if line == "":
            if lines:
                yield lines
            lines = []
        elif not line.startswith(":"):
            lines.append(line)


@pytest.mark.parametrize("path", ["/r/{code}/events", "/api/rooms/{code}/events"])
async def test_each_event_arrives_before_the_next_move(server: ServerProcess, path: str) -> None:
    async with (
        httpx.AsyncClient(base_url=server.url, timeout=30) as api,
        httpx.AsyncClient(base_url=server.url, timeout=httpx.Timeout(30, read=None)) as sse,
    ):
        code = (await api.post("/api/rooms")).json()["code"]
        async with sse.stream("GET", path.format(code=code), headers=BROWSER) as r:
            assert r.status_code == 200
            assert r.headers["content-type"].startswith("text/event-stream")
            events = _events(r)
            first = await asyncio.wait_for(anext(events), DEADLINE_S)  # the snapshot
            assert any(line.startswith("data:") for line in first)
            # Each seat taken is one new version: it must come through on its own, while
            # nothing else is sent that could push it out of a compressor's buffer.
            for seat, name in enumerate(["Ann", "Ben", "Cal"]):
                joined = await api.post(
                    f"/api/rooms/{code}/join", json={"name": name, "seat": seat}
                )
                assert joined.status_code == 200
                event = await asyncio.wait_for(anext(events), DEADLINE_S)
                assert name in "\n".join(event)
