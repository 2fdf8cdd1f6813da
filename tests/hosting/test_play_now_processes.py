"""Play now across two app processes on one PostgreSQL database (issue #36): fifty guests
pressing at once, half on each process, are each seated once, no table holds more than four,
and no public table is left empty. The presses are taken one at a time by the database's
advisory lock, which no process's own lock could do."""

import asyncio
from collections import Counter
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from tests.hosting.support import Server

GUESTS = 50


@pytest.mark.asyncio
async def test_fifty_guests_on_two_processes_are_each_seated_once(
    postgres_url: str, start_server: Callable[..., Server]
) -> None:
    a = start_server(postgres_url, ALLFOURS_ROOMS_PER_HOUR="0")
    b = start_server(postgres_url, ALLFOURS_ROOMS_PER_HOUR="0")
    async with httpx.AsyncClient(timeout=60) as client:

        async def press(n: int) -> dict[str, Any]:
            server = a if n % 2 else b
            r = await client.post(f"{server.url}/api/play", json={"name": f"Guest {n}"})
            assert r.status_code == 200, r.text
            out: dict[str, Any] = r.json()
            return out

        got = await asyncio.gather(*(press(n) for n in range(GUESTS)))
        places = Counter((g["code"], g["seat"]) for g in got)
        assert max(places.values()) == 1
        per_table = Counter(g["code"] for g in got)
        assert len(per_table) == (GUESTS + 3) // 4  # four to a table
        for code, count in per_table.items():
            view = (await client.get(f"{a.url}/api/rooms/{code}")).json()
            humans = [s for s in view["seats"] if not s["bot"] or s.get("claimed")]
            assert len(humans) == count <= 4
        lobby = (await client.get(f"{b.url}/api/lobby")).json()
        assert {t["code"] for t in lobby["tables"]} == set(per_table)
