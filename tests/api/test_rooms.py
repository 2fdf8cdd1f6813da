"""Every route of API.md and its errors, on SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.api.conftest import ADMIN
from tests.api.table import bearer, new_room, seat_four, view


def assert_error(r: Any, status: int) -> dict[str, Any]:
    assert r.status_code == status, r.text
    body: dict[str, Any] = r.json()
    assert set(body) == {"error", "detail", "code", "params"}
    assert isinstance(body["error"], str) and isinstance(body["detail"], str)
    return body


def test_create_room_returns_code_and_share_url(client: TestClient) -> None:
    r = client.post("/api/rooms")
    assert r.status_code == 201
    body = r.json()
    assert body["url"] == f"/r/{body['code']}"
    assert len(body["code"]) >= 10
    other = client.post("/api/rooms", json={}).json()
    assert other["code"] != body["code"]
    v = view(client, body["code"])
    assert v["phase"] == "lobby" and v["version"] == 0 and v["seats"] == [None] * 4
    assert v["you"] is None and v["turn"] is None and v["legal"] == []
    assert v["rules"]["target"] == 14


def test_create_room_with_house_rules(client: TestClient) -> None:
    code = new_room(client, {"rules": {"target": 21, "undertrump": "forbidden"}})
    rules = view(client, code)["rules"]
    assert rules["target"] == 21 and rules["undertrump"] == "forbidden"
    assert rules["kick_two"] is False


def test_unknown_rule_or_out_of_range_value_is_422(client: TestClient) -> None:
    assert_error(client.post("/api/rooms", json={"rules": {"nope": 1}}), 422)
    assert_error(client.post("/api/rooms", json={"rules": {"target": 15}}), 422)
    assert_error(client.post("/api/rooms", json={"rules": {"game_tie": "x"}}), 422)
    assert_error(client.post("/api/rooms", json={"colour": "red"}), 422)


def test_seed_needs_the_admin_token(client: TestClient) -> None:
    assert_error(client.post("/api/rooms", json={"seed": 1}), 403)
    assert_error(client.post("/api/rooms", json={"seed": 1}, headers=bearer("wrong")), 403)
    r = client.post("/api/rooms", json={"seed": 1}, headers=bearer(ADMIN))
    assert r.status_code == 201


def test_seeded_rooms_deal_the_same_cards(client: TestClient) -> None:
    hands = []
    for _ in range(2):
        code = new_room(client, {"seed": 99}, admin=ADMIN)
        tokens = seat_four(client, code)
        client.post(f"/api/rooms/{code}/start", headers=bearer(tokens[0]))
        hands.append([view(client, code, t)["hand"] for t in tokens])
    assert hands[0] == hands[1]


def test_malformed_bodies_are_400_or_422(client: TestClient) -> None:
    code = new_room(client)
    r = client.post(
        f"/api/rooms/{code}/join",
        content=b"{not json",
        headers={"content-type": "application/json"},
    )
    assert_error(r, 400)
    assert_error(client.post(f"/api/rooms/{code}/join", json={}), 422)
    assert_error(client.post(f"/api/rooms/{code}/join", json=["Ann"]), 422)
    assert_error(client.post("/api/rooms", json=[1, 2]), 422)


def test_names_are_trimmed_and_1_to_24_characters(client: TestClient) -> None:
    code = new_room(client)
    assert_error(client.post(f"/api/rooms/{code}/join", json={"name": "   "}), 422)
    assert_error(client.post(f"/api/rooms/{code}/join", json={"name": "x" * 25}), 422)
    assert_error(client.post(f"/api/rooms/{code}/join", json={"name": "a\x00b"}), 422)
    r = client.post(f"/api/rooms/{code}/join", json={"name": "  " + "y" * 24 + " "})
    assert r.status_code == 200
    assert view(client, code)["seats"][0]["name"] == "y" * 24
    r = client.post(f"/api/rooms/{code}/join", json={"name": "<b>Zoë</b>"})
    assert view(client, code)["seats"][1]["name"] == "<b>Zoë</b>"


def test_join_takes_first_free_seat_and_tokens_identify_seats(client: TestClient) -> None:
    code = new_room(client)
    a = client.post(f"/api/rooms/{code}/join", json={"name": "Ann", "seat": 2}).json()
    b = client.post(f"/api/rooms/{code}/join", json={"name": "Ben"}).json()
    assert a["seat"] == 2 and b["seat"] == 0
    assert len(a["token"]) >= 22 and a["token"] != b["token"]
    assert view(client, code, a["token"])["you"] == 2
    assert view(client, code, b["token"])["you"] == 0
    assert view(client, code, "forged")["you"] is None
    assert view(client, code)["version"] == 2


def test_rejoining_with_your_token_returns_your_seat(client: TestClient) -> None:
    code = new_room(client)
    a = client.post(f"/api/rooms/{code}/join", json={"name": "Ann", "seat": 1}).json()
    again = client.post(f"/api/rooms/{code}/join", json={"name": "Ann"}, headers=bearer(a["token"]))
    assert again.status_code == 200
    assert again.json() == {"seat": 1, "token": a["token"]}
    assert view(client, code)["version"] == 1


def test_a_token_is_only_good_in_its_own_room(client: TestClient) -> None:
    one, two = new_room(client), new_room(client)
    token = client.post(f"/api/rooms/{one}/join", json={"name": "Ann"}).json()["token"]
    assert view(client, two, token)["you"] is None


def test_taken_seat_and_full_table_are_409(client: TestClient) -> None:
    code = new_room(client)
    client.post(f"/api/rooms/{code}/join", json={"name": "Ann", "seat": 0})
    assert_error(client.post(f"/api/rooms/{code}/join", json={"name": "B", "seat": 0}), 409)
    for name in "CDE":
        client.post(f"/api/rooms/{code}/join", json={"name": name})
    assert_error(client.post(f"/api/rooms/{code}/join", json={"name": "F"}), 409)


def test_seat_out_of_range_is_422(client: TestClient) -> None:
    code = new_room(client)
    assert_error(client.post(f"/api/rooms/{code}/join", json={"name": "A", "seat": 4}), 422)
    assert_error(client.post(f"/api/rooms/{code}/join", json={"name": "A", "seat": -1}), 422)


def test_unknown_room_is_404_on_every_route(client: TestClient) -> None:
    code = "nosuchroom99"
    assert_error(client.get(f"/api/rooms/{code}"), 404)
    assert_error(client.post(f"/api/rooms/{code}/join", json={"name": "A"}), 404)
    assert_error(client.post(f"/api/rooms/{code}/bots", json={"seat": 1}), 404)
    assert_error(client.post(f"/api/rooms/{code}/start"), 404)
    assert_error(client.post(f"/api/rooms/{code}/actions", json={"type": "stand"}), 404)
    assert_error(client.post(f"/api/rooms/{code}/rematch"), 404)
    assert_error(client.get(f"/api/rooms/{code}/hands/1"), 404)
    assert_error(client.get(f"/api/rooms/{code}/events"), 404)
    assert_error(client.get("/api/nothing/here"), 404)


def test_room_codes_with_nul_or_odd_characters_are_404_not_500(client: TestClient) -> None:
    """PostgreSQL refused a NUL in the code with an error, which became a 500."""
    for code in ("a%00b", "%F0%9F%98%80", "x" * 60, "y" * 500, "a%20b", "..", "a'b"):
        assert_error(client.get(f"/api/rooms/{code}"), 404)
        assert_error(client.post(f"/api/rooms/{code}/join", json={"name": "A"}), 404)
        assert_error(client.get(f"/api/rooms/{code}/hands/1"), 404)
        assert_error(client.get(f"/api/rooms/{code}/events"), 404)


def test_bots_need_a_seated_player_a_free_seat_and_a_known_level(client: TestClient) -> None:
    code = new_room(client)
    assert_error(client.post(f"/api/rooms/{code}/bots", json={"seat": 1}), 401)
    token = client.post(f"/api/rooms/{code}/join", json={"name": "Ann"}).json()["token"]
    auth = bearer(token)
    assert_error(client.post(f"/api/rooms/{code}/bots", json={"seat": 0}, headers=auth), 409)
    assert_error(
        client.post(f"/api/rooms/{code}/bots", json={"seat": 1, "level": "god"}, headers=auth),
        422,
    )
    assert_error(client.post(f"/api/rooms/{code}/bots", json={"seat": 9}, headers=auth), 422)
    r = client.post(f"/api/rooms/{code}/bots", json={"seat": 1, "level": "easy"}, headers=auth)
    assert r.status_code == 200, r.text
    seat = r.json()["seats"][1]
    assert seat["bot"] is True and seat["level"] == "easy" and seat["connected"] is True
    r = client.post(f"/api/rooms/{code}/bots", json={"seat": 2}, headers=auth)
    assert r.json()["seats"][2]["level"] == "standard"
    assert r.json()["version"] == 3


def test_start_needs_a_seated_player_and_four_seats(client: TestClient) -> None:
    code = new_room(client)
    token = client.post(f"/api/rooms/{code}/join", json={"name": "Ann"}).json()["token"]
    assert_error(client.post(f"/api/rooms/{code}/start"), 401)
    assert_error(client.post(f"/api/rooms/{code}/start", headers=bearer(token)), 409)
    for name in "BCD":
        client.post(f"/api/rooms/{code}/join", json={"name": name})
    r = client.post(f"/api/rooms/{code}/start", headers=bearer(token))
    assert r.status_code == 200
    v = r.json()
    assert v["version"] == 5 and v["you"] == 0
    assert v["phase"] in ("beg", "game_over")
    assert v["hand_number"] == 1 and len(v["hand"]) == 6
    assert_error(client.post(f"/api/rooms/{code}/start", headers=bearer(token)), 409)


def started(client: TestClient) -> tuple[str, list[str], dict[str, Any]]:
    """A started game whose first kick did not end it (seeded)."""
    code = new_room(client, {"seed": 3}, admin=ADMIN)
    tokens = seat_four(client, code)
    v = client.post(f"/api/rooms/{code}/start", headers=bearer(tokens[0])).json()
    assert v["phase"] == "beg"
    return code, tokens, v


def test_actions_errors(client: TestClient) -> None:
    code, tokens, v = started(client)
    beggar = v["turn"]
    other = (beggar + 1) % 4
    url = f"/api/rooms/{code}/actions"
    assert_error(client.post(url, json={"type": "stand"}), 401)
    assert_error(client.post(url, json={"type": "stand"}, headers=bearer("bad")), 401)
    body = assert_error(
        client.post(url, json={"type": "stand"}, headers=bearer(tokens[other])), 403
    )
    assert "turn" in body["detail"]
    me = bearer(tokens[beggar])
    assert_error(client.post(url, json={"type": "fold"}, headers=me), 422)
    assert_error(client.post(url, json={"type": "play", "card": "1X"}, headers=me), 422)
    assert_error(client.post(url, json={"type": "play", "card": "AS", "x": 1}, headers=me), 422)
    body = assert_error(client.post(url, json={"type": "play", "card": "AS"}, headers=me), 409)
    assert body["detail"].startswith("R9")
    body = assert_error(client.post(url, json={"type": "give_one"}, headers=me), 409)
    stale = {"type": "stand", "version": v["version"] - 1}
    assert_error(client.post(url, json=stale, headers=me), 409)
    assert view(client, code)["version"] == v["version"]
    r = client.post(url, json={"type": "stand", "version": v["version"]}, headers=me)
    assert r.status_code == 200
    after = r.json()
    assert after["version"] == v["version"] + 1 and after["phase"] == "play"
    assert after["legal"] and all(a["type"] == "play" for a in after["legal"])


def test_illegal_card_is_422_naming_the_rule(client: TestClient) -> None:
    code, tokens, v = started(client)
    url = f"/api/rooms/{code}/actions"
    beggar = v["turn"]
    client.post(url, json={"type": "stand"}, headers=bearer(tokens[beggar]))
    # A card the leader does not hold: R13.
    mine = view(client, code, tokens[beggar])
    missing = next(c for c in ("AS", "KS", "QS", "2C", "3C", "4C") if c not in mine["hand"])
    body = assert_error(
        client.post(url, json={"type": "play", "card": missing}, headers=bearer(tokens[beggar])),
        422,
    )
    assert body["detail"].startswith("R13")
    # Play until someone holds a card they may not play (R14), and try it.
    for _ in range(40):
        cur = view(client, code)
        seat = cur["turn"]
        if seat is None:
            break
        me = view(client, code, tokens[seat])
        refused = me.get("refused", [])
        if refused:
            card = refused[0]["card"]
            body = assert_error(
                client.post(url, json={"type": "play", "card": card}, headers=bearer(tokens[seat])),
                422,
            )
            assert body["detail"].startswith("R14")
            return
        client.post(url, json=me["legal"][0], headers=bearer(tokens[seat]))
    raise AssertionError("no seat ever held a card it could not play")


def test_the_same_move_sent_again_is_409(client: TestClient) -> None:
    code, tokens, v = started(client)
    me = bearer(tokens[v["turn"]])
    url = f"/api/rooms/{code}/actions"
    assert client.post(url, json={"type": "beg"}, headers=me).status_code == 200
    assert_error(client.post(url, json={"type": "beg"}, headers=me), 409)
    assert_error(client.post(url, json={"type": "stand"}, headers=me), 403)


def test_hand_record_is_404_until_the_hand_is_over(client: TestClient) -> None:
    code, tokens, _ = started(client)
    assert_error(client.get(f"/api/rooms/{code}/hands/1"), 404)
    assert_error(client.get(f"/api/rooms/{code}/hands/0"), 404)
    assert_error(client.get(f"/api/rooms/{code}/hands/-3"), 404)
    assert_error(client.get(f"/api/rooms/{code}/hands/x"), 422)
    assert_error(client.get(f"/api/rooms/{code}/hands/99999999999999999999"), 404)
    url = f"/api/rooms/{code}/actions"
    while view(client, code)["hand_number"] == 1:
        cur = view(client, code)
        me = view(client, code, tokens[cur["turn"]])
        client.post(url, json=me["legal"][0], headers=bearer(tokens[cur["turn"]]))
    r = client.get(f"/api/rooms/{code}/hands/1")
    assert r.status_code == 200
    record = r.json()
    assert record["n"] == 1 and set(record["dealt"]) == {"0", "1", "2", "3"}
    assert record["awards"] == view(client, code)["last_hand"]
    assert_error(client.get(f"/api/rooms/{code}/hands/2"), 404)


def test_views_carry_code_version_rules_seats_you(client: TestClient) -> None:
    code, tokens, _ = started(client)
    for seat, token in enumerate(tokens):
        v = view(client, code, token)
        assert v["code"] == code and v["you"] == seat
        for key in (
            "version",
            "phase",
            "rules",
            "seats",
            "dealer",
            "turn",
            "hand_number",
            "kicks",
            "trump",
            "hand",
            "hand_sizes",
            "trick",
            "last_trick",
            "legal",
            "scores",
            "last_hand",
            "winner",
        ):
            assert key in v
        assert [s["seat"] for s in v["seats"]] == [0, 1, 2, 3]
        assert all(set(s) >= {"seat", "name", "bot", "connected"} for s in v["seats"])


def test_body_too_large_is_413(client: TestClient) -> None:
    code = new_room(client)
    r = client.post(f"/api/rooms/{code}/join", json={"name": "A" * 100_000})
    assert_error(r, 413)


def test_healthz_and_openapi_describe_every_route(client: TestClient) -> None:
    assert client.get("/healthz").status_code == 200
    paths = client.get("/openapi.json").json()["paths"]
    for path in (
        "/api/rooms",
        "/api/rooms/{code}",
        "/api/rooms/{code}/join",
        "/api/rooms/{code}/bots",
        "/api/rooms/{code}/start",
        "/api/rooms/{code}/actions",
        "/api/rooms/{code}/events",
        "/api/rooms/{code}/hands/{n}",
        "/api/rooms/{code}/rematch",
    ):
        assert path in paths
