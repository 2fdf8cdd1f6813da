"""Nothing a person is doing is lost to a live update (issue 23).

Each control a person can be in the middle of using while the table changes is one line of
CONTROLS: what they do (``use``), what must stay true of the page after every table that
arrives meanwhile (``kept``, a script predicate checked in the page after each table), and
optionally how they finish (``then``, with the table still changing: the click on its way),
whose effect the server must show. The tables come from tests/e2e/churn.py, as fast as the
server makes them (a player's stream coming and going, in the lobby a computer player seated
and freed again).

A new control is one more line; renege mode's (issue 26) play at a renege table where the
page's player is to play holding a card that would renege (``renege=True``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

import httpx
import pytest
from playwright.sync_api import Browser, Page

from tests.e2e.churn import Churn
from tests.e2e.conftest import ADMIN
from tests.e2e.players import open_table, script_errors, still_same_page, tables_seen

Json = dict[str, Any]
BURST = 40  # changes of the table while the control is in use
HOST_SEAT, FLAPPER_SEAT, CHURN_SEAT = 0, 1, 3  # the lobby's churn seats and frees seat 3


@dataclass(frozen=True)
class Table:
    """A room of two people: the page's (Ann, the host, seat 0) and Bob's (seat 1, the API)."""

    server: str
    code: str
    page: Page
    ann: str
    bob: str

    def until(self, check: Callable[[list[Json | None]], bool]) -> None:
        """Until the server's seats pass ``check`` (the action reached it)."""
        self.until_view(lambda view: check(view["seats"]))

    def until_view(self, check: Callable[[Json], bool]) -> None:
        """Until the room's public view passes ``check`` (the action reached the server)."""
        for _ in range(200):
            view: Json = httpx.get(f"{self.server}/api/rooms/{self.code}").json()
            if check(view):
                return
            self.page.wait_for_timeout(50)
        raise AssertionError(view)


def click(selector: str) -> Callable[[Page], None]:
    return lambda page: page.click(selector)


def focus(selector: str) -> Callable[[Page], None]:
    return lambda page: page.focus(selector)


def choose(selector: str, value: str) -> Callable[[Page], None]:
    def use(page: Page) -> None:
        page.select_option(selector, value)

    return use


def share(page: Page) -> None:
    page.evaluate("window.__sharedAt = Date.now()")
    page.click("[data-action=share]")
    page.wait_for_function("() => document.querySelector('[data-share-status]').textContent")


def half_choose_a_card(page: Page) -> None:
    """The keyboard in the hand, two cards along: the card the person is about to play."""
    page.focus("[data-hand] [tabindex='0']")
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")


def half_type_a_message(page: Page) -> None:
    page.click("[data-chat-toggle]")
    page.click("#chat-input")
    page.keyboard.type("Good ha")


def open_sheet(page: Page) -> None:
    page.click("[data-open-sheet]")
    page.wait_for_selector("#sheet-body:not([aria-busy]) table, #sheet-body:not([aria-busy]) p")


def move_bob(t: Table) -> None:
    t.page.click("[data-action=host-move][data-seat='1']")
    t.until(lambda seats: bool(seats[2] and seats[2]["name"] == "Bob"))


def free_bob(t: Table) -> None:
    t.page.click("[data-action=host-free][data-seat='1']")
    t.until(lambda seats: seats[1] is None)


def seat_a_strong_bot(t: Table) -> None:
    t.page.click("[data-action=bot][data-seat='2']")
    t.until(lambda seats: bool(seats[2] and seats[2]["bot"] and seats[2]["level"] == "strong"))


def open_call_renege(page: Page) -> None:
    """The first step of calling renege on the lift in play: what a wrong call costs."""
    page.click("[data-action=call-renege]")
    page.wait_for_selector("[data-action=confirm-call]", state="visible")


def confirm_the_call(t: Table) -> None:
    t.page.click("[data-action=confirm-call]")
    t.until_view(lambda v: bool(v["calls"]))
    t.page.wait_for_selector("[data-call]")


def ask_to_renege(page: Page) -> None:
    page.click("[data-hand] [data-renege-card]")
    page.wait_for_selector("#renege-dialog[open]")


def confirm_the_renege(t: Table) -> None:
    t.page.click("[data-renege-confirm]")
    t.until_view(lambda v: any(p["seat"] == HOST_SEAT for p in v["trick"]))


