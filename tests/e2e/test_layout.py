"""The table at every screen size, for hands of 6, 9 and 12 cards (after running the pack).

Each room is admin-seeded so its first deal is known (the seeds are checked below against
the rules engine): the browser sits at the beggar's seat, three players sit by the JSON API
with long names, the page begs and the dealer runs the pack once (9 cards) or the pack runs
twice (12). The same page is then measured at each size with getBoundingClientRect.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page

from app.i18n import LANGUAGES
from app.rules import DEFAULT_RULES, apply, new_game
from app.rules.engine import first_dealer_for
from app.rules.state import BEG, RUN_PACK, STAND
from app.web.render import render_table
from tests.e2e.players import create_room, open_table, script_errors, version, wait_past
from tests.e2e.players import phase as phase_of
from tests.web.views import beg_with_last_lift

SIZES = (
    {"width": 320, "height": 568},
    {"width": 360, "height": 640},
    {"width": 390, "height": 844},
    {"width": 844, "height": 390},
    {"width": 1280, "height": 800},
    {"width": 1920, "height": 1080},
)
# Names as long as the join form takes (24 characters), one without a space to break at.
OTHERS = ("Bartholomew Fitzgerald", "Christophera-Montgomeryy", "Dan")
ME = "Annabelle-Rose"


@dataclass(frozen=True)
class Deal:
    seed: int
    runs: int  # how often the dealer's run of the pack deals three more each (0: the beggar stands)
    cards: int


# Seed 1: a run shows a new suit at once (9 cards); seed 4: the first run turns the same
# suit again, so the pack runs twice (12 cards).
DEALS = (
    Deal(seed=1, runs=0, cards=6),
    Deal(seed=1, runs=1, cards=9),
    Deal(seed=4, runs=2, cards=12),
)


def _engine_hand_size(deal: Deal) -> int:
    state = new_game(DEFAULT_RULES, deal.seed)
    state = apply(state, STAND) if deal.runs == 0 else apply(apply(state, BEG), RUN_PACK)
    hands = state.hands[(state.dealer + 1) % 4]
    return int(bin(hands).count("1")) if isinstance(hands, int) else len(hands)


def test_the_seeds_deal_the_hand_sizes_this_file_measures() -> None:
    for deal in DEALS:
        assert _engine_hand_size(deal) == deal.cards, deal


def _api(base: str, code: str, token: str, path: str, body: dict[str, Any]) -> None:
    r = httpx.post(
        f"{base}/api/rooms/{code}/{path}", json=body, headers={"Authorization": f"Bearer {token}"}
    )
    r.raise_for_status()


def seated_at_the_beggar(
    browser: Browser, server: str, deal: Deal, lang: str = "en"
) -> tuple[Page, str, dict[int, str]]:
    """A started room whose page is the beggar's, read in ``lang``; returns the page, the
    code, the others' tokens."""
    code = create_room(server, seed=deal.seed, target=14)
    beggar = (first_dealer_for(deal.seed) + 1) % 4
    page = open_table(browser, server, code, viewport=SIZES[-1], lang=lang)
    page.fill("input[name=name]", ME)
    page.click(f"[data-action=join][data-seat='{beggar}']")
    page.wait_for_selector(f"#table[data-you='{beggar}']")
    tokens: dict[int, str] = {}
    others = [s for s in range(4) if s != beggar]
    for seat, name in zip(others, OTHERS, strict=True):
        r = httpx.post(f"{server}/api/rooms/{code}/join", json={"name": name, "seat": seat})
        r.raise_for_status()
        tokens[seat] = r.json()["token"]
    v = version(page)
    _api(server, code, tokens[others[0]], "start", {})
    wait_past(page, v)
    page.wait_for_selector("#table[data-phase=beg][data-your-turn]")
    return page, code, tokens


