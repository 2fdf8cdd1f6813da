"""A match in a real browser: a player and three computer players play to 2 bullseyes; the
scoreboard and the result page keep the tally, the live region says who won the match,
Rematch then starts a new one at 0-0, and the stats page (from the result page) counts the
games with a replay link each."""

from __future__ import annotations

import random

import httpx
from playwright.sync_api import Browser, Page

from tests.e2e.axe import check, describe
from tests.e2e.conftest import ADMIN
from tests.e2e.players import (
    DESKTOP,
    PHONE,
    open_table,
    phase,
    script_errors,
    seat_with_bots,
    take_turn,
    version,
    wait_past,
)
from tests.e2e.test_replay import finished_game, open_page

DASH = "\N{EN DASH}"


def _room(server: str) -> str:
    r = httpx.post(
        f"{server}/api/rooms",
        json={"rules": {"target": 7}, "seed": 15, "options": {"match": 2}},
        headers={"Authorization": f"Bearer {ADMIN}"},
    )
    r.raise_for_status()
    code: str = r.json()["code"]
    return code


def _play_out(page: Page, rng: random.Random) -> None:
    """My moves by clicking (the computer players play at once) until the game is over."""
    while True:
        page.wait_for_selector("#table[data-your-turn], #table[data-phase=game_over]")
        if phase(page) == "game_over":
            return
        v = version(page)
        take_turn(page, rng)
        wait_past(page, v)


def test_a_match_to_two_bullseyes_then_a_new_match(browser: Browser, server: str) -> None:
    code = _room(server)
    page = open_table(browser, server, code)
    seat_with_bots(page)
    rng = random.Random(15)
    tally = [0, 0]  # Ann's team first: she sits in seat 0
    games = 0
    while True:
        assert page.inner_text(".scoreboard [data-match]").startswith(
            f"Bullseyes {tally[0]}{DASH}{tally[1]}"
        )
        _play_out(page, rng)
        games += 1
        winner = httpx.get(f"{server}/api/rooms/{code}").json()["winner"]
        tally[winner] += 1
        line = page.inner_text("[data-match-result]")
        assert f"Bullseyes {tally[0]}{DASH}{tally[1]}" in line
        if max(tally) == 2:
            break
        assert page.locator("[data-match-over]").count() == 0
        v = version(page)
        page.click("[data-action=rematch]")
        wait_past(page, v)
    # The match is won: on the result page and in the live region.
    assert page.locator("[data-match-over]").count() == 1
    assert "win the match!" in page.inner_text("[data-match-result]")
    page.wait_for_function(
        "() => document.querySelector('#announcer').textContent.includes('win the match')"
    )
    # The stats, from the result page: each game with its replay.
    page.click("[data-link=stats]")
    page.wait_for_selector("[data-stats]")
    assert page.locator("[data-stats-partnerships] [data-stats-row]").count() == 2
    assert page.locator("[data-stats-players] [data-stats-row]").count() == 4
    links = page.locator("[data-stats-games] [data-link=replay]")
    assert links.count() == games
    bullseyes = page.locator("[data-stats-partnerships] [data-stat=bullseyes]").all_inner_texts()
    assert sorted(int(b) for b in bullseyes) == sorted(tally)
    links.first.click()
    page.wait_for_selector("[data-replay]")
    # Back at the table, Rematch starts a new match.
    page.goto(f"{server}/r/{code}")
    page.wait_for_selector("#table[data-phase=game_over]")
    v = version(page)
    page.click("[data-action=rematch]")
    wait_past(page, v)
    assert page.inner_text(".scoreboard [data-match]").startswith(f"Bullseyes 0{DASH}0")
    assert script_errors(page) == []
    page.context.close()


def test_axe_finds_nothing_on_the_stats_page(browser: Browser, server: str, axe: str) -> None:
    code, _ = finished_game(server)
    for viewport in (PHONE, DESKTOP):
        page, errors = open_page(browser, f"{server}/r/{code}/stats", viewport)
        page.wait_for_selector("[data-stats-players]")
        found = check(page, axe)
        assert not found, f"axe on the stats page {viewport}:\n{describe(found)}"
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        assert errors == []
        page.context.close()
