"""A signed-in player on a 360 px phone sits under their profile's name (issue #46): the join
form does not ask for a name the server would not take; one tap on a seat seats them as Ria."""

from __future__ import annotations

import httpx
from playwright.sync_api import Browser, expect

from app.api.context import PLAYER_COOKIE
from tests.e2e.players import create_room

PHONE_360 = {"width": 360, "height": 740}


def test_a_signed_in_player_sits_without_typing_a_name(browser: Browser, server: str) -> None:
    made = httpx.post(f"{server}/api/players", json={"handle": "sit_ria", "name": "Ria"})
    assert made.status_code == 201, made.text
    code = create_room(server, seed=7)
    context = browser.new_context(viewport=PHONE_360, has_touch=True, is_mobile=True)  # type: ignore[arg-type]
    context.add_cookies([{"name": PLAYER_COOKIE, "value": made.json()["key"], "url": server}])
    page = context.new_page()
    page.goto(f"{server}/r/{code}")
    expect(page.locator("[data-sit-as]")).to_be_visible()
    expect(page.locator("#name")).to_be_hidden()
    page.click('[data-action="join"][data-seat="0"]')
    expect(page.locator('[data-action="join"]')).to_have_count(0)
    assert "Ria" in page.locator("#live").inner_text()
    context.close()

    # A guest is still asked for a name.
    guest = browser.new_context(viewport=PHONE_360, has_touch=True, is_mobile=True)  # type: ignore[arg-type]
    page = guest.new_page()
    page.goto(f"{server}/r/{code}")
    expect(page.locator("#name")).to_be_visible()
    expect(page.locator("[data-sit-as]")).to_be_hidden()
    guest.close()
