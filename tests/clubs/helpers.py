"""Driving a club through its API: profiles, a club, its members and a season's nights."""

from __future__ import annotations

from collections.abc import Iterator
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
    token = str(r.json()["invite"])
    # The link whole, to send by a message (API.md § Fifth round, Finding people).
    assert r.json()["url"] == f"{client.base_url}/c/{code}/join/{token}"
    return token


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


def club_requests_reached(c: TestClient) -> Iterator[tuple[str, tuple[str, dict[str, Any]]]]:
    """The clubs' refusals, each by the request that gives it (tests/api/test_reasons.py
    counts them)."""

    def code_of(r: Any) -> tuple[str, dict[str, Any]]:
        return r.json()["code"], r.json()["params"]

    code, keys = club_of(c, ["reasons_ca", "reasons_cb"], "Reasons club")
    admin, member = keys["reasons_ca"], keys["reasons_cb"]
    yield "no_club", code_of(c.get("/api/clubs/nope1234"))
    yield "club_admin_only", code_of(c.post(f"/api/clubs/{code}/invites", headers=bearer(member)))
    bad = {"invite": "nope"}
    yield (
        "club_no_invite",
        code_of(c.post(f"/api/clubs/{code}/join", json=bad, headers=bearer(member))),
    )
    token = invite(c, code, admin)
    c.delete(f"/api/clubs/{code}/invites", headers=bearer(admin))
    gone = {"invite": token}
    yield (
        "club_invite_gone",
        code_of(c.post(f"/api/clubs/{code}/join", json=gone, headers=bearer(member))),
    )
    yield (
        "club_last_admin",
        code_of(c.delete(f"/api/clubs/{code}/members/reasons_ca", headers=bearer(admin))),
    )
    night = {"name": "N", "club": code}
    yield "club_no_season", code_of(c.post("/api/nights", json=night, headers=bearer(admin)))
    yield "club_no_such_season", code_of(c.get(f"/api/clubs/{code}/seasons/7/export.csv"))
    start_season(c, code, admin)
    again = {"name": "Later", "after": 0}
    yield (
        "club_season_changed",
        code_of(c.post(f"/api/clubs/{code}/seasons", json=again, headers=bearer(admin))),
    )
    night_code, director = club_night(c, code, admin)
    outsider = profile(c, "reasons_cc")
    yield (
        "club_not_a_member",
        code_of(register_players(c, night_code, director, ["reasons_ca", "reasons_cc"])),
    )
    move = {"night": night_code, "director_token": director}
    yield (
        "night_in_a_club",
        code_of(c.post(f"/api/clubs/{code}/nights", json=move, headers=bearer(admin))),
    )
    assert outsider
