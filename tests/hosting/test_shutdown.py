"""Graceful shutdown, as `docker stop` does it: SIGTERM with event streams open."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from tests.hosting.support import Server


async def _open_stream(client: httpx.AsyncClient, url: str, opened: asyncio.Event) -> str:
    async with client.stream("GET", url) as response:
        assert response.status_code == 200
        async for line in response.aiter_lines():
            if line.startswith("data:"):
                opened.set()
    return "ended"


@pytest.mark.asyncio
async def test_sigterm_closes_open_streams_and_exits_cleanly(
    tmp_path: Path, start_server: Callable[..., Server]
) -> None:
    server = start_server(f"sqlite:///{tmp_path / 'data' / 'allfours.db'}")
    async with httpx.AsyncClient(timeout=30) as client:
        code = (await client.post(server.url + "/api/rooms", json={})).json()["code"]
        opened = [asyncio.Event(), asyncio.Event()]
        streams = [
            asyncio.create_task(
                _open_stream(client, f"{server.url}/api/rooms/{code}/events", event)
            )
            for event in opened
        ]
        await asyncio.wait_for(asyncio.gather(*(e.wait() for e in opened)), 20)

        server.proc.send_signal(signal.SIGTERM)
        # The streams end from the server's side, then the process exits.
        ended = await asyncio.wait_for(asyncio.gather(*streams, return_exceptions=True), timeout=25)
        assert all(result == "ended" or isinstance(result, httpx.HTTPError) for result in ended)
        returncode = await asyncio.to_thread(server.proc.wait, 25)
    # uvicorn shuts down, then raises the SIGTERM it caught again, so the status says
    # "terminated" (as PID 1 in a container that signal is ignored and the exit is 0).
    assert returncode in (0, -signal.SIGTERM), server.output()
    assert "Application shutdown complete" in server.output()
    assert "Traceback" not in server.output()
