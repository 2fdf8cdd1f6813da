"""Four players at one table, each in their own language (German and French asked for with
``?lang=``, Malay and Luxembourgish from the browser's language): they play a whole hand by
clicking, each page speaks its reader's language, and the four tables agree card for card
and point for point. The pages around the table hold at 360 px in every language."""

from __future__ import annotations

import random
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from app import i18n
from tests.e2e.players import (
    click_start,
    create_room,
    open_table,
    phase,
    script_errors,
    take_seat,
    take_turn,
    the_mover,
    version,
    wait_past,
    what_pages_show,
)

# (name, how the page is asked for in its language): ?lang= or the browser's language.
PLAYERS = (
    ("Dieter", "de", None),
    ("Margaux", "fr", None),
    ("Siti", None, "ms-MY"),
    ("Josée", None, "lb-LU"),
)
LANGS = ("de", "fr", "ms", "lb")
NARROW = {"width": 360, "height": 640}


def said(lang: str, message: str) -> str:
    with i18n.reading(lang):
        return i18n.gettext(message)


def _hand_number(server: str, code: str) -> int:
    r = httpx.get(f"{server}/api/rooms/{code}")
    r.raise_for_status()
    return int(r.json()["hand_number"])


def _trick(page: Page) -> list[str]:
    cards: list[str] = page.eval_on_selector_all(
        "#table .trick [data-card]", "els => els.map(e => e.dataset.card)"
    )
    return sorted(cards)


def _awards(page: Page) -> list[tuple[str, str]]:
    """The last hand's awards as the summary lists them: (kind, points)."""
    found: list[list[str]] = page.eval_on_selector_all(
        "#table .hand-summary .award",
        "els => els.map(e => [e.className, e.querySelector('.award-points').textContent])",
    )
    return [(c.split()[1], p.split()[0]) for c, p in found]


def _screenshot(page: Page, path: Path) -> None:
    page.emulate_media(reduced_motion="reduce")
    page.screenshot(path=str(path))
    page.emulate_media(reduced_motion="no-preference")


def test_four_players_in_four_languages_play_a_whole_hand(
    browser: Browser, server: str, screenshots: Path
) -> None:
    code = create_room(server, seed=2024, target=14)
    pages = [open_table(browser, server, code, lang=lang, locale=locale)
             for _, lang, locale in PLAYERS]  # fmt: skip
    for seat, (page, (name, _, _)) in enumerate(zip(pages, PLAYERS, strict=True)):
        take_seat(page, name, seat)
    for page, lang in zip(pages, LANGS, strict=True):
        page.wait_for_function("() => document.querySelectorAll('.lobby-seat.empty').length === 0")
        assert page.get_attribute("html", "lang") == lang
        start = page.locator("[data-action=start]")
        try:
            start.wait_for(state="attached")
        except PlaywrightTimeout:
            raise AssertionError(f"no Start on {lang}: {what_pages_show(pages)}") from None
        assert said(lang, "Start the game") in start.inner_text()

    pages[1].emulate_media(reduced_motion="reduce")
    pages[1].locator(".site-foot").screenshot(path=str(screenshots / "language-menu.png"))
    v = version(pages[0])
    click_start(pages[0])
    for page in pages:
        wait_past(page, v)
    hand = _hand_number(server, code)
    rng = random.Random(18)
    shot = False
    while True:
        now = _hand_number(server, code)
        if now != hand or phase(pages[0]) == "game_over":
            if pages[0].locator("#table .hand-summary .award").count():
                break  # a hand played out, and scored
            hand = now  # thrown in (the pack ran out): the next deal is the hand to play
        v = version(pages[0])
        mover = the_mover(pages)
        if not shot and phase(mover) == "play" and len(_trick(mover)) == 2 and mover is pages[0]:
            _screenshot(mover, screenshots / "table-de.png")
            shot = True
        take_turn(mover, rng)
        for page in pages:
            wait_past(page, v)
        tricks = [_trick(p) for p in pages]
        assert all(t == tricks[0] for t in tricks), tricks
        scores = [[p.get_attribute("#table", f"data-score-{t}") for t in (0, 1)] for p in pages]
        assert all(s == scores[0] for s in scores), scores
        for page, lang in zip(pages, LANGS, strict=True):
            assert page.get_attribute("html", "lang") == lang

    # The hand is over: every page sums it up the same, each in its own words.
    for page in pages:
        page.wait_for_selector("#table .hand-summary .award")
    awards = [_awards(p) for p in pages]
    assert awards[0] and all(a == awards[0] for a in awards), awards
    statuses = {
        lang: page.inner_text("#table .status") for page, lang in zip(pages, LANGS, strict=True)
    }
    assert len(set(statuses.values())) == len(LANGS), statuses
    for page, lang in zip(pages, LANGS, strict=True):
        assert said(lang, "Score sheet") in page.inner_text("#table .scoreboard")
        assert page.evaluate("document.title").startswith(("●", "All Fours"))
        assert script_errors(page) == []
    for page in pages:
        page.context.close()


