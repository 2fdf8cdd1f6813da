"""Operating a server: admin endpoints, idle rooms expiring, one log line per request/move."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select, update

from app.logs import JsonFormatter, TextFormatter
from app.main import create_app
from app.store.db import make_engine
from app.store.repo import actions, games, rooms, seats
from tests.api.conftest import ADMIN, app_settings
from tests.api.table import bearer, cards_in, new_room, seat_four, view
from tests.databases import database_url  # noqa: F401 - a fixture


@pytest.fixture
def client(database_url: str) -> Iterator[TestClient]:  # noqa: F811
    with TestClient(create_app(app_settings(database_url))) as c:
        yield c


def _age(url: str, code: str, days: float, *, moves: bool, seen: bool) -> None:
    """Pretend the room (and, if asked, its moves and its players' last visits) is old."""
    then = datetime.now(UTC) - timedelta(days=days)
    engine = make_engine(url)
    try:
        with engine.begin() as conn:
            room_id = conn.execute(select(rooms.c.id).where(rooms.c.code == code)).scalar_one()
            conn.execute(update(rooms).where(rooms.c.id == room_id).values(created_at=then))
            if moves:
                game_ids = select(games.c.id).where(games.c.room_id == room_id)
                conn.execute(
                    update(actions).where(actions.c.game_id.in_(game_ids)).values(created_at=then)
                )
            if seen:
                conn.execute(update(seats).where(seats.c.room_id == room_id).values(seen_at=then))
    finally:
        engine.dispose()


def _rows(url: str) -> dict[str, int]:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            return {
                t.name: conn.execute(select(func.count()).select_from(t)).scalar_one()
                for t in (rooms, seats, games, actions)
            }
    finally:
        engine.dispose()


def _play_one(client: TestClient, code: str, tokens: list[str]) -> None:
    started = client.post(f"/api/rooms/{code}/start", headers=bearer(tokens[0]))
    assert started.status_code == 200, started.text
    seat = started.json()["turn"]
    legal = view(client, code, tokens[seat])["legal"]
    moved = client.post(f"/api/rooms/{code}/actions", json=legal[0], headers=bearer(tokens[seat]))
    assert moved.status_code == 200, moved.text


def test_admin_endpoints_need_the_admin_token(client: TestClient) -> None:
    code = new_room(client)
    assert client.get("/api/admin/rooms").status_code == 401
    assert client.get("/api/admin/rooms", headers=bearer("nope")).status_code == 403
    closed = client.post(f"/api/admin/rooms/{code}/close", headers=bearer("nope"))
    assert closed.status_code == 403
    assert closed.json()["error"] == "forbidden"
    assert view(client, code)["code"] == code


def test_admin_endpoints_are_off_without_an_admin_token(database_url: str) -> None:  # noqa: F811
    with TestClient(create_app(app_settings(database_url, admin_token=None))) as c:
        r = c.get("/api/admin/rooms", headers=bearer(""))
        assert r.status_code == 403
        assert "ALLFOURS_ADMIN_TOKEN" in r.json()["detail"]


def test_admin_lists_rooms_with_their_state_newest_change_first(client: TestClient) -> None:
    lobby = new_room(client)
    client.post(f"/api/rooms/{lobby}/join", json={"name": "Ann"})
    playing = new_room(client)
    _play_one(client, playing, seat_four(client, playing))

    listed = client.get("/api/admin/rooms", headers=bearer(ADMIN), params={"limit": 1000})
    assert listed.status_code == 200, listed.text
    by_code = {room["code"]: room for room in listed.json()["rooms"]}
    assert by_code[lobby]["phase"] == "lobby"
    assert [s and s["name"] for s in by_code[lobby]["seats"]] == ["Ann", None, None, None]
    assert by_code[playing]["phase"] != "lobby"
    assert by_code[playing]["version"] == view(client, playing)["version"]
    assert listed.json()["total"] >= 2
    order = [room["last_change"] for room in listed.json()["rooms"]]
    assert order == sorted(order, reverse=True)
    # the admin's list shows no card at all, and no seed of a game in play
    assert not cards_in(listed.json())
    assert '"seed"' not in json.dumps(listed.json())


def test_admin_closes_a_room_and_it_is_gone(client: TestClient) -> None:
    code = new_room(client)
    tokens = seat_four(client, code)
    _play_one(client, code, tokens)
    closed = client.post(f"/api/admin/rooms/{code}/close", headers=bearer(ADMIN))
    assert closed.status_code == 200, closed.text
    assert closed.json() == {"code": code, "closed": True}
    assert client.get(f"/api/rooms/{code}").status_code == 404
    assert client.get(f"/api/rooms/{code}/events").status_code == 404
    again = client.post(f"/api/admin/rooms/{code}/close", headers=bearer(ADMIN))
    assert again.status_code == 404


def test_idle_rooms_expire_and_active_ones_stay(database_url: str) -> None:  # noqa: F811
    with TestClient(create_app(app_settings(database_url))) as c:
        idle_lobby = new_room(c)
        idle_game = new_room(c)
        _play_one(c, idle_game, seat_four(c, idle_game))
        old_room_new_move = new_room(c)
        _play_one(c, old_room_new_move, seat_four(c, old_room_new_move))
        old_room_player_back = new_room(c)
        _play_one(c, old_room_player_back, seat_four(c, old_room_player_back))
        fresh = new_room(c)
    _age(database_url, idle_lobby, 31, moves=True, seen=True)
    _age(database_url, idle_game, 31, moves=True, seen=True)
    _age(database_url, old_room_new_move, 31, moves=False, seen=True)
    _age(database_url, old_room_player_back, 31, moves=True, seen=False)
    before = _rows(database_url)

    # The sweep runs when the server starts (then hourly).
    with TestClient(create_app(app_settings(database_url, room_ttl_days=30))) as c:
        deadline = time.monotonic() + 20
        while c.get(f"/api/rooms/{idle_game}").status_code != 404:
            assert time.monotonic() < deadline, "the idle rooms were not removed"
            time.sleep(0.05)
        assert c.get(f"/api/rooms/{idle_lobby}").status_code == 404
        assert c.get(f"/api/rooms/{old_room_new_move}").status_code == 200
        assert c.get(f"/api/rooms/{old_room_player_back}").status_code == 200
        assert c.get(f"/api/rooms/{fresh}").status_code == 200

    after = _rows(database_url)
    assert after["rooms"] == before["rooms"] - 2
    assert after["seats"] == before["seats"] - 4  # idle_game's four; the lobby had none
    assert after["games"] == before["games"] - 1
    assert after["actions"] < before["actions"]


def test_a_ttl_of_zero_keeps_rooms_for_ever(database_url: str) -> None:  # noqa: F811
    with TestClient(create_app(app_settings(database_url))) as c:
        code = new_room(c)
    _age(database_url, code, 3650, moves=True, seen=True)
    # (an empty room like this one has its own, shorter TTL: off too)
    settings = app_settings(database_url, room_ttl_days=0, empty_room_ttl_hours=0)
    with TestClient(create_app(settings)) as c:
        time.sleep(0.3)
        assert c.get(f"/api/rooms/{code}").status_code == 200


def test_one_log_line_per_request_and_per_move(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    code = new_room(client)
    tokens = seat_four(client, code)
    caplog.set_level(logging.INFO, logger="allfours")
    caplog.clear()
    _play_one(client, code, tokens)
    requests = [r for r in caplog.records if getattr(r, "event", None) == "request"]
    moves = [r for r in caplog.records if getattr(r, "event", None) == "move"]
    assert [(r.method, r.status) for r in requests] == [  # type: ignore[attr-defined]
        ("POST", 200),
        ("GET", 200),
        ("POST", 200),
    ]
    (move,) = moves
    assert move.room == code and move.seat in range(4)  # type: ignore[attr-defined]
    # no token or hidden card in any line
    text = "\n".join(TextFormatter().format(r) for r in caplog.records)
    assert not any(token in text for token in tokens)
    if move.action == "play":  # type: ignore[attr-defined]
        assert move.card in text  # type: ignore[attr-defined]


def test_health_probes_that_succeed_write_no_log_line(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    """Docker's probe every 5 s wrote 17,000 request lines a day: only a failing one is news."""
    caplog.set_level(logging.INFO, logger="allfours")
    caplog.clear()
    assert client.get("/healthz").status_code == 200
    assert client.get("/nosuch").status_code == 404
    paths = [r.path for r in caplog.records if getattr(r, "event", None) == "request"]  # type: ignore[attr-defined]
    assert paths == ["/nosuch"]


def test_json_log_lines_parse_and_carry_the_fields() -> None:
    record = logging.LogRecord("allfours.move", logging.INFO, __file__, 1, "move", None, None)
    record.__dict__.update({"event": "move", "room": "abc", "version": 7, "seat": 2})
    line = json.loads(JsonFormatter().format(record))
    assert line["event"] == "move" and line["room"] == "abc" and line["version"] == 7
    assert line["level"] == "info" and line["msg"] == "move"
    assert line["ts"].endswith("+00:00")
    text = TextFormatter().format(record)
    assert "event=move room=abc version=7 seat=2" in text
