"""Friends and invitations (API.md § Fourth round, issue #36): a request, accepted by the
other's same request; online, and at which public table; a seated player invites a friend,
shown on the friend's home page."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.api.table import Json, bearer, new_room
from tests.players.test_profiles import make


def ask(client: TestClient, key: str, handle: str) -> Json:
    r = client.post("/api/me/friends", json={"handle": handle}, headers=bearer(key))
    out: Json = {"status": r.status_code, **r.json()}
    return out


def friends(client: TestClient, key: str) -> list[Json]:
    r = client.get("/api/me/friends", headers=bearer(key))
    assert r.status_code == 200, r.text
    out: list[Json] = r.json()
    return out


def test_a_request_accepted_by_the_others_request_makes_friends(client: TestClient) -> None:
    ann, ben = make(client, "f_ann", "Ann"), make(client, "f_ben", "Ben")
    first = ask(client, ann, "F_BEN")
    assert first["status"] == 200 and first["friends"] is False
    assert friends(client, ann) == [] and friends(client, ben) == []
    assert ask(client, ann, "f_ben")["friends"] is False  # asking twice changes nothing
    second = ask(client, ben, "f_ann")
    assert second["status"] == 200 and second["friends"] is True
    mine = friends(client, ann)
    assert [(f["handle"], f["name"]) for f in mine] == [("f_ben", "Ben")]
    assert mine[0]["online"] is True  # his device was just seen
    assert mine[0]["room"] is None
    # At a public table, the friend list says which.
    r = client.post("/api/play", json={}, headers=bearer(ben))
    assert r.status_code == 200, r.text
    assert friends(client, ann)[0]["room"] == r.json()["code"]
    # Either side ends it.
    assert client.delete("/api/me/friends/f_ann", headers=bearer(ben)).status_code == 204
    assert friends(client, ann) == [] and friends(client, ben) == []


def test_bad_requests_are_refused(client: TestClient) -> None:
    cal = make(client, "f_cal", "Cal")
    me = ask(client, cal, "f_cal")
    assert me["status"] == 422 and me["code"] == "not_yourself"
    nobody = ask(client, cal, "f_nobody")
    assert nobody["status"] == 404 and nobody["code"] == "no_player"
    assert client.post("/api/me/friends", json={"handle": "f_cal"}).status_code == 401
    assert client.get("/api/me/friends").status_code == 401
    r = client.post("/api/me/friends", json={"name": "x"}, headers=bearer(cal))
    assert r.status_code == 422


def test_a_seated_player_invites_a_friend_only(client: TestClient) -> None:
    dee, eve, fay = (make(client, h, h[2:].title()) for h in ("f_dee", "f_eve", "f_fay"))
    ask(client, dee, "f_eve")
    ask(client, eve, "f_dee")
    code = new_room(client)
    # Not seated: 403.
    r = client.post(f"/api/rooms/{code}/invite", json={"handle": "f_eve"}, headers=bearer(dee))
    assert r.status_code == 403 and r.json()["code"] == "invite_seated_only", r.text
    r = client.post(f"/api/rooms/{code}/join", json={"name": "x"}, headers=bearer(dee))
    assert r.status_code == 200, r.text
    # A stranger (not a friend): 403.
    r = client.post(f"/api/rooms/{code}/invite", json={"handle": "f_fay"}, headers=bearer(dee))
    assert r.status_code == 403 and r.json()["code"] == "friends_only", r.text
    # A guest cannot invite at all.
    r = client.post(f"/api/rooms/{code}/invite", json={"handle": "f_eve"})
    assert r.status_code == 401
    r = client.post(f"/api/rooms/{code}/invite", json={"handle": "f_eve"}, headers=bearer(dee))
    assert r.status_code == 204, r.text
    client.cookies.set("allfours_player", eve)
    home = client.get("/")
    client.cookies.set("allfours_player", fay)
    other = client.get("/")
    client.cookies.delete("allfours_player")
    assert home.status_code == 200
    assert f'data-invitation="{code}"' in home.text
    assert f'data-invitation="{code}"' not in other.text


def test_ties_are_in_the_export_and_go_with_the_profile(client: TestClient) -> None:
    gil, hana = make(client, "f_gil", "Gil"), make(client, "f_hana", "Hana")
    ask(client, gil, "f_hana")
    client.post("/api/me/blocks", json={"handle": "f_hana"}, headers=bearer(gil))
    out = client.get("/api/me/export", headers=bearer(gil)).json()
    assert [b["handle"] for b in out["blocks"]] == ["f_hana"]
    assert out["friend_requests_made"] == []  # a block ends the request
    theirs = client.get("/api/me/export", headers=bearer(hana)).json()
    assert theirs["blocks"] == [] and theirs["friend_requests_received"] == []
    assert client.delete("/api/me", headers=bearer(gil)).status_code == 204
    # Erased: Hana may sit with anyone again, and nobody lists Gil.
    code = new_room(client)
    r = client.post(f"/api/rooms/{code}/join", json={"name": "x"}, headers=bearer(hana))
    assert r.status_code == 200
    assert client.get("/api/me/friends", headers=bearer(hana)).json() == []
