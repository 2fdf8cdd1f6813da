"""A guest becomes a player (API.md § Fourth round, *Players*), in a real browser: a game with
three computer players, "Keep my games" from the result, a second browser signed in by the
own page's one-time link, a passkey added there (Chromium's virtual authenticator), a third
browser signed in with it, the same profile in all three with the game counted.

The pages are served at ``localhost``: WebAuthn takes no IP address as the site's id, and
allows plain HTTP there."""

from __future__ import annotations

from playwright.sync_api import Browser

from app.api.context import SEAT_COOKIE
from tests.e2e.players import (
    add_bots,
    create_room,
    open_table,
    play_out,
    script_errors,
    seat_token,
    start,
    take_seat,
)
from tests.e2e.test_passkeys import authenticator, local

SMALL = {"width": 360, "height": 740}  # the narrowest phone the pages are made for


def test_a_guest_keeps_their_games_and_signs_in_by_link_and_by_passkey(
    browser: Browser, server: str
) -> None:
    server = local(server)
    code = create_room(server, seed=11)
    page = open_table(browser, server, code, SMALL)
    take_seat(page, "Ann", 0)
    add_bots(page)
    start(page)
    token = seat_token(page)
    assert token
    play_out(server, code, token)
    page.wait_for_selector("#table[data-phase=game_over]")

    # "Keep my games" from the result: a profile in one step, the same seat under it.
    page.click("[data-action=open-keep-games]")
    page.fill("#kg-handle", "Ann_E2E")
    page.fill("#kg-name", "Annie")
    page.click("[data-action=keep-games]")
    page.wait_for_selector("[data-profile-line] [data-link=me]")
    assert page.get_attribute("#table", "data-you") == "0"
    assert not [c for c in page.context.cookies() if c.get("name") == SEAT_COOKIE]
    # The next game: the seat is marked as a profile's, with a way to its public page.
    page.click("[data-action=rematch]")
    page.wait_for_selector("#table:not([data-phase=game_over]) [data-seat-player=ann_e2e]")
    assert page.get_attribute("[data-seat-player=ann_e2e]", "href") == "/p/ann_e2e"

    # The own page: a one-time link for another device, as a QR code and its text.
    page.goto(f"{server}/me")
    page.wait_for_selector("[data-me=ann_e2e]")
    assert page.inner_text("[data-me-name]") == "Annie"
    page.click("[data-action=signin-link]")
    page.wait_for_selector("[data-signin-link] svg")
    url = page.get_attribute("[data-signin-url]", "href")
    assert url and "/signin/sc." in url

    # The second browser opens the link (as a camera would) and signs in on its button.
    other = browser.new_context(viewport={"width": 360, "height": 740})
    second = other.new_page()
    second.goto(url)
    # The page names the profile it signs in to, and asks first.
    assert second.get_attribute("[data-signin-profile]", "data-signin-profile") == "ann_e2e"
    second.click("[data-action=signin]")
    second.wait_for_selector("[data-me=ann_e2e]")
    assert second.inner_text("[data-me-name]") == "Annie"
    assert "sc." not in second.content() and "pk." not in second.content()

    # Both see the same profile, each its own device marked, two devices in all.
    page.goto(f"{server}/me")
    assert page.locator("[data-device]").count() == 2
    assert page.locator("[data-this-device]").count() == 1
    assert second.locator("[data-device]").count() == 2
    # Two devices of one kind read alike: the phone is named, and both lists say so.
    mine = second.locator("[data-this-device]")
    mine.locator("[data-action=rename-device]").click()
    mine.locator("[data-device-name]").fill("Ann's phone")
    mine.locator("[data-action=save-device-name]").click()
    second.locator("[data-this-device] .device-name", has_text="Ann's phone").wait_for()
    page.goto(f"{server}/me")
    assert page.locator("[data-device] .device-name", has_text="Ann's phone").count() == 1
    # The used link signs nobody else in.
    third = browser.new_context(viewport={"width": 360, "height": 740})
    late = third.new_page()
    late.goto(url)  # the page says so at once: it names no profile, offers no button
    late.wait_for_selector("[data-signin-gone]")

    # A passkey added on the second device (its own authenticator plays the phone) ...
    cdp, phone = authenticator(other, second)
    second.goto(f"{server}/me")
    with second.expect_navigation():
        second.click("[data-passkey-add]")
    second.wait_for_selector("[data-passkey-list] [data-passkey]")
    made = cdp.send("WebAuthn.getCredentials", {"authenticatorId": phone})["credentials"]
    assert len(made) == 1
    # ... signs a third browser in, whose authenticator holds it too (a synced passkey).
    cdp3, laptop = authenticator(third, late)
    cdp3.send("WebAuthn.addCredential", {"authenticatorId": laptop, "credential": made[0]})
    late.goto(f"{server}/me")
    with late.expect_navigation(url=f"{server}/me"):
        late.click("[data-passkey-signin]")
    late.wait_for_selector("[data-me=ann_e2e]")
    assert late.locator("[data-device]").count() == 3
    # The same profile everywhere, with the game played as a guest counted in it.
    late.goto(f"{server}/p/ann_e2e")
    assert late.inner_text("[data-stat=games] dd") == "1"
    assert late.locator("[data-recent] [data-game]").count() == 1

    # No page is wider than the phone.
    for p in (page, second, late):
        assert p.evaluate("document.documentElement.scrollWidth") <= SMALL["width"]
    assert script_errors(page) == []
    for context in (page.context, other, third):
        context.close()
