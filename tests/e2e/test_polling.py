"""Where the event stream cannot get through (a proxy that cuts it), the page polls its table
by ETag, says so quietly, and a whole hand is played that way; once the stream gets through
again the page goes back to it."""

from __future__ import annotations

import random

from playwright.sync_api import Browser, Route

from tests.e2e.players import (
    create_room,
    open_table,
    phase,
    script_errors,
    seat_with_bots,
    take_turn,
    version,
)

POLLING_NOTE = "Live updates are slow here"


def test_a_whole_hand_by_polling_when_the_stream_is_cut(browser: Browser, server: str) -> None:
    code = create_room(server, seed=31)
    cut: list[str] = []

    def refuse(route: Route) -> None:
        cut.append(route.request.url)
        route.abort()

    page = open_table(browser, server, code)
    page.route("**/events*", refuse)
    page.reload()
    page.wait_for_selector("#table")
    seat_with_bots(page)  # every change after each click: by the forms' answers and polls
    page.wait_for_selector("html.polling #conn-polling")
    assert POLLING_NOTE in page.inner_text("#conn-polling")
    assert page.locator("html.reconnecting").count() == 0  # polling is not a lost connection
    assert cut, "the page never tried its stream"

    rng = random.Random(5)
    played = False
    while True:
        # The bots' moves reach this page only by polling.
        page.wait_for_selector("#table[data-your-turn], #table[data-phase=game_over]")
        now = phase(page)
        if played and now != "play":
            break  # the hand is over: the next deal (or the result) came by polling too
        if now == "game_over":
            break
        if now == "play":
            played = True
        v = version(page)
        take_turn(page, rng)
        page.wait_for_function(
            "v => Number(document.querySelector('#table').dataset.version) > v", arg=v
        )
    assert played
    assert page.locator(".hand-summary, #table[data-phase=game_over]").count() >= 1
    assert page.locator("html.polling").count() == 1

    # The way is open again: the EventSource retries by itself, and its first event ends the
    # polling.
    page.unroute("**/events*")
    page.wait_for_selector("html:not(.polling)", timeout=90_000)
    assert page.is_hidden("#conn-polling")
    assert script_errors(page) == []
    page.context.close()