def reach(server: str, page: Page, code: str, tokens: dict[int, str], deal: Deal) -> None:
    """From the beggar's decision to the deal's hand: stand, or beg and have the pack run."""
    if deal.runs == 0:
        return
    v = version(page)
    page.click("[data-action=beg]")
    wait_past(page, v)
    dealer = first_dealer_for(deal.seed)
    v = version(page)
    _api(server, code, tokens[dealer], "actions", {"type": "run_pack"})
    wait_past(page, v)
    page.wait_for_selector("#table[data-phase=play][data-your-turn]")
    assert page.locator("[data-hand] .hand-card").count() == deal.cards


MEASURE = (Path(__file__).parent / "layout.js").read_text()


def _measure_all(page: Page, label: str) -> list[str]:
    problems: list[str] = []
    for size in SIZES:
        page.set_viewport_size(size)  # type: ignore[arg-type]
        page.evaluate("window.scrollTo(0, 0)")
        got = page.evaluate(MEASURE)
        print(
            f"{label} at {size['width']}x{size['height']}: page {got['scrollWidth']} px wide, "
            f"hand bottom {got['handBottom']} of {got['height']}, smallest text "
            f"{got['smallestText']} px, {len(got['problems'])} problems"
        )
        problems += [f"{label} at {size['width']}x{size['height']}: {p}" for p in got["problems"]]
    return problems


# Every language: German's long words, French's spaces before colons, Malay's long phrases.
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("deal", DEALS, ids=lambda d: f"{d.cards}-cards")
def test_the_whole_hand_fits_every_screen(
    browser: Browser, server: str, deal: Deal, lang: str
) -> None:
    page, code, tokens = seated_at_the_beggar(browser, server, deal, lang)
    page.emulate_media(reduced_motion="reduce")  # measure where the cards come to rest
    problems = []
    if deal.runs == 0:
        problems += _measure_all(page, "6 cards, stand or beg")
        v = version(page)
        page.click("[data-action=stand]")
        wait_past(page, v)
    reach(server, page, code, tokens, deal)
    problems += _measure_all(page, f"{deal.cards} cards, my lead")
    if deal.cards == 12:  # a spectator sees all four seats, the bottom one too
        watcher = open_table(browser, server, code, lang=lang)
        watcher.emulate_media(reduced_motion="reduce")
        problems += _measure_all(watcher, "a spectator of 12-card hands")
        assert script_errors(watcher) == []
        watcher.context.close()
    assert problems == [], problems
    assert script_errors(page) == []
    page.context.close()


def play_to_the_end(server: str, code: str, names: tuple[str, ...]) -> dict[int, str]:
    """Four players by these names (seats 0-3, through the API) play the room's game to its
    end: each stands and runs the pack, and plays a card of their own choosing; their tokens."""
    tokens = {}
    for seat, name in enumerate(names):
        r = httpx.post(f"{server}/api/rooms/{code}/join", json={"name": name, "seat": seat})
        r.raise_for_status()
        tokens[seat] = r.json()["token"]
    _api(server, code, tokens[0], "start", {})
    while (view := _view(server, code, tokens[0]))["phase"] != "game_over":
        turn = view["turn"]
        if view["phase"] == "beg":
            _api(server, code, tokens[turn], "actions", {"type": "stand"})
        elif view["phase"] == "give_or_run":
            _api(server, code, tokens[turn], "actions", {"type": "run_pack"})
        else:
            _api_plays(server, code, tokens, turn)
    return tokens


def _view(server: str, code: str, token: str) -> dict[str, Any]:
    r = httpx.get(f"{server}/api/rooms/{code}", headers={"Authorization": f"Bearer {token}"})
    r.raise_for_status()
    view: dict[str, Any] = r.json()
    return view


def _api_plays(server: str, code: str, tokens: dict[int, str], seat: int) -> None:
    """The API player at ``seat`` plays its first legal card."""
    legal = [a for a in _view(server, code, tokens[seat])["legal"] if a["type"] == "play"]
    _api(server, code, tokens[seat], "actions", {"type": "play", "card": legal[0]["card"]})


