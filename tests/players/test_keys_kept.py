"""A player's key is checked once and kept in memory while it lives (issue #47): a table's
moves and its stream's events ask the database nothing. A sign-out or a deletion forgets it at
once (tests/live/test_player_streams.py, tests/hosting/test_key_processes.py); a sign-out the
notifier may have missed (its channel lost a while) is caught by forgetting every key."""

from __future__ import annotations

import time

from fastapi.testclient import TestClient
from sqlalchemy import delete

from app.api.context import Context
from app.players import keys
from app.store.db import write
from app.store.models import PlayerKey
from tests.api.table import bearer, new_room


def _seated(client: TestClient, handle: str) -> tuple[str, str]:
    key = client.post("/api/players", json={"handle": handle, "name": "Ann"}).json()["key"]
    code = new_room(client)
    joined = client.post(f"/api/rooms/{code}/join", json={"name": "x"}, headers=bearer(key))
    assert joined.json()["seat"] == 0
    return code, key


def _you(client: TestClient, code: str, key: str) -> int | None:
    you: int | None = client.get(f"/api/rooms/{code}", headers=bearer(key)).json()["you"]
    return you


def test_a_key_acts_from_memory_until_the_notifier_reconnects(client: TestClient) -> None:
    ctx: Context = client.app.state.ctx  # type: ignore[attr-defined]
    code, key = _seated(client, "kept_key")
    assert _you(client, code, key) == 0
    # The device's key goes from the database behind the server's back, as a sign-out in
    # another process whose notice went out while this one's listener was reconnecting.
    with write(ctx.engine) as conn:
        conn.execute(delete(PlayerKey).where(PlayerKey.key_hash == keys.hashed(key)))
    time.sleep(2.1)  # past the profile's moment (KEPT_S): the key's seat is kept longer
    assert _you(client, code, key) == 0  # served from memory: the database was not asked
    ctx.hub.resync_all_threadsafe()  # the listener is back: every stream resyncs
    end = time.monotonic() + 5
    while _you(client, code, key) is not None:
        assert time.monotonic() < end, "the key still acts after the resync"
        time.sleep(0.01)
    assert client.get("/api/me", headers=bearer(key)).status_code == 401
