"""Graceful shutdown, as `docker stop` does it: SIGTERM with event streams open."""

from __future__ import annotations

import asyncio
import json
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
    # Each stream ended from its own side, with its last chunk: none was cut off.
    assert "without completing response" not in server.output()


def test_json_logs_from_a_real_server_are_one_object_per_line(
    tmp_path: Path, start_server: Callable[..., Server]
) -> None:
    server = start_server(f"sqlite:///{tmp_path / 'allfours.db'}", ALLFOURS_LOG_JSON="true")
    code = httpx.post(server.url + "/api/rooms", json={}).json()["code"]
    tokens = []
    for seat in range(4):
        joined = httpx.post(f"{server.url}/api/rooms/{code}/join", json={"name": f"P{seat}"})
        tokens.append(joined.json()["token"])
    auth = {"Authorization": f"Bearer {tokens[0]}"}
    view = httpx.post(f"{server.url}/api/rooms/{code}/start", headers=auth).json()
    seat = view["turn"]
    auth = {"Authorization": f"Bearer {tokens[seat]}"}
    legal = httpx.get(f"{server.url}/api/rooms/{code}", headers=auth).json()["legal"]
    assert httpx.post(f"{server.url}/api/rooms/{code}/actions", json=legal[0], headers=auth)
    server.proc.send_signal(signal.SIGTERM)
    server.proc.wait(25)

    lines = [json.loads(line) for line in server.output().splitlines() if line.startswith("{")]
    events = [line.get("event") for line in lines]
    assert events.count("request") >= 8
    assert events.count("move") == 1
    (move,) = [line for line in lines if line.get("event") == "move"]
    assert move["room"] == code and move["seat"] == seat
    text = server.output()
    assert not any(token in text for token in tokens)