COUNT_EVENTS = """() => {
  window.__events = [];
  const note = e => window.__events.push(Number(e.lastEventId));
  window.__streams.forEach(s => s.addEventListener('state', note));
}"""


def test_every_lift_is_swept_whoever_played_the_fourth_card(browser: Browser, server: str) -> None:
    """A trick that the page's own fourth card completes gets the sweep a trick completed by
    another player gets: it is still on its way to the winner after the stream brought that
    version and the next lead, and it ends swept (``data-swept``). The card that led is tagged."""
    deal = DEALS[0]
    page, code, tokens = seated_at_the_beggar(browser, server, deal)
    me = int(page.get_attribute("#table", "data-you") or 0)
    page.evaluate(COUNT_EVENTS)
    v = version(page)
    page.click("[data-action=stand]")
    wait_past(page, v)
    swept_by_other = swept_by_me = False
    while not (swept_by_other and swept_by_me):
        view = _view(server, code, tokens[(me + 1) % 4])
        assert view["phase"] == "play", "the hand ended before both kinds of sweep were seen"
        turn, on_table = view["turn"], len(view["trick"])
        v = version(page)
        if turn == me:
            if on_table:
                lead = page.locator(".trick .slot.lead")
                assert lead.count() == 1 and lead.locator(".lead-mark").inner_text() == "LED"
            page.click("[data-hand] [data-legal] >> nth=0")
        else:
            _api_plays(server, code, tokens, turn)
        wait_past(page, v)
        if on_table < 3:
            continue
        key = page.get_attribute(".collected", "data-lift")
        # The stream's copy of this version has been swapped in as well (the page's own card
        # was answered by its action first): the sweep goes on regardless.
        page.wait_for_function("v => window.__events.includes(v)", arg=v + 1)
        after = view["turn"]  # who played the fourth card
        winner_view = _view(server, code, tokens[(me + 1) % 4])
        if winner_view["phase"] == "play" and winner_view["turn"] != me:
            nv = version(page)
            _api_plays(server, code, tokens, winner_view["turn"])  # the next lead, at once
            wait_past(page, nv)
        ghost = page.locator(f".sweep-ghost[data-sweep='{key}'] .collected.sweep")
        assert ghost.count() == 1 and ghost.is_visible(), f"no sweep of {key}"
        page.wait_for_selector(f"html[data-swept='{key}']", state="attached")
        assert page.locator(".sweep-ghost").count() == 0
        if after == me:
            swept_by_me = True
        else:
            swept_by_other = True
    assert script_errors(page) == []
    page.context.close()


def _move(page: Page, server: str, code: str, tokens: dict[int, str], me: int) -> None:
    """One move by whoever is to act: the beggar stands, a player plays its first legal card."""
    view = _view(server, code, tokens[(me + 1) % 4])
    turn = view["turn"]
    v = version(page)
    if turn == me:
        page.click("[data-action=stand]" if view["phase"] == "beg" else "[data-hand] [data-legal]")
    elif view["phase"] == "beg":
        _api(server, code, tokens[turn], "actions", {"type": "stand"})
    else:
        _api_plays(server, code, tokens, turn)
    wait_past(page, v)


SUMMARY_FITS = """() => {
  const s = document.querySelector('.hand-summary:not([hidden])');
  if (!s) return ['no summary'];
  const problems = [], b = s.getBoundingClientRect(), H = innerHeight;
  const me = document.querySelector('.me-area').getBoundingClientRect();
  const apart = b.right <= me.left || b.left >= me.right
    || b.bottom <= me.top || b.top >= me.bottom;
  const overlap = !apart;
  if (overlap) problems.push(`the summary covers the player's area: ${b.bottom} > ${me.top}`);
  if (s.scrollHeight > s.clientHeight + 1) problems.push('the summary is cut off');
  s.querySelectorAll('.award').forEach((a, i) => {
    const r = a.getBoundingClientRect();
    const cut = r.bottom > H || r.bottom > b.bottom + 1 || r.right > innerWidth;
    if (cut) problems.push(`award ${i} cut off`);
  });
  return problems;
}"""


