"""Issue 32 in a real browser: the gap between two hands (the last lift, the hand's points,
then the new hand with its decision, nothing over the status, the score, the kick or the
reckoning), a double tap that moves once and says nothing, and the home page's way back to
the seat a browser holds."""

from __future__ import annotations

import random
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from app.rules.shuffle import first_dealer_for
from tests.e2e.players import (
    DESKTOP,
    PHONE,
    create_room,
    open_table,
    phase,
    script_errors,
    seat_with_bots,
    take_seat,
    take_turn,
    version,
    wait_past,
)

# At every animation frame, what the player sees: each part's box as painted (null when it
# is not shown: hidden, no size); the swept lift's cards as clipped by the felt they go on.
FRAMES = """
window.__frames = [];
(() => {
  const shown = (el) => {
    if (!el || el.closest("[hidden]")) return null;
    if (!el.checkVisibility({ checkVisibilityCSS: true })) return null;
    const r = el.getBoundingClientRect();
    return r.width && r.height ? [r.left, r.top, r.right, r.bottom] : null;
  };
  const first = (sel) => {
    for (const el of document.querySelectorAll(sel)) { const b = shown(el); if (b) return b; }
    return null;
  };
  const all = (sel) => {
    let out = null;
    for (const el of document.querySelectorAll(sel)) {
      const b = shown(el);
      if (!b) continue;
      out = out ? [Math.min(out[0], b[0]), Math.min(out[1], b[1]),
                   Math.max(out[2], b[2]), Math.max(out[3], b[3])] : b;
    }
    return out;
  };
  const swept = () => {
    const clip = shown(document.querySelector(".sweep-clip"));
    if (!clip) return null;
    let out = null;
    for (const card of document.querySelectorAll(".sweep-ghost .card")) {
      const b = shown(card);
      if (!b) continue;
      const i = [Math.max(b[0], clip[0]), Math.max(b[1], clip[1]),
                 Math.min(b[2], clip[2]), Math.min(b[3], clip[3])];
      if (i[0] >= i[2] || i[1] >= i[3]) continue;
      out = out ? [Math.min(out[0], i[0]), Math.min(out[1], i[1]),
                   Math.max(out[2], i[2]), Math.max(out[3], i[3])] : i;
    }
    return out;
  };
  const record = () => {
    const t = document.querySelector("#table");
    if (t && t.dataset.phase !== "lobby") {
      const status = t.querySelector(".me-line .status");
      window.__frames.push({
        hand: t.querySelector("h1") ? t.querySelector("h1").textContent : "",
        phase: t.dataset.phase,
        text: status ? status.textContent.trim() : "",
        asks: !!(status && status.classList.contains("status-turn") && shown(status)),
        final: document.documentElement.classList.contains("sweeping-final"),
        status: shown(status),
        score: first("#table .scoreboard"),
        kick: first("#table .kick-panel"),
        reckoning: first("#table .reckoning"),
        decision: first("#table .beg-step button"),
        cards: first("#table [data-hand] .hand-card"),
        lift: swept(),
        summary: first("#table .hand-summary"),
        played: all("#table .trick [data-played] .card"),
      });
    }
    requestAnimationFrame(record);
  };
  requestAnimationFrame(record);
})();
"""

OVERLAID = ("lift", "summary")
UNDER = ("status", "score", "kick", "reckoning", "decision", "cards")
DECISIONS = ("beg", "give_or_run")


def _overlap(a: list[float] | None, b: list[float] | None) -> bool:
    return bool(a and b and a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3])


def _faults(frame: dict[str, Any]) -> list[str]:
    """What is wrong in one frame: a question whose answer is not on screen, an overlay."""
    faults = []
    if frame["asks"] and not frame["cards"]:
        faults.append("the status asks, the hand is not shown")
    if frame["asks"] and frame["phase"] in DECISIONS and not frame["decision"]:
        faults.append("the status asks, the decision is not shown")
    if frame["asks"] and _overlap(frame["summary"], frame["played"]):
        faults.append("the summary covers the cards of the lift the player is to follow")
    faults += [
        f"the {top} covers the {under}"
        for top in OVERLAID
        for under in UNDER
        if _overlap(frame[top], frame[under])
    ]
    return [f"{frame['hand']}, {frame['phase']}, {frame['text']!r}: {f}" for f in faults]


def _play_safely(page: Page, rng: random.Random) -> None:
    """This page's move; in renege mode a card that reneges is never chosen (its dialog
    would wait), and the reckoning is closed with "Score it"."""
    if phase(page) == "reckoning":
        # Pressed as a keyboard would (what is under test here is the layout, not the tap),
        # if it is still to press: the others' "score it" or the reckoning's time (R23) may
        # end the reckoning between the look and the press, or this player said it already
        # (the button disabled). A wait for the button there was the suite's flake: the
        # reckoning ended under a loaded machine, the button never came.
        page.evaluate(
            "() => document.querySelector('[data-action=reckoned]:not([disabled])')?.click()"
        )
        return
    lawful = page.locator("[data-hand] [data-legal]:not([data-renege-card])")
    if page.locator(".beg-step button, [data-action=run_pack]").count() or not lawful.count():
        take_turn(page, rng)
    else:
        lawful.nth(rng.randrange(lawful.count())).click()


