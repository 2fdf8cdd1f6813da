"""Two app processes on one PostgreSQL database serve one room (LISTEN/NOTIFY fan-out).

The four players are split across the processes (seats 0 and 2 on A, 1 and 3 on B), each
with their own event stream on their own process, plus a spectator stream on each. They play
a whole game through the API. Every version reaches every stream on both processes. Midway,
B's listener connection is terminated in the database: B reconnects, resyncs its streams,
and the game goes on with nothing lost.
"""

import asyncio
import contextlib
import json
import random
import time
from collections.abc import Callable
from typing import Any

import httpx
import psycopg
import pytest

from tests.hosting.support import Server

MOVE_TIMEOUT_S = 20.0


class Stream:
    """One SSE connection: every (version, view) it receives, in order."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.events: list[tuple[int, dict[str, Any]]] = []
        self.arrived = asyncio.Event()

    @property
    def version(self) -> int:
        return self.events[-1][0] if self.events else -1

    @property
    def view(self) -> dict[str, Any]:
        return self.events[-1][1]

    async def follow(self, client: httpx.AsyncClient, url: str, token: str | None) -> None:
        headers = {"Accept": "text/event-stream"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        async with client.stream("GET", url, headers=headers) as response:
            assert response.status_code == 200
            version, data = -1, ""
            async for line in response.aiter_lines():
                if line.startswith("id:"):
                    version = int(line[3:])
                elif line.startswith("data:"):
                    data = line[5:].strip()
                elif line == "" and data:
                    self.events.append((version, json.loads(data)))
                    self.arrived.set()
                    data = ""


async def _until(condition: Callable[[], bool], what: str, timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.005)


def _table(view: dict[str, Any]) -> dict[str, Any]:
    """The view less `connected`: each process knows only the streams it holds itself."""
    seats = [None if s is None else {**s, "connected": None} for s in view["seats"]]
    return {**view, "seats": seats}


def _listener_pid(postgres_url: str, server: Server) -> int | None:
    url = postgres_url.replace("postgresql+psycopg://", "postgresql://", 1)
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT pid FROM pg_stat_activity WHERE application_name = %s",
            [f"allfours-listener-{server.proc.pid}"],
        ).fetchone()
    return None if row is None else int(row[0])


def _terminate(postgres_url: str, pid: int) -> None:
    url = postgres_url.replace("postgresql+psycopg://", "postgresql://", 1)
    with psycopg.connect(url, autocommit=True) as conn:
        assert conn.execute("SELECT pg_terminate_backend(%s)", [pid]).fetchone() == (True,)


@pytest.mark.asyncio
async def test_two_processes_play_a_whole_game_and_survive_a_lost_listener(
    postgres_url: str, start_server: Callable[..., Server]
) -> None:
    # One after the other: the first migrates, the second finds the schema up to date.
    a = start_server(postgres_url)
    b = start_server(postgres_url)
    home = [a, b, a, b]  # seat -> the process that seat talks to
    rng = random.Random(7)

    async with httpx.AsyncClient(timeout=MOVE_TIMEOUT_S) as client:
        created = await client.post(a.url + "/api/rooms", json={})
        assert created.status_code == 201, created.text
        code = created.json()["code"]
        tokens = []
        for seat in range(4):
            joined = await client.post(
                f"{home[seat].url}/api/rooms/{code}/join", json={"name": f"P{seat}", "seat": seat}
            )
            assert joined.status_code == 200, joined.text
            tokens.append(joined.json()["token"])

        streams = [Stream(f"seat {seat}") for seat in range(4)]
        streams += [Stream("spectator on A"), Stream("spectator on B")]
        sources = [(home[s], tokens[s]) for s in range(4)] + [(a, None), (b, None)]
        followers = [
            asyncio.create_task(stream.follow(client, f"{server.url}/api/rooms/{code}/events", tok))
            for stream, (server, tok) in zip(streams, sources, strict=True)
        ]
        try:
            await _until(lambda: all(s.events for s in streams), "the first views", 20)
            started = await client.post(
                f"{a.url}/api/rooms/{code}/start",
                json={},
                headers={"Authorization": f"Bearer {tokens[0]}"},
            )
            assert started.status_code == 200, started.text
            versions: list[int] = [started.json()["version"]]

            moves = 0
            killed_at: int | None = None
            old_listener: int | None = None
            while True:
                target = versions[-1]

                def caught_up(target: int = target) -> bool:
                    return all(s.version >= target for s in streams)

                await _until(caught_up, f"version {target} on every stream", MOVE_TIMEOUT_S)
                view = streams[0].view
                if view["phase"] == "game_over":
                    break
                seat = view["turn"]
                actor = streams[seat].view
                assert actor["legal"], f"seat {seat} to act with nothing legal"
                action = dict(rng.choice(actor["legal"]))
                action["version"] = target

                if moves == 12:
                    # Mid-game: kill B's listener connection, then play on at once (on A),
                    # so B's streams can only learn of the next moves through the resync.
                    old_listener = _listener_pid(postgres_url, b)
                    assert old_listener is not None, "B has no listener connection"
                    _terminate(postgres_url, old_listener)
                    killed_at = target
                    seat_server = a
                else:
                    seat_server = home[seat]

                # The seat's own token, but posted to the process of this move's choosing:
                # either process serves any seat.
                moved = await client.post(
                    f"{seat_server.url}/api/rooms/{code}/actions",
                    json=action,
                    headers={"Authorization": f"Bearer {tokens[seat]}"},
                )
                assert moved.status_code == 200, moved.text
                assert moved.json()["version"] == target + 1
                versions.append(target + 1)
                moves += 1

            assert killed_at is not None, "the game ended before the listener was killed"
            assert moves > 20
            # B came back on a new backend and said it resynced.
            await _until(
                lambda: _listener_pid(postgres_url, b) not in (None, old_listener),
                "B's new listener",
                10,
            )
            assert "resync" in b.output()

            # Nothing lost: every stream saw every version, in order (a version may come twice:
            # a stream re-renders when a seat connects or leaves).
            for stream in streams:
                seen = [v for v, _ in stream.events if v >= versions[0]]
                assert sorted(set(seen)) == versions, stream.name
                assert seen == sorted(seen), stream.name

            # And both processes now show each seat the same table.
            for seat in range(4):
                auth = {"Authorization": f"Bearer {tokens[seat]}"}
                views = [
                    _table(
                        (await client.get(f"{server.url}/api/rooms/{code}", headers=auth)).json()
                    )
                    for server in (a, b)
                ]
                assert views[0] == views[1] == _table(streams[seat].view)
        finally:
            for task in followers:
                task.cancel()
            for task in followers:
                with contextlib.suppress(asyncio.CancelledError, httpx.HTTPError):
                    await task


@pytest.mark.asyncio
async def test_closing_a_room_ends_its_streams_on_every_process(
    postgres_url: str, start_server: Callable[..., Server]
) -> None:
    admin = {"Authorization": "Bearer scale-admin"}
    a = start_server(postgres_url, ALLFOURS_ADMIN_TOKEN="scale-admin")
    b = start_server(postgres_url, ALLFOURS_ADMIN_TOKEN="scale-admin")
    async with httpx.AsyncClient(timeout=MOVE_TIMEOUT_S) as client:
        code = (await client.post(a.url + "/api/rooms", json={})).json()["code"]
        streams = [Stream("on A"), Stream("on B")]
        followers = [
            asyncio.create_task(s.follow(client, f"{server.url}/api/rooms/{code}/events", None))
            for s, server in zip(streams, (a, b), strict=True)
        ]
        try:
            await _until(lambda: all(s.events for s in streams), "the first views", 20)
            closed = await client.post(f"{a.url}/api/admin/rooms/{code}/close", headers=admin)
            assert closed.status_code == 200, closed.text
            # Both streams end by themselves (no error): the room is gone everywhere.
            done, _ = await asyncio.wait(followers, timeout=MOVE_TIMEOUT_S)
            assert len(done) == 2
            for task in done:
                assert task.exception() is None
            for server in (a, b):
                gone = await client.get(f"{server.url}/api/rooms/{code}")
                assert gone.status_code == 404
        finally:
            for task in followers:
                task.cancel()
