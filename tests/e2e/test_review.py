"""The review of a finished game on its replay page, in a real browser: "Review this game"
asks for it, a progress bar follows the worker process, then each seat's summary shows and
each costly decision is listed and marked in the replay with the better choice."""

from __future__ import annotations

import re

import httpx
from playwright.sync_api import Browser, expect

from tests.e2e.conftest import ADMIN
from tests.e2e.players import open_table, script_errors, seat_with_bots
from tests.e2e.test_replay import finished_game, open_page

DEADLINE_MS = 180_000  # a bound on waiting for the worker, not a speed requirement


def test_the_replay_asks_for_the_review_and_shows_it(server: str, browser: Browser) -> None:
    code, _ = finished_game(server)
    # read in French: its decimal comma and its singular are review.js's own to write
    page, errors = open_page(browser, f"{server}/r/{code}/games/1/replay?lang=fr")
    button = page.locator("[data-review] [data-action='review']")
    expect(button).to_be_visible()
    button.click()
    seats = page.locator("[data-review-seat]")
    expect(seats).to_have_count(4, timeout=DEADLINE_MS)
    for line in seats.all_inner_texts():
        assert_the_french_seat_line_counts_in_french(line)
    expect(button).to_be_hidden()
    expect(page.locator("[data-review-progress]")).to_be_hidden()
    costly = page.locator(".review-costly li[data-costly]")
    marked = page.locator("section[data-hand] [data-costly][data-better]")
    if costly.count():
        assert marked.count() >= 1
        assert marked.first.get_attribute("data-better")
    else:
        expect(page.locator(".review-none")).to_be_visible()
    # Asked once: a page opened later shows it at once, without asking again.
    again, more = open_page(browser, f"{server}/r/{code}/games/1/replay")
    expect(again.locator("[data-review-seat]")).to_have_count(4)
    expect(again.locator("[data-review] [data-action='review']")).to_be_hidden()
    assert not errors and not more, errors + more


FRENCH_SEAT = re.compile(
    r"\u202f: (\d+) (décision coûteuse|décisions coûteuses) sur \d+, (\d+,\d\d) points perdus"
)


def assert_the_french_seat_line_counts_in_french(line: str) -> None:
    """What broke: review.js wrote "0.42" in every language and "1 décisions coûteuses" (the
    seat's line had no singular)."""
    found = FRENCH_SEAT.search(line)
    assert found, line
    costly, words = int(found.group(1)), found.group(2)
    assert words == ("décision coûteuse" if costly <= 1 else "décisions coûteuses"), line


def test_the_result_page_asks_for_the_review(server: str, browser: Browser) -> None:
    code, _ = finished_game(server)
    page, errors = open_page(browser, f"{server}/r/{code}")
    page.locator("[data-action='review']").click()
    page.wait_for_url(f"{server}/r/{code}/games/1/replay#review")
    expect(page.locator("[data-review-seat]")).to_have_count(4, timeout=DEADLINE_MS)
    assert not errors, errors


def test_a_practice_table_gives_a_hint_at_your_turn(server: str, browser: Browser) -> None:
    r = httpx.post(
        f"{server}/api/rooms",
        json={"rules": {"target": 7}, "seed": 16, "options": {"hints": True}},
        headers={"Authorization": f"Bearer {ADMIN}"},
    )
    r.raise_for_status()
    code = r.json()["code"]
    page = open_table(browser, server, code, lang="fr")
    seat_with_bots(page)
    expect(page.locator("[data-action='hint']")).to_be_visible(timeout=DEADLINE_MS)
    page.locator("[data-action='hint']").click()
    expect(page.locator("[data-hint]")).to_contain_text("Indice", timeout=DEADLINE_MS)
    assert not script_errors(page)


PHONE = {"width": 360, "height": 640}


def test_the_review_reads_on_a_phone_by_tapping(server: str, browser: Browser) -> None:
    """What broke on a phone: why a card was costly was a hover title (a phone shows none),
    and the bar ran for a minute with no word of what it was doing."""
    code, _ = finished_game(server, level="easy")  # rules of thumb: costly cards to show
    page, errors = open_page(browser, f"{server}/r/{code}/games/1/replay?lang=en", PHONE)
    page.locator("[data-review] [data-action='review']").click()
    status = page.locator("[data-review-status]")
    expect(status).to_have_attribute("role", "status")
    expect(status).to_contain_text(re.compile(r"Waiting for the server|Judging each decision"))
    expect(page.locator("[data-review-seat]")).to_have_count(4, timeout=DEADLINE_MS)
    expect(status).to_be_hidden()
    for line in page.locator("[data-review-seat]").all_inner_texts():
        assert not re.search(r"\b1 costly decisions\b", line), line
    opens = page.locator("section[data-hand] [data-costly] [data-costly-open]")
    assert opens.count() >= 1
    first = opens.first
    # to its step of the replay: the hand (and lift) the mark is in
    hand = first.evaluate("b => b.closest('section[data-hand]').getAttribute('data-hand')")
    lift = first.evaluate(
        "b => { const l = b.closest('[data-lift]'); return l ? l.getAttribute('data-lift') : '0'; }"
    )
    page.goto(f"{server}/r/{code}/games/1/replay?hand={hand}&lift={lift}&lang=en")
    first = page.locator("section[data-hand] [data-costly] [data-costly-open]").first
    expect(first).to_be_visible(timeout=DEADLINE_MS)
    note = page.locator("#" + str(first.get_attribute("aria-controls")))
    expect(note).to_be_hidden()
    expect(first).to_have_attribute("aria-expanded", "false")
    first.click()  # a phone's tap is this click
    expect(first).to_have_attribute("aria-expanded", "true")
    expect(note).to_be_visible()
    expect(note).to_contain_text("was better")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    first.click()
    expect(note).to_be_hidden()
    assert not errors, errors
