"""The move's route answers alike whether its body takes the presolved way or FastAPI's."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi import FastAPI, Request
from fastapi.testclient import TestClient

from app.api.context import Context, get_context
from tests.api.conftest import ADMIN
from tests.api.table import bearer, new_room, seat_four, view

# Bodies a client may send: accepted ones (then refused by the game: not the sender's turn)
# and every kind FastAPI refuses itself.
BODIES: list[str] = [
    '{"type": "stand"}',
    '{"type": "play", "card": "AS", "version": 3}',
    '{"type": "play", "card": "XX"}',
    '{"type": "dance"}',
    '{"type": "stand", "extra": 1}',
    '{"type": "stand", "version": -1}',
    '{"type": "stand", "version": "4"}',
    '["stand"]',
    '"stand"',
    "null",
    "{",
    "",
]


def _answer(client: TestClient, code: str, token: str, body: str, kind: str) -> Any:
    headers = {**bearer(token), "Content-Type": kind}
    r = client.post(f"/api/rooms/{code}/actions", content=body, headers=headers)
    return r.status_code, r.json()


@pytest.mark.parametrize("body", BODIES)
def test_presolved_and_fastapi_answer_alike(client: TestClient, body: str) -> None:
    code = new_room(client, {"seed": 3}, admin=ADMIN)
    tokens = seat_four(client, code)
    v = client.post(f"/api/rooms/{code}/start", headers=bearer(tokens[0])).json()
    waiting = tokens[(v["turn"] + 1) % 4]
    presolved = _answer(client, code, waiting, body, "application/json")
    # A content type with a parameter is not the usual one: FastAPI's own handler answers.
    solved = _answer(client, code, waiting, body, "application/json; charset=utf-8")
    assert presolved == solved
    assert presolved[0] in (400, 403, 409, 422), presolved  # refused: the room stays as it was
    assert view(client, code)["version"] == v["version"]


def test_a_move_with_dependency_overrides_goes_fastapis_way(client: TestClient) -> None:
    """Overrides (a test's tool) are FastAPI's to apply: the presolved way steps aside."""
    code = new_room(client, {"seed": 3}, admin=ADMIN)
    tokens = seat_four(client, code)
    v = client.post(f"/api/rooms/{code}/start", headers=bearer(tokens[0])).json()
    app = client.app
    assert isinstance(app, FastAPI)
    seen: list[bool] = []

    async def context_seen(request: Request) -> Context:
        seen.append(True)
        return await get_context(request)

    app.dependency_overrides[get_context] = context_seen
    try:
        mover = tokens[v["turn"]]
        mover_view = view(client, code, mover)
        action = {**mover_view["legal"][0], "version": v["version"]}
        r = client.post(f"/api/rooms/{code}/actions", json=action, headers=bearer(mover))
    finally:
        app.dependency_overrides.clear()
    assert r.status_code == 200, r.text
    assert r.json()["version"] == v["version"] + 1
    assert seen
