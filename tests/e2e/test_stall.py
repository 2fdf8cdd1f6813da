"""Nobody stalls the table, in the browser (issue 15): a latecomer takes a computer player's
seat, the away countdown and the turn timer's ring show on the seat to act and count down
without an inline style (the strict CSP), and the host alone gets the seat controls."""

from __future__ import annotations

import re
from typing import Any

import httpx
from playwright.sync_api import Browser

from tests.e2e.players import open_table, script_errors

Json = dict[str, Any]


def api_room(server: str, options: Json | None = None) -> tuple[str, str]:
    """A room with Ann (API only, no stream: away when it is her turn) and three bots."""
    code = httpx.post(f"{server}/api/rooms", json={"options": options or {}}).json()["code"]
    ann = httpx.post(f"{server}/api/rooms/{code}/join", json={"name": "Ann"}).json()["token"]
    for seat in (1, 2, 3):
        r = httpx.post(
            f"{server}/api/rooms/{code}/bots",
            json={"seat": seat},
            headers={"Authorization": f"Bearer {ann}"},
        )
        r.raise_for_status()
    return code, ann


def test_a_latecomer_takes_a_bots_seat_in_the_lobby(browser: Browser, server: str) -> None:
    code, _ = api_room(server)
    page = open_table(browser, server, code)
    takes = page.locator("[data-action=take-seat]")
    assert takes.count() == 3  # the table is full of bots and Ann: the bots' seats are offered
    page.fill("input[name=name]", "Zoe")
    page.click("[data-action=take-seat][data-seat='2']")
    page.wait_for_selector("#table[data-you='2']")
    seats = httpx.get(f"{server}/api/rooms/{code}").json()["seats"]
    assert seats[2]["name"] == "Zoe" and seats[2]["bot"] is False
    assert page.locator("[data-action=take-seat]").count() == 0  # seated: nothing to take
    assert script_errors(page) == []


def test_the_seat_to_act_shows_the_countdown_and_the_ring(browser: Browser, server: str) -> None:
    code, ann = api_room(server, {"turn_timer_s": 120})
    watcher = open_table(browser, server, code)
    r = httpx.post(f"{server}/api/rooms/{code}/start", headers={"Authorization": f"Bearer {ann}"})
    r.raise_for_status()
    # The bots play until it is Ann's decision; she has no page open.
    watcher.wait_for_selector("[data-seat-plate='0'] [data-away-clock]", timeout=60_000)
    clock = watcher.locator("[data-seat-plate='0'] [data-away-clock]")
    assert re.fullmatch(r"computer plays in [12]:\d\d", clock.inner_text())  # 120 s away
    ring = watcher.locator("[data-seat-plate='0'] [data-turn-ring]")
    assert ring.count() == 1  # (no inline style from the server: the CSP would refuse it)
    # app.js runs the ring through the CSSOM: its --left is set, between 0 and 1.
    watcher.wait_for_function(
        "() => { const r = document.querySelector('[data-turn-ring]');"
        " const v = r && parseFloat(r.style.getPropertyValue('--left'));"
        " return v > 0 && v <= 1; }"
    )
    first = clock.inner_text()
    # It counts down on the page, with no new view from the server.
    watcher.wait_for_function(
        "(t) => { const c = document.querySelector(\"[data-seat-plate='0'] [data-away-clock]\");"
        " return c && c.innerText !== t; }",
        arg=first,
    )
    assert script_errors(watcher) == []


def test_only_the_host_sees_the_seat_controls(browser: Browser, server: str) -> None:
    code = httpx.post(f"{server}/api/rooms").json()["code"]
    host = open_table(browser, server, code)
    host.fill("input[name=name]", "Ann")
    host.click("[data-action=join][data-seat='0']")
    host.wait_for_selector("#table[data-you='0']")
    guest = open_table(browser, server, code)
    guest.fill("input[name=name]", "Bob")
    guest.click("[data-action=join][data-seat='1']")
    guest.wait_for_selector("#table[data-you='1']")
    host.wait_for_selector("[data-action=host-free][data-seat='1']")
    assert guest.locator("[data-action^=host-]").count() == 0
    # The host moves Bob to seat 2, then frees it; Bob watches again.
    host.select_option("#move-1", "2")
    host.click("[data-action=host-move][data-seat='1']")
    host.wait_for_selector("[data-action=host-free][data-seat='2']")
    host.click("[data-action=host-free][data-seat='2']")
    guest.wait_for_selector("#table:not([data-you])")
    seats = httpx.get(f"{server}/api/rooms/{code}").json()["seats"]
    assert [s and s["name"] for s in seats] == ["Ann", None, None, None]
    assert script_errors(host) == [] and script_errors(guest) == []