@pytest.mark.parametrize(
    ("viewport", "rules"),
    [(PHONE, {}), (PHONE, {"renege": "one"}), (DESKTOP, {"renege": "one"})],
    ids=["phone", "phone-renege", "desktop-renege"],
)
def test_between_two_hands_the_lift_then_the_points_then_the_decision(
    browser: Browser, server: str, viewport: dict[str, int], rules: dict[str, str]
) -> None:
    """Issue 32: over three hands' ends, at every frame the page drew: a status that asks
    this player shows the hand (and the decision it asks for) with it, and neither the swept
    lift nor the hand's summary lies over the status, the score, the kick, the reckoning, the
    decision or the hand; and at the player's turn the summary leaves the lift's cards in sight
    (issue #46: it folds to its title)."""
    code = create_room(server, seed=5, target=14, **rules)
    page = open_table(browser, server, code, viewport=viewport)
    page.context.add_init_script(FRAMES)
    page.reload()
    page.wait_for_selector("#table")
    seat_with_bots(page, "Ann")
    rng = random.Random(11)
    ready = "#table[data-your-turn], #table[data-phase=reckoning], #table[data-phase=game_over]"
    while True:
        page.wait_for_selector(ready)
        hands = page.evaluate("new Set(window.__frames.map((f) => f.hand)).size")
        if phase(page) == "game_over" or hands > 3:
            break
        v = version(page)
        _play_safely(page, rng)
        wait_past(page, v)
    # The last hand's end is drawn out: its sweep, then its summary beside the new deal.
    page.wait_for_function("() => !document.documentElement.classList.contains('sweeping')")
    frames: list[dict[str, Any]] = page.evaluate("window.__frames")
    assert any(f["final"] or f["phase"] == "reckoning" for f in frames), "no hand ended"
    assert any(f["summary"] for f in frames), "no hand's summary was shown"
    faults = [fault for f in frames for fault in _faults(f)]
    assert faults == [], "\n".join(dict.fromkeys(faults))
    assert script_errors(page) == []
    page.context.close()


# Every toast and alert the page shows, as it shows it.
SAID = """
window.__said = [];
document.addEventListener("DOMContentLoaded", () => {
  const toast = document.querySelector("#toast");
  if (!toast) return;
  new MutationObserver(() => {
    if (!toast.hidden) window.__said.push(toast.textContent);
  }).observe(toast, { attributes: true, childList: true, characterData: true, subtree: true });
});
window.addEventListener("error", (e) => window.__said.push("error: " + e.message));
"""

# The page's requests on their way: sent and answered, counted on the requests themselves
# (htmx's events fire on the form, which a table coming by the stream may have replaced by
# then, so they never reach the body).
IN_FLIGHT = """
(() => {
  window.__moves = { sent: 0, answered: 0 };
  const send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.send = function (...args) {
    window.__moves.sent += 1;
    this.addEventListener("loadend", () => { window.__moves.answered += 1; });
    return send.apply(this, args);
  };
})();
"""


def _settled(page: Page) -> None:
    """Until every request the page sent has been answered (a refused second tap included)."""
    page.wait_for_function("() => window.__moves.answered === window.__moves.sent")


def _beggar_seed() -> int:
    """A seed whose first deal has seat 0 to stand or beg (the dealer in seat 3)."""
    return next(seed for seed in range(1, 100) if first_dealer_for(seed) == 3)


def test_a_double_tap_moves_once_and_says_nothing(browser: Browser, server: str) -> None:
    """Issue 32: a double tap on Stand, then on a card: the move is made once, and no toast
    (no "It is not your turn.", no "check what you entered") follows the second tap."""
    code = create_room(server, seed=_beggar_seed(), target=14)
    page = open_table(browser, server, code, viewport=PHONE)
    page.context.add_init_script(SAID + IN_FLIGHT)
    page.reload()
    page.wait_for_selector("#table")
    seat_with_bots(page, "Ann")
    page.wait_for_selector("#table[data-phase=beg][data-your-turn]")
    cards = page.locator("[data-hand] .hand-card").count()

    v = version(page)
    page.dblclick("[data-action=stand]")
    wait_past(page, v)
    _settled(page)
    expect(page.locator(".beg-step")).to_have_count(0)
    assert page.evaluate("window.__said") == []

    page.wait_for_selector("#table[data-phase=play][data-your-turn]")
    assert page.locator("[data-hand] .hand-card").count() == cards
    card = page.get_attribute("[data-hand] [data-legal] >> nth=0", "data-card")
    v = version(page)
    page.dblclick(f"[data-hand] [data-card='{card}']")
    wait_past(page, v)
    _settled(page)
    expect(page.locator(f"[data-hand] [data-card='{card}']")).to_have_count(0)
    assert page.locator("[data-hand] .hand-card").count() == cards - 1  # one card played
    assert page.evaluate("window.__said") == []
    assert script_errors(page) == []
    page.context.close()


def test_the_home_page_leads_back_to_the_seat(browser: Browser, server: str) -> None:
    """Issue 32: Back in the middle of a game lands on the home page: "Your table" there
    leads back to the seat; another browser's home page shows none."""
    code = create_room(server, seed=7)
    page = open_table(browser, server, code, viewport=PHONE)
    take_seat(page, "Ann", 2)
    page.goto(f"{server}/")
    entry = page.locator(f"[data-held-table='{code}']")
    expect(entry).to_be_visible()
    expect(entry).to_contain_text("Ann")
    overflow = page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert overflow, "the home page is wider than the phone"
    entry.locator("[data-action=back-to-seat]").click()
    page.wait_for_selector("#table[data-you='2']")
    assert page.url.endswith(f"/r/{code}")

    stranger = open_table(browser, server, code, viewport=PHONE)
    stranger.goto(f"{server}/")
    expect(stranger.locator("[data-held-table]")).to_have_count(0)
    stranger.context.close()
    page.context.close()
