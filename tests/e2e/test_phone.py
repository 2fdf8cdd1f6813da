"""A phone at 360 and 390 px (issue 32, points 1, 4, 8 and 10): the lobby once seated with
computer players, the result at game over, the stats tables, the replay's step buttons and
the talk's drawer, each measured in a real browser with getBoundingClientRect: no page wider
than the screen, no control over another, every control a finger's size and inside the
screen, Rematch in the first screen."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser

from tests.e2e.players import create_room, open_table, script_errors, version, wait_past
from tests.e2e.test_layout import CONTRAST, OTHERS, play_to_the_end
from tests.e2e.test_replay import open_page

NARROW = {"width": 360, "height": 640}
PHONES = (NARROW, {"width": 390, "height": 844})
# The host's own name as long as the field takes, and without a space for half of it.
HOST = "Annabelle-Rose Fitzgerald"[:24]
TOUCH = 44  # px: the least height of a control a finger taps

# The lobby's controls: each inside the screen, none over another, each tall enough; each
# seat's name inside its seat. Returns a list of problems (empty when the screen is right).
LOBBY_FITS = """touch => {
  const W = document.documentElement.clientWidth, problems = [];
  const box = el => el.getBoundingClientRect();
  const shown = el => { const b = box(el); return b.width > 0 && b.height > 0; };
  const what = el => `${el.tagName.toLowerCase()} ${el.dataset.action || el.id || ''}`
    + ` "${(el.innerText || '').trim().slice(0, 24)}"`;
  if (document.documentElement.scrollWidth > W)
    problems.push(`the page is ${document.documentElement.scrollWidth} px wide at ${W}`);
  const controls = [...document.querySelectorAll(
    '.lobby-felt button, .lobby-felt select, .bot-level select')].filter(shown);
  controls.forEach((el, i) => {
    const b = box(el);
    if (b.left < -0.5 || b.right > W + 0.5)
      problems.push(`${what(el)} off the screen: ${b.left}..${b.right}`);
    if (b.height < touch - 0.5) problems.push(`${what(el)} ${b.height} px tall`);
    controls.slice(i + 1).forEach(other => {
      const o = box(other);
      const apart = b.right <= o.left + 0.5 || o.right <= b.left + 0.5
        || b.bottom <= o.top + 0.5 || o.bottom <= b.top + 0.5;
      if (!apart) problems.push(`${what(el)} overlaps ${what(other)}`);
    });
  });
  const seats = [...document.querySelectorAll('.lobby-seat')];
  seats.forEach((seat, i) => {
    const s = box(seat);
    seats.slice(i + 1).forEach(other => {
      const o = box(other);
      const apart = s.right <= o.left + 0.5 || o.right <= s.left + 0.5
        || s.bottom <= o.top + 0.5 || o.bottom <= s.top + 0.5;
      if (!apart) problems.push(`seats ${i} and ${seats.indexOf(other)} overlap`);
    });
    seat.querySelectorAll('.seat-name, button, select').forEach(el => {
      const b = box(el);
      if (b.left < s.left - 0.5 || b.right > s.right + 0.5 || b.bottom > s.bottom + 0.5)
        problems.push(`${what(el)} spills out of its seat`);
    });
  });
  return {problems, controls: controls.length};
}"""


@pytest.mark.parametrize("lang", ["en", "ms"])
def test_the_phone_lobby_fits_with_computer_players_and_the_hosts_controls(
    browser: Browser, server: str, lang: str
) -> None:
    """The host at seat 0, a computer player at seat 1, a player with a long name at seat 2
    and seat 3 empty: the level menu shows, and the host's move and free controls on every
    seat taken."""
    code = create_room(server, seed=7)
    page = open_table(browser, server, code, viewport=NARROW, lang=lang)
    page.fill("input[name=name]", HOST)
    page.click("[data-action=join][data-seat='0']")
    page.wait_for_selector("#table[data-you='0']")
    v = version(page)
    httpx.post(f"{server}/api/rooms/{code}/join", json={"name": OTHERS[1], "seat": 2})
    wait_past(page, v)
    v = version(page)
    page.click("[data-action=bot][data-seat='1']")
    wait_past(page, v)
    page.wait_for_selector("[data-action=host-free][data-seat='1']")
    assert page.is_visible("#bot-level")
    problems = []
    for size in PHONES:
        page.set_viewport_size(size)  # type: ignore[arg-type]
        got = page.evaluate(LOBBY_FITS, TOUCH)
        assert got["controls"] >= 8  # 3 moves, 2 frees, 1 add, their menus, the level menu
        problems += [f"{lang} at {size['width']}: {p}" for p in got["problems"]]
    assert problems == []
    # The whole name is there to read (it wraps in its seat, nothing is cut).
    assert HOST in page.inner_text(".lobby-seat.me .seat-name")
    assert script_errors(page) == []
    page.context.close()


def test_the_name_field_says_its_limit(browser: Browser, server: str) -> None:
    code = create_room(server, seed=7)
    page = open_table(browser, server, code, viewport=NARROW)
    field = page.locator("input[name=name]")
    hint = page.locator(f"#{field.get_attribute('aria-describedby')}")
    assert hint.is_visible() and "24 characters" in hint.inner_text()
    field.type("x" * 30)
    assert len(field.input_value()) == 24
    page.context.close()


def _game_over(server: str) -> tuple[str, dict[int, str]]:
    """Four players with long names (the API) play a game to its end; the room's code and
    their tokens."""
    code = create_room(server, seed=7, target=7)
    return code, play_to_the_end(server, code, (*OTHERS, HOST))


SCREEN = """() => ({
  width: document.documentElement.scrollWidth,
  rematch: document.querySelector('[data-action=rematch]').getBoundingClientRect().toJSON(),
  score: [...document.querySelectorAll('.final-score > b, .final-score > .dash')]
    .map(el => el.getBoundingClientRect().toJSON()),
})"""


@pytest.fixture(scope="module")
def finished(server: str) -> tuple[str, dict[int, str]]:
    return _game_over(server)


@pytest.mark.parametrize("lang", ["en", "ms"])
def test_rematch_is_in_the_first_screen_of_a_phone_at_game_over(
    browser: Browser, server: str, finished: tuple[str, dict[int, str]], lang: str
) -> None:
    code, tokens = finished
    page = open_table(browser, server, code, viewport=NARROW, lang=lang, token=tokens[3])
    page.wait_for_selector("#table[data-phase=game_over]")
    page.wait_for_selector("#result-sheet [data-score-sheet]")  # the whole sheet is in
    got: dict[str, Any] = page.evaluate(SCREEN)
    assert got["width"] <= NARROW["width"]
    assert got["rematch"]["bottom"] <= NARROW["height"], got["rematch"]
    # The final score's two figures and its dash stand on one line, side by side.
    first, dash, second = got["score"]
    assert first["right"] <= dash["left"] and dash["right"] <= second["left"]
    middles = [b["top"] + b["height"] / 2 for b in got["score"]]
    assert max(middles) - min(middles) < first["height"] / 2
    assert script_errors(page) == []
    page.context.close()


STATS_FITS = """() => {
  const box = el => el.getBoundingClientRect();
  const scroller = document.querySelector('[data-stats-players] .table-scroll');
  const name = scroller.querySelector('tbody th');
  const before = box(name).left;
  scroller.scrollLeft = scroller.scrollWidth;
  return {
    page: document.documentElement.scrollWidth,
    box: box(scroller).right,
    scrolls: scroller.scrollWidth > scroller.clientWidth,
    nameMoved: box(name).left - before,
    lastColumn: box(scroller.querySelector('tbody tr td:last-child')).right,
  };
}"""


def test_the_stats_tables_scroll_in_their_box_with_the_names_in_view(
    browser: Browser, server: str, finished: tuple[str, dict[int, str]]
) -> None:
    code, _ = finished
    page, errors = open_page(browser, f"{server}/r/{code}/stats?lang=ms", NARROW)
    page.wait_for_selector("[data-stats-players] [data-stats-row]")
    got = page.evaluate(STATS_FITS)
    assert got["page"] <= NARROW["width"] and got["box"] <= NARROW["width"]
    assert got["scrolls"]  # 13 columns do not fit 360 px: the box scrolls, not the page
    assert abs(got["nameMoved"]) < 1  # the names stay where they are
    assert got["lastColumn"] <= NARROW["width"]  # and the last column comes into view
    assert errors == []
    page.context.close()


def test_the_replays_step_buttons_hold_their_words(
    browser: Browser, server: str, finished: tuple[str, dict[int, str]]
) -> None:
    code, _ = finished
    for lang in ("en", "ms", "de"):
        page, errors = open_page(browser, f"{server}/r/{code}/replay?lang={lang}", NARROW)
        page.wait_for_selector("[data-step=next]")
        for step in ("prev", "next"):
            spill = page.evaluate(
                """s => { const b = document.querySelector(`[data-step=${s}]`);
                  const r = b.getBoundingClientRect();
                  return [b.scrollWidth - b.clientWidth, r.left, r.right]; }""",
                step,
            )
            assert spill[0] <= 0 and spill[1] >= 0 and spill[2] <= NARROW["width"], (lang, spill)
        assert page.evaluate("document.documentElement.scrollWidth") <= NARROW["width"]
        assert errors == []
        page.context.close()


def test_the_talk_drawer_reads_on_its_paper_and_closes_by_button_and_escape(
    browser: Browser, server: str, finished: tuple[str, dict[int, str]]
) -> None:
    code, tokens = finished
    page = open_table(browser, server, code, viewport=NARROW, token=tokens[0])
    toggle = "[data-chat-toggle]"
    page.click(toggle)
    page.wait_for_selector("#chat[data-open=true]")
    assert page.evaluate(CONTRAST, ".chat-title") >= 4.5
    close = page.locator("[data-chat-close]")
    assert close.is_visible()
    # By the keyboard: the button takes the focus, Enter closes the drawer.
    close.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#chat[data-open=false]", state="attached")
    assert page.is_hidden("#chat")
    assert page.get_attribute(toggle, "aria-expanded") == "false"
    assert page.evaluate("document.activeElement.matches('[data-chat-toggle]')")
    page.click(toggle)
    page.wait_for_selector("#chat[data-open=true]")
    page.focus("#chat-input")
    page.keyboard.press("Escape")
    page.wait_for_selector("#chat[data-open=false]", state="attached")
    assert script_errors(page) == []
    page.context.close()
