"""The three levels: each has a line for the lobby, a budget, and is offered by name."""

from __future__ import annotations

import html

from fastapi.testclient import TestClient

from app.bots import BUDGETS, DESCRIPTIONS, LEVELS
from tests.api.conftest import client, settings  # noqa: F401 - fixtures
from tests.api.table import new_room
from tests.databases import database_url  # noqa: F401 - a fixture

HTMX = {"HX-Request": "true"}


def test_every_level_has_a_line_and_every_searching_level_a_capped_budget() -> None:
    assert LEVELS == ("easy", "standard", "strong")
    assert set(DESCRIPTIONS) == set(LEVELS)
    assert set(BUDGETS) == {"standard", "strong"}
    for budget in BUDGETS.values():
        assert budget.cap_ms is not None and budget.max_worlds is not None
    assert BUDGETS["strong"].cap_ms <= 250  # type: ignore[operator]


def test_the_lobby_offers_each_level_by_name_with_its_line(client: TestClient) -> None:  # noqa: F811
    code = new_room(client)
    r = client.post(f"/r/{code}/join", data={"name": "Ann", "seat": "0"}, headers=HTMX)
    assert r.status_code == 200
    page = html.unescape(r.text)
    for level, line in DESCRIPTIONS.items():
        assert f'<option value="{level}"' in page
        assert f"{level.capitalize()}: {line}" in page
    r = client.post(f"/r/{code}/bot", data={"seat": "1", "level": "strong"}, headers=HTMX)
    assert r.status_code == 200 and 'title="Computer player (strong)"' in r.text
