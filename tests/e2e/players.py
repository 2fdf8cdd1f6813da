"""A player at the table, through the page's hooks only (API.md "HTML pages")."""

from __future__ import annotations

import random
import time
from typing import Any

import httpx
from playwright.sync_api import Browser, ConsoleMessage, Page, Request
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from app.api.context import SEAT_COOKIE
from tests.e2e.conftest import ADMIN

DESKTOP = {"width": 1280, "height": 860}
PHONE = {"width": 390, "height": 844}

# Keeps the EventSources a page opens, and marks the document so a reload would show.
WATCH_PAGE = """
(() => {
  const Real = window.EventSource;
  window.__streams = [];
  window.EventSource = function (url, init) {
    const source = new Real(url, init);
    window.__streams.push(source);
    return source;
  };
  window.EventSource.prototype = Real.prototype;
  Object.assign(window.EventSource, {CONNECTING: 0, OPEN: 1, CLOSED: 2});
  // Counts the tables that reach the page (each ends in an afterSwap on #live).
  window.__tablesSeen = 0;
  document.addEventListener("htmx:afterSwap", (e) => {
    if (e.target && e.target.id === "live") window.__tablesSeen += 1;
  });
  // Name the element a CSP refusal came from (the console's own line gives only the script).
  document.addEventListener("securitypolicyviolation", (e) => {
    const what = e.target && e.target.outerHTML ? e.target.outerHTML.slice(0, 160) : "";
    console.error(`Content Security Policy refused ${e.violatedDirective} on ${what}`);
  });
})();
"""


def create_room(base: str, *, seed: int, target: int = 7, **rules: Any) -> str:
    """A room with a fixed deal (the admin seed) and a short game."""
    r = httpx.post(
        f"{base}/api/rooms",
        json={"rules": {"target": target, **rules}, "seed": seed},
        headers={"Authorization": f"Bearer {ADMIN}"},
    )
    r.raise_for_status()
    code: str = r.json()["code"]
    return code


def open_table(
    browser: Browser,
    base: str,
    code: str,
    viewport: dict[str, int] = DESKTOP,
    *,
    lang: str | None = None,
    locale: str | None = None,
    token: str | None = None,
) -> Page:
    """A new browser context (a new player) on the room's page; ``lang``: with ``?lang=``,
    ``locale``: a browser set to that language (its Accept-Language); ``token``: the browser
    holds that seat (its cookie), as if it had joined through the page."""
    options: dict[str, Any] = {"viewport": viewport}
    if locale is not None:
        options["locale"] = locale
    context = browser.new_context(**options)
    context.add_init_script(WATCH_PAGE)
    if token is not None:
        context.add_cookies(
            [
                {"name": SEAT_COOKIE, "value": token, "url": f"{base}{path}"}
                for path in (f"/r/{code}", f"/api/rooms/{code}")
            ]
        )
    page = context.new_page()
    errors: list[str] = []
    _ERRORS[id(page)] = errors
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: _note_csp_violation(m, errors))
    asked: list[str] = []
    _ASKED[id(page)] = asked
    page.on("requestfinished", lambda r: _note_asked(r, asked))
    page.on("requestfailed", lambda r: asked.append(f"{r.method} {r.url} failed: {r.failure}"))
    page.goto(f"{base}/r/{code}" + (f"?lang={lang}" if lang else ""))
    page.wait_for_selector("#table")
    page.evaluate("window.__samePage = true")
    return page


_ERRORS: dict[int, list[str]] = {}
# The page's own requests to the server, the last few (for a failure's message).
_ASKED: dict[int, list[str]] = {}


def _note_asked(request: Request, asked: list[str]) -> None:
    response = request.response()
    if request.resource_type in ("document", "fetch", "xhr"):
        asked.append(f"{request.method} {request.url} {response.status if response else '-'}")
        del asked[:-8]


def _note_csp_violation(message: ConsoleMessage, errors: list[str]) -> None:
    """What the Content-Security-Policy refused (an inline style, a script) counts as an error."""
    if message.type == "error" and "Content Security Policy" in message.text:
        errors.append(message.text)


def console_errors(page: Page) -> list[str]:
    """Every console error and uncaught script error on the page from now on."""
    errors: list[str] = []

    def note(message: ConsoleMessage) -> None:
        if message.type == "error":
            errors.append(message.text)

    page.on("console", note)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