OVERFLOW = """() => {
  const W = document.documentElement.clientWidth, problems = [];
  if (document.documentElement.scrollWidth > W)
    problems.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} px at ${W}`);
  document.querySelectorAll('body *').forEach(el => {
    if (el.closest('.sr-only, svg, .table-scroll, [hidden], dialog:not([open])')) return;
    const s = getComputedStyle(el), b = el.getBoundingClientRect();
    if (b.width <= 1 || b.height <= 1 || s.visibility === 'hidden') return;
    const text = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (!text) return;
    if (b.right > W + 0.5 || b.left < -0.5)
      problems.push(`"${el.textContent.trim().slice(0, 40)}" runs off the side`);
    const clips = ['hidden', 'clip'].includes(s.overflowX) || s.textOverflow === 'ellipsis';
    if (clips && el.scrollWidth > el.clientWidth + 1)
      problems.push(`"${el.textContent.trim().slice(0, 40)}" is cut short`);
  });
  return problems;
}"""


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_the_pages_around_the_table_hold_at_360_px_in_every_language(
    browser: Browser, server: str, lang: str
) -> None:
    code = create_room(server, seed=1)
    # Seed 1 deals from seat 0: the beggar, to act, sits on a spectator's right, with the
    # longest name the form takes, away (no page open), so the computer's countdown shows.
    playing = create_room(server, seed=1)
    tokens = []
    names = ("Dan", "Christophera-Montgomeryy", "Bartholomew Fitzgerald", "Al")
    for seat, name in enumerate(names):
        r = httpx.post(f"{server}/api/rooms/{playing}/join", json={"name": name, "seat": seat})
        r.raise_for_status()
        tokens.append(r.json()["token"])
    r = httpx.post(
        f"{server}/api/rooms/{playing}/start", headers={"Authorization": f"Bearer {tokens[0]}"}
    )
    r.raise_for_status()
    context = browser.new_context(viewport=NARROW)  # type: ignore[arg-type]
    page = context.new_page()
    problems = []
    for url in ("/", "/how-to-play", f"/r/{code}", f"/r/{playing}", f"/r/{code}/stats",
                "/records/open", f"/r/{code}/sheet", "/join?code=zzzz"):  # fmt: skip
        joiner = "&" if "?" in url else "?"
        # Styles are in by DOMContentLoaded (a script follows them); a room page's stream
        # never lets "load" settle on a busy machine.
        page.goto(f"{server}{url}{joiner}lang={lang}", wait_until="domcontentloaded")
        assert page.get_attribute("html", "lang") == lang
        if url == f"/r/{playing}":
            page.wait_for_selector("#table [data-away-clock]")
        page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
        problems += [f"{url}: {p}" for p in page.evaluate(OVERFLOW)]
    assert problems == []
    context.close()
