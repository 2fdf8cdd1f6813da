"""Rooms nobody uses (issue 12): a flood of new rooms was kept 30 days, about 6.5 GB a day."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from fastapi.testclient import TestClient
from sqlalchemy import select, update

from app.live.hub import Hub
from app.live.notifier import LocalNotifier
from app.live.presence import Presence
from app.main import create_app
from app.rules import Rules
from app.serve import migrate
from app.services.housekeeping import Housekeeping
from app.services.rooms import Rooms
from app.store.db import make_engine
from app.store.repo import rooms, seats
from tests.api.conftest import app_settings
from tests.api.table import bearer, new_room, seat_four
from tests.databases import database_url  # noqa: F401 - a fixture


def _age_hours(url: str, code: str, hours: float) -> None:
    """Pretend the room was made, and its players last seen, ``hours`` ago."""
    then = datetime.now(UTC) - timedelta(hours=hours)
    engine = make_engine(url)
    try:
        with engine.begin() as conn:
            room_id = conn.execute(select(rooms.c.id).where(rooms.c.code == code)).scalar_one()
            conn.execute(update(rooms).where(rooms.c.id == room_id).values(created_at=then))
            conn.execute(update(seats).where(seats.c.room_id == room_id).values(seen_at=then))
    finally:
        engine.dispose()


def test_unused_empty_rooms_are_kept_for_30_days(database_url: str) -> None:  # noqa: F811
    """A room nobody ever sat down in, or never started, stayed 30 days (ALLFOURS_ROOM_TTL_DAYS)."""
    with TestClient(create_app(app_settings(database_url))) as c:
        nobody = new_room(c)
        lobby = new_room(c)
        c.post(f"/api/rooms/{lobby}/join", json={"name": "Ann"})
        started = new_room(c)
        tokens = seat_four(c, started)
        assert c.post(f"/api/rooms/{started}/start", headers=bearer(tokens[0])).status_code == 200
        recent = new_room(c)
    for code in (nobody, lobby, started):
        _age_hours(database_url, code, 7)
    _age_hours(database_url, recent, 5)

    # The sweep runs when the server starts (then hourly): 6 hours by default.
    with TestClient(create_app(app_settings(database_url))) as c:
        deadline = time.monotonic() + 20
        while c.get(f"/api/rooms/{nobody}").status_code != 404:
            assert time.monotonic() < deadline, "the unused rooms were not removed"
            time.sleep(0.05)
        assert c.get(f"/api/rooms/{lobby}").status_code == 404
        assert c.get(f"/api/rooms/{started}").status_code == 200  # games: ROOM_TTL_DAYS
        assert c.get(f"/api/rooms/{recent}").status_code == 200


def test_a_lobby_with_a_player_at_the_table_stays(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'a.db'}"
    migrate(url)
    engine = make_engine(url)
    try:
        hub = Hub()
        rooms = Rooms(engine, LocalNotifier(hub))
        presence = Presence()
        housekeeping = Housekeeping(rooms, presence)
        waiting = rooms.create_room(rules=Rules(), seed=None).code
        rooms.join(code=waiting, name="Ann", seat=0, token=None)
        empty = rooms.create_room(rules=Rules(), seed=None).code
        later = datetime.now(UTC) + timedelta(hours=7)
        with presence.stream(waiting, 0):  # Ann waits with the page open
            removed = housekeeping.expire_idle(
                ttl_days=30, empty_ttl_hours=6, now=later, keep=presence.connected_rooms()
            )
        assert removed == [empty]
        assert housekeeping.expire_idle(ttl_days=30, empty_ttl_hours=0, now=later) == []
        assert housekeeping.expire_idle(ttl_days=30, empty_ttl_hours=6, now=later) == [waiting]
    finally:
        engine.dispose()
