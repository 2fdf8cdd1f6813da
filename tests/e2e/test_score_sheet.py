"""The score sheet in a real browser (issue 14): opened from the table mid-game by keyboard
and by tap on a phone, closed with Escape (focus back on its control), the same hands as the
hand records, public facts only for a spectator, shown by itself on the result page; axe
finds nothing on it."""

from __future__ import annotations

import random
from typing import Any

import httpx
from playwright.sync_api import Browser, Page

from tests.e2e.axe import check, describe
from tests.e2e.players import (
    PHONE,
    create_room,
    open_table,
    phase,
    script_errors,
    seat_with_bots,
    take_turn,
    version,
    wait_past,
)


def _records(server: str, code: str) -> list[dict[str, Any]]:
    """The finished deals as a spectator may see them (GET /api/rooms/{code}/hands/{n})."""
    out: list[dict[str, Any]] = []
    while True:
        r = httpx.get(f"{server}/api/rooms/{code}/hands/{len(out) + 1}")
        if r.status_code == 404:
            return out
        r.raise_for_status()
        out.append(r.json())


def _play_until(page: Page, rng: random.Random, server: str, code: str, hands: int) -> None:
    """My moves (the bots play at once) until ``hands`` deals are over, or the game is."""
    while len(_records(server, code)) < hands:
        page.wait_for_selector("#table[data-your-turn], #table[data-phase=game_over]")
        if phase(page) == "game_over":
            return
        v = version(page)
        take_turn(page, rng)
        wait_past(page, v)
    page.wait_for_selector("#table[data-your-turn], #table[data-phase=game_over]")


def _sheet_matches(page: Page, where: str, records: list[dict[str, Any]]) -> None:
    hands = page.locator(f"{where} [data-score-sheet] [data-sheet-hand]")
    assert hands.count() == len(records)
    for i, record in enumerate(records):
        hand = hands.nth(i)
        assert hand.get_attribute("data-sheet-hand") == str(record["n"])
        after = " ".join(hand.locator(".sheet-after").inner_text().split())
        assert all(str(score) in after for score in record["scores_after"])
        assert hand.locator("[data-award]").count() == len(record["awards"])
        redeal = "redeal" in (hand.get_attribute("class") or "").split()
        assert redeal == record["redeal"] == (hand.locator(".sheet-redeal").count() == 1)


def _open_by_keyboard(page: Page) -> None:
    page.focus("[data-open-sheet]")
    page.keyboard.press("Enter")
    page.wait_for_selector("#sheet-dialog[open] #sheet-body [data-score-sheet]")


def test_the_sheet_opens_mid_game_by_keyboard_and_closes_with_escape(
    browser: Browser, server: str, axe: str
) -> None:
    code = create_room(server, seed=16, target=14)
    page = open_table(browser, server, code)
    seat_with_bots(page, "Ann")
    _play_until(page, random.Random(4), server, code, 2)
    assert phase(page) != "game_over", "pick a seed whose game lasts more than two deals"
    records = _records(server, code)

    _open_by_keyboard(page)
    _sheet_matches(page, "#sheet-dialog", records)
    assert "You & " in page.inner_text("#sheet-dialog")
    found = check(page, axe)
    assert not found, f"axe with the score sheet open:\n{describe(found)}"
    page.keyboard.press("Escape")
    page.wait_for_selector("#sheet-dialog", state="hidden")
    assert page.evaluate("document.activeElement.hasAttribute('data-open-sheet')")

    # Open again after more play: the sheet is fetched afresh, with the new deal on it.
    _play_until(page, random.Random(5), server, code, len(records) + 1)
    if phase(page) != "game_over":
        _open_by_keyboard(page)
        _sheet_matches(page, "#sheet-dialog", _records(server, code))
        page.click("[data-close-sheet]")
        page.wait_for_selector("#sheet-dialog", state="hidden")

    # Left open while the deal ends: the finished deal comes onto the sheet by itself. My
    # last card is sent by the page's own form endpoint (the open dialog covers the table).
    rng = random.Random(8)
    while phase(page) != "game_over" and not (
        phase(page) == "play" and page.locator("[data-hand] .hand-card").count() == 1
    ):
        v = version(page)
        take_turn(page, rng)
        wait_past(page, v)
        page.wait_for_selector("#table[data-your-turn], #table[data-phase=game_over]")
    assert phase(page) == "play", "pick a seed whose game lasts longer"
    before = len(_records(server, code))
    _open_by_keyboard(page)
    assert page.locator("#sheet-dialog [data-sheet-hand]").count() == before
    page.evaluate(
        """([code, card, version]) => fetch(`/r/${code}/act`, {method: "POST",
          body: new URLSearchParams({type: "play", card: card, version: version})})""",
        [code, page.get_attribute("[data-hand] [data-legal]", "data-card"), version(page)],
    )
    page.wait_for_function(
        "n => document.querySelectorAll('#sheet-dialog [data-sheet-hand]').length > n",
        arg=before,
    )
    _sheet_matches(page, "#sheet-dialog", _records(server, code))
    page.keyboard.press("Escape")

    # A spectator's sheet: the same deals, the teams by their players' names.
    watcher = open_table(browser, server, code)
    _open_by_keyboard(watcher)
    _sheet_matches(watcher, "#sheet-dialog", _records(server, code))
    assert "You" not in watcher.inner_text("#sheet-dialog")
    assert script_errors(page) == [] and script_errors(watcher) == []
    watcher.context.close()
    page.context.close()


def test_on_a_phone_the_sheet_fits_the_screen_and_the_result_shows_it(
    browser: Browser, server: str, axe: str
) -> None:
    code = create_room(server, seed=9)
    page = open_table(browser, server, code, viewport=PHONE)
    seat_with_bots(page, "Ann")
    rng = random.Random(6)
    _play_until(page, rng, server, code, 1)
    assert phase(page) != "game_over"

    page.click("[data-open-sheet]")
    page.wait_for_selector("#sheet-dialog[open] [data-score-sheet]")
    _sheet_matches(page, "#sheet-dialog", _records(server, code))
    box = page.locator("#sheet-dialog").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.keyboard.press("Escape")
    page.wait_for_selector("#sheet-dialog", state="hidden")

    _play_until(page, rng, server, code, 10**6)  # to the end of the game
    assert phase(page) == "game_over"
    page.wait_for_selector("#result-sheet [data-score-sheet]")
    records = _records(server, code)
    _sheet_matches(page, "#result-sheet", records)
    assert len(records) >= 2
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    found = check(page, axe)
    assert not found, f"axe on the result with its sheet:\n{describe(found)}"

    # A reload of the finished game's page loads the sheet again by itself.
    page.reload()
    page.wait_for_selector("#result-sheet [data-score-sheet]")
    _sheet_matches(page, "#result-sheet", records)
    assert script_errors(page) == []
    page.context.close()
