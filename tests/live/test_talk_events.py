"""Table talk on the event streams of a real uvicorn: every (re)connection first gets the
view, then the recent messages; a new message reaches every stream as a ``chat`` event with
no id (the version sequence is untouched); a nudge reaches them as a ``nudge`` event. Kept
through a SIGKILL like the moves."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.live.server import ServerProcess
from tests.live.test_events import Stream, bearer, until


@pytest.fixture
def server(database_url: str, tmp_path: Path) -> Iterator[ServerProcess]:
    proc = ServerProcess(database_url, tmp_path / "server.log", ALLFOURS_AWAY_S="3600").start()
    yield proc
    proc.stop()


def _chats(stream: Stream) -> list[dict[str, object]]:
    return [json.loads(e["data"]) for e in stream.events if e["event"] == "chat"]


def nudges(stream: Stream) -> list[dict[str, object]]:
    return [json.loads(e["data"]) for e in stream.events if e["event"] == "nudge"]


async def test_chat_and_nudges_reach_every_stream_without_ids(server: ServerProcess) -> None:
    async with (
        httpx.AsyncClient(base_url=server.url, timeout=30) as api,
        httpx.AsyncClient(base_url=server.url, timeout=httpx.Timeout(30, read=None)) as sse,
    ):
        code = (await api.post("/api/rooms")).json()["code"]
        tokens = [
            (await api.post(f"/api/rooms/{code}/join", json={"name": n})).json()["token"]
            for n in ("Ann", "Ben", "Cal", "Dee")
        ]
        said = await api.post(
            f"/api/rooms/{code}/chat",
            json={"text": "before the streams"},
            headers=bearer(tokens[0]),
        )
        assert said.status_code == 201
        url = f"/api/rooms/{code}/events"
        streams = [Stream(sse, url, bearer(t)) for t in tokens] + [Stream(sse, url, {})]
        await until(lambda: all(_chats(s) for s in streams), "the recent messages")
        for s in streams:
            assert s.events[0]["event"] == "state"  # the view first, then the talk
            assert [m["text"] for m in _chats(s)] == ["before the streams"]
        r = await api.post(
            f"/api/rooms/{code}/chat", json={"preset": "all_fours"}, headers=bearer(tokens[2])
        )
        assert r.status_code == 201
        await until(lambda: all(len(_chats(s)) == 2 for s in streams), "the new message")
        for s in streams:
            assert _chats(s)[-1]["text"] == "All fours!" and _chats(s)[-1]["seat"] == 2
            assert all("id" not in e for e in s.events if e["event"] == "chat")

        assert (
            await api.post(f"/api/rooms/{code}/start", headers=bearer(tokens[0]))
        ).status_code == 200
        turn = (await api.get(f"/api/rooms/{code}")).json()["turn"]
        r = await api.post(f"/api/rooms/{code}/nudge", headers=bearer(tokens[(turn + 1) % 4]))
        assert r.status_code == 204
        await until(lambda: all(nudges(s) for s in streams), "the nudge")
        for s in streams:
            assert nudges(s) == [{"seat": turn}]
        states = [e for e in streams[0].events if e["event"] == "state"]
        assert [int(e["id"]) for e in states] == list(range(4, 4 + len(states)))
        for s in streams:
            await s.close()

        # A reconnection (and a reload) gets the view, then the recent messages again.
        again = Stream(sse, url, bearer(tokens[1]))
        await until(lambda: len(_chats(again)) == 2, "the messages after a reconnection")
        assert again.events[0]["event"] == "state"
        await again.close()


def test_messages_survive_a_sigkill(server: ServerProcess) -> None:
    with httpx.Client(base_url=server.url, timeout=30) as api:
        code = api.post("/api/rooms").json()["code"]
        token = api.post(f"/api/rooms/{code}/join", json={"name": "Ann"}).json()["token"]
        assert (
            api.post(
                f"/api/rooms/{code}/chat", json={"text": "kept"}, headers=bearer(token)
            ).status_code
            == 201
        )
    server.kill()
    server.start()
    with httpx.Client(base_url=server.url, timeout=30) as api:
        listed = api.get(f"/api/rooms/{code}/chat").json()["messages"]
        assert [m["text"] for m in listed] == ["kept"]
