"""A club's season in real browsers: a club admin on a 360 px phone opens a club, makes an
invite link (three players join by it, one pressing Join on the page it opens), starts a
season and runs two nights of it from the club's page (pairs by @handle, the round drawn,
each table's result set by the director's form to speed play), and the club's page and the
season's board show the season's standings with both nights counted. Nothing wider than the
screen; axe finds nothing on the club's page."""

from __future__ import annotations

from typing import Any

import httpx
from playwright.sync_api import Browser, Page, expect

from app.api.context import PLAYER_COOKIE
from tests.e2e.axe import check, describe

PHONE_360 = {"width": 360, "height": 740}
BOARD = {"width": 1920, "height": 1080}
PAIRS = [("kai", "lea"), ("moe", "nat")]
# A club's name as long as it may be (80 characters), with nowhere to break.
LONG_NAME = "UnitySportsClubOfPortOfSpainAndSanFernando" + "x" * 38


def _profile(server: str, handle: str) -> str:
    r = httpx.post(f"{server}/api/players", json={"handle": handle, "name": handle.title()})
    assert r.status_code == 201, r.text
    return str(r.json()["key"])


def _fits(page: Page, where: str) -> None:
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= PHONE_360["width"], f"{where} is {wide} px wide"


def _night(admin: Page, name: str, results: list[tuple[int, int]]) -> str:
    """From the club's page: a night of the season, its two pairs, one round, its result."""
    admin.fill("#club-night-name", name)
    admin.click("[data-action=open-club-night]")
    admin.wait_for_url("**/direct")
    code = admin.url.split("/n/")[1].split("/")[0]
    for first, second in PAIRS:
        admin.fill("#first", f"@{first}")
        admin.fill("#second", f"@{second}")
        admin.click("[data-action=add-pair]")
        admin.wait_for_load_state()
    admin.click("[data-action=next-round]")
    admin.wait_for_load_state()
    _fits(admin, "the club night's director page")
    details = admin.locator("[data-manage-table='1']")
    details.locator("summary").click()
    a, b = results[0]
    admin.fill("#a-1", str(a))
    admin.fill("#b-1", str(b))
    details.locator("[data-action=correct]").click()
    admin.wait_for_load_state()
    return code


def test_a_club_admin_on_a_phone_runs_two_nights_of_a_season(
    browser: Browser, server: str, axe: str
) -> None:
    key = _profile(server, "ora")
    others = {h: _profile(server, h) for pair in PAIRS for h in pair if h != "ora"}
    context = browser.new_context(viewport=PHONE_360, has_touch=True, is_mobile=True)  # type: ignore[arg-type]
    context.add_cookies([{"name": PLAYER_COOKIE, "value": key, "url": server}])
    admin = context.new_page()
    admin.goto(f"{server}/c")
    admin.fill("#club-name", LONG_NAME)
    admin.click("[data-action=open-club]")
    admin.wait_for_url("**/c/*")
    club = admin.url.rsplit("/", 1)[1]
    admin.click("[data-action=invite]")
    link = admin.locator("[data-invite-link]").input_value()  # whole, with this server's
    token = link.rsplit("/", 1)[1]
    # The first opens the link on their phone: a page naming the club, and Join pressed.
    (_, newcomer), *rest = others.items()
    joiner = browser.new_context(viewport=PHONE_360, has_touch=True, is_mobile=True)  # type: ignore[arg-type]
    joiner.add_cookies([{"name": PLAYER_COOKIE, "value": newcomer, "url": server}])
    page = joiner.new_page()
    page.goto(link)
    expect(page.locator("h1")).to_contain_text(LONG_NAME)
    _fits(page, "the invite link's page")
    page.click("[data-action=join-club]")
    page.wait_for_url(f"**/c/{club}")
    joiner.close()
    for handle, their_key in rest:
        r = httpx.post(
            f"{server}/api/clubs/{club}/join",
            json={"invite": token},
            headers={"Authorization": f"Bearer {their_key}"},
        )
        assert r.status_code == 200, (handle, r.text)
    admin.goto(f"{server}/c/{club}")
    expect(admin.locator("[data-member]")).to_have_count(5)
    _fits(admin, "the club's page with a long name")
    admin.fill("#season-name", "Spring 2027")
    admin.click("[data-action=start-season]")
    admin.wait_for_url(f"**/c/{club}")

    first = _night(admin, "Week 1", [(2, 1)])
    admin.click("[data-club-link]")  # back to the club's page from the night's
    admin.wait_for_url(f"**/c/{club}")
    second = _night(admin, "Week 2", [(0, 2)])
    admin.click("[data-club-link]")
    admin.wait_for_url(f"**/c/{club}")

    expect(admin.locator("[data-night]")).to_have_count(2)
    expect(admin.locator("[data-night-winner]")).to_have_count(2)  # each night's result
    lines = admin.locator("[data-season-standings=pairs] [data-season-line]")
    expect(lines).to_have_count(2)
    for line in lines.all():
        expect(line.locator("[data-col=nights]")).to_have_text("2")
        expect(line.locator("[data-col=played]")).to_have_text("2")
        expect(line.locator("[data-col=wins]")).to_have_text("1")
    players = admin.locator("[data-season-standings=players] [data-season-line]")
    expect(players).to_have_count(4)
    _fits(admin, "the club's page")
    found = check(admin, axe)
    assert not found, f"axe on the club's page:\n{describe(found)}"

    season: dict[str, Any] = httpx.get(f"{server}/api/clubs/{club}").json()
    assert [n["code"] for n in season["nights"]] == [first, second]
    kai_lea = next(x for x in season["standings"]["pairs"] if x["players"][0]["handle"] == "kai")
    assert kai_lea["bullseyes_for"] == 2 + 0 and kai_lea["bullseyes_against"] == 1 + 2

    board = browser.new_context(viewport=BOARD).new_page()  # type: ignore[arg-type]
    board.goto(f"{server}/c/{club}/board")
    expect(board.locator("[data-season-standings=pairs] [data-season-line]")).to_have_count(2)
