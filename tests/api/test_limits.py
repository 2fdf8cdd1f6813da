"""Room creation per client address (issue 12): one address opened 7,510 rooms a minute."""

from __future__ import annotations

from fastapi.testclient import TestClient

from app.api.limits import RoomQuota
from app.main import create_app
from tests.api.conftest import ADMIN, app_settings
from tests.api.table import bearer
from tests.databases import database_url  # noqa: F401 - a fixture


def test_one_address_cannot_flood_room_creation(database_url: str) -> None:  # noqa: F811
    """Every room an address asked for was created, the form's and the API's alike."""
    app = create_app(app_settings(database_url, rooms_per_hour=3))
    with (
        TestClient(app, client=("203.0.113.7", 5000)) as flood,
        TestClient(app, client=("198.51.100.2", 5000)) as neighbour,
    ):
        assert [flood.post("/api/rooms", json={}).status_code for _ in range(2)] == [201, 201]
        page = flood.post("/rooms", data={}, follow_redirects=False)
        assert page.status_code == 303  # the home page's form takes from the same quota
        for r in (
            flood.post("/api/rooms", json={}),
            flood.post("/rooms", data={}, follow_redirects=False),
        ):
            assert r.status_code == 429, r.text
            assert r.json()["error"] == "too_many_requests"
            assert "203.0.113.7" in r.json()["detail"]
            assert 1 <= int(r.headers["retry-after"]) <= 3600
        # Only rooms are limited: the flooder still plays, and others still open tables.
        assert flood.get("/healthz").status_code == 200
        assert neighbour.post("/api/rooms", json={}).status_code == 201
        # The admin token is not counted (a table of four bots, a seeded room).
        assert flood.post("/api/rooms", json={}, headers=bearer(ADMIN)).status_code == 201


def test_room_quota_refills_over_the_hour() -> None:
    quota = RoomQuota(30)
    assert [quota.take("a", now=0.0) for _ in range(30)] == [0] * 30
    wait = quota.take("a", now=0.0)
    assert 1 <= wait <= 120  # one room every two minutes
    assert quota.take("a", now=float(wait)) == 0
    assert quota.take("b", now=0.0) == 0
    assert RoomQuota(0).take("a") == 0  # 0 turns the quota off
