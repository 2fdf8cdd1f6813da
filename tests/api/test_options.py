"""Room options (API.md § Second round): table settings that are not rules."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.api.table import bearer, new_room, seat_four, view


def test_a_room_keeps_its_options_and_every_view_shows_them(client: TestClient) -> None:
    code = new_room(client, {"options": {"match": 3, "turn_timer_s": 60, "spectator_chat": True}})
    tokens = seat_four(client, code)
    for token in (*tokens, None):
        assert view(client, code, token)["options"] == {
            "match": 3,
            "turn_timer_s": 60,
            "spectator_chat": True,
            "reckon_s": 15,
            "rated": True,
        }
    plain = new_room(client)
    assert view(client, plain)["options"] == {
        "match": 1,
        "turn_timer_s": 0,
        "spectator_chat": False,
        "reckon_s": 15,
        "rated": True,
    }
    assert view(client, plain)["preset"] == "trinidad"


@pytest.mark.parametrize(
    "options",
    [{"match": 5}, {"match": 0}, {"turn_timer_s": 45}, {"turn_timer_s": -1}, {"colour": "red"}],
)
def test_options_out_of_range_are_422_and_make_no_room(client: TestClient, options: object) -> None:
    r = client.post("/api/rooms", json={"options": options})
    assert r.status_code == 422, r.text
    assert r.json()["error"] == "invalid"


def test_spectators_write_only_where_the_room_lets_them(client: TestClient) -> None:
    open_room = new_room(client, {"options": {"spectator_chat": True}})
    seat_four(client, open_room)
    r = client.post(f"/api/rooms/{open_room}/chat", json={"preset": "laugh"})
    assert r.status_code == 201, r.text
    assert r.json()["seat"] is None and r.json()["name"] == "Spectator"
    closed = new_room(client)
    seat_four(client, closed)
    assert client.post(f"/api/rooms/{closed}/chat", json={"preset": "laugh"}).status_code == 403
    # A token of another room is refused even where spectators may talk.
    other = new_room(client)
    token = seat_four(client, other)[0]
    r = client.post(f"/api/rooms/{open_room}/chat", json={"text": "hi"}, headers=bearer(token))
    assert r.status_code == 403
