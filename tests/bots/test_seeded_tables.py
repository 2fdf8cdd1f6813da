"""A seeded game with bots replays: the server seeds each bot's decision from the game's seed
and version (``app.bots.rng_for``), so two rooms dealt from one seed, where the one human
plays the same cards, see the bots play the same cards too."""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.bots import standard
from tests.api.conftest import ADMIN, client, settings  # noqa: F401 - fixtures
from tests.api.table import bearer, new_room, view
from tests.databases import database_url  # noqa: F401 - a fixture

DEADLINE_S = 120  # a bound on waiting for the bots, not a speed requirement


def two_deals(c: TestClient, seed: int) -> list[Any]:
    """The records of the first two deals of a seeded room: Ann (seat 0) always plays her
    first legal action, three standard bots the rest."""
    code = new_room(c, {"seed": seed}, admin=ADMIN)
    token = c.post(f"/api/rooms/{code}/join", json={"name": "Ann", "seat": 0}).json()["token"]
    for seat in (1, 2, 3):
        r = c.post(f"/api/rooms/{code}/bots", json={"seat": seat}, headers=bearer(token))
        assert r.status_code == 200, r.text
    c.post(f"/api/rooms/{code}/start", headers=bearer(token))
    end = time.monotonic() + DEADLINE_S
    while True:
        assert time.monotonic() < end, "the bots did not play two deals"
        mine = view(c, code, token)
        if mine["hand_number"] > 2 or mine["phase"] == "game_over":
            break
        if mine["turn"] == 0 and mine["legal"]:
            move = {**mine["legal"][0], "version": mine["version"]}
            r = c.post(f"/api/rooms/{code}/actions", json=move, headers=bearer(token))
            assert r.status_code in (200, 409), r.text
        else:
            time.sleep(0.01)
    records = []
    for n in (1, 2):
        r = c.get(f"/api/rooms/{code}/hands/{n}", headers=bearer(token))
        if r.status_code == 200:
            records.append(r.json())
    return records


def test_two_rooms_from_one_seed_see_the_bots_play_alike(
    client: TestClient,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Counted in worlds with no wall-clock cap: only the seed may decide (the live cap is the
    # one thing machine load could change).
    monkeypatch.setattr(standard, "BUDGET", replace(standard.BUDGET, cap_ms=None, max_worlds=8))
    first = two_deals(client, 2024)
    assert first and any(r["tricks"] for r in first)
    assert two_deals(client, 2024) == first
