"""Table talk in real browsers: two players chat (free text and a preset, HTML staying
text), a spectator reads, a player mutes a seat on their own browser, the phone's drawer
counts what came while it was shut, and a nudge reaches the player whose turn it is."""

from __future__ import annotations

import httpx
from playwright.sync_api import Browser, Page, expect

from app.rules.engine import first_dealer_for
from tests.e2e.players import click_start, create_room, open_table, script_errors, take_seat

PHONE = {"width": 390, "height": 844}


def _messages(page: Page) -> list[str]:
    texts = page.eval_on_selector_all(
        "#chat-log [data-chat-message]:not(.chat-muted) .chat-text",
        "els => els.map(e => e.textContent)",
    )
    assert isinstance(texts, list)
    return [str(t) for t in texts]


def _say(page: Page, text: str) -> None:
    page.fill("input[name=chat]", text)
    page.press("input[name=chat]", "Enter")


def test_players_talk_spectators_read_and_html_stays_text(browser: Browser, server: str) -> None:
    code = create_room(server, seed=5)
    ann = open_table(browser, server, code)
    ben = open_table(browser, server, code, viewport=PHONE)
    take_seat(ann, "Ann", 0)
    take_seat(ben, "Ben", 1)
    watcher = open_table(browser, server, code)
    for page in (ann, watcher):  # a 1280 px desktop: the talk opens from the top bar
        page.click("[data-chat-toggle]")
    expect(watcher.locator("[data-chat-form]")).to_be_hidden()
    expect(watcher.locator("[data-chat-readonly]")).to_be_visible()

    _say(ann, '<b data-x="1">Evening</b> <img src=x>')
    ann.click("[data-preset=hang_jack]")
    for page in (ann, watcher):
        expect(page.locator("#chat-log [data-chat-message]")).to_have_count(2)
        assert _messages(page) == ['<b data-x="1">Evening</b> <img src=x>', "Hang jack!"]
        assert page.locator("#chat-log img, #chat-log b[data-x]").count() == 0
    # On the phone the drawer is shut: the messages wait behind a count.
    expect(ben.locator("[data-chat-unread] b")).to_have_text("2")
    ben.click("[data-chat-toggle]")
    expect(ben.locator("[data-chat-unread]")).to_be_hidden()
    assert _messages(ben)[-1] == "Hang jack!"

    # Ben mutes Ann on his own browser; the others still see her.
    ben.locator("#chat-log [data-seat='0'] [data-chat-mute]").first.click()
    _say(ann, "still here")
    expect(ann.locator("#chat-log [data-chat-message]")).to_have_count(3)
    expect(ben.locator("#chat-log [data-chat-message]")).to_have_count(3)
    assert _messages(ben) == []
    assert _messages(watcher)[-1] == "still here"

    # After a reload the last messages are there again, once each.
    ben.reload()
    ben.wait_for_selector("#table")
    expect(ben.locator("#chat-log [data-chat-message]")).to_have_count(3)
    assert _messages(ben) == []  # still muted: the browser remembers
    for page in (ann, ben, watcher):
        assert script_errors(page) == []
        page.context.close()


def test_a_nudge_reaches_the_player_to_act(browser: Browser, server: str) -> None:
    code = create_room(server, seed=5)
    beggar = (first_dealer_for(5) + 1) % 4  # the deal's first decision is the beggar's
    nudged, nudger = open_table(browser, server, code), open_table(browser, server, code)
    take_seat(nudged, "Ann", beggar)
    take_seat(nudger, "Ben", (beggar + 1) % 4)
    for seat, name in (((beggar + 2) % 4, "Cy"), ((beggar + 3) % 4, "Dee")):
        r = httpx.post(f"{server}/api/rooms/{code}/join", json={"name": name, "seat": seat})
        r.raise_for_status()
    click_start(nudger)
    for page in (nudged, nudger):
        page.wait_for_selector("#table[data-phase=beg]")
    assert httpx.get(f"{server}/api/rooms/{code}").json()["turn"] == beggar
    pages = [nudged, nudger]
    assert nudged.locator("[data-action=nudge]").count() == 0
    nudger.click("[data-action=nudge]")
    expect(nudged.locator("#toast")).to_contain_text("it is your turn")
    for page in pages:
        assert script_errors(page) == []
        page.context.close()
