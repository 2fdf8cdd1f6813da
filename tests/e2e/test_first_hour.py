"""A newcomer's first hour (issue 46), on a 360 px phone: a guest keeps their first game from
the result card (the form readable there, its contrast checked as it is seen, opened), and a
stranger opens a club's invite, makes a profile right there and joins."""

from __future__ import annotations

from pathlib import Path

import httpx
from playwright.sync_api import Browser, Page, expect

from app.api.context import PLAYER_COOKIE
from tests.e2e.axe import contrast, describe
from tests.e2e.players import add_bots, create_room, open_table, play_out, seat_token, start
from tests.e2e.players import take_seat as sit

PHONE_360 = {"width": 360, "height": 740}


def _contrast_clean(page: Page, axe: str, where: str) -> None:
    found = contrast(page, axe)
    assert not found, f"{where}:\n{describe(found)}"


def _fits(page: Page, where: str) -> None:
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= PHONE_360["width"], f"{where}: {wide} px wide"


def test_a_guest_keeps_the_first_game_from_the_result_card(
    browser: Browser, server: str, axe: str, screenshots: Path
) -> None:
    code = create_room(server, seed=11)
    page = open_table(browser, server, code, PHONE_360)
    sit(page, "Ria", 0)
    add_bots(page)
    start(page)
    token = seat_token(page)
    assert token
    play_out(server, code, token)
    page.wait_for_selector("#table[data-phase=game_over]")

    # The form behind "Keep my games", opened as a tap opens it: readable on the paper card.
    page.click("[data-action=open-keep-games]")
    form = page.locator("[data-keep-games-form]")
    expect(form).to_be_visible()
    border = form.locator("#kg-handle").evaluate("el => getComputedStyle(el).borderTopColor")
    card = page.locator(".result-card").evaluate("el => getComputedStyle(el).backgroundColor")
    assert border != card and "0.35" not in border  # an edge that shows on the card
    _contrast_clean(page, axe, "the keep-my-games form, open on the result card")
    _fits(page, "the result card with the form open")
    page.locator(".keep-games").scroll_into_view_if_needed()
    page.screenshot(path=str(screenshots / "keep-my-games-phone.png"))

    page.fill("#kg-handle", "ria_first")
    page.fill("#kg-name", "Ria")
    page.click("[data-action=keep-games]")
    line = page.locator("[data-profile-line]")
    expect(line).to_contain_text("Ria")
    _contrast_clean(page, axe, '"Signed in as" on the result card')

    # The profile really holds the game.
    shown = httpx.get(f"{server}/api/players/ria_first")
    assert shown.status_code == 200, shown.text
    assert shown.json()["stats"]["games"] == 1, shown.json()


def test_a_stranger_opens_a_club_invite_makes_a_profile_and_joins(
    browser: Browser, server: str, axe: str, screenshots: Path
) -> None:
    made = httpx.post(f"{server}/api/players", json={"handle": "fh_owner", "name": "Olu"})
    assert made.status_code == 201, made.text
    owner_context = browser.new_context(viewport=PHONE_360, has_touch=True, is_mobile=True)  # type: ignore[arg-type]
    owner_context.add_cookies(
        [{"name": PLAYER_COOKIE, "value": made.json()["key"], "url": f"{server}/"}]
    )
    owner = owner_context.new_page()
    owner.goto(f"{server}/c")
    owner.fill("#club-name", "Couva Corner Club")
    owner.click("[data-action=open-club]")
    owner.wait_for_url("**/c/*")
    club = owner.url.rsplit("/", 1)[1]
    owner.click("[data-action=invite]")
    box = owner.locator("[data-link-box]")
    link = box.locator("[data-invite-link]").input_value()
    assert link.startswith(f"{server}/c/{club}/join/")  # whole: it opens from a message
    # The whole width of its panel, and Copy says so.
    field = box.locator("[data-invite-link]").bounding_box()
    panel = owner.locator("[data-admin]").bounding_box()
    assert field and panel and field["width"] > panel["width"] * 0.8
    owner_context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server)
    box.locator("[data-copy-link]").click()
    expect(box.locator("[data-link-status]")).not_to_be_empty()
    _fits(owner, "the club page with its invite")
    _contrast_clean(owner, axe, "the club page with its invite")

    # A stranger (no profile, a browser of their own) opens it.
    stranger = browser.new_context(viewport=PHONE_360, has_touch=True, is_mobile=True).new_page()  # type: ignore[arg-type]
    stranger.goto(link)
    expect(stranger.locator("h1")).to_contain_text("Couva Corner Club")
    expect(stranger.locator("[data-club-make-profile]")).to_be_visible()
    _fits(stranger, "the invite opened by a stranger")
    _contrast_clean(stranger, axe, "the invite opened by a stranger")
    stranger.screenshot(path=str(screenshots / "club-invite-stranger-phone.png"), full_page=True)
    stranger.fill("#kg-handle", "fh_newcomer")
    stranger.fill("#kg-name", "Nia")
    stranger.click("[data-action=keep-games]")
    stranger.wait_for_url(link)  # back on the invite, now under the new profile
    stranger.click("[data-action=join-club]")
    stranger.wait_for_url(f"**/c/{club}")
    expect(stranger.locator("[data-member]")).to_have_count(2)
    expect(stranger.locator("[data-member]", has_text="Nia")).to_have_count(1)
