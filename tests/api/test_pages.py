"""The HTML pages and their forms (app/api/pages.py), without a browser: routes, cookie,
errors, and a whole game played through the page forms with no hidden card in any page."""

from __future__ import annotations

import random
from typing import Any

from fastapi.testclient import TestClient

from app.api.context import SEAT_COOKIE, TABLES_COOKIE
from tests.api.table import bearer, new_room, seat_four, view
from tests.web.dom import Element, having, parse

HTMX = {"HX-Request": "true"}


def _shown(elements: list[Element]) -> set[str]:
    return {
        str(e.get("data-card")) for e in having(elements, "data-card") if not e.within("data-past")
    }


def test_home_page_offers_every_house_rule_and_join_by_code(client: TestClient) -> None:
    r = client.get("/")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert 'name="give_one_needs_trump"' in r.text and 'action="/join"' in r.text


def _held(html: str) -> list[str]:
    """The rooms the home page's "Your table" leads back to, in its order."""
    return [str(e.get("data-held-table")) for e in having(parse(html), "data-held-table")]


def test_the_home_page_leads_back_to_each_seat_this_browser_holds(client: TestClient) -> None:
    """Issue 32: Back in the middle of a game lands on the home page: "Your table" leads
    back to the seat, for this browser's seats only, and never shows a token."""
    assert _held(client.get("/").text) == []
    first, second = new_room(client), new_room(client)
    client.post(f"/r/{first}/join", data={"name": "Ann", "seat": "2"}, headers=HTMX)
    token = client.cookies.get(SEAT_COOKIE, path=f"/r/{first}")
    home = client.get("/")
    assert _held(home.text) == [first] and home.headers["cache-control"] == "no-store"
    [back] = [e for e in parse(home.text) if e.get("data-action") == "back-to-seat"]
    assert back.get("href") == f"/r/{first}"
    assert "Ann" in home.text and token and token not in home.text
    assert token not in str(client.cookies.get(TABLES_COOKIE))
    client.post(f"/r/{second}/join", data={"name": "Ann", "seat": "0"}, headers=HTMX)
    assert _held(client.get("/").text) == [second, first]  # the latest first
    # Another browser holds no seat; a cookie made up for a room names none of its seats.
    other = TestClient(client.app)  # the same server, another browser's cookies
    assert _held(other.get("/").text) == []
    other.cookies.set(TABLES_COOKIE, f"{first}:{'0' * 32}.x:y.{second}:zz", path="/")
    r = other.get("/")
    assert r.status_code == 200 and _held(r.text) == []


def test_your_table_names_the_computer_players_as_the_pages_do(client: TestClient) -> None:
    """Two computer players at the table read "Computer 1 (standard)" and "Computer 2
    (standard)" under "Your table", as in the stats, not the seat's raw "Bot (standard)"."""
    code = new_room(client)
    client.post(f"/r/{code}/join", data={"name": "Ann", "seat": "0"}, headers=HTMX)
    for seat in ("1", "3"):
        client.post(f"/r/{code}/bot", data={"seat": seat}, headers=HTMX)
    home = client.get("/").text
    assert "Computer 1 (standard)" in home and "Computer 2 (standard)" in home
    assert "Bot (standard)" not in home


def test_static_files_are_served(client: TestClient) -> None:
    for path in ("/static/app.css", "/static/app.js", "/static/vendor/htmx.min.js"):
        assert client.get(path).status_code == 200, path


def test_opening_a_table_from_the_form_keeps_the_chosen_rules(client: TestClient) -> None:
    r = client.post(
        "/rooms",
        data={"target": "7", "game_points": "2", "kick_two": "true", "undertrump": "forbidden"},
        follow_redirects=False,
    )
    assert r.status_code == 303
    code = r.headers["location"].removeprefix("/r/")
    rules = view(client, code)["rules"]
    assert rules["target"] == 7 and rules["game_points"] == 2 and rules["kick_two"] is True
    assert rules["undertrump"] == "forbidden" and rules["flip_last_card"] is False


def test_rules_the_game_does_not_know_are_refused_on_the_home_page(client: TestClient) -> None:
    r = client.post("/rooms", data={"target": "8"}, follow_redirects=False)
    assert r.status_code == 422 and "Those rules do not work" in r.text


