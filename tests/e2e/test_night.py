"""A club night in real browsers: a director on a phone opens a four-pair night, registers
the pairs, draws the round and seats computer players; two people take their seats through
their own links; the board on a venue's screen follows every change live (no reload). axe
finds nothing on the night's pages."""

from __future__ import annotations

import random
from typing import Any

import httpx
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import Error as PlaywrightError

from tests.e2e.axe import check, describe
from tests.e2e.players import PHONE, take_turn

BOARD = {"width": 1920, "height": 1080}
TABLET = {"width": 820, "height": 1180}
PAIRS = [("Ann", "Bo"), ("Cy", "Di"), ("Ed", "Flo"), ("Gus", "Hal")]


def _clean(page: Page, axe: str, where: str) -> None:
    found = check(page, axe)
    assert not found, f"axe on {where}:\n{describe(found)}"


def _night(server: str, code: str) -> dict[str, Any]:
    found: dict[str, Any] = httpx.get(f"{server}/api/nights/{code}").json()
    return found


def _substitute(director: Page, table: int, seat: int) -> None:
    details = director.locator(f"[data-manage-table='{table}']")
    if details.get_attribute("open") is None:
        details.locator("summary").click()
    details.locator("select[name=seat]").select_option(str(seat))
    details.locator("[data-action=substitute]").click()
    director.wait_for_load_state()


def test_a_director_on_a_phone_runs_a_four_pair_night_and_the_board_follows(
    browser: Browser, server: str, axe: str
) -> None:
    director = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True).new_page()  # type: ignore[arg-type]
    director.goto(f"{server}/n")
    _clean(director, axe, "the night's opening form")
    director.fill("#night-name", "Friday at the club")
    director.select_option("#night-match", "1")
    director.select_option("#night-grace", "0")
    director.click("[data-action=open-night]")
    director.wait_for_url("**/direct")
    code = director.url.split("/n/")[1].split("/")[0]
    for first, second in PAIRS:
        director.fill("#first", first)
        director.fill("#second", second)
        director.click("[data-action=add-pair]")
        director.wait_for_load_state()
    # Every pair's links, in the pairs' order, each under its player's name.
    links = [link.input_value() for link in director.locator("[data-player-link]").all()]
    assert len(links) == 8
    expect(director.locator("label[for=link-1-0]")).to_have_text(PAIRS[0][0])
    _clean(director, axe, "the director's page")

    board = browser.new_context(viewport=BOARD).new_page()  # type: ignore[arg-type]
    board.goto(f"{server}/n/{code}/board")
    expect(board.locator("[data-standing]")).to_have_count(4)
    board.evaluate("window.__samePage = true")
    _clean(board, axe, "the board before the first round")

    director.click("[data-action=next-round]")
    director.wait_for_load_state()
    expect(board.locator("[data-night-table]")).to_have_count(2)  # live, no reload

    # Pair 1's two players open their own links on their phones and tap their table.
    people = []
    for link in links[:2]:
        player = browser.new_context(viewport=PHONE).new_page()  # type: ignore[arg-type]
        player.goto(link)
        expect(player.locator(".my-table h2")).to_contain_text("Your table:")
        _clean(player, axe, "a player's night")
        player.click("[data-action=sit]")
        player.wait_for_selector("#table")
        player.set_default_timeout(3000)
        people.append(player)
    night = _night(server, code)
    tables = night["rounds"][0]["tables"]
    mine = next(t for t in tables if 1 in t["pairs"])
    other = next(t for t in tables if t is not mine)
    # Computer players for the pair facing them, and a whole table of computer players.
    side = 1 - mine["pairs"].index(1)
    for seat in (side, side + 2):
        _substitute(director, mine["table"], seat)
    for seat in range(4):
        _substitute(director, other["table"], seat)
    mine_on_board = board.locator(f"[data-night-table='{mine['table']}']")
    other_on_board = board.locator(f"[data-night-table='{other['table']}']")
    expect(mine_on_board).to_have_attribute("data-state", "playing")
    # The people play a few turns at their table, as people do (the table moves on under
    # them: a card the morph replaced is clicked again at the next look).
    rng = random.Random(27)
    played = 0
    for _ in range(60):
        turn = [
            p
            for p in people
            if p.locator(
                "[data-hand] [data-legal], [data-action=stand], [data-action=run_pack]"
            ).count()
        ]
        if turn:
            try:
                take_turn(turn[0], rng)
                played += 1
            except PlaywrightError:
                pass
        if played >= 6:
            break
        people[0].wait_for_timeout(200)
    assert played >= 1
    # The computer players' table plays its match to the end: the board shows it over.
    expect(other_on_board).to_have_attribute("data-state", "over", timeout=120_000)
    # The director sets the people's match by hand: shown on the board as set by hand.
    details = director.locator(f"[data-manage-table='{mine['table']}']")
    if details.get_attribute("open") is None:
        details.locator("summary").click()
    details.locator("input[name=a]").fill("1" if mine["pairs"][0] == 1 else "0")
    details.locator("input[name=b]").fill("0" if mine["pairs"][0] == 1 else "1")
    details.locator("[data-action=correct]").click()
    director.wait_for_load_state()
    expect(mine_on_board).to_have_attribute("data-state", "over")
    expect(mine_on_board.locator(".note")).to_be_visible()
    expect(board.locator("[data-standing='1'] [data-col=wins]")).to_have_text("1")
    assert board.evaluate("window.__samePage === true")  # every change came live
    _clean(board, axe, "the board after a round")
    # The standings whole on the venue's screen: no column behind a scroll bar.
    assert board.evaluate(
        "[...document.querySelectorAll('.table-scroll')].every(e => e.scrollWidth <= e.clientWidth)"
    )

    # The next round from the phone: the board moves on by itself.
    director.click("[data-action=next-round]")
    director.wait_for_load_state()
    expect(board.locator(".round-line")).to_contain_text("Round 2 of 3")
    tablet = browser.new_context(viewport=TABLET).new_page()  # type: ignore[arg-type]
    tablet.goto(f"{server}/n/{code}/board")
    _clean(tablet, axe, "the board on a tablet")
    assert tablet.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


