"""The host's page in a browser: sign in once with the admin token, find a player's report
with the chat it kept, ban the player from it, lift the ban, sign out; the cookie is
HttpOnly, SameSite=Strict and not the token; no script error nor CSP violation."""

from __future__ import annotations

import httpx
from playwright.sync_api import Browser

from tests.api.table import bearer
from tests.e2e.conftest import ADMIN
from tests.e2e.test_replay import open_page


def test_the_host_signs_in_bans_from_a_report_and_signs_out(browser: Browser, server: str) -> None:
    with httpx.Client(base_url=server, timeout=30) as client:
        keys = {}
        for handle in ("admin_e2e_ann", "admin_e2e_ben"):
            r = client.post("/api/players", json={"handle": handle, "name": "Ann"})
            assert r.status_code == 201, r.text
            keys[handle] = bearer(r.json()["key"])
        code = client.post("/api/rooms", json={}).json()["code"]
        for handle, key in keys.items():
            r = client.post(f"/api/rooms/{code}/join", json={"name": handle[-3:]}, headers=key)
            assert r.status_code == 200, r.text
        said = {"text": "<i>you lot cheat</i>"}
        assert (
            client.post(
                f"/api/rooms/{code}/chat", json=said, headers=keys["admin_e2e_ben"]
            ).status_code
            == 201
        )
        body = {"handle": "admin_e2e_ben", "room": code, "reason": "abuse", "text": "rude"}
        assert (
            client.post("/api/reports", json=body, headers=keys["admin_e2e_ann"]).status_code == 201
        )

    page, errors = open_page(browser, f"{server}/admin")
    page.fill("#admin-token", ADMIN)
    page.click('[data-action="admin-signin"]')
    page.wait_for_selector("[data-admin]")
    cookie = next(c for c in page.context.cookies() if c["name"] == "allfours_admin")
    assert cookie["httpOnly"] and cookie["sameSite"] == "Strict" and cookie["value"] != ADMIN

    report = page.locator("[data-report]").filter(has_text="@admin_e2e_ben").first
    report.locator("summary").first.click()
    assert report.locator("[data-kept-chat] li").first.inner_text().endswith("<i>you lot cheat</i>")
    # Ban and unban each ask once more, saying what they do (issue #46).
    report.locator('[data-action="ban-open"]').click()
    report.locator('input[name="reason"]').fill("rude at the table")
    report.locator('[data-action="ban"]').click()
    page.wait_for_selector('[data-ban="admin_e2e_ben"]')
    assert "rude at the table" in page.locator('[data-ban="admin_e2e_ben"]').inner_text()

    page.click('[data-action="unban-open"][data-player="admin_e2e_ben"]')
    page.click('[data-action="unban"][data-player="admin_e2e_ben"]')
    page.wait_for_selector("[data-admin]")
    assert page.locator('[data-ban="admin_e2e_ben"]').count() == 0

    page.click('[data-action="admin-signout"]')
    page.wait_for_selector("[data-admin-signin]")
    assert not [c for c in page.context.cookies() if c["name"] == "allfours_admin"]
    assert errors == []