def test_join_by_code_goes_to_the_room_or_says_there_is_none(client: TestClient) -> None:
    code = new_room(client)
    r = client.get("/join", params={"code": f" {code} "}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/r/{code}"
    pasted = client.get("/join", params={"code": f"http://x/r/{code}"}, follow_redirects=False)
    assert pasted.headers["location"] == f"/r/{code}"
    missing = client.get("/join", params={"code": "nosuchroom"})
    assert missing.status_code == 404 and "No table" in missing.text
    assert client.get("/r/nosuchroom").status_code == 404


def test_room_page_holds_one_stream_and_the_lobby(client: TestClient) -> None:
    code = new_room(client)
    r = client.get(f"/r/{code}")
    assert r.status_code == 200
    elements = parse(r.text)
    [live] = having(elements, "sse-connect")
    assert live.get("sse-connect") == f"/r/{code}/events?lang=en" and live.get("id") == "live"
    [table] = [e for e in elements if e.get("id") == "table"]
    assert table.get("data-phase") == "lobby"


def test_taking_a_seat_sets_the_room_cookie_and_reopens_the_stream(client: TestClient) -> None:
    code = new_room(client)
    r = client.post(f"/r/{code}/join", data={"name": "Ann", "seat": "2"}, headers=HTMX)
    assert r.status_code == 200
    cookie = r.headers["set-cookie"].lower()
    assert f"{SEAT_COOKIE}=" in cookie and "httponly" in cookie and "samesite=lax" in cookie
    assert f"path=/r/{code}" in cookie
    elements = parse(r.text)
    assert elements[0].get("id") == "live" and elements[0].has("sse-connect")
    [table] = [e for e in elements if e.get("id") == "table"]
    assert table.get("data-you") == "2"
    # The cookie now seats this browser: the room page and its table say so.
    assert 'data-you="2"' in client.get(f"/r/{code}").text
    assert 'data-you="2"' in client.get(f"/r/{code}/table").text
    taken = client.post(f"/r/{code}/join", data={"name": "Bob", "seat": "3"}, headers=HTMX)
    assert taken.status_code == 200  # rejoining with the cookie keeps seat 2
    assert 'data-you="2"' in taken.text


def test_a_plain_form_post_comes_back_to_the_room(client: TestClient) -> None:
    code = new_room(client)
    r = client.post(f"/r/{code}/join", data={"name": "Ann"}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/r/{code}"


def test_page_actions_answer_with_the_api_errors(client: TestClient) -> None:
    code = new_room(client)
    tokens = seat_four(client, code)
    client.post(f"/r/{code}/start", headers={**HTMX, **bearer(tokens[0])})
    v = view(client, code, tokens[0])
    turn = v["turn"]
    other = tokens[(turn + 1) % 4]
    mine = {**HTMX, **bearer(tokens[turn])}
    checks = [
        (other, {"type": "stand"}, 403),
        (tokens[turn], {"type": "fly"}, 422),
        (tokens[turn], {"type": "play", "card": "ZZ"}, 422),
        (tokens[turn], {"type": "stand", "version": str(v["version"] - 1)}, 409),
        (tokens[turn], {"type": "play", "card": "AS"}, 409),  # not offered while begging
    ]
    for token, form, status in checks:
        r = client.post(f"/r/{code}/act", data=form, headers={**HTMX, **bearer(token)})
        assert r.status_code == status, (form, r.text)
        assert r.json()["detail"]
    ok = client.post(
        f"/r/{code}/act", data={"type": "stand", "version": v["version"]}, headers=mine
    )
    assert ok.status_code == 200 and f'data-version="{v["version"] + 1}"' in ok.text


def test_a_whole_game_through_the_page_forms_shows_no_hidden_card(client: TestClient) -> None:
    code = new_room(client, {"rules": {"target": 7}})
    tokens = seat_four(client, code)
    r = client.post(f"/r/{code}/start", headers={**HTMX, **bearer(tokens[0])})
    assert 'data-phase="lobby"' not in r.text
    rng = random.Random(5)
    while True:
        v = view(client, code, tokens[0])
        if v["version"] % 5 and v["phase"] != "game_over":
            _move(client, code, tokens, v, rng)  # the renderer tests check every state
            continue
        hands = [view(client, code, t)["hand"] for t in tokens]
        pages = [parse(client.get(f"/r/{code}", headers=bearer(t)).text) for t in tokens]
        watcher = parse(client.get(f"/r/{code}").text)
        for seat, elements in enumerate(pages):
            own = {
                str(e.get("data-card"))
                for e in having(elements, "data-card")
                if e.within("data-hand")
            }
            # The result page shows no hand, even of a game that a kick ended mid-deal.
            assert own == (set() if v["phase"] == "game_over" else set(hands[seat]))
            others = set().union(*(set(h) for s, h in enumerate(hands) if s != seat))
            assert not _shown(elements) & others
        assert not _shown(watcher) & set().union(*(set(h) for h in hands))
        if v["phase"] == "game_over":
            break
        _move(client, code, tokens, v, rng)
    final = client.get(f"/r/{code}", headers=bearer(tokens[1])).text
    assert 'data-phase="game_over"' in final and 'data-action="rematch"' in final
    r = client.post(f"/r/{code}/rematch", headers={**HTMX, **bearer(tokens[1])})
    assert r.status_code == 200 and 'data-phase="game_over"' not in r.text


def _move(
    client: TestClient, code: str, tokens: list[str], v: dict[str, Any], rng: random.Random
) -> None:
    """A random legal move, posted as the page's form would post it."""
    me = view(client, code, tokens[v["turn"]])
    move = rng.choice(me["legal"])
    form = {"type": move["type"], "version": str(v["version"])}
    if "card" in move:
        form["card"] = move["card"]
    r = client.post(f"/r/{code}/act", data=form, headers={**HTMX, **bearer(tokens[v["turn"]])})
    assert r.status_code == 200, r.text


def test_computer_players_are_seated_at_the_chosen_level(client: TestClient) -> None:
    code = new_room(client)
    r = client.post(f"/r/{code}/join", data={"name": "Ann", "seat": "0"}, headers=HTMX)
    assert 'id="bot-level"' in r.text
    r = client.post(f"/r/{code}/bot", data={"seat": "1", "level": "easy"}, headers=HTMX)
    assert r.status_code == 200 and 'title="Computer player (easy)"' in r.text
    assert view(client, code)["seats"][1]["level"] == "easy"
