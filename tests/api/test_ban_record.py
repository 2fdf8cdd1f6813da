"""The admin page says when a player was banned, by whom and why (issue #43): the ban keeps
its reason, its time and the door the admin came through (the admin token is one shared
token: the JSON route's token, or the signed-in admin page). On SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime

from fastapi.testclient import TestClient

from tests.api.conftest import ADMIN
from tests.api.table import bearer
from tests.api.test_admin_pages import SAME_SITE, sign_in


def _profile(client: TestClient, handle: str) -> None:
    r = client.post("/api/players", json={"handle": handle, "name": handle.title()})
    assert r.status_code == 201, r.text


def _ban_item(page: str, handle: str) -> str:
    start = page.index(f'data-ban="{handle}"')
    return page[start : page.index("</li>", start)]


def test_the_admin_page_says_when_a_player_was_banned_by_whom_and_why(
    client: TestClient,
) -> None:
    _profile(client, "banrec_api")
    _profile(client, "banrec_page")
    before = datetime.now(UTC)
    r = client.post(
        "/api/admin/players/banrec_api/ban",
        json={"reason": "threats in the chat"},
        headers=bearer(ADMIN),
    )
    assert r.status_code == 200, r.text
    done = r.json()
    assert done["reason"] == "threats in the chat" and done["by"] == "admin token"
    assert datetime.fromisoformat(done["at"]) >= before.replace(microsecond=0)
    sign_in(client)
    r = client.post(
        "/admin/ban",
        data={"handle": "banrec_page", "reason": "cheating with a friend"},
        headers=SAME_SITE,
        follow_redirects=False,
    )
    assert r.status_code == 303, r.text
    page = client.get("/admin").text
    by_api, by_page = _ban_item(page, "banrec_api"), _ban_item(page, "banrec_page")
    assert "threats in the chat" in by_api and "the admin token (API)" in by_api
    assert "cheating with a friend" in by_page and "by this page" in by_page
    at = datetime.fromisoformat(done["at"])
    assert "data-ban-when" in by_api and at.strftime("%H:%M") + " UTC" in by_api
    assert str(at.year) in by_api
    # In the reader's language.
    french = client.get("/admin", headers={"Accept-Language": "fr"}).text
    assert "Banni le" in _ban_item(french, "banrec_api")