def script_errors(page: Page) -> list[str]:
    """Uncaught script errors and CSP refusals on the page since it was opened."""
    return _ERRORS.get(id(page), [])


def version(page: Page) -> int:
    return int(page.get_attribute("#table", "data-version") or 0)


def phase(page: Page) -> str:
    return page.get_attribute("#table", "data-phase") or ""


def is_my_turn(page: Page) -> bool:
    return page.locator("#table[data-your-turn]").count() == 1


def wait_past(page: Page, v: int) -> None:
    """Until the page shows a version after ``v`` (it arrives by the event stream)."""
    try:
        page.wait_for_function(
            "v => Number(document.querySelector('#table')?.dataset.version) > v", arg=v
        )
    except PlaywrightTimeout:
        raise AssertionError(
            f"no version after {v}: {what_pages_show([page])}; "
            f"its last requests {_ASKED.get(id(page))}"
        ) from None


_SHOWN = """() => { const t = document.querySelector('#table');
  return {version: t && t.dataset.version, phase: t && t.dataset.phase, you: t && t.dataset.you,
          your_turn: !!t && t.hasAttribute('data-your-turn'),
          tables: document.querySelectorAll('#table').length,
          streams: (window.__streams || []).map(s => s.readyState).join(''),
          classes: document.documentElement.className}; }"""


def what_pages_show(pages: list[Page]) -> str:
    """For a failure's message: what each page shows (its table's version, phase, seat and
    turn mark; its event streams' states, 1 for open; polling or reconnecting) and what the
    server says of the room."""
    shown = [p.evaluate(_SHOWN) for p in pages]
    room = httpx.get(pages[0].url.split("?")[0].replace("/r/", "/api/rooms/")).json()
    server = {k: room.get(k) for k in ("version", "phase", "turn")}
    keys = ("name", "connected", "auto", "bot")
    seats = [s and {k: s.get(k) for k in keys} for s in room["seats"]]
    return f"pages {shown}; server {server}, seats {seats}"


def the_mover(pages: list[Page]) -> Page:
    """The one page whose turn it is. Every page shows the same version by now, but under
    load a page may still be applying it (seen twice in full runs: no page's turn yet after
    15 s; if it happens again, the message says what each page and the server show)."""
    deadline = time.monotonic() + 60
    while True:
        movers = [p for p in pages if is_my_turn(p)]
        if len(movers) == 1:
            return movers[0]
        if time.monotonic() > deadline:
            raise AssertionError(f"{len(movers)} pages have the turn: {what_pages_show(pages)}")
        time.sleep(0.05)


def take_seat(page: Page, name: str, seat: int) -> None:
    page.fill("input[name=name]", name)
    page.click(f"[data-action=join][data-seat='{seat}']")
    page.wait_for_selector(f"#table[data-you='{seat}']")


def add_bots(page: Page, seats: tuple[int, ...] = (1, 2, 3)) -> None:
    """A computer player in each of ``seats``, one after the other, from the lobby."""
    for seat in seats:
        v = version(page)
        page.click(f"[data-action=bot][data-seat='{seat}']")
        wait_past(page, v)


def click_start(page: Page) -> None:
    """Click "Start the game" until the server says the game has begun. A click that lands
    while the lobby is being drawn again (a player arriving, a stream coming back) reaches
    no button, as a player's finger would: under load that was seen twice in one CI run
    (no request, no new version for 30 s). A player clicks again; so does this, and says
    what the page showed if three clicks start nothing."""
    room = page.url.split("?")[0].replace("/r/", "/api/rooms/")
    for _ in range(3):
        page.click("[data-action=start]")
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if httpx.get(room).json()["phase"] != "lobby":
                return
            time.sleep(0.2)
    raise AssertionError(
        f"three clicks did not start the game: {what_pages_show([page])}; "
        f"its last requests {_ASKED.get(id(page))}"
    )


def start(page: Page) -> None:
    v = version(page)
    click_start(page)
    wait_past(page, v)


def seat_with_bots(page: Page, name: str = "Ann") -> None:
    """``name`` in seat 0, computer players in the other three, and the game begun."""
    take_seat(page, name, 0)
    add_bots(page)
    start(page)


