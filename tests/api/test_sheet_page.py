"""The score sheet's route (GET /r/{code}/sheet): the fragment for htmx, a page without it,
each caller's sheet made from the hand records that caller may see, a clear 404."""

from __future__ import annotations

import random

from fastapi.testclient import TestClient

from tests.api.table import bearer, new_room, play_random, seat_four, view
from tests.web.dom import having, parse

HTMX = {"HX-Request": "true"}


def _hands(client: TestClient, code: str, headers: dict[str, str]) -> list[str]:
    r = client.get(f"/r/{code}/sheet", headers={**HTMX, **headers})
    assert r.status_code == 200 and r.headers["cache-control"] == "no-store"
    elements = parse(r.text)
    assert len(having(elements, "data-score-sheet")) == 1
    assert not any(e.tag == "html" for e in elements)  # a fragment
    return [str(e.get("data-sheet-hand")) for e in having(elements, "data-sheet-hand")]


def test_the_sheet_lists_the_finished_hands_for_players_and_spectators(
    client: TestClient,
) -> None:
    code = new_room(client, {"rules": {"target": 7}})
    assert _hands(client, code, {}) == []  # the lobby: no game yet
    tokens = seat_four(client, code)
    client.post(f"/api/rooms/{code}/start", headers=bearer(tokens[0]))
    final = play_random(client, code, tokens, random.Random(7), check=False)
    numbers = [
        str(client.get(f"/api/rooms/{code}/hands/{n}").json()["n"])
        for n in range(1, final["hand_number"] + 1)
        if client.get(f"/api/rooms/{code}/hands/{n}").status_code == 200
    ]
    assert numbers and _hands(client, code, {}) == numbers
    assert _hands(client, code, bearer(tokens[2])) == numbers
    mine = client.get(f"/r/{code}/sheet", headers={**HTMX, **bearer(tokens[0])}).text
    assert "You &amp; Cal" in mine
    page = client.get(f"/r/{code}/sheet")
    assert page.status_code == 200 and "<html" in page.text and f'href="/r/{code}"' in page.text
    assert view(client, code)["phase"] == "game_over"


def test_no_sheet_for_a_table_that_does_not_exist(client: TestClient) -> None:
    r = client.get("/r/nosuchroom1/sheet", headers=HTMX)
    assert r.status_code == 404
