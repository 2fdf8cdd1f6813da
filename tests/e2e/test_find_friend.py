"""Finding a friend on a phone (issue #46): Ann finds Ben by his name on her own page and asks
him; Ben sees the count of requests on the home page and declines; Ann asks again and
withdraws; Ann asks once more and Ben accepts; Ann removes him, asked first. Each button
leaves its word; every page fits 360 px."""

from __future__ import annotations

import httpx
from playwright.sync_api import Browser, BrowserContext, Page

from app.api.context import PLAYER_COOKIE

PHONE_360 = {"width": 360, "height": 740}


def _profile(server: str, handle: str, name: str) -> str:
    r = httpx.post(f"{server}/api/players", json={"handle": handle, "name": name})
    assert r.status_code == 201, r.text
    return str(r.json()["key"])


def _phone(browser: Browser, server: str, key: str) -> tuple[BrowserContext, Page, list[str]]:
    """One person's phone, signed in to their profile; the script errors it meets."""
    context = browser.new_context(viewport=PHONE_360, has_touch=True, is_mobile=True)  # type: ignore[arg-type]
    context.add_cookies([{"name": PLAYER_COOKIE, "value": key, "url": server}])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return context, page, errors


def _said(page: Page, done: str) -> str:
    """The word a tie's button left on the page it came back to."""
    word = page.wait_for_selector(f"[role=status][data-tie-done={done}]")
    assert word is not None
    _fits(page)
    return word.inner_text()


def _fits(page: Page) -> None:
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= PHONE_360["width"], f"{page.url} is {wide} px wide"


def test_two_people_find_each_other_on_their_phones(browser: Browser, server: str) -> None:
    ann = _profile(server, "ff_ann", "Annabelle Find")
    ben = _profile(server, "ff_ben", "Benedict Fitzgerald-Find")
    ann_context, a, a_errors = _phone(browser, server, ann)
    ben_context, b, b_errors = _phone(browser, server, ben)

    # Ann finds Ben by a piece of his name, and asks him from the results.
    a.goto(f"{server}/me")
    a.fill("#find-players", "fitzg")
    a.click("[data-action=find-players]")
    found = a.wait_for_selector("[data-found-player=ff_ben]")
    assert found is not None and "Benedict Fitzgerald-Find" in found.inner_text()
    _fits(a)
    a.click("[data-found-player=ff_ben] [data-action=add-friend]")
    assert _said(a, "asked") == "Friend request sent."
    assert a.locator("[data-friend-asked=ff_ben]").count() == 1

    # Ben sees the count on the home page; it leads to where he answers; he declines.
    b.goto(server)
    badge = b.wait_for_selector("[data-friend-requests='1']")
    assert badge is not None and badge.inner_text() == "1 friend request"
    _fits(b)
    badge.click()
    b.wait_for_selector("[data-friend-request=ff_ann]")
    b.click("[data-friend-request=ff_ann] [data-action=decline-friend]")
    assert _said(b, "declined") == "Friend request declined."
    assert b.locator("[data-friend-request]").count() == 0
    b.goto(server)
    b.wait_for_selector("[data-signed-in]")
    assert b.locator("[data-friend-requests]").count() == 0

    # Ann asks again from his profile, and withdraws.
    a.goto(f"{server}/p/ff_ben")
    a.click("[data-action=add-friend]")
    assert _said(a, "asked") == "Friend request sent."
    a.click("[data-action=withdraw-friend]")
    assert _said(a, "withdrawn") == "Friend request withdrawn."
    a.wait_for_selector("[data-action=add-friend]")

    # Once more; this time Ben accepts.
    a.click("[data-action=add-friend]")
    _said(a, "asked")
    b.goto(server)
    b.click("[data-friend-requests='1']")
    b.click("[data-friend-request=ff_ann] [data-action=accept-friend]")
    assert _said(b, "friends") == "You are friends now."
    b.wait_for_selector("[data-friend=ff_ann]")

    # Removing a friend asks first, on a page of its own.
    a.goto(f"{server}/p/ff_ben")
    a.click("[data-action=unfriend]")
    a.wait_for_selector("[data-tie-confirm=unfriend]")
    _fits(a)
    a.click("[data-action=confirm-unfriend]")
    assert _said(a, "unfriended") == "Removed from your friends."
    a.wait_for_selector("[data-action=add-friend]")

    assert a_errors == [] and b_errors == []
    ann_context.close()
    ben_context.close()
