"""Renege mode in real browsers (issue 26, RULES.md R20-R27): four people at a renege table,
two of them reading the page in French and German. One plays a card that reneges (after the
page asks "Renege with …?", once cancelled by the keyboard), the other side calls renege on
that lift in two steps, and the verdict reaches all four pages at once (the call, the
announcement, the line in the table talk), each in its reader's language; a wrong call; then
the reckoning's lifts, countdown and "Score it". Moves nobody watches go through the API."""

from __future__ import annotations

from typing import Any

import httpx
from playwright.sync_api import Browser, Page, expect

from tests.e2e.axe import check, describe
from tests.e2e.conftest import ADMIN
from tests.e2e.players import open_table, script_errors, version, wait_past

Json = dict[str, Any]
NAMES = ("Ann", "Bob", "Cy", "Dan")
LANGS = ("en", "fr", "de", "en")  # seat by seat
# Each reader's words for a call of renege in the talk's line (the catalogs').
CALLED = {
    "en": "called renege on lift",
    "fr": "réclamé un renege au lift",
    "de": "Renege gerufen",
}
UPHELD = {"en": "upheld", "fr": "confirmé", "de": "bestätigt"}
WRONG = {"en": "no renege", "fr": "pas de renege", "de": "kein Renege"}


class Room:
    def __init__(self, server: str) -> None:
        r = httpx.post(
            f"{server}/api/rooms",
            json={"rules": {"renege": "one"}, "options": {"reckon_s": 120}, "seed": 26},
            headers={"Authorization": f"Bearer {ADMIN}"},
        )
        r.raise_for_status()
        self.code: str = r.json()["code"]
        self.api = f"{server}/api/rooms/{self.code}"
        self.tokens = [
            httpx.post(f"{self.api}/join", json={"name": n, "seat": s}).json()["token"]
            for s, n in enumerate(NAMES)
        ]
        self.auth(0, "post", "/start").raise_for_status()

    def auth(self, seat: int, method: str, path: str, **kw: Any) -> httpx.Response:
        headers = {"Authorization": f"Bearer {self.tokens[seat]}"}
        return httpx.request(method, f"{self.api}{path}", headers=headers, **kw)

    def view(self, seat: int | None = None) -> Json:
        if seat is None:
            out: Json = httpx.get(self.api).json()
            return out
        seen: Json = self.auth(seat, "get", "").json()
        return seen

    def strict_move(self) -> None:
        """The seat to act makes the first move R14 allows (never a renege)."""
        v = self.view()
        me = self.view(v["turn"])
        marked = set(me.get("renege_cards") or ())
        move = next(m for m in me["legal"] if m.get("card") not in marked)
        self.auth(me["you"], "post", "/actions", json={**move, "version": me["version"]})

    def until_a_renege_is_offered(self) -> Json:
        """Strict moves until the seat to act holds a card that would renege: its view."""
        for _ in range(200):
            v = self.view()
            assert v["phase"] != "game_over"
            if v["phase"] == "play":
                me = self.view(v["turn"])
                if me.get("renege_cards"):
                    return me
            self.strict_move()
        raise AssertionError("no renege offered")


def _line(page: Page) -> str:
    return str(page.locator("#chat-log [data-table-line] .chat-text").last.text_content())