def send_the_message(t: Table) -> None:
    t.page.keyboard.type("nd, partner")
    t.page.keyboard.press("Enter")
    t.page.wait_for_selector("#chat-log .chat-text:text-is('Good hand, partner')")


FOCUSED_CARD = (
    "() => { const a = document.activeElement, h = document.querySelector('[data-hand]');"
    " const cards = [...h.querySelectorAll('.hand-card')];"
    " const stops = cards.filter(c => c.tabIndex === 0);"
    " return a === cards[2] && stops.length === 1 && stops[0] === a; }"
)


@dataclass(frozen=True)
class Control:
    name: str
    phase: Literal["lobby", "play"]
    use: Callable[[Page], None]
    kept: str  # a script predicate, true while the control is as the person left it
    then: Callable[[Table], None] | None = None
    renege: bool = False  # at a renege table, the page's player to play a card that reneges


CONTROLS = [
    Control(
        "seat picker and move",
        "lobby",
        choose("#move-1", "2"),
        "() => document.querySelector('#move-1').value === '2'",
        move_bob,
    ),
    Control(
        "free button",
        "lobby",
        focus("[data-action=host-free][data-seat='1']"),
        "() => document.activeElement.matches(\"[data-action=host-free][data-seat='1']\")",
        free_bob,
    ),
    Control(
        "computer level",
        "lobby",
        choose("#bot-level", "strong"),
        "() => document.querySelector('#bot-level').value === 'strong'",
        seat_a_strong_bot,
    ),
    Control(
        "rules panel in the lobby",
        "lobby",
        click(".rules-in-force summary"),
        "() => document.querySelector('.rules-in-force').open",
    ),
    Control(
        "share",
        "lobby",
        share,
        "() => document.querySelector('[data-share-status]').textContent !== ''"
        " || Date.now() - window.__sharedAt > 3500",  # (the status says it for 4 s)
    ),
    Control(
        "rules panel at play",
        "play",
        click(".rules-in-force summary"),
        "() => document.querySelector('.rules-in-force').open",
    ),
    Control("half-chosen card", "play", half_choose_a_card, FOCUSED_CARD),
    Control(
        "chat input",
        "play",
        half_type_a_message,
        "() => document.activeElement.id === 'chat-input'"
        " && document.activeElement.value === 'Good ha'",
        send_the_message,
    ),
    Control(
        "score sheet",
        "play",
        open_sheet,
        "() => { const d = document.querySelector('#sheet-dialog');"
        " return d.open && d.contains(document.activeElement); }",
    ),
    Control(
        "call renege",
        "play",
        open_call_renege,
        "() => { const d = document.querySelector('details.call-renege');"
        " return !!d && d.open && d.contains(document.activeElement); }",
        confirm_the_call,
        renege=True,
    ),
    Control(
        "renege question",
        "play",
        ask_to_renege,
        "() => { const d = document.querySelector('#renege-dialog');"
        " return d.open && d.contains(document.activeElement)"
        " && document.querySelector('[data-hand] [data-renege-card]') !== null; }",
        confirm_the_renege,
        renege=True,
    ),
]

WATCH = """(kept) => {
  const check = eval(kept);
  window.__lost = [];
  window.__watch = true;
  document.body.addEventListener("htmx:afterSwap", (e) => {
    if (window.__watch && e.target.id === "live" && !check()) window.__lost.push(__tablesSeen);
  });
  return check();
}"""


def renege_table_for(browser: Browser, server: str) -> Table:
    """Four people at a renege table (seed 26's first hand): the page's Ann to play, holding
    a card that would renege, the first card of the lift on the table; the others move
    through the API, strictly by the rules."""
    r = httpx.post(
        f"{server}/api/rooms",
        json={"rules": {"renege": "one"}, "seed": 26},
        headers={"Authorization": f"Bearer {ADMIN}"},
    )
    code = r.json()["code"]
    room = f"{server}/api/rooms/{code}"
    tokens = [
        httpx.post(f"{room}/join", json={"name": name, "seat": seat}).json()["token"]
        for seat, name in enumerate(("Ann", "Bob", "Cy", "Dan"))
    ]
    auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
    httpx.post(f"{room}/start", headers=auth[0]).raise_for_status()
    for _ in range(100):
        turn = httpx.get(room).json()["turn"]
        me = httpx.get(room, headers=auth[turn]).json()
        if me["phase"] == "play" and turn == HOST_SEAT and me.get("renege_cards") and me["trick"]:
            break
        marked = set(me.get("renege_cards") or ())
        move = next(m for m in me["legal"] if m.get("card") not in marked)
        body = {**move, "version": me["version"]}
        httpx.post(f"{room}/actions", json=body, headers=auth[turn]).raise_for_status()
    else:
        raise AssertionError("seed 26 offers the host no renege")
    page = open_table(browser, server, code, token=tokens[HOST_SEAT])
    page.wait_for_selector(f"#table[data-you='{HOST_SEAT}'] [data-renege-card]")
    return Table(server, code, page, tokens[HOST_SEAT], tokens[FLAPPER_SEAT])


