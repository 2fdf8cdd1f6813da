"""Today's boards on a 360 px phone (issue #49): a guest opens /daily from the home page,
plays the day's boards at their table by clicks, reads each board's traveller after it and,
at the end, the day's ranking with their own line in it."""

from __future__ import annotations

import random
import time

from playwright.sync_api import Browser, Page

from tests.e2e.conftest import DAILY_BOARDS
from tests.e2e.players import has_a_move, phase, script_errors, take_turn

PHONE_360 = {"width": 360, "height": 740}
DEADLINE_S = 240  # a bound on a board's play, not a speed requirement


def _play_board(page: Page, rng: random.Random) -> None:
    deadline = time.monotonic() + DEADLINE_S
    while phase(page) != "game_over":
        assert time.monotonic() < deadline, "the board did not end"
        if has_a_move(page):
            try:
                take_turn(page, rng, timeout=2000)
            except Exception:  # a control gone from under the finger: look again
                continue
        else:
            page.wait_for_timeout(50)


def _fits(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE_360["width"], f"{page.url} is {width} px wide"


def test_a_person_plays_today_s_boards_and_reads_the_ranking(browser: Browser, server: str) -> None:
    context = browser.new_context(viewport=PHONE_360)  # type: ignore[arg-type]
    page = context.new_page()
    errors = script_errors(page)
    page.goto(f"{server}/")
    page.click('[data-link="daily"]')
    page.wait_for_url("**/daily")
    _fits(page)
    page.click('[data-action="play-daily"]')
    page.wait_for_url("**/r/*")
    rng = random.Random(49)
    for board in range(1, DAILY_BOARDS + 1):
        _play_board(page, rng)
        assert page.locator(f'[data-board-result="{board}"]').count() == 1
        page.click('[data-link="daily"]')
        page.wait_for_url("**/daily")
        _fits(page)
        assert page.locator(f'[data-daily-board="{board}"][data-played]').count() == 1
        traveller = page.locator(f'[data-traveller="{board}"]')
        assert traveller.count() == 1 and traveller.locator("tr[data-you]").count() == 1
        assert page.locator(f'[data-traveller="{board + 1}"]').count() == 0  # R33
        if board < DAILY_BOARDS:
            page.click('[data-link="daily-table"]')
            page.wait_for_url("**/r/*")
            page.click('[data-action="rematch"]')
            page.wait_for_function(
                "() => document.querySelector('#table')?.dataset.phase !== 'game_over'"
            )
    assert page.locator("[data-daily-done]").count() == 1
    ranking = page.locator("[data-ranking] li[data-you]")
    assert ranking.count() == 1 and "%" in ranking.inner_text()
    assert not errors, errors
    context.close()
