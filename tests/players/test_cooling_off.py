"""Leavers at play now and on the profile (API.md § Fifth round, *Leavers*): a player who
left 3 of their last 10 public games gets 429 ``cooling_off`` with ``Retry-After`` for 10
minutes, twice as long at each new leave within a day; the profile shows ``finished``."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from fastapi.testclient import TestClient

from app.players.leavers import PublicGame, cooling_off_until
from app.store import career_repo, repo, social_repo
from app.store.db import write
from tests.api.table import bearer, new_room
from tests.players.test_careers import count_game, engine_of, profile
from tests.players.test_profiles import make

T = datetime(2026, 12, 7, 12, 0, tzinfo=UTC)


def games(*marks: tuple[int, bool]) -> list[PublicGame]:
    """Public games newest first, each (minutes before T, left)."""
    return [PublicGame(T - timedelta(minutes=m), left) for m, left in marks]


def test_the_cooling_off_rule_three_of_ten_then_doubling_within_a_day() -> None:
    """10 minutes from the third leave of ten, then 20, 40 at each new leave within a day."""
    two = games((1, True), (5, False), (9, True))
    assert cooling_off_until(two) is None
    three = games((1, True), (5, False), (9, True), (20, True))
    assert cooling_off_until(three) == T - timedelta(minutes=1) + timedelta(minutes=10)
    four = games(
        (0, True), *((m, left) for m, left in [(1, True), (5, False), (9, True), (20, True)])
    )
    assert cooling_off_until(four) == T + timedelta(minutes=20)
    five = games((0, True), (2, True), (5, True), (9, True), (20, True))
    assert cooling_off_until(five) == T + timedelta(minutes=40)
    # the earlier leaves more than a day before the latest: 10 minutes again
    later = games((0, True), (60 * 25, True), (60 * 26, True), (60 * 27, True))
    assert cooling_off_until(later) == T + timedelta(minutes=10)
    # three leaves, but not among the last ten games
    old = games(*((m, False) for m in range(10)), (20, True), (21, True), (22, True))
    assert cooling_off_until(old) is None


def played(client: TestClient, key: str, handle: str, marks: list[tuple[datetime, bool]]) -> None:
    """Public games the player sat in (seat 0, with guests), ended at these times, left or
    not: counted in as a game's end counts them."""
    engine = engine_of(client)
    code = new_room(client)
    with write(engine) as conn:
        social_repo.list_public(conn, code)
        room = repo.room_by_code(conn, code)
        player = career_repo.player_of(conn, handle)
    assert room is not None and player is not None
    for n, (at, left) in enumerate(marks, start=1):
        count_game(
            engine,
            room_id=room.id,
            number=n,
            players=[player.id, None, None, None],
            winner=1,
            rated=False,
            at=at,
            left=frozenset({0}) if left else frozenset(),
        )


def test_play_now_answers_429_cooling_off_to_a_player_who_left_3_of_their_last_10_public_games(
    client: TestClient,
) -> None:
    key = make(client, "cool_leaver", "Lee")
    now = datetime.now(UTC)
    marks = [(now - timedelta(hours=5, minutes=m), False) for m in range(7)]
    marks += [(now - timedelta(minutes=m), True) for m in (30, 20, 2)]
    played(client, key, "cool_leaver", marks)
    assert profile(client, "cool_leaver")["finished"] == {"finished": 7, "started": 10}
    r = client.post("/api/play", json={}, headers=bearer(key))
    assert r.status_code == 429, r.text
    assert r.json()["code"] == "cooling_off" and r.json()["error"] == "too_many_requests"
    # 10 minutes from the leave two minutes ago
    assert 7 * 60 < int(r.headers["Retry-After"]) <= 8 * 60
    assert r.json()["params"]["left"] == 3
    page = client.post(
        "/play",
        data={},
        headers={**bearer(key), "Accept-Language": "fr", "Origin": "http://testserver"},
    )
    assert page.status_code == 429
    assert 7 * 60 < int(page.headers["Retry-After"]) <= 8 * 60
    assert "tables publiques" in page.text  # said in the reader's language


def test_a_new_leave_within_a_day_doubles_the_cooling_off(client: TestClient) -> None:
    key = make(client, "cool_twice", "Tw")
    now = datetime.now(UTC)
    # the third leave cooled them off an hour ago; the fourth, a minute ago: 20 minutes
    marks = [(now - timedelta(minutes=m), True) for m in (90, 80, 60, 1)]
    played(client, key, "cool_twice", marks)
    r = client.post("/api/play", json={}, headers=bearer(key))
    assert r.status_code == 429, r.text
    assert 18 * 60 < int(r.headers["Retry-After"]) <= 19 * 60


def test_play_now_seats_a_leaver_once_the_cooling_off_is_over(client: TestClient) -> None:
    key = make(client, "cool_done", "Don")
    now = datetime.now(UTC)
    played(client, key, "cool_done", [(now - timedelta(minutes=m), True) for m in (40, 30, 11)])
    r = client.post("/api/play", json={}, headers=bearer(key))
    assert r.status_code == 200, r.text
    assert profile(client, "cool_done")["finished"] == {"finished": 0, "started": 3}