def test_the_hand_summary_covers_no_decision_and_goes_with_the_next_move(
    browser: Browser, server: str
) -> None:
    page, code, tokens = seated_at_the_beggar(browser, server, DEALS[0])
    page.emulate_media(reduced_motion="reduce")
    me = int(page.get_attribute("#table", "data-you") or 0)
    while page.locator(".hand-summary").count() == 0:
        _move(page, server, code, tokens, me)
    problems = []
    for size in SIZES:
        page.set_viewport_size(size)  # type: ignore[arg-type]
        page.evaluate("window.scrollTo(0, 0)")
        # The page fits the summary on "resize", which the browser fires in its next frame.
        page.evaluate("() => new Promise((r) => requestAnimationFrame(() => r(null)))")
        assert page.is_visible(".hand-summary")
        problems += [
            f"at {size['width']}x{size['height']}: {p}" for p in page.evaluate(SUMMARY_FITS)
        ]
    assert problems == [], problems

    page.set_viewport_size(SIZES[1])  # type: ignore[arg-type]
    first = page.get_attribute(".hand-summary", "id")
    while not page.is_hidden(f"#{first}"):  # read or not, the player's next move puts it away
        assert phase_of(page) != "game_over"
        _move(page, server, code, tokens, me)
    fresh = f".hand-summary:not(#{first}):not([hidden])"
    while page.locator(fresh).count() == 0:  # the next hand's summary
        assert phase_of(page) != "game_over"
        _move(page, server, code, tokens, me)
    page.click("[data-dismiss-summary]")
    assert page.is_hidden(".hand-summary")
    focused = page.evaluate(
        "(() => { const a = document.activeElement; return a.closest('[data-hand]') ? 'hand'"
        " : a.closest('.beg-step') ? 'decision' : a.tagName; })()"
    )
    assert focused in ("hand", "decision")
    assert script_errors(page) == []
    page.context.close()


def test_the_reconnecting_bar_pushes_the_table_down(browser: Browser, server: str) -> None:
    page, _, _ = seated_at_the_beggar(browser, server, DEALS[0])
    for size in (SIZES[1], SIZES[3], SIZES[4]):
        page.set_viewport_size(size)  # type: ignore[arg-type]
        before = page.evaluate("document.querySelector('#live').getBoundingClientRect().top")
        page.evaluate("document.body.dispatchEvent(new CustomEvent('htmx:sseError'))")  # as htmx
        page.wait_for_selector("#conn", state="visible")
        bar = page.evaluate(
            "(() => { const b = document.querySelector('#conn')"
            ".getBoundingClientRect(); return [b.top, b.bottom]; })()"
        )
        top = page.evaluate("document.querySelector('#live').getBoundingClientRect().top")
        header = page.evaluate("document.querySelector('.topbar').getBoundingClientRect().bottom")
        assert bar[0] >= header - 0.5 and top >= bar[1] - 0.5, (size, bar, top)
        assert top - before >= bar[1] - bar[0] - 0.5
        # Scrolled down, the bar stays where it is in the page, under the header: it does not
        # follow the window over the table.
        page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
        apart = page.evaluate(
            "document.querySelector('#conn').getBoundingClientRect().top"
            " - document.querySelector('.topbar').getBoundingClientRect().bottom"
        )
        assert abs(apart) < 1, (size, apart)
        page.evaluate("window.scrollTo(0, 0)")
        page.evaluate("document.body.dispatchEvent(new CustomEvent('htmx:sseOpen'))")
        page.wait_for_selector("#conn", state="hidden")
        # And the reopened stream's first event, the table as shown (else, after a few quiet
        # seconds, the page would take the stream for blocked and poll instead).
        page.evaluate(
            "document.body.dispatchEvent(new CustomEvent('htmx:sseBeforeMessage',"
            " {detail: {data: document.querySelector('#live').innerHTML}}))"
        )
    page.context.close()


