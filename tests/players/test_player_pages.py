"""The player's own pages (app/api/player_pages.py), without a browser: "Keep my games" from
the home page, a table and the result; the own page and its forms; a sign-in link's page;
the seats marked. No key, seat token or sign-in code in any page but the one-time link's."""

from __future__ import annotations

import random
import re

from fastapi.testclient import TestClient

from app.api.context import PLAYER_COOKIE, SEAT_COOKIE, TABLES_COOKIE
from tests.api.table import bearer, new_room, play_random, seat_four, view
from tests.web.dom import having, parse

HTMX = {"HX-Request": "true"}


def _browser(client: TestClient) -> TestClient:
    """Another browser on the same server (its own cookies)."""
    return TestClient(client.app)


def _seated(client: TestClient, name: str = "Ann", seat: int = 0) -> tuple[str, str]:
    """A guest seated at a new table through the page: the room, its seat token."""
    code = new_room(client)
    r = client.post(f"/r/{code}/join", data={"name": name, "seat": str(seat)}, headers=HTMX)
    assert r.status_code == 200, r.text
    token = client.cookies.get(SEAT_COOKIE, path=f"/r/{code}")
    assert token
    return code, token


def _key(client: TestClient) -> str:
    key = client.cookies.get(PLAYER_COOKIE)
    assert key, "no player cookie"
    return str(key)


def _secrets_absent(html: str, *secrets: str) -> None:
    for secret in secrets:
        assert secret not in html
    assert "pk." not in html and "sc." not in html


