"""The pages around the table in a real browser: axe-core finds nothing to report, the home
page's presets, the room code read aloud, sharing the invite, the keyboard after each lobby
action, and no sideways scrolling from 320 px to 1920 px."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from app.services.identity import grouped_code
from tests.e2e.axe import check, describe
from tests.e2e.players import (
    DESKTOP,
    PHONE,
    add_bots,
    create_room,
    has_a_move,
    is_my_turn,
    open_table,
    phase,
    script_errors,
    seat_with_bots,
    start,
    take_seat,
    take_turn,
    version,
    wait_past,
)

SIZES = [
    {"width": 320, "height": 640},
    {"width": 360, "height": 640},
    PHONE,
    {"width": 844, "height": 390},
    {"width": 1280, "height": 800},
    {"width": 1920, "height": 1080},
]

# Violations tolerated on the table and result pages, as (phase, axe rule): none. (The
# hand's toolbar role, the table's h1 and the result's contrast are fixed.)
ELSEWHERE: set[tuple[str, str]] = set()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport=DESKTOP)  # type: ignore[arg-type]
    p = context.new_page()
    yield p
    context.close()


def _clean(page: Page, axe: str, where: str, allowed: set[str] | None = None) -> None:
    found = [v for v in check(page, axe) if v["id"] not in (allowed or set())]
    assert not found, f"axe on {where}:\n{describe(found)}"


def _no_sideways_scroll(page: Page) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def test_axe_finds_nothing_on_home_how_to_play_and_the_lobby(
    browser: Browser, server: str, axe: str
) -> None:
    for viewport in (PHONE, DESKTOP):
        context = browser.new_context(viewport=viewport)  # type: ignore[arg-type]
        page = context.new_page()
        page.goto(server)
        _clean(page, axe, f"home {viewport}")
        page.click("summary:has-text('House rules')")
        _clean(page, axe, f"home with its house rules open {viewport}")
        page.goto(f"{server}/how-to-play")
        _clean(page, axe, f"how to play {viewport}")
        page.goto(f"{server}/join?code=nosuchtable")  # the home page saying so
        _clean(page, axe, f"home with an error {viewport}")
        context.close()

    code = create_room(server, seed=2)
    page = open_table(browser, server, code, viewport=PHONE)
    _clean(page, axe, "the lobby, to a newcomer")
    take_seat(page, "Ann", 0)
    _clean(page, axe, "the lobby, seated")
    add_bots(page)
    _clean(page, axe, "the lobby, full, with Start")
    watcher = open_table(browser, server, code)
    _clean(page, axe, "the lobby, watching a full table")
    watcher.context.close()
    page.context.close()


def test_axe_on_the_table_and_the_result(browser: Browser, server: str, axe: str) -> None:
    page = open_table(browser, server, create_room(server, seed=5), viewport=PHONE)
    seat_with_bots(page)
    rng = random.Random(7)
    checked: set[str] = set()
    while True:
        page.wait_for_selector("#table[data-your-turn], #table[data-phase=game_over]")
        now = phase(page)
        if now not in checked:
            allowed = {rule for (where, rule) in ELSEWHERE if where == now}
            _clean(page, axe, f"the table ({now})", allowed)
            checked.add(now)
        if now == "game_over":
            break
        v = version(page)
        take_turn(page, rng)
        wait_past(page, v)
    assert {"play", "game_over"} <= checked
    assert script_errors(page) == []
    page.context.close()


def test_the_presets_come_first_with_open_right_under_them(page: Page, server: str) -> None:
    page.set_viewport_size(PHONE)  # type: ignore[arg-type]
    page.goto(server)
    choices = page.locator("[data-preset-choice]")
    names = [choices.nth(i).get_attribute("data-preset-choice") for i in range(choices.count())]
    assert names == ["trinidad", "tournament", "tobago", "quick"]
    assert page.is_checked("[data-preset-choice=trinidad]")
    assert page.is_hidden("select[name=target]")  # folded under House rules
    button = page.locator("button[data-action=open]").bounding_box()
    assert button is not None and button["y"] + button["height"] <= PHONE["height"]

    page.check("[data-preset-choice=tournament]")
    page.click("summary:has-text('House rules')")
    assert page.input_value("select[name=game_points]") == "2"
    assert page.input_value("select[name=undertrump]") == "forbidden"
    assert page.is_checked("input[name=give_one_needs_trump]")
    page.select_option("select[name=target]", "21")  # a house game of their own
    assert page.locator("[data-preset-choice]:checked").count() == 0
    assert page.is_visible("[data-preset-custom]")
    page.select_option("select[name=target]", "14")  # back to the tournament's rules
    assert page.is_checked("[data-preset-choice=tournament]")

    page.check("[data-preset-choice=quick]")
    assert page.input_value("select[name=target]") == "7"
    assert page.input_value("select[name=undertrump]") == "allowed"
    page.click("button[data-action=open]")
    page.wait_for_selector("#table[data-phase=lobby]")
    page.click(".rules-in-force summary")
    assert "7 points" in page.inner_text(".rules-in-force")


def test_the_code_is_read_grouped_and_typed_any_way(page: Page, server: str) -> None:
    code = create_room(server, seed=1)
    page.goto(f"{server}/r/{code}")
    assert page.inner_text("[data-room-code]") == grouped_code(code)
    page.goto(server)
    page.fill("input[name=code]", "-".join(grouped_code(code).split()).upper())
    page.click("button[data-action=join-code]")
    page.wait_for_selector("#table[data-phase=lobby]")
    assert page.url == f"{server}/r/{code}"
    page.goto(f"{server}/r/{grouped_code(code)}")  # a link typed with the spaces
    page.wait_for_selector("#table[data-phase=lobby]")
    assert page.url == f"{server}/r/{code}"


SHARE_SHEET = """
window.__shared = [];
navigator.share = (data) => { window.__shared.push(data); return Promise.resolve(); };
"""


def _inside(page: Page, inner: str, outer: str) -> bool:
    box: Any = page.locator(inner).bounding_box()
    frame: Any = page.locator(outer).bounding_box()
    return bool(
        box["x"] >= frame["x"]
        and box["y"] >= frame["y"]
        and box["x"] + box["width"] <= frame["x"] + frame["width"]
        and box["y"] + box["height"] <= frame["y"] + frame["height"]
    )


def test_share_opens_the_share_sheet_where_the_browser_has_one(
    browser: Browser, server: str
) -> None:
    code = create_room(server, seed=1)
    context = browser.new_context(viewport=PHONE)  # type: ignore[arg-type]
    context.add_init_script(SHARE_SHEET)
    page = context.new_page()
    page.goto(f"{server}/r/{code}")
    share = page.locator("[data-action=share]")
    assert share.inner_text() == "Share link"
    share.click()
    page.wait_for_function("() => window.__shared.length === 1")
    shared = page.evaluate("window.__shared[0]")
    assert shared["url"] == f"{server}/r/{code}" and grouped_code(code) in shared["text"]
    assert page.inner_text("[data-share-status]") == "Link shared"
    context.close()


def test_copy_where_there_is_no_share_sheet_says_so_inside_its_box(
    browser: Browser, server: str
) -> None:
    code = create_room(server, seed=1)
    for viewport in ({"width": 320, "height": 640}, DESKTOP):
        context = browser.new_context(viewport=viewport)  # type: ignore[arg-type]
        context.grant_permissions(["clipboard-read", "clipboard-write"])
        page = context.new_page()
        page.goto(f"{server}/r/{code}")
        assert page.evaluate("typeof navigator.share") == "undefined"  # Chromium on Linux
        share = page.locator("[data-action=share]")
        assert share.inner_text() == "Copy link"
        share.click()
        page.wait_for_selector("[data-share-status]:has-text('Link copied')")
        assert page.evaluate("navigator.clipboard.readText()") == f"{server}/r/{code}"
        assert _inside(page, "[data-share-status]", "[data-invite-box]")
        assert _no_sideways_scroll(page)
        context.close()


def _focused(page: Page, attribute: str) -> str | None:
    value = page.evaluate(
        "a => document.activeElement && document.activeElement.getAttribute(a)", attribute
    )
    return None if value is None else str(value)


COUNT_SWAPS = """
window.__swaps = 0;
window.__answers = 0;  // every answer to htmx's requests, wherever its element went since
const send = XMLHttpRequest.prototype.send;
XMLHttpRequest.prototype.send = function (body) {
  this.addEventListener("loadend", () => { window.__answers += 1; });
  return send.call(this, body);
};
document.addEventListener("DOMContentLoaded", () => {
  document.body.addEventListener("htmx:sseMessage", () => { window.__swaps += 1; });
});
"""
SETTLED = "() => !document.querySelector('.htmx-swapping, .htmx-settling')"


def _act_by_keyboard(page: Page, control: str) -> None:
    """Enter on the control the focus went to, then until the action's answer and the
    stream's news of it have both been swapped in and settled (each swap replaces the
    focused control). The control is found again for the key: a late swap (someone
    connecting) may have put a new copy of it in its place."""
    _focus_on(page, control)
    v = version(page)
    swaps, answers = page.evaluate("[window.__swaps, window.__answers]")
    page.press(control, "Enter")
    wait_past(page, v)
    page.wait_for_function("n => window.__swaps > n", arg=swaps)
    page.wait_for_function("n => window.__answers > n", arg=answers)
    page.wait_for_function(SETTLED)


def _focus_on(page: Page, selector: str) -> None:
    page.wait_for_function("s => document.activeElement.matches(s)", arg=selector)


def test_the_keyboard_goes_on_to_the_next_step_after_each_lobby_action(
    browser: Browser, server: str
) -> None:
    context = browser.new_context(viewport=DESKTOP)  # type: ignore[arg-type]
    context.add_init_script(COUNT_SWAPS)
    page = context.new_page()
    page.goto(f"{server}/r/{create_room(server, seed=3)}")
    page.wait_for_function("() => window.__swaps > 0")  # the stream's first table
    page.fill("input[name=name]", "Ann")
    page.focus("[data-action=join][data-seat='0']")
    # Sits down: the stream reopens for the seat, with a table.
    _act_by_keyboard(page, "[data-action=join][data-seat='0']")
    assert page.get_attribute("#table", "data-you") == "0"
    for seat in (1, 2, 3):  # to each empty seat in turn, adding a computer player there
        _act_by_keyboard(page, f"[data-action=bot][data-seat='{seat}']")
    _act_by_keyboard(page, "[data-action=start]")
    _focus_on(page, "[data-hand] [tabindex='0'], .beg-step button:not([disabled])")
    context.close()


def test_no_sideways_scroll_on_the_pages_around_the_table(browser: Browser, server: str) -> None:
    code = create_room(server, seed=1)
    for viewport in SIZES:
        context = browser.new_context(viewport=viewport)  # type: ignore[arg-type]
        page = context.new_page()
        for url in ("/", "/how-to-play", f"/r/{code}"):
            page.goto(server + url)
            assert _no_sideways_scroll(page), (viewport, url)
        context.close()


AT_THE_TABLE = (
    "() => document.activeElement !== document.body"
    " && document.activeElement.closest('#table') !== null"
    " && !document.activeElement.closest('.hand-summary')"
)


def test_the_keyboard_stays_at_the_table_through_a_hands_end_and_its_summary(
    browser: Browser, server: str
) -> None:
    """A hand played by keyboard: the last card goes, the lift is swept, the new deal comes in
    and the keyboard is in it (not on the page's body); OK on the summary moves it on to the
    next thing to do, and the tables that follow (here: the partner's page closes, which the
    stream tells as "away") leave it there."""
    code = create_room(server, seed=5)
    page = open_table(browser, server, code)
    take_seat(page, "Ann", 0)
    partner = open_table(browser, server, code)
    take_seat(partner, "Cy", 2)
    add_bots(page, (1, 3))
    start(page)
    rng = random.Random(5)
    summary = ".hand-summary:not([hidden]) [data-dismiss-summary]"
    while not page.locator(summary).count():
        v = version(page)
        if any(is_my_turn(p) and not has_a_move(p) for p in (partner, page)):
            # A page seen as away under load: the away cover moves for it (no control shown).
            page.wait_for_timeout(10)
            continue
        if is_my_turn(partner):
            try:
                take_turn(partner, rng, timeout=2000)
            except PlaywrightTimeoutError:
                continue  # the control went under the finger (covered as away): look again
        elif is_my_turn(page):
            legal = page.locator("[data-hand] [data-legal]")
            if n := legal.count():  # the card by keyboard: to it, then Enter
                try:
                    legal.nth(rng.randrange(n)).focus(timeout=2000)
                except PlaywrightTimeoutError:
                    continue  # the hand changed under the finger (covered as away): look again
                page.keyboard.press("Enter")
            else:
                take_turn(page, rng)
        else:  # a computer player's move on its way
            page.wait_for_timeout(10)
            continue
        wait_past(page, v)
    # Once the last lift has been swept, the summary shows and the new deal's hand with it.
    page.wait_for_selector(f"html:not(.sweeping) {summary}", state="visible")
    page.wait_for_function(AT_THE_TABLE)
    page.focus(summary)
    page.keyboard.press("Enter")
    page.wait_for_function(AT_THE_TABLE)
    page.evaluate(
        """() => {
          window.__focused = document.activeElement;
          window.__tables = 0;
          document.body.addEventListener("htmx:afterSwap", (e) => {
            if (e.target.id === "live") window.__tables += 1;
          });
        }"""
    )
    partner.context.close()
    page.wait_for_function("() => window.__tables > 0")
    assert page.evaluate("() => document.activeElement === window.__focused")
    page.wait_for_function(AT_THE_TABLE)
    assert script_errors(page) == []
    page.context.close()
