"""Taking a seat reopens the page's one event stream as the seat, however the tables arrive."""

from __future__ import annotations

import httpx
from playwright.sync_api import Browser, Route

from tests.e2e.players import (
    create_room,
    open_streams,
    open_table,
    script_errors,
    version,
    wait_past,
    what_pages_show,
)


def test_the_last_seat_taken_while_a_table_takes_the_form_away_hears_the_table(
    browser: Browser, server: str
) -> None:
    """A page whose new stream died as it opened: the last seat taken, the table saying so
    reached the page (drawn for the spectator it still was: no join form) before the answer
    to the click did; htmx, finding no "morph" above the form no longer in the page, put the
    new live element inside the old one. The spectator's stream stayed open, unheard; the
    seat's was closed at its first message. Now: one live element, one open stream, the
    seat's, and the game's start is heard."""
    code = create_room(server, seed=21)
    tokens = []
    for seat, name in enumerate(["Ann", "Bob", "Cy"]):
        r = httpx.post(f"{server}/api/rooms/{code}/join", json={"name": name, "seat": seat})
        r.raise_for_status()
        tokens.append(r.json()["token"])
    page = open_table(browser, server, code)
    v = version(page)
    held: list[Route] = []

    def hold(route: Route) -> None:
        held.append(route)

    page.route("**/join", hold)
    page.fill("input[name=name]", "Dan")
    page.click("[data-action=join][data-seat='3']")
    while not held:  # the click's request, held (the handler runs while Playwright waits)
        page.wait_for_timeout(50)
    answer = held[0].fetch()  # Dan is seated now; the server tells the table
    wait_past(page, v)  # the spectator's table of the full lobby: no join form
    assert page.locator("#join-form").count() == 0
    held[0].fulfill(response=answer)
    page.wait_for_selector("#table[data-you='3']")
    assert page.locator("#live").count() == 1
    page.wait_for_function("() => window.__streams.some(s => s.readyState === 1)")
    assert open_streams(page) == 1, what_pages_show([page])

    v = version(page)
    host = {"Authorization": f"Bearer {tokens[0]}"}
    r = httpx.post(f"{server}/api/rooms/{code}/start", headers=host)
    assert r.status_code == 200, r.text
    wait_past(page, v)  # heard through the seat's stream
    assert page.locator("#table[data-you='3'][data-phase='lobby']").count() == 0
    assert open_streams(page) == 1 and page.locator("#live").count() == 1
    assert script_errors(page) == []
