"""No game's seed shows before the game is over (docs/fairness.md): not in the views, the
event streams (JSON and the page's HTML), the pages, the hand and game records, the
notebook, the error messages, nor the server's log, over whole random games on a live
server, one of them with redeals."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.live.server import ServerProcess

DEADLINE_S = 60  # a bound on waiting, not a speed requirement
ADMIN = "seed-secret-admin"
# An admin's seed of 19 digits (no digit string turns up by chance) whose first deal is
# thrown in when the beggar begs and the dealer runs the pack.
REDEALING_SEED = 7346251908112583571


@pytest.fixture(scope="module")
def server(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    log = tmp_path_factory.mktemp("server") / "server.log"
    proc = ServerProcess(
        database_url,
        log,
        ALLFOURS_AWAY_S="3600",
        LOG_LEVEL="info",
        ALLFOURS_ADMIN_TOKEN=ADMIN,
        ALLFOURS_ROOMS_PER_HOUR="0",
    ).start()
    yield proc
    proc.stop()


class RawStream:
    """One open event stream: every event's text, with its id (the version)."""

    def __init__(self, client: httpx.AsyncClient, url: str, headers: dict[str, str]) -> None:
        self.events: list[tuple[int | None, str]] = []
        self.task = asyncio.create_task(self._read(client, url, headers))

    async def _read(self, client: httpx.AsyncClient, url: str, headers: dict[str, str]) -> None:
        async with client.stream("GET", url, headers=headers) as r:
            assert r.status_code == 200
            lines: list[str] = []
            async for line in r.aiter_lines():
                if line:
                    lines.append(line)
                    continue
                ids = [x.removeprefix("id:").strip() for x in lines if x.startswith("id:")]
                self.events.append((int(ids[0]) if ids else None, "\n".join(lines)))
                lines = []

    def last_id(self) -> int:
        return max((i for i, _ in self.events if i is not None), default=-1)

    async def close(self) -> None:
        self.task.cancel()
        await asyncio.gather(self.task, return_exceptions=True)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def cookie(token: str) -> dict[str, str]:
    return {"Cookie": f"allfours_seat={token}"}


async def play_one(
    api: httpx.AsyncClient, sse: httpx.AsyncClient, rng: random.Random, seed: int | None
) -> tuple[dict[str, Any], list[str], list[tuple[int | None, str]], int]:
    """A whole game with every stream open: (its record, the texts served before it was
    over, the streams' events, the version at which it ended). With an admin's ``seed``
    the beggar begs and the dealer runs the pack whenever they can (redeals)."""
    body: dict[str, Any] = {"rules": {"target": 7}}
    if seed is not None:
        body["seed"] = seed
    headers = bearer(ADMIN) if seed is not None else {}
    code = (await api.post("/api/rooms", json=body, headers=headers)).json()["code"]
    tokens = []
    for name in ("Ann", "Ben", "Cal", "Dee"):
        joined = await api.post(f"/api/rooms/{code}/join", json={"name": name})
        tokens.append(joined.json()["token"])
    streams = [RawStream(sse, f"/api/rooms/{code}/events", bearer(t)) for t in tokens]
    streams.append(RawStream(sse, f"/api/rooms/{code}/events", {}))
    streams.append(RawStream(sse, f"/r/{code}/events", cookie(tokens[0])))  # the page's HTML
    texts: list[str] = []

    async def get(path: str, headers: dict[str, str] | None = None) -> httpx.Response:
        r = await api.get(path, headers=headers or {})
        texts.append(r.text)
        return r

    r = await api.post(f"/api/rooms/{code}/start", headers=bearer(tokens[0]))
    texts.append(r.text)
    while True:
        v = (await get(f"/api/rooms/{code}")).json()
        if v["turn"] is None:
            texts.pop()  # the game is over: this view may show the seed
            break
        seat = v["turn"]
        mine = (await get(f"/api/rooms/{code}", bearer(tokens[seat]))).json()
        for t in tokens:
            await get(f"/r/{code}", cookie(t))
        await get(f"/r/{code}/table", cookie(tokens[(seat + 1) % 4]))
        await get(f"/api/rooms/{code}/games/1")
        await get(f"/api/rooms/{code}/games/1/notebook.txt")
        await get(f"/r/{code}/games/1/replay", cookie(tokens[seat]))  # 409 until it is over
        await get(f"/r/{code}/replay")
        for n in range(1, v["hand_number"]):
            await get(f"/api/rooms/{code}/hands/{n}", bearer(tokens[n % 4]))
        # Refusals: a wrong turn, a move not offered, an unknown card, a rematch or a replay
        # too early, a stale version.
        for body, who in (
            ({"type": "stand"}, (seat + 1) % 4),
            ({"type": "play", "card": "ZZ"}, seat),
            ({"type": "give_one"} if v["phase"] != "give_or_run" else {"type": "stand"}, seat),
            ({"type": mine["legal"][0]["type"], "version": 0}, seat),
        ):
            r = await api.post(f"/api/rooms/{code}/actions", json=body, headers=bearer(tokens[who]))
            assert r.status_code >= 400
            texts.append(r.text)
        for path in (f"/api/rooms/{code}/rematch", f"/api/rooms/{code}/games/1/again"):
            r = await api.post(path, headers=bearer(tokens[seat]))
            assert r.status_code == 409
            texts.append(r.text)
        legal = mine["legal"]
        wanted = [a for a in legal if a["type"] in ("beg", "run_pack")] if seed else []
        move = {**rng.choice(wanted or legal), "version": mine["version"]}
        r = await api.post(f"/api/rooms/{code}/actions", json=move, headers=bearer(tokens[seat]))
        assert r.status_code == 200, r.text
        if r.json()["phase"] != "game_over":
            texts.append(r.text)
        else:
            ended = int(r.json()["version"])
    end = time.monotonic() + DEADLINE_S
    while not all(s.last_id() >= ended for s in streams):
        assert time.monotonic() < end, "gave up waiting for every stream to see the end"
        await asyncio.sleep(0.01)
    for s in streams:
        await s.close()
    record = (await api.get(f"/api/rooms/{code}/games/1")).json()
    events = [e for s in streams for e in s.events]
    return record, texts, events, ended


async def test_the_seed_shows_nowhere_before_the_game_is_over(server: ServerProcess) -> None:
    rng = random.Random(16)
    async with (
        httpx.AsyncClient(base_url=server.url, timeout=30) as api,
        httpx.AsyncClient(base_url=server.url, timeout=httpx.Timeout(30, read=None)) as sse,
    ):
        secrets = []
        for seed in (REDEALING_SEED, None, None):
            record, texts, events, ended = await play_one(api, sse, rng, seed)
            secret = str(record["seed"])
            assert len(secret) >= 19  # long enough that no digit string turns up by chance
            secrets.append(secret)
            assert not [t for t in texts if secret in t]
            before = [text for version, text in events if version is None or version < ended]
            assert before and not [t for t in before if secret in t]
            # Once over the seed is public: the streams' last views carry it.
            assert any(secret in text for version, text in events if version == ended)
            if seed is not None:
                assert record["hands"][0]["redeal"]  # the game with redeals
    log = server.log.read_text()
    assert "room=" in log or "POST" in log  # the log did record the games
    assert not [s for s in secrets if s in log]
