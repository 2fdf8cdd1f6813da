"""The lobby's view carries the same keys as a game's, so clients need no special case."""

import random

from fastapi.testclient import TestClient

from app.rules import DEFAULT_RULES, new_game, observe
from app.services.view import RoomView
from app.views.game import LOBBY, game_view
from tests.api.table import bearer, new_room, seat_four, view


def test_the_lobby_view_has_every_key_of_a_game_view() -> None:
    in_play = game_view(observe(new_game(DEFAULT_RULES, 1), None))
    assert LOBBY.model_dump().keys() == in_play.model_dump().keys()


def test_every_view_served_is_what_the_openapi_document_says(client: TestClient) -> None:
    """The view was an untyped dict, so OpenAPI did not describe it: now RoomView does, and
    every view a whole game serves (each seat, a spectator, the lobby, the end with its
    seed) validates against it, strictly and with no key it does not name."""
    code = new_room(client, {"rules": {"target": 7}})
    seen: list[str] = []

    def check(token: str | None = None) -> None:
        r = client.get(f"/api/rooms/{code}", headers=bearer(token) if token else {})
        RoomView.model_validate_json(r.text)
        seen.append(r.json()["phase"])

    check()
    tokens = seat_four(client, code)
    check(tokens[0])
    client.post(f"/api/rooms/{code}/start", headers=bearer(tokens[0]))
    rng = random.Random(5)
    while True:
        for token in (*tokens, None):
            check(token)
        v = view(client, code, tokens[0])
        if v["phase"] == "game_over":
            break
        me = view(client, code, tokens[v["turn"]])
        move = {**rng.choice(me["legal"]), "version": v["version"]}
        r = client.post(f"/api/rooms/{code}/actions", json=move, headers=bearer(tokens[v["turn"]]))
        RoomView.model_validate_json(r.text)
    assert {"lobby", "beg", "play", "game_over"} <= set(seen)
    assert RoomView.model_validate_json(client.get(f"/api/rooms/{code}").text).seed is not None
    schema = client.get("/openapi.json").json()
    answer = schema["paths"]["/api/rooms/{code}"]["get"]["responses"]["200"]
    assert answer["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/RoomView"
    }
