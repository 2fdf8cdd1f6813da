"""Quotas (API.md § Fifth round, "A rule holds on every path"; security review round 5,
findings 4 and 15): what one address or one player may make in a while, the same count
whatever way in (the JSON route, its form twin), 429 ``too_many`` with ``Retry-After``; and
the admin's sign-in counted apart from the players'."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from tests.api.conftest import ADMIN, app_settings
from tests.api.table import bearer, new_room
from tests.databases import database_url  # noqa: F401 - a fixture

SAME_SITE = {"Sec-Fetch-Site": "same-origin"}


def refused(r: httpx.Response, who: str) -> None:
    """A quota's refusal: 429 too_many, when to ask again, and whose count it is."""
    assert r.status_code == 429, r.text
    assert r.json()["code"] == "too_many", r.text
    assert who in r.json()["detail"]
    assert int(r.headers["retry-after"]) >= 1


def made(client: TestClient, handle: str) -> str:
    r = client.post("/api/players", json={"handle": handle, "name": handle.title()})
    assert r.status_code == 201, r.text
    return str(r.json()["key"])


@pytest.fixture
def open_quotas(database_url: str) -> Iterator[TestClient]:  # noqa: F811
    """A server where one address makes as many profiles as a test needs."""
    with TestClient(create_app(app_settings(database_url, profiles_per_hour=0))) as c:
        yield c


def test_one_address_cannot_make_profiles_in_bulk(database_url: str) -> None:  # noqa: F811
    """40 profiles from one address in a second (handle squatting, sybils): now the JSON
    route and both forms count in one bucket per address."""
    app = create_app(app_settings(database_url, profiles_per_hour=3))
    with (
        TestClient(app, client=("203.0.113.9", 5000)) as flood,
        TestClient(app, client=("198.51.100.4", 5000)) as neighbour,
    ):
        made(flood, "q_one")
        flood.cookies.clear()
        form = flood.post("/me/new", data={"handle": "q_two", "name": "Two"}, headers=SAME_SITE)
        assert form.status_code == 200 and "/me" in str(form.url), form.text  # to /me
        flood.cookies.clear()
        code = new_room(flood)
        at_table = flood.post(
            f"/r/{code}/profile", data={"handle": "q_three", "name": "Three"}, headers=SAME_SITE
        )
        assert at_table.status_code == 200, at_table.text
        flood.cookies.clear()
        refused(flood.post("/api/players", json={"handle": "q_four", "name": "F"}), "203.0.113.9")
        refused(
            flood.post("/me/new", data={"handle": "q_five", "name": "F"}, headers=SAME_SITE),
            "203.0.113.9",
        )
        # Nothing was made by the refusals; another address still makes profiles.
        assert flood.get("/api/players/q_four").status_code == 404
        made(neighbour, "q_four")


def test_a_player_cannot_send_friend_requests_in_bulk(open_quotas: TestClient) -> None:
    """20 sybils each asked the same victim, and one player asked 20: now 30 a day a player."""
    client = open_quotas
    asker = made(client, "fr_asker")
    others = [f"fr_{n:02d}" for n in range(31)]
    keys = {h: made(client, h) for h in others}
    for handle in others[:30]:
        r = client.post("/api/me/friends", json={"handle": handle}, headers=bearer(asker))
        assert r.status_code == 200, r.text
    over = client.post("/api/me/friends", json={"handle": others[30]}, headers=bearer(asker))
    refused(over, "fr_asker")
    # Saying yes to a request is not a request of one's own: the asked still answer.
    yes = client.post("/api/me/friends", json={"handle": "fr_asker"}, headers=bearer(keys["fr_00"]))
    assert yes.status_code == 200 and yes.json()["friends"] is True, yes.text


def test_a_player_opens_five_clubs_a_day_by_any_way(open_quotas: TestClient) -> None:
    """20 clubs from one player all succeeded; now 5 a day, the form and the JSON route
    counting together."""
    client = open_quotas
    key = made(client, "club_maker")
    for n in range(3):
        r = client.post("/api/clubs", json={"name": f"Club {n}"}, headers=bearer(key))
        assert r.status_code == 201, r.text
    client.cookies.set("allfours_player", key)
    for n in range(2):
        r = client.post("/c", data={"name": f"Form club {n}"}, headers=SAME_SITE)
        assert r.status_code == 200 and "/c/" in str(r.url), r.text
    refused(client.post("/c", data={"name": "One more"}, headers=SAME_SITE), "club_maker")
    client.cookies.clear()
    refused(client.post("/api/clubs", json={"name": "Yet one"}, headers=bearer(key)), "club_maker")


def test_a_club_admin_makes_thirty_invite_links_an_hour(open_quotas: TestClient) -> None:
    client = open_quotas
    key = made(client, "inviter")
    code = client.post("/api/clubs", json={"name": "Inv"}, headers=bearer(key)).json()["code"]
    for _ in range(30):
        assert client.post(f"/api/clubs/{code}/invites", headers=bearer(key)).status_code == 201
    refused(client.post(f"/api/clubs/{code}/invites", headers=bearer(key)), "inviter")
    client.cookies.set("allfours_player", key)
    page = client.post(f"/c/{code}/invites", headers=SAME_SITE)  # the page's own form
    assert page.status_code == 429 and "/join/" not in page.text, page.text


def test_a_seated_player_sends_thirty_invitations_an_hour(open_quotas: TestClient) -> None:
    client = open_quotas
    host, friend = made(client, "ri_host"), made(client, "ri_friend")
    client.post("/api/me/friends", json={"handle": "ri_friend"}, headers=bearer(host))
    client.post("/api/me/friends", json={"handle": "ri_host"}, headers=bearer(friend))
    code = new_room(client)
    r = client.post(f"/api/rooms/{code}/join", json={"name": "Host"}, headers=bearer(host))
    assert r.status_code == 200, r.text
    for _ in range(30):
        r = client.post(
            f"/api/rooms/{code}/invite", json={"handle": "ri_friend"}, headers=bearer(host)
        )
        assert r.status_code == 204, r.text
    over = client.post(
        f"/api/rooms/{code}/invite", json={"handle": "ri_friend"}, headers=bearer(host)
    )
    refused(over, "ri_host")
    client.cookies.set("allfours_player", host)
    form = client.post(f"/r/{code}/invite", data={"handle": "ri_friend"}, headers=SAME_SITE)
    assert form.status_code == 429, form.text


def test_players_failing_sign_in_codes_do_not_lock_the_admin_out(database_url: str) -> None:  # noqa: F811
    """Ten wrong player codes from one address, then the right admin token from the same
    address: 429 (one bucket for every sign-in). The admin's sign-in has its own now."""
    with TestClient(create_app(app_settings(database_url)), client=("10.80.0.1", 5000)) as c:
        for _ in range(10):
            assert c.post("/api/signin", json={"code": "sc.wrong"}).status_code == 410
        assert c.post("/api/signin", json={"code": "sc.wrong"}).status_code == 429
        r = c.post(
            "/admin/signin", data={"token": ADMIN}, headers=SAME_SITE, follow_redirects=False
        )
        assert r.status_code == 303, r.text
