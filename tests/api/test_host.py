"""The table's host (issue 15): the first one seated may put a computer player in an away
player's seat, free a seat in the lobby, and move players before the start or between games.
Nobody else may (403); a state that does not allow it is 409, a bad body 422; an error
changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.api.conftest import ADMIN
from tests.api.table import Json, bearer, new_room, seat_four, view


def host(client: TestClient, code: str, what: str, body: Any, token: str | None) -> Any:
    headers = bearer(token) if token else {}
    return client.post(f"/api/rooms/{code}/host/{what}", json=body, headers=headers)


def unchanged(client: TestClient, code: str, before: Json) -> None:
    after = view(client, code)
    assert after["version"] == before["version"] and after["seats"] == before["seats"]
    assert after["host"] == before["host"]


def test_the_first_one_seated_is_the_host_and_moves_players_in_the_lobby(
    client: TestClient,
) -> None:
    code = new_room(client)
    ann = client.post(f"/api/rooms/{code}/join", json={"name": "Ann", "seat": 2}).json()["token"]
    bob = client.post(f"/api/rooms/{code}/join", json={"name": "Bob", "seat": 0}).json()["token"]
    assert view(client, code)["host"] == 2
    # Ann moves Bob next to her partner's chair: to an empty seat, then a swap with herself.
    r = host(client, code, "move", {"seat": 0, "to": 1}, ann)
    assert r.status_code == 200, r.text
    assert r.json()["seats"][1]["name"] == "Bob" and r.json()["seats"][0] is None
    r = host(client, code, "move", {"seat": 2, "to": 1}, ann)
    assert r.status_code == 200, r.text
    v = r.json()
    assert [s and s["name"] for s in v["seats"]] == [None, "Ann", "Bob", None]
    assert v["host"] == 1 and v["you"] == 1  # the host moved with her seat
    assert view(client, code, bob)["you"] == 2  # Bob's token follows him


def test_the_host_frees_a_seat_in_the_lobby(client: TestClient) -> None:
    code = new_room(client)
    ann = client.post(f"/api/rooms/{code}/join", json={"name": "Ann"}).json()["token"]
    bob = client.post(f"/api/rooms/{code}/join", json={"name": "Bob"}).json()["token"]
    client.post(f"/api/rooms/{code}/bots", json={"seat": 2}, headers=bearer(ann))
    r = host(client, code, "free", {"seat": 2}, ann)
    assert r.status_code == 200 and r.json()["seats"][2] is None
    r = host(client, code, "free", {"seat": 1}, ann)
    assert r.status_code == 200 and r.json()["seats"][1] is None
    assert view(client, code, bob)["you"] is None  # Bob watches now, and may sit again
    again = client.post(f"/api/rooms/{code}/join", json={"name": "Bob"}, headers=bearer(bob))
    assert again.status_code == 200


def test_only_the_host_and_only_when_the_state_allows(client: TestClient) -> None:
    code = new_room(client)
    tokens = seat_four(client, code)
    before = view(client, code)
    for token in (tokens[1], None, "not-a-token"):
        for what, body in (
            ("move", {"seat": 0, "to": 1}),
            ("free", {"seat": 2}),
            ("bot", {"seat": 3}),
        ):
            assert host(client, code, what, body, token).status_code == 403
    unchanged(client, code, before)
    # Bad bodies: 422.
    bad: list[tuple[str, Any]] = [
        ("move", {"seat": 0, "to": 0}),
        ("move", {"seat": 0, "to": 4}),
        ("move", {"seat": 0}),
        ("free", {"seat": -1}),
        ("free", {"seat": 1, "extra": True}),
        ("bot", {"seat": 1, "level": "grandmaster"}),
        ("bot", "seat"),
    ]
    for what, body in bad:
        r = host(client, code, what, body, tokens[0])
        assert r.status_code == 422, (what, body, r.text)
    unchanged(client, code, before)
    # The host keeps their seat; in play nobody is freed or moved.
    assert host(client, code, "free", {"seat": 0}, tokens[0]).status_code == 409
    client.post(f"/api/rooms/{code}/start", headers=bearer(tokens[0]))
    started = view(client, code)
    assert host(client, code, "free", {"seat": 1}, tokens[0]).status_code == 409
    assert host(client, code, "move", {"seat": 1, "to": 2}, tokens[0]).status_code == 409
    assert host(client, code, "bot", {"seat": 0}, tokens[0]).status_code == 409
    unchanged(client, code, started)


def test_the_host_puts_a_computer_player_in_an_away_players_seat(client: TestClient) -> None:
    code = new_room(client)
    tokens = seat_four(client, code)
    client.post(f"/api/rooms/{code}/start", headers=bearer(tokens[0]))
    # Dee has no stream open: she is away.
    r = host(client, code, "bot", {"seat": 3, "level": "easy"}, tokens[0])
    assert r.status_code == 200, r.text
    seat = r.json()["seats"][3]
    assert seat["bot"] is True and seat["level"] == "easy"
    assert view(client, code, tokens[3])["you"] is None  # her token holds no seat now
    # A computer player's seat is not replaced again.
    assert host(client, code, "bot", {"seat": 3}, tokens[0]).status_code == 409


@pytest.mark.parametrize("level", [None, "standard"])
def test_a_player_at_the_table_is_not_replaced(client: TestClient, level: str | None) -> None:
    code = new_room(client)
    tokens = seat_four(client, code)
    client.post(f"/api/rooms/{code}/start", headers=bearer(tokens[0]))
    with client.stream("GET", f"/api/rooms/{code}/events", headers=bearer(tokens[2])) as events:
        next(events.iter_lines())  # her stream is open: she is here
        before = view(client, code)
        body: Json = {"seat": 2} if level is None else {"seat": 2, "level": level}
        assert host(client, code, "bot", body, tokens[0]).status_code == 409
        unchanged(client, code, before)


def test_the_admin_is_not_the_host(client: TestClient) -> None:
    code = new_room(client)
    seat_four(client, code)
    assert host(client, code, "free", {"seat": 1}, ADMIN).status_code == 403


def test_the_page_forms_do_the_same(client: TestClient) -> None:
    code = new_room(client)
    tokens = seat_four(client, code)
    htmx = {"HX-Request": "true"}
    r = client.post(
        f"/r/{code}/host/move", data={"seat": 1, "to": 2}, headers={**bearer(tokens[0]), **htmx}
    )
    assert r.status_code == 200, r.text
    assert [s["name"] for s in view(client, code)["seats"]] == ["Ann", "Cal", "Ben", "Dee"]
    r = client.post(f"/r/{code}/host/free", data={"seat": 3}, headers={**bearer(tokens[1]), **htmx})
    assert r.status_code == 403
    r = client.post(f"/r/{code}/host/free", data={"seat": 3}, headers={**bearer(tokens[0]), **htmx})
    assert r.status_code == 200 and view(client, code)["seats"][3] is None
