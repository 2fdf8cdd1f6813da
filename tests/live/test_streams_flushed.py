"""A browser that accepts gzip still gets each live event as it happens: the page's stream
is gzipped with a flush per event (app/api/stream_gzip.py), the JSON stream is not, and
neither the page compression (app/main.py) nor the stream's own holds an event back to fill
a buffer. A real uvicorn in between, as in production."""

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


@pytest.mark.parametrize(
    ("path", "encoding"), [("/r/{code}/events", "gzip"), ("/api/rooms/{code}/events", None)]
)
async def test_each_event_arrives_before_the_next_move(
    server: ServerProcess, path: str, encoding: str | None
) -> None:
    async with (
        httpx.AsyncClient(base_url=server.url, timeout=30) as api,
        httpx.AsyncClient(base_url=server.url, timeout=httpx.Timeout(30, read=None)) as sse,
    ):
        code = (await api.post("/api/rooms")).json()["code"]
        async with sse.stream("GET", path.format(code=code), headers=BROWSER) as r:
            assert r.status_code == 200
            assert r.headers["content-type"].startswith("text/event-stream")
            assert r.headers.get("content-encoding") == encoding
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


async def test_the_page_stream_is_plain_for_a_client_without_gzip(server: ServerProcess) -> None:
    async with (
        httpx.AsyncClient(base_url=server.url, timeout=30) as api,
        httpx.AsyncClient(base_url=server.url, timeout=httpx.Timeout(30, read=None)) as sse,
    ):
        code = (await api.post("/api/rooms")).json()["code"]
        plain = {"Accept-Encoding": "identity", "Accept": "text/event-stream"}
        async with sse.stream("GET", f"/r/{code}/events", headers=plain) as r:
            assert r.status_code == 200
            assert "content-encoding" not in r.headers
            first = await asyncio.wait_for(anext(_events(r)), DEADLINE_S)
            assert any(line.startswith("data:") for line in first)