def test_a_renege_played_called_and_reckoned_in_three_languages(
    browser: Browser, server: str, axe: str
) -> None:
    room = Room(server)
    holder = room.until_a_renege_is_offered()
    seat, card = holder["you"], holder["renege_cards"][0]
    lift = sum(holder["tricks_won"]) + 1
    caller = (seat + 1) % 4
    pages = [
        open_table(browser, server, room.code, lang=None if lang == "en" else lang, token=t)
        for lang, t in zip(LANGS, room.tokens, strict=True)
    ]
    me = pages[seat]
    # Marked for the holder only (R20), and nowhere else.
    expect(me.locator(f"[data-hand] [data-card='{card}'][data-renege-card]")).to_have_count(1)
    for n, page in enumerate(pages):
        if n != seat:
            assert page.locator("[data-renege-card]").count() == 0

    # By the keyboard: the page asks first; Escape keeps the hand as it was.
    hand_before = me.eval_on_selector_all("[data-hand] [data-card]", "e => e.length")
    me.focus(f"[data-hand] [data-card='{card}']")
    me.keyboard.press("Enter")
    expect(me.locator("#renege-dialog")).to_have_attribute("open", "")
    expect(me.locator("[data-renege-question]")).to_contain_text("Renege with")
    found = check(me, axe)
    assert not found, f"axe on the renege question:\n{describe(found)}"
    me.keyboard.press("Escape")
    expect(me.locator("#renege-dialog")).not_to_have_attribute("open", "")
    assert me.eval_on_selector_all("[data-hand] [data-card]", "e => e.length") == hand_before
    assert me.evaluate(f"document.activeElement.dataset.card === '{card}'")
    assert room.view()["version"] == holder["version"]  # nothing was played

    # By a click, answered "Renege": the card is played like any card.
    v = version(me)
    me.click(f"[data-hand] [data-card='{card}']")
    me.click("[data-renege-confirm]")
    wait_past(me, v)
    expect(me.locator(f"[data-hand] [data-card='{card}']")).to_have_count(0)
    for page in pages:  # nobody is told (R20): no call, no mark
        assert page.locator("[data-call], [data-caught]").count() == 0

    # The other side calls renege on that lift, in two steps: the cost is said first.
    them = pages[caller]
    them.click(f"[data-action=call-renege][data-lift='{lift}']")
    expect(them.locator(f"[data-action=confirm-call][data-lift='{lift}']")).to_be_visible()
    expect(them.locator(".call-confirm").first).to_contain_text("1 point")
    them.click(f"[data-action=confirm-call][data-lift='{lift}']")
    for n, page in enumerate(pages):
        lang = LANGS[n]
        expect(page.locator(f"[data-call='{lift}'][data-upheld=true]")).to_have_count(1)
        expect(page.locator("#chat-log [data-table-line]")).to_have_count(1)
        said = _line(page)
        assert CALLED[lang] in said and UPHELD[lang] in said, (lang, said)
        expect(page.locator("#announcer")).to_contain_text(said)
    found = check(them, axe)
    assert not found, f"axe on the table after a call:\n{describe(found)}"

    # A wrong call: the offender's partner calls the same lift; their side has paid this
    # hand already (R24), so it is shown and costs nothing more.
    partner = pages[(seat + 2) % 4]
    partner.click(f"[data-action=call-renege][data-lift='{lift}']")
    partner.click(f"[data-action=confirm-call][data-lift='{lift}']")
    for n, page in enumerate(pages):
        expect(page.locator(f"[data-call='{lift}'][data-upheld=false]")).to_have_count(1)
        expect(page.locator("#chat-log [data-table-line]")).to_have_count(2)
        assert WRONG[LANGS[n]] in _line(page)

    # The hand plays out (through the API): the reckoning shows its lifts face up, counts
    # down, and takes "Score it" from each.
    while room.view()["phase"] == "play":
        room.strict_move()
    for page in pages:
        expect(page.locator("#table[data-phase=reckoning]")).to_have_count(1)
        expect(page.locator("[data-reckon-clock]")).to_have_count(1)
        assert page.locator("[data-reckon-lift]").count() == len(room.view(0)["lifts"])
        expect(page.locator("[data-reckon-lift] .caught")).to_have_count(1)
    found = check(pages[0], axe)
    assert not found, f"axe on the reckoning:\n{describe(found)}"
    pages[1].click("[data-action=reckoned]")
    expect(pages[1].locator("[data-action=reckoned]")).to_be_disabled()
    expect(pages[0].locator("[data-reckoned]")).to_contain_text(NAMES[1])
    for s in (0, 2, 3):
        assert room.auth(s, "post", "/reckoned").status_code == 204
    for page in pages:
        expect(page.locator("#table[data-phase=beg], #table[data-phase=game_over]")).to_have_count(
            1
        )
        expect(page.locator(".award-renege")).to_have_count(1)
    for page in pages:
        assert script_errors(page) == []