def table_for(browser: Browser, server: str, phase: str) -> Table:
    code = httpx.post(f"{server}/api/rooms").json()["code"]
    room = f"{server}/api/rooms/{code}"
    ann = httpx.post(f"{room}/join", json={"name": "Ann", "seat": HOST_SEAT}).json()["token"]
    bob = httpx.post(f"{room}/join", json={"name": "Bob", "seat": FLAPPER_SEAT}).json()["token"]
    if phase == "play":
        auth = {"Authorization": f"Bearer {ann}"}
        for seat in (2, 3):
            httpx.post(f"{room}/bots", json={"seat": seat}, headers=auth).raise_for_status()
        httpx.post(f"{room}/start", headers=auth).raise_for_status()
    page = open_table(browser, server, code, token=ann)
    page.wait_for_selector(f"#table[data-you='{HOST_SEAT}'][data-phase]")
    return Table(server, code, page, ann, bob)


@pytest.mark.parametrize("control", CONTROLS, ids=lambda c: c.name)
def test_a_control_in_use_is_kept_while_tables_stream_in(
    browser: Browser, server: str, control: Control
) -> None:
    t = (
        renege_table_for(browser, server)
        if control.renege
        else table_for(browser, server, control.phase)
    )
    page = t.page
    lobby = control.phase == "lobby"
    with Churn(server, t.code, flapper=t.bob, host=t.ann if lobby else None, seat=CHURN_SEAT) as c:
        c.wait_for(4)
        control.use(page)
        assert page.evaluate(WATCH, control.kept), f"{control.name}: not in use"
        seen = tables_seen(page)
        c.wait_for(BURST)
        page.wait_for_function("n => window.__tablesSeen >= n", arg=seen + BURST // 2)
        lost = page.evaluate("window.__watch = false, window.__lost")
        assert lost == [], f"{control.name} lost at the tables {lost} (from {seen})"
        if control.then is not None:
            control.then(t)
    assert script_errors(page) == []


def test_taking_a_seat_keeps_what_the_page_has_open(browser: Browser, server: str) -> None:
    """The stream reopens as the new seat; the rules panel, the talk's drawer and the page
    itself stay as the person had them."""
    code = httpx.post(f"{server}/api/rooms").json()["code"]
    room = f"{server}/api/rooms/{code}"
    ann = httpx.post(f"{room}/join", json={"name": "Ann", "seat": 0}).json()["token"]
    page = open_table(browser, server, code)
    page.click(".rules-in-force summary")
    page.click("[data-chat-toggle]")
    page.fill("input[name=name]", "Zoe")
    page.click("[data-action=join][data-seat='2']")
    page.wait_for_selector("#table[data-you='2']")
    assert page.evaluate("document.querySelector('.rules-in-force').open")
    assert page.get_attribute("#chat", "data-open") == "true"
    assert still_same_page(page)
    # One stream, the seat's own: Zoe is here for everyone, and the table's news reach her.
    page.wait_for_function("() => window.__streams.filter(s => s.readyState !== 2).length === 1")
    page.wait_for_function("() => window.__streams.some(s => s.readyState === 1)")
    # The browser counts the stream open when the answer's head arrives; the server counts
    # the seat connected a moment later, when the stream's body begins (room_events).
    deadline = time.monotonic() + 10
    while not httpx.get(room).json()["seats"][2]["connected"]:
        assert time.monotonic() < deadline, "Zoe's open stream never made her seat connected"
        time.sleep(0.05)
    auth = {"Authorization": f"Bearer {ann}"}
    httpx.post(f"{room}/bots", json={"seat": 1}, headers=auth).raise_for_status()
    page.wait_for_selector(".chip-bot")
    assert page.evaluate("document.querySelector('.rules-in-force').open")
    assert script_errors(page) == []
