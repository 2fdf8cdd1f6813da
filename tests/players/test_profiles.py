"""A profile without a password (API.md § Fourth round, *Players*): made in one step, signed
in on another device by a one-time link, holding its seats from every device."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.api.table import bearer, new_room, view


def make(client: TestClient, handle: str, name: str = "Ann", **more: Any) -> str:
    r = client.post("/api/players", json={"handle": handle, "name": name, **more})
    assert r.status_code == 201, r.text
    assert r.json()["handle"] == handle.lower()
    key: str = r.json()["key"]
    return key


def test_a_profile_is_made_in_one_step_and_its_key_signs_it_in(client: TestClient) -> None:
    key = make(client, "Ann_Tt", "Ann", language="fr")
    me = client.get("/api/me", headers=bearer(key)).json()
    assert (me["handle"], me["name"], me["language"], me["listed"]) == ("ann_tt", "Ann", "fr", True)
    assert len(me["devices"]) == 1 and me["devices"][0]["this_device"]
    assert client.get("/api/me").status_code == 401
    assert client.get("/api/me", headers=bearer("pk.nothing")).status_code == 401


def test_handles_are_checked_and_never_taken_twice(client: TestClient) -> None:
    make(client, "ben")
    for taken in ("ben", "BEN", " Ben "):
        r = client.post("/api/players", json={"handle": taken, "name": "Ben"})
        assert r.status_code == 409 and r.json()["error"] == "handle_taken", r.text
    for bad in ("ab", "a" * 21, "ben!", "bén", ""):
        r = client.post("/api/players", json={"handle": bad, "name": "Ben"})
        assert r.status_code == 422 and r.json()["code"] == "handle_shape", r.text
    r = client.post("/api/players", json={"handle": "benny", "name": "You"})
    assert r.status_code == 422  # a name as a seat's


def test_a_deleted_profiles_handle_is_never_given_again(client: TestClient) -> None:
    key = make(client, "cal")
    assert client.delete("/api/me", headers=bearer(key)).status_code == 204
    assert client.get("/api/me", headers=bearer(key)).status_code == 401
    assert client.post("/api/players", json={"handle": "cal", "name": "Cal"}).status_code == 409


def test_a_signin_link_signs_another_device_in_once(client: TestClient) -> None:
    key = make(client, "dee")
    r = client.post("/api/me/signin-links", headers=bearer(key))
    assert r.status_code == 201, r.text
    link = r.json()
    assert link["expires_in"] == 600 and link["url"].endswith("/signin/" + link["code"])
    r = client.post("/api/signin", json={"code": link["code"]})
    assert r.status_code == 200, r.text
    second = r.json()["key"]
    assert second != key and r.json()["handle"] == "dee"
    assert client.post("/api/signin", json={"code": link["code"]}).status_code == 410
    assert client.post("/api/signin", json={"code": "sc.never"}).status_code == 410
    devices = client.get("/api/me/devices", headers=bearer(second)).json()
    assert len(devices) == 2
    first = next(d for d in devices if not d["this_device"])
    # signing the first device out ends its key at once
    assert (
        client.delete(f"/api/me/devices/{first['id']}", headers=bearer(second)).status_code == 204
    )
    assert client.get("/api/me", headers=bearer(key)).status_code == 401
    assert (
        client.delete(f"/api/me/devices/{first['id']}", headers=bearer(second)).status_code == 404
    )


def test_a_player_sits_under_the_profile_and_any_device_acts_for_the_seat(
    client: TestClient,
) -> None:
    key = make(client, "eve", "Eve")
    code = new_room(client)
    r = client.post(
        f"/api/rooms/{code}/join", json={"name": "ignored", "seat": 1}, headers=bearer(key)
    )
    assert r.status_code == 200, r.text
    assert r.json() == {"seat": 1, "token": None}
    seat = view(client, code)["seats"][1]
    assert (seat["name"], seat["player"]) == ("Eve", "eve")
    assert view(client, code, key)["you"] == 1
    # a second device, signed in by a link, is the same seat; joining again changes nothing
    link = client.post("/api/me/signin-links", headers=bearer(key)).json()
    other = client.post("/api/signin", json={"code": link["code"]}).json()["key"]
    assert view(client, code, other)["you"] == 1
    again = client.post(f"/api/rooms/{code}/join", json={"name": "x"}, headers=bearer(other))
    assert again.json()["seat"] == 1
    # signed out: no seat any more
    mine = client.get("/api/me", headers=bearer(other)).json()["devices"]
    for d in mine:
        client.delete(f"/api/me/devices/{d['id']}", headers=bearer(other))
    assert view(client, code, key)["you"] is None


def test_a_guest_who_makes_a_profile_keeps_the_seat(client: TestClient) -> None:
    code = new_room(client)
    guest = client.post(f"/api/rooms/{code}/join", json={"name": "Fay", "seat": 2}).json()["token"]
    key = make(client, "fay", "Fay K", claim=[guest])
    seat = view(client, code)["seats"][2]
    assert (seat["name"], seat["player"]) == ("Fay K", "fay")
    assert view(client, code, key)["you"] == 2
    assert view(client, code, guest)["you"] is None  # the seat is the profile's now


def test_a_deleted_profiles_seat_is_a_guest_seat_nobody_holds(client: TestClient) -> None:
    key = make(client, "gus", "Gus")
    code = new_room(client)
    client.post(f"/api/rooms/{code}/join", json={"name": "x", "seat": 0}, headers=bearer(key))
    assert client.delete("/api/me", headers=bearer(key)).status_code == 204
    seat = view(client, code)["seats"][0]
    assert (seat["name"], seat["player"]) == ("Gus", None)
    assert view(client, code, key)["you"] is None