def test_keep_my_games_from_the_home_page_claims_the_seats_this_browser_holds(
    client: TestClient,
) -> None:
    code, token = _seated(client)
    home = client.get("/")
    assert "data-keep-games" in home.text and 'action="/me/new"' in home.text
    r = client.post("/me/new", data={"handle": "Ann_1", "name": "Annie"}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/me"
    key = _key(client)
    # The seat is the profile's now: the key acts for it, the guest token no more.
    seat = view(client, code, key)["seats"][0]
    assert seat["player"] == "ann_1" and seat["name"] == "Annie"
    assert view(client, code, token)["you"] is None
    assert client.cookies.get(SEAT_COOKIE, path=f"/r/{code}") is None
    home = client.get("/")
    assert "Signed in as Annie" in home.text and "data-keep-games" not in home.text
    assert home.headers["cache-control"] == "no-store"
    # "Your table" still leads back to the seat, held under the key now.
    assert [e.get("data-held-table") for e in having(parse(home.text), "data-held-table")] == [code]
    _secrets_absent(home.text, key, token)


def test_the_home_forms_refusals_are_said_in_the_readers_language(client: TestClient) -> None:
    client.post("/me/new", data={"handle": "ben", "name": "Ben"})
    other = _browser(client)
    r = other.post(
        "/me/new", data={"handle": "BEN", "name": "Benny"}, headers={"Accept-Language": "fr"}
    )
    assert r.status_code == 409 and "data-form-error" in r.text
    assert 'value="BEN"' in r.text and PLAYER_COOKIE not in other.cookies
    r = other.post("/me/new?lang=de", data={"handle": "b!", "name": "Benny"})
    assert r.status_code == 422 and "data-form-error" in r.text and 'lang="de"' in r.text
    r = other.post("/me/new", data={"handle": "benny", "name": "   "})
    assert r.status_code == 422 and "data-form-error" in r.text
    r = other.post("/me/new", data={"handle": "benny", "name": "x" * 200})
    assert r.status_code == 422
    # From the signed-out own page, its refusal comes back on that page.
    r = other.post("/me/new", data={"handle": "ben", "name": "Benny", "page": "me"})
    assert r.status_code == 409 and "data-no-profile" in r.text and "data-form-error" in r.text
    assert PLAYER_COOKIE not in other.cookies


def test_keep_my_games_at_a_table_goes_on_at_the_same_seat(client: TestClient) -> None:
    code, token = _seated(client, "Cal", 2)
    room = client.get(f"/r/{code}").text
    assert f'href="/r/{code}/profile"' in room and 'data-link="keep-games"' in room
    page = client.get(f"/r/{code}/profile")
    assert page.status_code == 200 and f'action="/r/{code}/profile"' in page.text
    assert client.get("/r/zzzzzzzz/profile", headers={"Accept": "text/html"}).status_code == 404
    r = client.post(
        f"/r/{code}/profile", data={"handle": "cal", "name": "Cal"}, follow_redirects=False
    )
    assert r.status_code == 303 and r.headers["location"] == f"/r/{code}"
    deleted = [c for c in r.headers.get_list("set-cookie") if c.startswith(f"{SEAT_COOKIE}=")]
    assert deleted and all("Max-Age=0" in c for c in deleted)
    room = client.get(f"/r/{code}").text
    assert 'data-you="2"' in room and 'data-link="me"' in room and "Signed in as Cal" in room
    assert 'data-seat-player="cal"' in room and 'href="/p/cal"' in room
    assert "has a profile" in room
    _secrets_absent(room, _key(client), token)
    # The form sent back refused: the reason, the same seat still the guest's.
    other = _browser(client)
    code2, token2 = _seated(other, "Dee", 1)
    r = other.post(f"/r/{code2}/profile", data={"handle": "cal", "name": "Dee"})
    assert r.status_code == 409 and "data-form-error" in r.text
    assert view(other, code2, token2)["you"] == 1


def test_the_result_offers_keep_my_games_to_a_guests_seat(client: TestClient) -> None:
    code = new_room(client, {"rules": {"target": 7}})
    tokens = seat_four(client, code)
    assert client.post(f"/api/rooms/{code}/start", headers=bearer(tokens[0])).status_code == 200
    play_random(client, code, tokens, random.Random(4), check=False)
    client.cookies.set(SEAT_COOKIE, tokens[0], path=f"/r/{code}")
    room = client.get(f"/r/{code}").text
    assert 'data-phase="game_over"' in room
    assert f'action="/r/{code}/profile"' in room and 'data-action="open-keep-games"' in room
    r = client.post(
        f"/r/{code}/profile", data={"handle": "ann", "name": "Ann"}, follow_redirects=False
    )
    assert r.status_code == 303
    room = client.get(f"/r/{code}").text
    assert 'data-action="open-keep-games"' not in room and "Signed in as Ann" in room
    # The game played belongs to the profile: its lineup names the player.
    assert view(client, code, _key(client))["seats"][0]["player"] == "ann"


def test_the_own_page_changes_name_language_and_listed(client: TestClient) -> None:
    assert "data-no-profile" in client.get("/me").text
    client.post("/me/new", data={"handle": "eve", "name": "Eve"})
    me = client.get("/me")
    assert me.status_code == 200 and 'data-me="eve"' in me.text and 'href="/p/eve"' in me.text
    assert me.headers["cache-control"] == "no-store"
    r = client.post("/me/change", data={"name": "Evie"}, follow_redirects=False)
    assert r.status_code == 303
    r = client.post("/me/change", data={"language": "de"}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/me?lang=de"
    r = client.post("/me/change", data={"listed": "false"}, follow_redirects=False)
    assert r.status_code == 303
    mine = client.get("/api/me").json()
    assert (mine["name"], mine["language"], mine["listed"]) == ("Evie", "de", False)
    r = client.post("/me/change", data={"language": "xx"})
    assert r.status_code == 200 and "data-form-error" in r.text
    r = client.post("/me/change", data={"name": "You"})
    assert "data-form-error" in r.text
    assert client.get("/api/me").json()["name"] == "Evie"


def test_the_own_page_lists_devices_and_signs_one_out(client: TestClient) -> None:
    client.post("/me/new", data={"handle": "fay", "name": "Fay"})
    link = _signin_link(client)
    other = _browser(client)
    assert other.post(link, follow_redirects=False).status_code == 303
    devices = having(parse(client.get("/me").text), "data-device")
    assert len(devices) == 2
    [mine] = [d for d in devices if d.has("data-this-device")]
    [theirs] = [d for d in devices if not d.has("data-this-device")]
    r = client.post(f"/me/devices/{theirs.get('data-device')}/sign-out", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/me"
    assert "data-no-profile" in other.get("/me").text
    r = client.post(f"/me/devices/{mine.get('data-device')}/sign-out", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/"
    assert PLAYER_COOKIE not in client.cookies
    r = client.post("/me/devices/999999/sign-out")
    assert r.status_code in (303, 200)  # signed out already: back to the page


def _signin_link(client: TestClient) -> str:
    """The own page's one-time link: its path, as the QR code's text alternative gives it."""
    r = client.post("/me/signin-link")
    assert r.status_code == 200 and "<svg" in r.text and "data-signin-link" in r.text
    [url] = [e.get("href") for e in having(parse(r.text), "data-signin-url")]
    assert url and re.search(r"/signin/sc\.[A-Za-z0-9_-]+$", url)
    # The one page that carries a code: the QR's own URL, never a key.
    assert _key(client) not in r.text
    return "/signin/" + url.rsplit("/signin/", 1)[1]


def test_a_signin_link_signs_another_browser_in_once(client: TestClient) -> None:
    client.post("/me/new", data={"handle": "gus", "name": "Gus"})
    link = _signin_link(client)
    other = _browser(client)
    code, token = _seated(other, "Guest", 3)
    page = other.get(link)
    assert page.status_code == 200 and 'data-action="signin"' in page.text
    # The page names the profile it signs in to, and asks first.
    assert 'data-signin-profile="gus"' in page.text and "Gus" in page.text
    _secrets_absent(page.text, link.rsplit("/", 1)[1])
    r = other.post(link, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/me"
    assert 'data-me="gus"' in other.get("/me").text
    # It signs in, nothing more: the seat the other browser held is still the guest's.
    assert view(other, code, token)["you"] == 3
    assert view(other, code)["seats"][3]["player"] is None
    # Used once: the page says so, and how to get a new one.
    third = _browser(client)
    r = third.post(link, follow_redirects=False)
    assert r.status_code == 410 and "data-signin-gone" in r.text
    assert PLAYER_COOKIE not in third.cookies
    r = third.post("/signin/sc.never", follow_redirects=False)
    assert r.status_code == 410


def test_deleting_the_profile_asks_first_then_signs_out(client: TestClient) -> None:
    client.post("/me/new", data={"handle": "hal", "name": "Hal"})
    key = _key(client)
    confirm = client.get("/me/delete")
    assert confirm.status_code == 200 and 'data-action="delete-profile"' in confirm.text
    assert client.get("/api/me", headers=bearer(key)).status_code == 200
    r = client.post("/me/delete", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/"
    assert PLAYER_COOKIE not in client.cookies
    assert client.get("/api/me", headers=bearer(key)).status_code == 401


def test_the_tables_cookie_claims_only_this_browsers_seats(client: TestClient) -> None:
    code, token = _seated(client, "Ivy", 0)
    other = _browser(client)
    # A made-up mark for the room names none of its seats: nothing claimed.
    other.cookies.set(TABLES_COOKIE, f"{code}:{'0' * 32}", path="/")
    other.post("/me/new", data={"handle": "ivy", "name": "Ivy"})
    assert view(client, code, token)["you"] == 0
    assert view(client, code)["seats"][0]["player"] is None


def test_sign_in_links_tried_too_often_from_one_address_are_refused(client: TestClient) -> None:
    """As POST /api/signin: a burst of ten tries, then one a minute; the page says so."""
    for _ in range(10):
        assert client.post("/signin/sc.guess", follow_redirects=False).status_code == 410
    r = client.post("/signin/sc.guess", follow_redirects=False)
    assert r.status_code == 429 and "data-form-error" in r.text and r.headers["retry-after"]
    assert PLAYER_COOKIE not in client.cookies


def test_a_signin_link_no_longer_hands_the_openers_guest_seats_to_its_maker(
    client: TestClient,
) -> None:
    """What broke (review round 5, finding 1): a player sent a guest their own sign-in link
    ("join my table"); the guest pressed the page's one button, which never said whose
    profile it was, and every seat the guest's browser held became the maker's, hidden cards
    included."""
    client.post("/me/new", data={"handle": "maker", "name": "Mallory"})
    maker = _key(client)
    link = _signin_link(client)
    victim = _browser(client)
    code, token = _seated(victim, "Victim", 0)
    page = victim.get(link)
    assert page.status_code == 200
    assert 'data-signin-profile="maker"' in page.text and "Mallory" in page.text
    assert victim.post(link, follow_redirects=False).status_code == 303
    # The victim's seat is still the guest's: the maker's key sees no hand there.
    assert view(victim, code, token)["you"] == 0
    assert view(client, code, maker)["you"] is None
    assert view(client, code)["seats"][0]["player"] is None
    # Nor by the JSON twin, whatever it is asked to claim.
    other, (code2, token2) = _browser(client), _seated(_browser(client), "Victim", 1)
    code_only = client.post("/api/me/signin-links", headers=bearer(maker)).json()["code"]
    r = other.post("/api/signin", json={"code": code_only, "claim": [token2]})
    assert r.status_code == 200, r.text
    assert view(client, code2, token2)["you"] == 1
    assert view(client, code2)["seats"][1]["player"] is None
