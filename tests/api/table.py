"""Helpers to sit four players down and play through the JSON API."""

from __future__ import annotations

import random
import re
from typing import Any

from fastapi.testclient import TestClient

Json = dict[str, Any]
CARD = re.compile(r"^[AKQJT98765432][CDHS]$")


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_room(client: Any, body: Json | None = None, admin: str | None = None) -> str:
    headers = bearer(admin) if admin else {}
    r = client.post("/api/rooms", json=body or {}, headers=headers)
    assert r.status_code == 201, r.text
    return str(r.json()["code"])


def seat_four(client: Any, code: str) -> list[str]:
    tokens = []
    for seat, name in enumerate(["Ann", "Ben", "Cal", "Dee"]):
        r = client.post(f"/api/rooms/{code}/join", json={"name": name, "seat": seat})
        assert r.status_code == 200, r.text
        assert r.json()["seat"] == seat
        tokens.append(r.json()["token"])
    return tokens


def view(client: Any, code: str, token: str | None = None) -> Json:
    r = client.get(f"/api/rooms/{code}", headers=bearer(token) if token else {})
    assert r.status_code == 200, r.text
    out: Json = r.json()
    return out


def cards_in(value: Any) -> set[str]:
    """Every card code anywhere in a JSON value."""
    if isinstance(value, str):
        return {value} if CARD.match(value) else set()
    if isinstance(value, dict):
        return set().union(*(cards_in(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(cards_in(v) for v in value)) if value else set()
    return set()


def current_cards(v: Json) -> set[str]:
    """The cards a view shows of the current deal (``last_hand`` is a finished deal's, and so
    is ``last_trick`` until the deal's first lift is taken)."""
    previous = {"last_hand"} | ({"last_trick"} if sum(v.get("tricks_won", [0])) == 0 else set())
    return cards_in({k: x for k, x in v.items() if k not in previous})


def assert_no_leak(views: list[Json], spectator: Json | None) -> None:
    """No view shows a card that another seat still holds (``spectator`` None: a table of
    boards, which no spectator reads, R33)."""
    held = [set(v["hand"]) for v in views]
    for seat, v in enumerate(views):
        others = set().union(*(held[s] for s in range(4) if s != seat))
        leaked = current_cards(v) & others
        assert not leaked, f"seat {seat} sees {leaked}"
        assert len(v["hand"]) == v["hand_sizes"][seat]
    if spectator is not None:
        assert spectator["hand"] == []
        assert not current_cards(spectator) & set().union(*held)


def play_random(
    client: TestClient, code: str, tokens: list[str], rng: random.Random, *, check: bool = True
) -> Json:
    """Random legal moves from the seat to act until the game is over; the final view."""
    while True:
        views = [view(client, code, t) for t in tokens]
        if check:
            seen = client.get(f"/api/rooms/{code}")
            if seen.status_code == 403:  # a table of boards: its own seats' alone (R33)
                assert seen.json()["code"] == "board_table_private"
            assert_no_leak(views, seen.json() if seen.status_code == 200 else None)
        v = views[0]
        if v["phase"] == "game_over":
            return v
        turn = v["turn"]
        me = views[turn]
        assert me["legal"], me
        for other in views:
            if other["you"] != turn:
                assert other["legal"] == []
        move = dict(rng.choice(me["legal"]))
        move["version"] = v["version"]
        r = client.post(f"/api/rooms/{code}/actions", json=move, headers=bearer(tokens[turn]))
        assert r.status_code == 200, r.text
        assert r.json()["version"] == v["version"] + 1
