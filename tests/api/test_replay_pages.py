"""The replay pages over HTTP: the replay of a finished game (and not of a running one),
"play these deals again" from the page, and opening a record file: a good one is replayed,
a bad, oversized or tampered one gets a clear 4xx and its reason, never a 500."""

from __future__ import annotations

import json
import random
import re

from fastapi.testclient import TestClient

from app.api.replay_pages import RECORD_MAX_BYTES
from tests.api.table import bearer, new_room, play_random, seat_four
from tests.api.test_records import record, redealt

SAME_ORIGIN = {"Sec-Fetch-Site": "same-origin"}  # what a browser sends with its own form


def cookie(token: str) -> dict[str, str]:
    return {"Cookie": f"allfours_seat={token}"}


def error_of(html: str) -> str:
    found = re.search(r"data-error>(.*?)</p>", html, re.S)
    assert found, html
    return found.group(1)


def finished(client: TestClient) -> tuple[str, list[str]]:
    code, tokens = redealt(client)
    play_random(client, code, tokens, random.Random(12), check=False)
    return code, tokens


def test_the_replay_of_a_finished_game_holds_every_hand_and_lift(client: TestClient) -> None:
    code, tokens = redealt(client)
    page = client.get(f"/r/{code}/games/1/replay")
    assert page.status_code == 409 and "still being played" in error_of(page.text)
    play_random(client, code, tokens, random.Random(12), check=False)
    done = record(client, code)
    page = client.get(f"/r/{code}/games/1/replay", headers=cookie(tokens[0]))
    assert page.status_code == 200 and page.headers["cache-control"] == "no-store"
    html = page.text
    assert html.count("data-hand=") == len(done["hands"])
    lifts = sum(len(h["tricks"]) for h in done["hands"])
    assert len(re.findall(r'data-lift="\d+"', html)) == lifts
    assert 'data-step="next"' in html and 'data-step="prev"' in html
    assert 'data-action="again"' in html  # a seated player may deal it again
    assert done["seed_commitment"] in html
    spectator = client.get(f"/r/{code}/games/1/replay").text
    assert 'data-action="again"' not in spectator and 'data-export="record"' in spectator
    # The result page's link: the room's latest game.
    r = client.get(f"/r/{code}/replay", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/r/{code}/games/1/replay"
    assert 'href="/r/' + code + '/replay"' in client.get(f"/r/{code}").text


def test_replays_of_what_does_not_exist_are_404(client: TestClient) -> None:
    code = new_room(client)
    assert client.get(f"/r/{code}/replay").status_code == 404
    assert client.get(f"/r/{code}/games/1/replay").status_code == 404
    assert client.get("/r/nosuchroom12/replay").status_code == 404
    assert client.get("/r/nosuchroom12/games/1/replay").status_code == 404
    assert client.get(f"/r/{code}/games/0/replay").status_code == 422
    assert client.get(f"/r/{code}/games/1/replay?hand=-1").status_code == 422


def test_play_these_deals_again_from_the_page(client: TestClient) -> None:
    code, tokens = finished(client)
    r = client.post(
        f"/r/{code}/games/1/again",
        headers={**SAME_ORIGIN, **cookie(tokens[1])},
        follow_redirects=False,
    )
    assert r.status_code == 303
    new = r.headers["location"].removeprefix("/r/")
    seat_four(client, new)
    assert client.get(f"/api/rooms/{new}").json()["phase"] == "lobby"
    assert client.post(f"/r/{code}/games/1/again", headers=SAME_ORIGIN).status_code == 403


def upload(client: TestClient, content: bytes, name: str = "game.json") -> tuple[int, str]:
    r = client.post(
        "/records/open", files={"record": (name, content, "application/json")}, headers=SAME_ORIGIN
    )
    return r.status_code, r.text


def test_an_opened_record_is_checked_before_it_is_replayed(client: TestClient) -> None:
    code, _ = finished(client)
    good = client.get(f"/api/rooms/{code}/games/1").content
    form = client.get("/records/open")
    assert form.status_code == 200 and 'name="record"' in form.text
    status, html = upload(client, good)
    assert status == 200 and "data-verified" in html and 'data-action="again"' not in html

    parsed = json.loads(good)
    parsed["hands"][1]["kicks"][0] = "2C" if parsed["hands"][1]["kicks"][0] != "2C" else "3C"
    status, html = upload(client, json.dumps(parsed).encode())
    assert status == 422 and "does not match its seed: hand 2" in error_of(html)

    running, _ = redealt(client)
    status, html = upload(client, client.get(f"/api/rooms/{running}/games/1").content)
    assert status == 422 and "not over" in error_of(html)

    for content, words in (
        (b"{not json", "not JSON"),
        (b"[1, 2, 3]", "not a game record"),
        (json.dumps({**parsed, "hands": "x"}).encode(), "not a game record (hands"),
        ("é".encode("latin-1"), "not JSON"),
    ):
        status, html = upload(client, content)
        assert status == 422 and words in error_of(html), (content, error_of(html))

    status, html = upload(client, b" " * (RECORD_MAX_BYTES + 1))
    assert status == 413 and "larger than" in error_of(html)
    r = client.post(
        "/records/open",
        content=b"x" * (RECORD_MAX_BYTES + 64 * 1024),
        headers={**SAME_ORIGIN, "Content-Type": "application/json"},
    )
    assert r.status_code == 413  # the body limit, before the route
    r = client.post("/records/open", data={"other": "x"}, headers=SAME_ORIGIN)
    assert r.status_code == 400 and "Pick a record file" in error_of(r.text)
    r = client.post(
        "/records/open",
        content=b"--b\r\nbroken",
        headers={**SAME_ORIGIN, "Content-Type": "multipart/form-data; boundary=b"},
    )
    assert r.status_code == 400
    # From another site: refused before the route, as every form is.
    r = client.post(
        "/records/open",
        files={"record": ("g.json", good, "application/json")},
        headers={"Sec-Fetch-Site": "cross-site"},
    )
    assert r.status_code == 403


def test_the_page_forms_still_take_the_usual_body_limit(client: TestClient) -> None:
    code = new_room(client)
    tokens = seat_four(client, code)
    r = client.post(
        f"/api/rooms/{code}/actions",
        content=b"x" * (64 * 1024),
        headers={**bearer(tokens[0]), "Content-Type": "application/json"},
    )
    assert r.status_code == 413
