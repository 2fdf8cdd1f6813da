"""A latecomer takes a computer player's seat (issue 15): at once in the lobby, from the next
deal while a hand is in play; never a human's seat, never a seat someone else has claimed."""

from __future__ import annotations

import random
import time

from fastapi.testclient import TestClient

from tests.api.table import Json, bearer, new_room, view

DEADLINE_S = 120  # a bound on waiting for the bots, not a speed requirement


def join(client: TestClient, code: str, name: str, seat: int, token: str | None = None) -> Json:
    headers = bearer(token) if token else {}
    r = client.post(f"/api/rooms/{code}/join", json={"name": name, "seat": seat}, headers=headers)
    out: Json = {"status": r.status_code, **r.json()}
    return out


def test_in_the_lobby_a_bots_seat_is_taken_at_once(client: TestClient) -> None:
    code = new_room(client)
    ann = join(client, code, "Ann", 0)["token"]
    client.post(f"/api/rooms/{code}/bots", json={"seat": 1}, headers=bearer(ann))
    bob = join(client, code, "Bob", 1)
    assert bob["status"] == 200 and bob["seat"] == 1 and "pending" not in bob
    v = view(client, code, bob["token"])
    assert v["you"] == 1
    assert v["seats"][1]["name"] == "Bob" and v["seats"][1]["bot"] is False
    assert v["host"] == 0  # the first one seated opened the table
    # A human's seat is not for the taking.
    assert join(client, code, "Cy", 0)["status"] == 409


def play_as(client: TestClient, code: str, token: str, seat: int, rng: random.Random) -> Json:
    """One step of the human at ``seat``: a random legal move if it is their turn."""
    mine = view(client, code, token)
    if mine["turn"] == seat and mine["legal"]:
        body = {**rng.choice(mine["legal"]), "version": mine["version"]}
        client.post(f"/api/rooms/{code}/actions", json=body, headers=bearer(token))
    else:
        time.sleep(0.01)
    return mine


def test_while_a_hand_is_in_play_the_seat_is_taken_from_the_next_deal(client: TestClient) -> None:
    code = new_room(client)
    ann = join(client, code, "Ann", 0)["token"]
    for seat in (1, 2, 3):
        client.post(f"/api/rooms/{code}/bots", json={"seat": seat}, headers=bearer(ann))
    client.post(f"/api/rooms/{code}/start", headers=bearer(ann))
    claim = join(client, code, "Bob", 1)
    assert claim["status"] == 200 and claim["seat"] == 1 and claim["pending"] is True
    bob = claim["token"]
    # Until the next deal Bob watches: he sees no cards, the bot plays on.
    watching = view(client, code, bob)
    assert watching["you"] is None and watching["hand"] == []
    assert watching["seats"][1]["bot"] is True and watching["seats"][1]["claimed"] is True
    # Claiming again with his token changes nothing; someone else cannot claim it too.
    again = join(client, code, "Bob", 1, bob)
    assert again["status"] == 200 and again["token"] == bob and again["pending"] is True
    before = view(client, code)["version"]
    assert join(client, code, "Cy", 1)["status"] == 409
    assert view(client, code)["version"] >= before  # (the bots play on meanwhile)
    rng = random.Random(7)
    end = time.monotonic() + DEADLINE_S
    while True:
        assert time.monotonic() < end, "the next deal never came"
        v = play_as(client, code, ann, 0, rng)
        if v["hand_number"] >= 2 or v["phase"] == "game_over":
            break
    mine = view(client, code, bob)
    assert mine["you"] == 1
    assert mine["seats"][1] == {**mine["seats"][1], "name": "Bob", "bot": False, "claimed": False}
    if mine["phase"] != "game_over":
        assert len(mine["hand"]) == mine["hand_sizes"][1] > 0


def test_bad_claims_change_nothing(client: TestClient) -> None:
    code = new_room(client)
    ann = join(client, code, "Ann", 0)["token"]
    client.post(f"/api/rooms/{code}/bots", json={"seat": 1}, headers=bearer(ann))
    before = view(client, code)
    r = client.post(f"/api/rooms/{code}/join", json={"name": "", "seat": 1})
    assert r.status_code == 422
    r = client.post(f"/api/rooms/{code}/join", json={"name": "Bob", "seat": 7})
    assert r.status_code == 422
    after = view(client, code)
    assert after["version"] == before["version"] and after["seats"] == before["seats"]
