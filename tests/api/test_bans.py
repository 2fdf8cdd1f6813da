"""What a ban does (API.md § Play now, friends, blocks, reports): a banned player gets no
public play and opens no public table (403 ``banned``), their seats at public tables go to
computer players at once and the tables play on; a private table is still theirs to open;
unbanned, they play now again. On SQLite and PostgreSQL."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.api.conftest import ADMIN
from tests.api.table import bearer, view


def _profile(client: TestClient, handle: str) -> str:
    r = client.post("/api/players", json={"handle": handle, "name": handle.title()})
    assert r.status_code == 201, r.text
    return str(r.json()["key"])


def test_a_ban_takes_public_play_and_public_seats_away(client: TestClient) -> None:
    key = _profile(client, "banned_bo")
    seated = client.post("/api/play", json={}, headers=bearer(key))
    assert seated.status_code == 200, seated.text
    code, seat = seated.json()["code"], seated.json()["seat"]
    assert view(client, code, key)["seats"][seat]["player"] == "banned_bo"

    r = client.post(
        "/api/admin/players/banned_bo/ban", json={"reason": "abuse"}, headers=bearer(ADMIN)
    )
    assert r.status_code == 200, r.text
    # The seat is a computer player's now, and the table plays on without them.
    after = view(client, code)
    assert after["seats"][seat]["bot"] and after["seats"][seat].get("player") is None
    assert after["phase"] != "lobby"
    assert view(client, code, key)["you"] is None
    # No public play, no public table; a private table is still theirs to open.
    again = client.post("/api/play", json={}, headers=bearer(key))
    assert again.status_code == 403 and again.json()["code"] == "banned", again.text
    public = client.post("/api/rooms", json={"options": {"public": True}}, headers=bearer(key))
    assert public.status_code == 403 and public.json()["code"] == "banned", public.text
    assert client.post("/api/rooms", json={}, headers=bearer(key)).status_code == 201

    unban = client.post("/api/admin/players/banned_bo/unban", headers=bearer(ADMIN))
    assert unban.status_code == 200
    assert client.post("/api/play", json={}, headers=bearer(key)).status_code == 200