def test_the_last_lift_of_a_hand_is_swept_before_the_new_deal_comes_in(
    browser: Browser, server: str
) -> None:
    """The table a page gets when the fourth card of a hand's last lift is played: the next
    deal's beg decision, with that lift in ``last_trick`` (rendered here from an engine game,
    as the stream would bring it). The page sweeps the lift first, the new deal's cards and
    the decision come in after it, and the lift then stays in view as "Last lift"."""
    page, _, _ = seated_at_the_beggar(browser, server, DEALS[0])
    view = beg_with_last_lift().model_copy(update={"version": version(page) + 1})
    key_of = "document.querySelector('#table .collected').dataset.lift"
    page.evaluate(
        """html => {
          const live = document.querySelector('#live');  // as htmx-ext-sse swaps an event
          const spec = {swapStyle: 'morph:innerHTML', settleDelay: 0};
          htmx.swap(live, html, spec, {contextElement: live});
        }""",
        render_table(view),
    )
    key = page.evaluate(key_of)
    ghost = page.locator(".sweep-ghost .collected.sweep[data-final]")
    assert ghost.count() == 1 and ghost.is_visible()
    assert page.evaluate("document.documentElement.classList.contains('sweeping-final')")
    hidden = "sel => getComputedStyle(document.querySelector(sel)).visibility === 'hidden'"
    for waiting in ("#table [data-hand]", "#table .beg-step", "#table .lift-shown"):
        assert page.evaluate(hidden, waiting), f"{waiting} shows before the sweep ends"
    page.wait_for_selector(f"html[data-swept='{key}']", state="attached")
    assert page.locator(".sweep-ghost").count() == 0
    for shown in ("#table [data-hand]", "#table .beg-step", "#table .lift-shown"):
        assert page.is_visible(shown), f"{shown} did not come in after the sweep"
    assert page.inner_text("#table .lift-shown").startswith("Last lift")
    assert page.locator("#table .lift-shown [data-card]").count() == 4
    assert script_errors(page) == []
    page.context.close()


CONTRAST = """sel => {
  const rgb = c => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = c => {
    const lin = v => { v /= 255; return v <= .03928 ? v / 12.92 : ((v + .055) / 1.055) ** 2.4; };
    const [r, g, b] = rgb(c).map(lin);
    return .2126 * r + .7152 * g + .0722 * b;
  };
  const el = document.querySelector(sel);
  let bg = el;
  while (getComputedStyle(bg).backgroundColor === 'rgba(0, 0, 0, 0)') bg = bg.parentElement;
  const [a, b] = [lum(getComputedStyle(el).color), lum(getComputedStyle(bg).backgroundColor)];
  return (Math.max(a, b) + .05) / (Math.min(a, b) + .05);
}"""


def _sideways_problems(page: Page, label: str) -> list[str]:
    """At each size: no sideways scroll, the header whole, no state text under 12 px (a page
    longer than the window may scroll down)."""
    problems = []
    for size in SIZES:
        page.set_viewport_size(size)  # type: ignore[arg-type]
        page.evaluate("window.scrollTo(0, 0)")
        got = page.evaluate(MEASURE)
        problems += [
            f"{label} at {size['width']}x{size['height']}: {p}"
            for p in got["problems"]
            if "below the fold" not in p
        ]
    return problems


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_lobby_and_the_result_fit_every_width(browser: Browser, server: str, lang: str) -> None:
    code = create_room(server, seed=7, target=7)
    page = open_table(browser, server, code, lang=lang)
    problems = _sideways_problems(page, "lobby")
    play_to_the_end(server, code, (*OTHERS, ME))
    page.wait_for_selector("#table[data-phase=game_over]")  # a spectator's result page
    problems += _sideways_problems(page, "result")
    assert problems == [], problems
    for text in (".result-kicker", ".hands-played"):
        ratio = page.evaluate(CONTRAST, text)
        assert ratio >= 4.5, f"{text}: contrast {ratio:.2f}:1"
    assert script_errors(page) == []
    page.context.close()
