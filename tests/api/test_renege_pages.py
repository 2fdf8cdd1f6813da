"""Renege mode's form twins (app/api/pages.py): POST /r/{code}/renege and /r/{code}/reckoned
answer the table for htmx and a 303 without it, and a refused call says its reason's page
sentence in the reader's language, changing nothing."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.api.conftest import ADMIN
from tests.api.reneges import renege_room
from tests.api.table import bearer
from tests.api.test_renege import play_until
from tests.web.dom import having, parse

HTMX = {"HX-Request": "true"}


def test_a_call_through_the_page_is_judged_and_the_table_shows_it(client: TestClient) -> None:
    code, tokens = renege_room(client, ADMIN)
    v = play_until(client, code, tokens, renege=True, stop="game_over")
    seat, lift, card = v["reneged"]
    caller = tokens[(seat + 1) % 4]
    r = client.post(
        f"/r/{code}/renege", data={"lift": str(lift)}, headers={**HTMX, **bearer(caller)}
    )
    assert r.status_code == 200, r.text
    (shown,) = having(parse(r.text), "data-call")
    assert shown.get("data-call") == str(lift) and shown.get("data-upheld") == "true"
    assert card in {str(e.get("data-card")) for e in having(parse(r.text), "data-card")}
    # Without htmx, back to the room (a browser without the page's script).
    again = client.post(
        f"/r/{code}/renege",
        data={"lift": str(lift)},
        headers=bearer(tokens[seat]),
        follow_redirects=False,
    )
    assert again.status_code == 303 and again.headers["location"] == f"/r/{code}"


def test_a_refused_call_says_why_in_the_readers_language(client: TestClient) -> None:
    code, tokens = renege_room(client, ADMIN)
    before = client.get(f"/api/rooms/{code}").json()["version"]
    headers = {**HTMX, **bearer(tokens[1]), "Accept-Language": "fr"}
    r = client.post(f"/r/{code}/renege", data={"lift": "3"}, headers=headers)
    assert r.status_code == 409, r.text
    body = r.json()
    assert body["code"] == "call_outside_hand" and "renege" in body["message"]
    assert "réclame" in body["message"]
    for bad in ("0", "13", "x"):
        r = client.post(f"/r/{code}/renege", data={"lift": bad}, headers=headers)
        assert r.status_code == 422, (bad, r.text)
    spectator = client.post(f"/r/{code}/renege", data={"lift": "1"}, headers=HTMX)
    assert spectator.status_code == 403 and spectator.json().get("message")
    assert client.get(f"/api/rooms/{code}").json()["version"] == before


def test_score_it_through_the_page(client: TestClient) -> None:
    code, tokens = renege_room(client, ADMIN)
    v = play_until(client, code, tokens, renege=False, stop="reckoning")
    assert v["phase"] == "reckoning"
    r = client.post(f"/r/{code}/reckoned", headers={**HTMX, **bearer(tokens[2])})
    assert r.status_code == 200, r.text
    (button,) = [e for e in parse(r.text) if e.get("data-action") == "reckoned"]
    assert button.has("disabled")
    assert client.get(f"/api/rooms/{code}").json()["reckoned"] == [2]
