"""A club admin on a 360 px phone removes a member (issue #46): the buttons are buttons a thumb
hits, and Remove asks once more, saying that the member's nights stay counted, before it acts."""

from __future__ import annotations

import httpx
from playwright.sync_api import Browser

from app.api.context import PLAYER_COOKIE

PHONE_360 = {"width": 360, "height": 740}


def _profile(server: str, handle: str) -> str:
    r = httpx.post(f"{server}/api/players", json={"handle": handle, "name": handle.title()})
    assert r.status_code == 201, r.text
    return str(r.json()["key"])


def test_removing_a_member_asks_once_more(browser: Browser, server: str) -> None:
    admin_key, member_key = _profile(server, "cla_adm"), _profile(server, "cla_mem")
    with httpx.Client(base_url=server) as api:
        admin, member = ({"Authorization": f"Bearer {k}"} for k in (admin_key, member_key))
        made = api.post("/api/clubs", json={"name": "Remove test"}, headers=admin)
        assert made.status_code == 201, made.text
        code = made.json()["code"]
        token = api.post(f"/api/clubs/{code}/invites", headers=admin).json()["invite"]
        joined = api.post(f"/api/clubs/{code}/join", json={"invite": token}, headers=member)
        assert joined.status_code == 200, joined.text

    context = browser.new_context(viewport=PHONE_360, has_touch=True, is_mobile=True)  # type: ignore[arg-type]
    context.add_cookies([{"name": PLAYER_COOKIE, "value": admin_key, "url": server}])
    page = context.new_page()
    page.goto(f"{server}/c/{code}")
    opener = page.locator('[data-action="remove-open"][data-player="cla_mem"]')
    box = opener.bounding_box()
    assert box is not None and box["height"] >= 36  # a button, not a word
    opener.click()
    row = page.locator('[data-member="cla_mem"]')
    assert "nights they played stay" in row.inner_text()
    row.locator('[data-action="remove-member"]').click()
    page.wait_for_selector('[data-member="cla_mem"]', state="detached")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_360["width"]
    context.close()