NARROW = {"width": 360, "height": 740}
FITS = "document.documentElement.scrollWidth <= window.innerWidth"
# The controls a finger taps: how tall each visible one is, and whether the browser's own
# grey is left on a button.
CONTROLS = """() => [...document.querySelectorAll('main button, main select, main summary')]
  .filter((e) => e.getClientRects().length)
  .map((e) => ({
    what: e.outerHTML.slice(0, 80),
    height: e.getBoundingClientRect().height,
    grey: e.tagName === 'BUTTON' && getComputedStyle(e).backgroundColor === 'rgb(239, 239, 239)',
  }))"""


def _controls_fit_a_finger(page: Page) -> None:
    small = [c for c in page.evaluate(CONTROLS) if c["height"] < 44 or c["grey"]]
    assert not small, small


def test_a_director_at_360_px_seats_computer_players_for_a_round_in_one_submit(
    browser: Browser, server: str, axe: str
) -> None:
    context = browser.new_context(viewport=NARROW, has_touch=True, is_mobile=True)  # type: ignore[arg-type]
    director = context.new_page()
    director.goto(f"{server}/n")
    director.fill("#night-name", "Thursday league at the Woodbrook-St-James-Invitational-Club")
    director.select_option("#night-grace", "0")
    director.click("[data-action=open-night]")
    director.wait_for_url("**/direct")
    code = director.url.split("/n/")[1].split("/")[0]
    long_names = [("Annabella", "Bartholomew"), ("Cyrilla", "Desmondo"), ("Ed", "Flo")]
    for first, second in [*long_names, PAIRS[3]]:
        director.fill("#first", first)
        director.fill("#second", second)
        director.click("[data-action=add-pair]")
        director.wait_for_load_state()
    expect(director.locator("[data-player-link]")).to_have_count(8)
    assert f"/n/{code}/d/" in director.locator("[data-director-link]").input_value()
    # Copy a player's link: the page says it was copied (or selected, to copy by hand).
    box = director.locator("[data-pair-links='2'] [data-link-box]").first
    box.locator("[data-copy-link]").click()
    expect(box.locator("[data-link-status]")).not_to_have_text("")
    assert director.evaluate(FITS), "the director's page is wider than the phone"
    _controls_fit_a_finger(director)

    director.click("[data-action=next-round]")
    director.wait_for_load_state()
    assert director.evaluate(FITS)
    # Seats by whose seat they are; empty before anyone comes.
    first_table = director.locator("[data-manage-table='1']")
    first_table.locator("summary").click()
    expect(first_table.locator(".seats dt")).to_have_count(4)
    assert "Seat 0" not in first_table.inner_text()
    assert director.evaluate(FITS)
    _controls_fit_a_finger(director)
    _clean(director, axe, "the director's page in a round")

    # One submit: a computer player in every empty seat of the round.
    director.click("[data-action=computer-players-round]")
    director.wait_for_load_state()
    night = _night(server, code)
    seats = [s for t in night["rounds"][0]["tables"] for s in t["seats"]]
    assert len(seats) == 8 and all(s is not None and s["bot"] for s in seats), seats
    expect(director.locator("[data-action=computer-players-table]")).to_have_count(0)
    expect(director.locator("[data-player-link]")).to_have_count(8)  # still there
    assert director.evaluate(FITS), "the director's page is wider than the phone"
    # The board on a phone: the substitutes marked, the page no wider than the screen.
    board = context.new_page()
    board.goto(f"{server}/n/{code}/board")
    expect(board.locator("[data-standing] .sub-mark")).to_have_count(4)
    assert board.evaluate(FITS), "the board is wider than the phone"
    context.close()
