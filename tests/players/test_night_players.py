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


def test_players_registered_by_handle_sit_by_their_profile(client: TestClient) -> None:
    code, director = open_night(client, options={"grace_s": 0})
    keys = {h: _profile(client, h, h.title()) for h in ("nia", "oli", "pia", "rex")}
    for pair in (["nia", "oli"], ["pia", "rex"]):
        r = client.post(
            f"/api/nights/{code}/pairs",
            json={"names": ["x", "y"], "handles": pair},
            headers=bearer(director),
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
    code, director = open_night(client)
    _profile(client, "sam", "Sam")
    pair = {"names": ["Sam", "Tom"], "handles": ["sam", None]}
    assert client.post(f"/api/nights/{code}/pairs", json=pair, headers=bearer(director)).is_success
    again = {"names": ["Sam", "Una"], "handles": [None, "SAM"]}
    r = client.post(f"/api/nights/{code}/pairs", json=again, headers=bearer(director))
    assert r.status_code == 409 and r.json()["code"] == "night_player_in_a_pair", r.text
    nobody = {"names": ["Vi", "Wu"], "handles": ["nobody-here", None]}
    r = client.post(f"/api/nights/{code}/pairs", json=nobody, headers=bearer(director))
    assert r.status_code == 422 and r.json()["code"] == "no_player", r.text
    assert len(client.get(f"/api/nights/{code}").json()["pairs"]) == 1


def test_the_directors_form_takes_a_partner_by_at_handle(client: TestClient) -> None:
    code, director = open_night(client)
    _profile(client, "zoe", "Zoe Q")
    client.get(f"/n/{code}/d/{director}")  # the director's cookie
    page = client.post(f"/n/{code}/direct/pairs", data={"first": "@Zoe", "second": "Yan"})
    assert page.status_code == 200, page.text
    assert client.get(f"/api/nights/{code}").json()["pairs"][0]["names"] == ["Zoe Q", "Yan"]
    unknown = client.post(f"/n/{code}/direct/pairs", data={"first": "@nobody", "second": "Y"})
    assert unknown.status_code == 422
