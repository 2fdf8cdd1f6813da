"""A club night's pairs registered by their handles (issue #34): those players are seated by
their profile each round, without a link, under their profile's name."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.api.table import bearer
from tests.night.helpers import next_round, open_night


def _profile(client: TestClient, handle: str, name: str) -> str:
    made = client.post("/api/players", json={"handle": handle, "name": name})
    assert made.status_code == 201, made.text
    return str(made.json()["key"])


def befriend(client: TestClient, keys: dict[str, str], one: str, two: str) -> None:
    for a, b in ((one, two), (two, one)):
        r = client.post("/api/me/friends", json={"handle": b}, headers=bearer(keys[a]))
        assert r.status_code == 200, r.text


def test_players_registered_by_handle_sit_by_their_profile(client: TestClient) -> None:
    code, director = open_night(client, options={"grace_s": 0})
    keys = {h: _profile(client, h, h.title()) for h in ("nia", "oli", "pia", "rex")}
    for pair in (["nia", "oli"], ["pia", "rex"]):
        # A player registers themself and a friend (consent: API.md § Fifth round).
        befriend(client, keys, *pair)
        r = client.post(
            f"/api/nights/{code}/pairs",
            json={"names": ["x", "y"], "handles": pair},
            headers=bearer(keys[pair[0]]),
        )
        assert r.status_code == 201, r.text
    listed = client.get(f"/api/nights/{code}").json()
    assert [p["names"] for p in listed["pairs"]] == [["Nia", "Oli"], ["Pia", "Rex"]]
    table = next_round(client, code, director)["rounds"][0]["tables"][0]
    seats = {}
    for handle, key in keys.items():
        r = client.post(f"/api/nights/{code}/sit", headers=bearer(key))
        assert r.status_code == 200, r.text
        sat = r.json()
        assert sat["room"] == table["room"] and sat["token"] is None
        seats[sat["seat"]] = handle
        again = client.post(f"/api/nights/{code}/sit", headers=bearer(key)).json()
        assert again["seat"] == sat["seat"]  # from any device, the same seat
    view = client.get(f"/api/rooms/{table['room']}", headers=bearer(keys["nia"])).json()
    assert [s["player"] for s in view["seats"]] == [seats[n] for n in range(4)]
    assert [s["name"] for s in view["seats"]] == [seats[n].title() for n in range(4)]
    assert view["seats"][view["you"]]["player"] == "nia"


def test_a_handle_is_registered_once_a_night_and_must_be_a_players(client: TestClient) -> None:
    code, _ = open_night(client)
    sam = bearer(_profile(client, "sam", "Sam"))
    pair = {"names": ["Sam", "Tom"], "handles": ["sam", None]}
    assert client.post(f"/api/nights/{code}/pairs", json=pair, headers=sam).is_success
    again = {"names": ["Sam", "Una"], "handles": [None, "SAM"]}
    r = client.post(f"/api/nights/{code}/pairs", json=again, headers=sam)
    assert r.status_code == 409 and r.json()["code"] == "night_player_in_a_pair", r.text
    nobody = {"names": ["Vi", "Wu"], "handles": ["nobody-here", None]}
    r = client.post(f"/api/nights/{code}/pairs", json=nobody, headers=sam)
    assert r.status_code == 422 and r.json()["code"] == "no_player", r.text
    assert len(client.get(f"/api/nights/{code}").json()["pairs"]) == 1


def test_the_directors_form_takes_a_partner_by_at_handle(client: TestClient) -> None:
    code, director = open_night(client)
    zoe = bearer(_profile(client, "zoe", "Zoe Q"))
    client.get(f"/n/{code}/d/{director}")  # the director's cookie
    # Zoe directs her night: she registers herself by handle (consent: her own).
    page = client.post(
        f"/n/{code}/direct/pairs", data={"first": "@Zoe", "second": "Yan"}, headers=zoe
    )
    assert page.status_code == 200, page.text
    assert client.get(f"/api/nights/{code}").json()["pairs"][0]["names"] == ["Zoe Q", "Yan"]
    unknown = client.post(f"/n/{code}/direct/pairs", data={"first": "@nobody", "second": "Y"})
    assert unknown.status_code == 422


def test_a_signed_in_player_registered_by_handle_goes_to_their_table_from_the_nights_page(
    client: TestClient,
) -> None:
    """What broke (issue #43): the night's link cookie and the site's player key cookie were
    both named allfours_player, so the night's pages read the player's key as a night link: a
    signed-in player registered by handle was not recognised there, and "Go to your table"
    answered 403."""
    client.post("/me/new", data={"handle": "kit", "name": "Kit"})  # the player key's cookie
    code, director = open_night(client, options={"grace_s": 0})
    r = client.post(f"/n/{code}/register", data={"first": "@kit", "second": "Partner"})
    assert r.status_code == 200, r.text
    assert client.post(f"/api/nights/{code}/pairs", json={"names": ["A", "B"]}).is_success
    next_round(client, code, director)
    r = client.post(f"/n/{code}/sit", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith("/r/"), r.text


def test_a_nights_link_has_its_own_cookie_and_the_old_one_still_seats(client: TestClient) -> None:
    """The link's cookie is allfours_night_link; a browser that holds the link under the old
    name (a night in progress when the server was updated) is still seated by it."""
    code, director = open_night(client, options={"grace_s": 0})
    links = [
        client.post(f"/api/nights/{code}/pairs", json={"names": n}).json()["links"]
        for n in (["A", "B"], ["C", "D"])
    ]
    next_round(client, code, director)
    first = TestClient(client.app)
    first.get(links[0][0])
    assert first.cookies.get("allfours_night_link", path=f"/n/{code}")
    assert first.post(f"/n/{code}/sit", follow_redirects=False).status_code == 303
    old = TestClient(client.app)
    old.cookies.set("allfours_player", links[1][0].rsplit("/", 1)[1], path=f"/n/{code}")
    assert old.post(f"/n/{code}/sit", follow_redirects=False).status_code == 303
