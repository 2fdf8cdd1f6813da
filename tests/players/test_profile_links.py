"""At a table, a signed-in player is named as such wherever the table names its players: the
seats, the score sheet, the result, the replay and the game record link to the profile."""

from __future__ import annotations

import random

from fastapi.testclient import TestClient

from tests.api.table import bearer, new_room, play_random


def test_the_sheet_the_replay_and_the_record_link_the_profiles(client: TestClient) -> None:
    handles = ["kit", "lou", "max", "ned"]
    keys = []
    for handle in handles:
        made = client.post("/api/players", json={"handle": handle, "name": handle.title()})
        keys.append(made.json()["key"])
    code = new_room(client)
    for seat, key in enumerate(keys[:3]):
        client.post(
            f"/api/rooms/{code}/join", json={"seat": seat, "name": "x"}, headers=bearer(key)
        )
    guest = client.post(f"/api/rooms/{code}/join", json={"seat": 3, "name": "Guest"}).json()
    assert client.post(f"/api/rooms/{code}/start", headers=bearer(keys[0])).status_code == 200
    play_random(client, code, [*keys[:3], guest["token"]], random.Random(5))

    record = client.get(f"/api/rooms/{code}/games/1").json()
    assert [s["player"] for s in record["seats"]] == ["kit", "lou", "max", None]
    replay = client.get(f"/r/{code}/games/1/replay").text
    client.cookies.set("allfours_player", keys[0])
    sheet = client.get(f"/r/{code}/sheet").text
    client.cookies.clear()
    for page in (replay, sheet):
        for handle in handles[:3]:
            assert f'href="/p/{handle}" data-profile-link="{handle}"' in page
        assert 'data-profile-link="ned"' not in page and "/p/guest" not in page
