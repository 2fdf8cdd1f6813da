"""Keyboard, screen reader, tab title, deck colours, and a connection that drops."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from tests.e2e.conftest import ADMIN
from tests.e2e.players import (
    create_room,
    hand,
    is_my_turn,
    open_table,
    phase,
    seat_with_bots,
    take_turn,
    version,
    wait_past,
)
from tests.live.server import ServerProcess
from tests.web.dom import parse

RANK_WORDS = {"A": "Ace", "K": "King", "Q": "Queen", "J": "Jack", "T": "10"}
SUIT_WORDS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


def _name(card: str) -> str:
    return f"{RANK_WORDS.get(card[0], card[0])} of {SUIT_WORDS[card[1]]}"


def _until_my_card_turn(page: Page, rng: random.Random) -> None:
    """Play on (bots move at once) until it is my turn to play a card."""
    while True:
        page.wait_for_selector("#table[data-your-turn]")
        if phase(page) == "play":
            return
        v = version(page)
        take_turn(page, rng)
        wait_past(page, v)


def test_arrows_move_across_the_hand_and_enter_plays(browser: Browser, server: str) -> None:
    page = open_table(browser, server, create_room(server, seed=31))
    seat_with_bots(page)
    _until_my_card_turn(page, random.Random(1))
    assert page.title().startswith("● Your turn")

    cards = hand(page)
    legal = page.eval_on_selector_all(
        "[data-hand] [data-legal]", "els => els.map(e => e.dataset.card)"
    )
    page.focus("[data-hand] [tabindex='0']")
    page.keyboard.press("Home")
    assert page.evaluate("document.activeElement.dataset.card") == cards[0]
    target = cards.index(legal[-1])
    for _ in range(target):
        page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.dataset.card") == legal[-1]
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none"  # the focus is visible

    v = version(page)
    page.keyboard.press("Enter")
    wait_past(page, v)
    assert legal[-1] not in hand(page)
    page.wait_for_function("() => !!document.activeElement.closest('[data-hand]')")  # still there
    page.wait_for_function(
        "t => document.querySelector('#announcer').textContent.includes(t)",
        arg=f"You played {_name(legal[-1])}",
    )
    page.context.close()


def test_a_refused_card_says_why_when_tapped(browser: Browser, server: str) -> None:
    page = open_table(browser, server, create_room(server, seed=8))
    seat_with_bots(page)
    rng = random.Random(4)
    while True:  # until a trick is led and I cannot play some card
        _until_my_card_turn(page, rng)
        refused = page.locator("[data-hand] [data-reason][aria-disabled=true].refused")
        if refused.count():
            break
        v = version(page)
        take_turn(page, rng)
        wait_past(page, v)
        assert phase(page) != "game_over"
    reason = refused.first.get_attribute("data-reason") or ""
    assert "must" in reason  # "You must follow hearts or play a trump"
    refused.first.click(force=True)  # aria-disabled: Playwright would wait for it to enable
    assert page.inner_text("#toast") == reason
    page.context.close()


def test_the_four_colour_deck_is_one_tap_and_remembered(browser: Browser, server: str) -> None:
    page = open_table(browser, server, create_room(server, seed=3))
    colour = "getComputedStyle(document.querySelector('.suit-D') || document.body).color"
    page.evaluate("document.body.insertAdjacentHTML('beforeend', '<i class=suit-D>x</i>')")
    red = page.evaluate(colour)
    page.click("[data-pref=deck]")
    assert page.get_attribute("html", "data-deck") == "four"
    assert page.evaluate(colour) != red
    page.reload()
    assert page.get_attribute("html", "data-deck") == "four"
    page.context.close()


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[ServerProcess]:
    """A server of this test's own, to stop and start again."""
    proc = ServerProcess(
        f"sqlite:///{tmp_path / 'allfours.db'}", tmp_path / "server.log", ALLFOURS_ADMIN_TOKEN=ADMIN
    ).start()
    try:
        yield proc
    finally:
        proc.stop()


def test_a_dropped_connection_shows_reconnecting_then_resumes_from_a_snapshot(
    browser: Browser, own_server: ServerProcess
) -> None:
    code = create_room(own_server.url, seed=12)
    page = open_table(browser, own_server.url, code)
    seat_with_bots(page)
    page.wait_for_selector("#table[data-your-turn]")
    assert page.is_hidden("#conn")

    own_server.stop()
    page.wait_for_selector("#conn", state="visible")
    assert "Reconnecting" in page.inner_text("#conn")

    own_server.start()  # same port, same database
    page.wait_for_selector("#conn", state="hidden")
    v = version(page)
    assert is_my_turn(page)
    take_turn(page, random.Random(2))  # the game goes on over the new connection
    wait_past(page, v)
    assert len(parse(page.inner_html("#live"))) > 0
    page.context.close()


def test_copy_invite_link_puts_the_room_address_on_the_clipboard(
    browser: Browser, server: str
) -> None:
    code = create_room(server, seed=1)
    page = open_table(browser, server, code)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.click("[data-action=share]")  # Copy: Chromium on Linux has no share sheet
    page.wait_for_selector("[data-share-status]:has-text('Link copied')")
    assert page.evaluate("navigator.clipboard.readText()") == f"{server}/r/{code}"
    assert page.input_value("#invite-link") == f"{server}/r/{code}"
    page.context.close()


def test_a_page_coming_back_into_view_fetches_a_fresh_table(browser: Browser, server: str) -> None:
    """A phone that slept: when the page is shown again it asks for a snapshot at once,
    without waiting for its stream to notice that the connection died."""
    code = create_room(server, seed=4)
    page = open_table(browser, server, code)
    fetched: list[str] = []
    page.on("request", lambda r: fetched.append(r.url) if "/table" in r.url else None)
    switch = """hidden => {
      Object.defineProperty(document, 'hidden', {value: hidden, configurable: true});
      document.dispatchEvent(new Event('visibilitychange'));
    }"""
    page.evaluate(switch, True)
    page.evaluate(switch, False)
    page.wait_for_function("() => document.querySelector('#table') !== null")
    page.wait_for_load_state("networkidle")
    assert fetched == [f"{server}/r/{code}/table?lang=en"]  # in the page's language
    page.context.close()


def test_opening_a_table_from_the_home_page_and_joining_by_code(
    browser: Browser, server: str
) -> None:
    context = browser.new_context()
    page = context.new_page()
    page.goto(server)
    page.click("summary:has-text('House rules')")
    page.select_option("select[name=target]", "7")
    page.check("input[name=give_one_can_win]")
    page.click("button:has-text('Open a table with these rules')")
    page.wait_for_selector("#table[data-phase=lobby]")
    code = page.url.rsplit("/r/", 1)[1]
    page.click(".rules-in-force summary")
    rules = page.inner_text(".rules-in-force")
    assert "7 points" in rules and "Give one can win" in rules and "(house rule)" in rules

    friend = browser.new_context().new_page()
    friend.goto(server)
    friend.fill("input[name=code]", code)
    friend.click("button:has-text('Join')")
    friend.wait_for_selector("#table[data-phase=lobby]")
    assert friend.url == f"{server}/r/{code}"
    friend.context.close()
    context.close()