def hand(page: Page) -> list[str]:
    cards = page.eval_on_selector_all(
        "[data-hand] [data-card]", "els => els.map(e => e.dataset.card)"
    )
    assert isinstance(cards, list) and all(isinstance(c, str) for c in cards), cards
    return cards


def visible_cards(page: Page) -> set[str]:
    """Every card in the page's DOM except the ones marked as from a finished trick or hand."""
    cards: list[str] = page.eval_on_selector_all(
        "[data-card]",
        "els => els.filter(e => !e.closest('[data-past]')).map(e => e.dataset.card)",
    )
    return set(cards)


def has_a_move(page: Page) -> bool:
    """The page shows a control of a move to make: stand or beg, give one or run, a card."""
    return bool(
        page.locator(
            "[data-action=stand], [data-action=run_pack], [data-hand] [data-legal]"
        ).count()
    )


def take_turn(page: Page, rng: random.Random, timeout: float | None = None) -> None:
    """Make this page's move by clicking, as a person would: stand or beg, give one or run,
    or a playable card (``timeout``: ms a control may take to be clickable). The page's move
    is waited for first: a table drawn again between the caller's look and this one (the
    lift swept, the away cover's move) can leave no control for a moment, and a random card
    of none was no move at all (ValueError, seen in a whole run); PlaywrightTimeout if
    no control comes within ``timeout``, as when a control goes from under the finger."""
    page.wait_for_selector(
        "[data-action=stand], [data-action=run_pack], [data-hand] [data-legal]",
        state="attached",  # as the counts below see them
        timeout=timeout,
    )
    if page.locator("[data-action=stand]").count():
        page.click(f"[data-action={rng.choice(['stand', 'stand', 'beg'])}]", timeout=timeout)
        return
    if page.locator("[data-action=run_pack]").count():
        give = page.locator("[data-action=give_one]:not([disabled])")
        if give.count() and rng.random() < 0.5:
            give.click(timeout=timeout)
        else:
            page.click("[data-action=run_pack]", timeout=timeout)
        return
    legal = page.locator("[data-hand] [data-legal]")
    n = legal.count()
    if not n:  # gone again since the wait: as a control gone from under the finger
        raise PlaywrightTimeout("no playable card any more")
    legal.nth(rng.randrange(n)).click(timeout=timeout)


def still_same_page(page: Page) -> bool:
    return bool(page.evaluate("window.__samePage === true"))


def open_streams(page: Page) -> int:
    """The page's event streams that are not closed (one, when all is well)."""
    return int(page.evaluate("window.__streams.filter(s => s.readyState !== 2).length"))


def tables_seen(page: Page) -> int:
    """How many tables have reached the page since it opened (the first render not counted)."""
    return int(page.evaluate("window.__tablesSeen"))


def seat_token(page: Page) -> str | None:
    """The seat this page's browser holds (its cookie), for the API."""
    for cookie in page.context.cookies():
        if cookie.get("name") == SEAT_COOKIE:
            return cookie.get("value")
    return None


def _room_view(server: str, code: str, token: str) -> dict[str, Any]:
    r = httpx.get(f"{server}/api/rooms/{code}", headers={"Authorization": f"Bearer {token}"})
    r.raise_for_status()
    view: dict[str, Any] = r.json()
    return view


def play_out(server: str, code: str, token: str) -> None:
    """The guest's turns through the API with the browser's own seat token (the computer
    players take theirs on the server) until the game is over: stand, run the pack, the
    first card allowed."""
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        view = _room_view(server, code, token)
        if view["phase"] == "game_over":
            return
        legal = view["legal"]
        if not legal:
            time.sleep(0.05)
            continue
        pick = next((a for a in legal if a["type"] in ("stand", "run_pack")), None)
        if pick is None:
            pick = next((a for a in legal if a["type"] == "play"), legal[0])
        move = dict(pick)
        move["version"] = view["version"]
        r = httpx.post(
            f"{server}/api/rooms/{code}/actions",
            json=move,
            headers={"Authorization": f"Bearer {token}"},
        )
        assert r.status_code in (200, 409), r.text  # 409: a computer player moved first
    raise AssertionError("the game did not end")
