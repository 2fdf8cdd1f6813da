"""Driving a club through its API: profiles, a club, its members and a season's nights."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.api.table import bearer
from tests.night.helpers import QUICK

Json = dict[str, Any]


def profile(client: TestClient, handle: str, name: str | None = None) -> str:
    made = client.post("/api/players", json={"handle": handle, "name": name or handle.title()})
    assert made.status_code == 201, made.text
    return str(made.json()["key"])


def open_club(client: TestClient, key: str, name: str = "Unity Sports Club", **body: Any) -> str:
    r = client.post("/api/clubs", json={"name": name, **body}, headers=bearer(key))
    assert r.status_code == 201, r.text
    assert r.json()["url"] == f"/c/{r.json()['code']}"
    return str(r.json()["code"])


def invite(client: TestClient, code: str, admin: str) -> str:
    r = client.post(f"/api/clubs/{code}/invites", headers=bearer(admin))
    assert r.status_code == 201, r.text
    return str(r.json()["invite"])


def join(client: TestClient, code: str, key: str, token: str) -> Json:
    r = client.post(f"/api/clubs/{code}/join", json={"invite": token}, headers=bearer(key))
    assert r.status_code == 200, r.text
    return dict(r.json())


def club_of(
    client: TestClient, handles: list[str], name: str = "Unity Sports Club"
) -> tuple[str, dict[str, str]]:
    """A club whose first handle is its admin and the others its members."""
    keys = {h: profile(client, h) for h in handles}
    code = open_club(client, keys[handles[0]], name)
    token = invite(client, code, keys[handles[0]])
    for h in handles[1:]:
        join(client, code, keys[h], token)
    return code, keys


def start_season(client: TestClient, code: str, admin: str, name: str = "Spring") -> Json:
    r = client.post(f"/api/clubs/{code}/seasons", json={"name": name}, headers=bearer(admin))
    assert r.status_code == 201, r.text
    return dict(r.json())


def club_night(client: TestClient, club: str, admin: str, **body: Any) -> tuple[str, str]:
    body = {"name": "Friday at the club", "rules": QUICK, "club": club, **body}
    r = client.post("/api/nights", json=body, headers=bearer(admin))
    assert r.status_code == 201, r.text
    return str(r.json()["code"]), str(r.json()["director_token"])


def register_players(client: TestClient, night: str, director: str, players: list[str]) -> Any:
    return client.post(
        f"/api/nights/{night}/pairs", json={"players": players}, headers=bearer(director)
    )


def club(client: TestClient, code: str) -> Json:
    r = client.get(f"/api/clubs/{code}")
    assert r.status_code == 200, r.text
    return dict(r.json())
