"""A player on two devices, and a profile deleted mid-game (API.md § Players, bad input and
faults): nothing lost, nothing applied twice, the game goes on."""

from __future__ import annotations

import threading

from fastapi.testclient import TestClient

from app.api.context import PLAYER_COOKIE
from tests.api.table import bearer, new_room, view


def _players(client: TestClient, *handles: str) -> list[str]:
    out = []
    for handle in handles:
        made = client.post("/api/players", json={"handle": handle, "name": handle.title()})
        out.append(made.json()["key"])
    return out


def _second_device(client: TestClient, key: str) -> str:
    link = client.post("/api/me/signin-links", headers=bearer(key)).json()
    return str(client.post("/api/signin", json={"code": link["code"]}).json()["key"])


def _seated_game(client: TestClient, keys: list[str]) -> str:
    code = new_room(client)
    for seat, key in enumerate(keys):
        r = client.post(
            f"/api/rooms/{code}/join", json={"seat": seat, "name": "x"}, headers=bearer(key)
        )
        assert r.status_code == 200, r.text
    assert client.post(f"/api/rooms/{code}/start", headers=bearer(keys[0])).status_code == 200
    return code


def test_two_devices_making_the_same_move_at_once_make_it_once(client: TestClient) -> None:
    keys = _players(client, "ada", "bob", "cid", "dot")
    code = _seated_game(client, keys)
    v = view(client, code)
    turn = v["turn"]
    devices = [keys[turn], _second_device(client, keys[turn])]
    move = {**view(client, code, devices[0])["legal"][0], "version": v["version"]}
    answers: list[int] = []
    barrier = threading.Barrier(2)

    def play(key: str) -> None:
        barrier.wait()
        r = client.post(f"/api/rooms/{code}/actions", json=move, headers=bearer(key))
        answers.append(r.status_code)

    threads = [threading.Thread(target=play, args=(d,)) for d in devices]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(answers) == [200, 409], answers  # the second finds the version moved on
    assert view(client, code)["version"] == v["version"] + 1
    # a rejoin from the second device: the same seat, nothing changes
    again = client.post(f"/api/rooms/{code}/join", json={"name": "x"}, headers=bearer(devices[1]))
    assert again.json()["seat"] == turn
    assert view(client, code)["version"] == v["version"] + 1


def test_a_profile_deleted_mid_game_leaves_a_guest_seat_and_the_game_goes_on(
    client: TestClient,
) -> None:
    keys = _players(client, "eli", "fin", "gil", "hob")
    code = _seated_game(client, keys)
    before = view(client, code)
    gone = (before["turn"] + 1) % 4
    assert client.delete("/api/me", headers=bearer(keys[gone])).status_code == 204
    after = view(client, code)
    assert after["seats"][gone]["player"] is None
    assert after["seats"][gone]["name"] == before["seats"][gone]["name"]
    assert after["phase"] == before["phase"] and after["game_number"] == before["game_number"]
    # nobody holds the seat; the host covers it with a computer player, and play goes on
    assert view(client, code, keys[gone])["you"] is None
    host = keys[after["host"]]
    r = client.post(f"/api/rooms/{code}/host/bot", json={"seat": gone}, headers=bearer(host))
    assert r.status_code == 200, r.text
    assert view(client, code)["seats"][gone]["bot"] is True


def test_a_second_device_finds_the_players_tables_on_the_home_page(client: TestClient) -> None:
    (key,) = _players(client, "ivy")
    code = new_room(client)
    client.post(f"/api/rooms/{code}/join", json={"seat": 2, "name": "x"}, headers=bearer(key))
    other = _second_device(client, key)
    client.cookies.set("allfours_player", other)
    home = client.get("/")
    client.cookies.clear()
    assert f'data-held-table="{code}"' in home.text
    assert home.headers["cache-control"] == "no-store"


def test_a_player_names_a_device_to_tell_two_of_one_kind_apart(client: TestClient) -> None:
    """Two phones of one kind both read "Chrome · Android" (issue #46): the player names one.
    Bad names and another player's device are refused, and change nothing."""
    [key, other] = _players(client, "dev_ria", "dev_sol")
    phone = _second_device(client, key)
    [first, second] = client.get("/api/me/devices", headers=bearer(phone)).json()
    r = client.patch(
        f"/api/me/devices/{second['id']}", json={"name": " Ria's phone "}, headers=bearer(phone)
    )
    assert r.status_code == 204
    named = {d["id"]: d["name"] for d in client.get("/api/me/devices", headers=bearer(key)).json()}
    assert named == {first["id"]: first["name"], second["id"]: "Ria's phone"}
    bad_names = (
        ("", "name_empty"),
        ("x" * 41, "name_too_long"),
        ("a\u0007b", "name_control_characters"),
    )
    for bad, code in bad_names:
        r = client.patch(f"/api/me/devices/{second['id']}", json={"name": bad}, headers=bearer(key))
        assert r.status_code == 422 and r.json()["code"] == code, r.text
    r = client.patch(f"/api/me/devices/{first['id']}", json={"name": "Mine"}, headers=bearer(other))
    assert r.status_code == 404 and r.json()["code"] == "no_device"
    r = client.patch(f"/api/me/devices/{first['id']}", json={"name": "Mine"})
    assert r.status_code == 401
    after = {d["id"]: d["name"] for d in client.get("/api/me/devices", headers=bearer(key)).json()}
    assert after == named
    # The own page's form does the same; a bad name is said on the page, nothing changed.
    client.cookies.set(PLAYER_COOKIE, key)
    try:
        r = client.post(
            f"/me/devices/{first['id']}/name", data={"name": "Laptop"}, follow_redirects=False
        )
        assert r.status_code == 303
        r = client.post(f"/me/devices/{first['id']}/name", data={"name": "   "})
        assert r.status_code == 422 and "data-form-error" in r.text
    finally:
        client.cookies.clear()
    names = {d["name"] for d in client.get("/api/me/devices", headers=bearer(key)).json()}
    assert names == {"Laptop", "Ria's phone"}
