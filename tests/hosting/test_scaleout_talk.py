"""Table talk across two app processes on one PostgreSQL database: a message said on one
process reaches the streams of the other whole, in its NOTIFY payload (colons, emoji and
markup in it included), and once each though every process hears it twice."""

import asyncio
import json
from collections.abc import Callable

import httpx
import pytest

from tests.hosting.support import Server


async def _follow(
    client: httpx.AsyncClient, url: str, chats: list[dict[str, object]], opened: asyncio.Event
) -> None:
    async with client.stream("GET", url, headers={"Accept": "text/event-stream"}) as response:
        assert response.status_code == 200
        kind = ""
        async for line in response.aiter_lines():
            if line.startswith("event:"):
                kind = line[6:].strip()
            elif line.startswith("data:") and kind == "chat":
                chats.append(json.loads(line[5:].strip()))
            elif line.startswith("data:") and kind == "state":
                opened.set()


@pytest.mark.asyncio
async def test_a_message_said_on_one_process_reaches_the_other_whole(
    postgres_url: str, start_server: Callable[..., Server]
) -> None:
    a = start_server(postgres_url)
    b = start_server(postgres_url)
    text = "Hang jack: 10♥ 😂 <b hx-get='/x'>lift</b>"
    async with httpx.AsyncClient(timeout=httpx.Timeout(20, read=None)) as client:
        code = (await client.post(a.url + "/api/rooms", json={})).json()["code"]
        token = (await client.post(f"{a.url}/api/rooms/{code}/join", json={"name": "Ann"})).json()[
            "token"
        ]
        on_a: list[dict[str, object]] = []
        on_b: list[dict[str, object]] = []
        opened = [asyncio.Event(), asyncio.Event()]
        followers = [
            asyncio.create_task(_follow(client, f"{s.url}/api/rooms/{code}/events", chats, o))
            for s, chats, o in ((a, on_a, opened[0]), (b, on_b, opened[1]))
        ]
        try:
            await asyncio.wait_for(asyncio.gather(*(o.wait() for o in opened)), 20)
            for said in (text, "second"):
                posted = await client.post(
                    f"{a.url}/api/rooms/{code}/chat",
                    json={"text": said},
                    headers={"Authorization": f"Bearer {token}"},
                )
                assert posted.status_code == 201, posted.text
            for _ in range(400):
                if len(on_a) >= 2 and len(on_b) >= 2:
                    break
                await asyncio.sleep(0.025)
            await asyncio.sleep(0.5)  # time for a second copy to arrive, if it were sent
            listed = (await client.get(f"{b.url}/api/rooms/{code}/chat")).json()["messages"]
            assert on_a == on_b == listed
            assert [m["text"] for m in on_b] == [text, "second"]
        finally:
            for task in followers:
                task.cancel()
