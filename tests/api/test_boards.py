"""R30-R31 over HTTP: a room with the option ``boards`` deals its set one board a game; its
view names the board and keeps the event's seed; after its last board no next game (409
boards_done); a table of boards plays renege off or one (422 board_renege)."""

from __future__ import annotations

import random
from collections.abc import Iterator

from fastapi.testclient import TestClient

from app.reasons import Param
from tests.api.conftest import ADMIN
from tests.api.table import bearer, new_room, play_random, seat_four

SEED = 4949


def _code_of(r: object) -> tuple[str, dict[str, Param]]:
    body = r.json()  # type: ignore[attr-defined]
    return body["code"], body.get("params") or {}


def boards_room(c: TestClient, boards: list[int]) -> tuple[str, list[str]]:
    body = {"options": {"boards": boards, "rated": False}, "seed": SEED}
    code = new_room(c, body, admin=ADMIN)
    tokens = seat_four(c, code)
    r = c.post(f"/api/rooms/{code}/start", headers=bearer(tokens[0]))
    assert r.status_code == 200, r.text
    return code, tokens


def boards_requests_reached(c: TestClient) -> Iterator[tuple[str, tuple[str, dict[str, Param]]]]:
    bad = {"rules": {"renege": "bullseye"}, "options": {"boards": [1]}, "seed": SEED}
    r = c.post("/api/rooms", json=bad, headers=bearer(ADMIN))
    assert r.status_code == 422, r.text
    yield "board_renege", _code_of(r)
    code, tokens = boards_room(c, [2])
    play_random(c, code, tokens, random.Random(2), check=False)
    r = c.post(f"/api/rooms/{code}/rematch", headers=bearer(tokens[0]))
    assert r.status_code == 409, r.text
    yield "boards_done", _code_of(r)
    # R33: the board's seed is its event's: no deals again, no review (it replays the seed).
    again = c.post(f"/api/rooms/{code}/games/1/again", headers=bearer(tokens[0]))
    review = c.post(f"/api/rooms/{code}/games/1/review")
    assert again.status_code == review.status_code == 409, (again.text, review.text)
    assert _code_of(review)[0] == "board_secret"
    yield "board_secret", _code_of(again)
    # R33: the table is its own seats' (no spectator reads it), its seats its event's.
    r = c.get(f"/api/rooms/{code}")
    assert r.status_code == 403, r.text
    yield "board_table_private", _code_of(r)
    r = c.post(f"/api/rooms/{code}/join", json={"name": "Peek", "seat": 1})
    assert r.status_code == 403, r.text
    yield "board_seats", _code_of(r)
    r = c.get("/api/daily/1999-01-01")
    assert r.status_code == 404, r.text
    yield "no_day", _code_of(r)
    date = c.get("/api/daily").json()["date"]
    r = c.get(f"/api/daily/{date}/boards/1")
    assert r.status_code == 403, r.text
    yield "board_not_played", _code_of(r)
    r = c.get(f"/api/daily/{date}/boards/64")
    assert r.status_code == 404, r.text
    yield "no_board", _code_of(r)


def test_r30_r31_a_room_deals_its_boards_and_keeps_the_seed(client: TestClient) -> None:
    code, tokens = boards_room(client, [3, 7])
    rng = random.Random(3)
    for number, board in enumerate([3, 7], 1):
        first = client.get(f"/api/rooms/{code}", headers=bearer(tokens[0])).json()
        assert first["board"] == {"number": board, "dealer": (board - 1) % 4, "of": 2}
        assert first["game_number"] == number and first["dealer"] == (board - 1) % 4
        over = play_random(client, code, tokens, rng)
        assert over["phase"] == "game_over" and over["seed"] is None
        assert over["seed_commitment"] == first["seed_commitment"]
        assert over["game_number"] == number, "one hand and the board is over"
        if number == 1:
            r = client.post(f"/api/rooms/{code}/rematch", headers=bearer(tokens[0]))
            assert r.status_code == 200, r.text
    reached = dict(boards_requests_reached(client))
    assert {k: v[0] for k, v in reached.items()} == {
        "board_renege": "board_renege",
        "boards_done": "boards_done",
        "board_secret": "board_secret",
        "board_table_private": "board_table_private",
        "board_seats": "board_seats",
        "no_day": "no_day",
        "board_not_played": "board_not_played",
        "no_board": "no_board",
    }
