"""Blocks (API.md § Fourth round, issue #36): never seated together (409 blocked, whichever
of the two comes second; play now seats them apart), no requests or invitations between them,
and the blocker never sees the blocked one's chat."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from fastapi.testclient import TestClient

from app.main import create_app
from tests.api.conftest import app_settings
from tests.api.table import bearer, new_room
from tests.players.test_profiles import make


def block(client: TestClient, key: str, handle: str) -> int:
    r = client.post("/api/me/blocks", json={"handle": handle}, headers=bearer(key))
    return int(r.status_code)


def join(client: TestClient, key: str, code: str, seat: int | None = None) -> tuple[int, str]:
    r = client.post(
        f"/api/rooms/{code}/join", json={"name": "x", "seat": seat}, headers=bearer(key)
    )
    return r.status_code, r.json().get("code", "")


def test_a_blocked_player_never_sits_at_the_blockers_table_nor_the_reverse(
    client: TestClient,
) -> None:
    ann, ben, cal = (make(client, h, h[2:].title()) for h in ("b_ann", "b_ben", "b_cal"))
    assert block(client, ann, "b_ben") == 204
    assert block(client, ann, "b_ben") == 204  # twice: the same
    me = client.get("/api/me", headers=bearer(ann)).json()
    assert me["blocks"] == [{"handle": "b_ben"}]
    code = new_room(client)
    assert join(client, ann, code, 0) == (200, "")
    assert join(client, ben, code, 1) == (409, "blocked")  # the blocked one comes second
    other = new_room(client)
    assert join(client, ben, other, 0) == (200, "")
    assert join(client, ann, other, 1) == (409, "blocked")  # the blocker comes second
    assert join(client, cal, other, 1) == (200, "")  # anyone else sits
    # Unblocked, they may sit together again.
    assert client.delete("/api/me/blocks/b_ben", headers=bearer(ann)).status_code == 204
    assert join(client, ben, code, 1) == (200, "")


def test_no_requests_nor_invitations_between_them(client: TestClient) -> None:
    dee, eve = make(client, "b_dee", "Dee"), make(client, "b_eve", "Eve")
    for a, b in ((dee, "b_eve"), (eve, "b_dee")):
        r = client.post("/api/me/friends", json={"handle": b}, headers=bearer(a))
        assert r.status_code == 200
    assert block(client, dee, "b_eve") == 204  # the friendship ends
    assert client.get("/api/me/friends", headers=bearer(eve)).json() == []
    for a, b in ((dee, "b_eve"), (eve, "b_dee")):
        r = client.post("/api/me/friends", json={"handle": b}, headers=bearer(a))
        assert r.status_code == 409 and r.json()["code"] == "blocked", r.text
    code = new_room(client)
    assert join(client, eve, code, 0) == (200, "")
    r = client.post(f"/api/rooms/{code}/invite", json={"handle": "b_dee"}, headers=bearer(eve))
    assert r.status_code == 409 and r.json()["code"] == "blocked", r.text
    assert block(client, dee, "b_dee") == 422  # oneself
    assert block(client, dee, "b_nobody") == 404


def test_play_now_seats_them_apart(client: TestClient) -> None:
    fay, gus = make(client, "b_fay", "Fay"), make(client, "b_gus", "Gus")
    assert block(client, gus, "b_fay") == 204
    one = client.post("/api/play", json={}, headers=bearer(fay)).json()
    two = client.post("/api/play", json={}, headers=bearer(gus)).json()
    assert one["code"] != two["code"]


def test_a_block_made_at_one_table_leaves_that_game_and_play_now_seats_them_apart(
    client: TestClient,
) -> None:
    jo, kim = make(client, "b_jo", "Jo"), make(client, "b_kim", "Kim")
    first = client.post("/api/play", json={}, headers=bearer(jo)).json()
    second = client.post("/api/play", json={}, headers=bearer(kim)).json()
    assert first["code"] == second["code"]
    assert block(client, kim, "b_jo") == 204
    # Their game goes on; pressed again, neither is sent back to it, nor seated together.
    v = client.get(f"/api/rooms/{first['code']}").json()
    assert v["phase"] != "game_over"
    jo_again = client.post("/api/play", json={}, headers=bearer(jo)).json()
    kim_again = client.post("/api/play", json={}, headers=bearer(kim)).json()
    assert first["code"] not in (jo_again["code"], kim_again["code"])
    assert jo_again["code"] != kim_again["code"]


def test_no_rematch_seats_a_blocked_pair_together_again(client: TestClient) -> None:
    lee, max_ = make(client, "b_lee", "Lee"), make(client, "b_max", "Max")
    code = new_room(client)
    assert join(client, lee, code, 0)[0] == 200
    assert join(client, max_, code, 1)[0] == 200
    assert block(client, max_, "b_lee") == 204
    # (Asked before the game is over, the block is the answer all the same.)
    r = client.post(f"/api/rooms/{code}/rematch", headers=bearer(lee))
    assert r.status_code == 409 and r.json()["code"] == "blocked", r.text


def test_the_blocker_never_sees_the_blocked_ones_chat(client: TestClient) -> None:
    hal, ivy = make(client, "b_hal", "Hal"), make(client, "b_ivy", "Ivy")
    code = new_room(client)
    assert join(client, hal, code, 0)[0] == 200
    assert join(client, ivy, code, 1)[0] == 200
    for key, text in ((hal, "from hal"), (ivy, "from ivy")):
        r = client.post(f"/api/rooms/{code}/chat", json={"text": text}, headers=bearer(key))
        assert r.status_code == 201, r.text
    # Blocked while both sit at the table: the game goes on, the chat is gone for Hal.
    assert block(client, hal, "b_ivy") == 204
    seen = client.get(f"/api/rooms/{code}/chat", headers=bearer(hal)).json()["messages"]
    assert [m["text"] for m in seen] == ["from hal"]
    theirs = client.get(f"/api/rooms/{code}/chat", headers=bearer(ivy)).json()["messages"]
    assert [m["text"] for m in theirs] == ["from hal", "from ivy"]
    assert theirs[1]["handle"] == "b_ivy"
    anyone = client.get(f"/api/rooms/{code}/chat").json()["messages"]
    assert len(anyone) == 2


def social_requests_reached(
    c: TestClient, database_url: str
) -> Iterator[tuple[str, tuple[str, dict[str, Any]]]]:
    """Play now's, friends' and blocks' refusals, each by the request that gives it
    (tests/api/test_reasons.py counts them)."""

    def code_of(r: Any) -> tuple[str, dict[str, Any]]:
        return r.json()["code"], r.json()["params"]

    one, two = make(c, "reasons_s1", "One"), make(c, "reasons_s2", "Two")
    yield (
        "not_yourself",
        code_of(c.post("/api/me/friends", json={"handle": "reasons_s1"}, headers=bearer(one))),
    )
    code = new_room(c)
    invite = f"/api/rooms/{code}/invite"
    r = c.post(invite, json={"handle": "reasons_s2"}, headers=bearer(one))
    yield "invite_seated_only", code_of(r)
    c.post(f"/api/rooms/{code}/join", json={"name": "x"}, headers=bearer(one))
    yield (
        "friends_only",
        code_of(c.post(invite, json={"handle": "reasons_s2"}, headers=bearer(one))),
    )
    r = c.get("/api/search/players", params={"q": "r"}, headers=bearer(one))
    yield "search_too_short", code_of(r)
    c.post("/api/me/blocks", json={"handle": "reasons_s1"}, headers=bearer(two))
    r = c.post(f"/api/rooms/{code}/join", json={"name": "x"}, headers=bearer(two))
    yield "blocked", code_of(r)
    with TestClient(create_app(app_settings(database_url, public_play=False))) as off:
        yield "public_play_off", code_of(off.post("/api/play", json={}))
