"""Real browsers at the table: lobby, a whole game by clicking, reloads, a phone."""

from __future__ import annotations

import random
from pathlib import Path

from playwright.sync_api import Browser, Page

from tests.e2e.players import (
    PHONE,
    click_start,
    create_room,
    hand,
    open_streams,
    open_table,
    phase,
    script_errors,
    seat_with_bots,
    still_same_page,
    take_seat,
    take_turn,
    the_mover,
    version,
    visible_cards,
    wait_past,
)

NAMES = ("Ann", "Bob", "Cy", "Dan")

# Every table the page is given (the stream's events, the actions' answers), to check that
# what it shows is what the server sent: live updates morph the table shown into the new one.
RECORD_TABLES = """
window.__tables = [];
document.addEventListener("DOMContentLoaded", () => {
  window.__tables.push(document.querySelector("#live").innerHTML);
  const keep = (html) => window.__tables.push(html);
  document.body.addEventListener("htmx:sseBeforeMessage", (e) => keep(e.detail.data));
  document.body.addEventListener("htmx:beforeSwap", (e) => {
    if (e.detail.xhr && e.detail.target.id === "live") keep(e.detail.xhr.responseText);
  });
});
"""
# The same tree, as the server wrote it: attributes sorted; left out, what the page's script
# owns (style, the animations' classes, a roving tabindex, a note hidden once read, the
# elements kept whole with data-keep).
CANONICAL = """
(root) => {
  const PAGE = /^(played|fresh|htmx-.*)$/;
  const out = [];
  const walk = (n) => {
    if (n.nodeType !== 1) { out.push(n.nodeType + ":" + n.nodeValue); return; }
    if (n.hasAttribute("data-keep")) { out.push("<kept " + n.id + ">"); return; }
    const at = [...n.attributes].filter((a) => !["style", "tabindex", "hidden"].includes(a.name))
      .map((a) => a.name === "class"
        ? "class=" + a.value.split(/\\s+/).filter((c) => c && !PAGE.test(c)).join(" ")
        : a.name + "=" + a.value)
      .filter((a) => a !== "class=").sort();
    out.push("<" + n.nodeName + " " + at.join(" ") + ">");
    n.childNodes.forEach(walk);
    out.push("</" + n.nodeName + ">");
  };
  root.childNodes.forEach(walk);
  return out.join("|");
}
"""
MORPH_CHECK = (
    "() => { const canonical = "
    + CANONICAL
    + """;
  const parse = (html) => {
    const t = document.createElement("template");
    t.innerHTML = html;
    return t.content;
  };
  const bad = [];
  const T = window.__tables;
  // Each table into the next, as the page went, and into ones far away (lobby to result).
  const pairs = T.slice(1).map((_, i) => [i, i + 1]).concat(T.map((_, i) => [i, T.length - 1 - i]));
  for (const [i, j] of pairs) {
    const box = document.createElement("div");
    box.appendChild(parse(T[i]));
    window.AllFoursMorph(box, parse(T[j]));
    const want = document.createElement("div");
    want.appendChild(parse(T[j]));
    if (canonical(box) !== canonical(want)) bad.push([i, j]);
  }
  // And the table shown is the one the server sent for its version.
  const shown = document.querySelector("#table").dataset.version;
  const sent = T.filter((h) => h.indexOf('data-version="' + shown + '"') !== -1).pop();
  const want = document.createElement("div");
  want.appendChild(parse(sent));
  if (canonical(document.querySelector("#live")) !== canonical(want)) bad.push(["shown", shown]);
  return {tables: T.length, bad: bad};
}"""
)


def _screenshot(page: Page, path: Path) -> None:
    """A still picture: no card caught halfway through its animation."""
    page.emulate_media(reduced_motion="reduce")
    page.screenshot(path=str(path))
    page.emulate_media(reduced_motion="no-preference")


def _assert_no_hidden_cards(pages: list[Page]) -> None:
    hands = [set(hand(p)) for p in pages]
    for i, page in enumerate(pages):
        shown = visible_cards(page)
        for j, other in enumerate(hands):
            if i != j:
                assert not shown & other, f"{NAMES[i]}'s page shows {shown & other} of {NAMES[j]}"


def test_four_players_take_seats_and_play_a_whole_game_by_clicking(
    browser: Browser, server: str, screenshots: Path
) -> None:
    code = create_room(server, seed=2024)
    pages = [open_table(browser, server, code) for _ in NAMES]
    rng = random.Random(7)

    for seat, (page, name) in enumerate(zip(pages, NAMES, strict=True)):
        if seat == 3:
            page.fill("input[name=name]", name)
            _screenshot(page, screenshots / "lobby.png")
        take_seat(page, name, seat)
    for page in pages:  # each page saw the others arrive, live
        page.wait_for_function("() => document.querySelectorAll('.lobby-seat.empty').length === 0")
        for name in NAMES[:3]:
            assert name in page.inner_text(".lobby-felt")

    watcher = open_table(browser, server, code)  # a late arrival: the seats are taken
    assert "you are watching" in watcher.inner_text(".lobby-foot")
    # Nothing to do but pass the invite on.
    controls = watcher.locator("input[name=name], [data-action]:not([data-action=share])")
    assert controls.count() == 0

    v = version(pages[0])
    click_start(pages[2])
    for page in [*pages, watcher]:
        wait_past(page, v)
        assert phase(page) in ("beg", "give_or_run", "play", "game_over")

    shot = 0  # 1: a trick on the table; 2: and chalk on the board too
    while phase(pages[0]) != "game_over":
        v = version(pages[0])
        _assert_no_hidden_cards(pages)
        mover = the_mover(pages)
        if shot < 2 and phase(mover) == "play" and mover.locator(".trick .slot").count() == 2:
            scored = mover.locator("#table:not([data-score-0='0'][data-score-1='0'])")
            better = 2 if scored.count() else 1
            if better > shot:
                if mover.locator(".hand-summary:not([hidden])").count():
                    mover.click("[data-dismiss-summary]")  # read; the table underneath, please
                _screenshot(mover, screenshots / "table-desktop.png")
                shot = better
        take_turn(mover, rng)
        for page in [*pages, watcher]:
            wait_past(page, v)
            assert version(page) == v + 1
        assert watcher.locator("[data-hand]").count() == 0
        held = set().union(*(set(hand(p)) for p in pages))
        assert not visible_cards(watcher) & held

    scores = [pages[0].get_attribute("#table", f"data-score-{t}") for t in (0, 1)]
    for page in pages:
        assert phase(page) == "game_over"
        assert [page.get_attribute("#table", f"data-score-{t}") for t in (0, 1)] == scores
        assert page.locator("[data-action=rematch]").count() == 1
        assert still_same_page(page), "a page reloaded"
        assert open_streams(page) == 1
        assert script_errors(page) == []
    assert max(int(s or 0) for s in scores) >= 7
    _screenshot(pages[0], screenshots / "result.png")

    v = version(pages[0])
    pages[1].click("[data-action=rematch]")
    for page in pages:
        wait_past(page, v)
        assert phase(page) in ("beg", "give_or_run", "play")
    for page in [*pages, watcher]:
        page.context.close()


def _my_move(page: Page, rng: random.Random) -> bool:
    """Wait for my turn (bots play at once) and take it; False once the game is over."""
    page.wait_for_selector("#table[data-your-turn], #table[data-phase=game_over]")
    if phase(page) == "game_over":
        return False
    v = version(page)
    take_turn(page, rng)
    wait_past(page, v)
    return True


def test_a_reload_mid_game_returns_the_player_to_the_seat(browser: Browser, server: str) -> None:
    code = create_room(server, seed=99)
    page = open_table(browser, server, code)
    seat_with_bots(page, "Ann")
    rng = random.Random(3)
    for _ in range(5):
        assert _my_move(page, rng)

    page.wait_for_selector("#table[data-your-turn]")
    before, v = hand(page), version(page)
    page.reload()
    page.wait_for_selector("#table[data-you='0'][data-your-turn]")
    assert hand(page) == before and version(page) == v
    for _ in range(3):  # the game goes on from the reloaded page
        assert _my_move(page, rng)
    page.context.close()


def test_a_phone_player_plays_a_whole_game(
    browser: Browser, server: str, screenshots: Path
) -> None:
    code = create_room(server, seed=5)
    page = open_table(browser, server, code, viewport=PHONE)
    page.context.add_init_script(RECORD_TABLES)
    page.reload()
    seat_with_bots(page, "Ann")
    rng = random.Random(11)
    shot_taken = False
    dismissed: str | None = None
    looked_back = False
    while True:
        page.wait_for_selector("#table[data-your-turn], #table[data-phase=game_over]")
        no_sideways_scroll = page.evaluate(
            "document.documentElement.scrollWidth <= window.innerWidth"
        )
        assert no_sideways_scroll
        if dismissed and page.locator(f"#{dismissed}").count():
            assert page.is_hidden(f"#{dismissed}"), "a dismissed summary came back"
        summary = page.locator(".hand-summary:not([hidden])")
        if summary.count():  # read it, then put it away: it stays away on later updates
            dismissed = summary.get_attribute("id")
            page.click("[data-dismiss-summary]")
            assert page.locator(".hand-summary:not([hidden])").count() == 0
        if not looked_back and page.locator(".felt-tools [data-toggle-last]").count():
            page.click(".felt-tools [data-toggle-last]")  # the last trick, on demand
            assert page.locator(".last-trick[data-past] [data-card]").count() == 4
            page.click(".last-trick [data-toggle-last]")
            assert page.is_hidden(".last-trick")
            looked_back = True
        if (
            not shot_taken
            and phase(page) == "play"
            and page.locator(".trick .slot").count() >= 1
            and page.locator("[data-hand] [data-legal]").count() >= 2
        ):
            _screenshot(page, screenshots / "table-phone.png")
            shot_taken = True
        if not _my_move(page, rng):
            break
    assert phase(page) == "game_over" and looked_back and shot_taken
    assert script_errors(page) == []
    morphed = page.evaluate(MORPH_CHECK)
    assert morphed["tables"] > 50 and morphed["bad"] == [], morphed
    assert page.locator("[data-action=rematch]").count() == 1
    assert open_streams(page) == 1
    page.context.close()


# What the page holds between two tables, and the next table (the one shown, its first card
# gone from the hand and the rest held the other way round, as a new trump turns the hand),
# morphed in as the stream's events are.
MORPH_KEEPS = """() => {
  const live = document.querySelector("#live");
  const shown = live.innerHTML;
  const cards = [...live.querySelectorAll("[data-hand] .hand-card")];
  const plates = [...live.querySelectorAll("[data-seat-plate]")];
  cards.forEach((c, i) => { c.__was = i; });
  plates.forEach((p, i) => { p.__was = i; });
  plates[0].classList.add("fresh");
  plates[0].style.setProperty("--probe", "1");
  const rules = live.querySelector(".rules-in-force[data-keep]");
  rules.open = true;
  const probe = document.createElement("input");
  probe.name = "probe";
  live.querySelector("#table").appendChild(probe);
  probe.value = "An";  // typed, not sent
  const focused = cards[2];
  cards.forEach((c) => { c.tabIndex = c === focused ? 0 : -1; });
  focused.focus();

  const next = document.createElement("template");
  next.innerHTML = shown;
  const n = next.content;
  n.querySelector("#table").appendChild(document.createElement("input")).name = "probe";
  const held = [...n.querySelectorAll("[data-hand] .hand-card")];
  held[0].remove();
  held.slice(1).reverse().forEach((c) => c.parentNode.appendChild(c));
  held[2].setAttribute("tabindex", "-1");
  held[3].setAttribute("tabindex", "0");

  let before = null;
  document.body.addEventListener("allfours:beforeTable", () => {
    before = live.querySelectorAll("[data-hand] .hand-card").length;
  }, { once: true });
  const spec = { swapStyle: "morph:innerHTML", settleDelay: 0 };
  htmx.swap(live, next.innerHTML, spec, { contextElement: live });

  return {
    beforeTable: before === cards.length,
    cards: [...live.querySelectorAll("[data-hand] .hand-card")].map((c) => c.__was),
    plates: [...live.querySelectorAll("[data-seat-plate]")].map((p) => p.__was),
    plateKept: plates[0].classList.contains("fresh")
      && plates[0].style.getPropertyValue("--probe") === "1",
    rulesOpen: live.querySelector(".rules-in-force").open,
    probe: live.querySelector("input[name=probe]").value,
    focus: document.activeElement === focused && focused.tabIndex === 0,
  };
}"""


def test_a_live_update_keeps_what_the_page_holds(browser: Browser, server: str) -> None:
    """The elements of the table shown stay the same elements through a live update, matched
    by id (the hand's cards, also held in another order; the seat plates), and keep what the
    page or the player gave them: a class of an animation, a style, an open <details> kept
    whole, a typed name, the focus and its tabindex; the sweep's "before the table" comes
    first."""
    code = create_room(server, seed=99)
    page = open_table(browser, server, code)
    seat_with_bots(page, "Ann")
    page.wait_for_selector("#table[data-your-turn] [data-hand] .hand-card:nth-child(4)")
    kept = page.evaluate(MORPH_KEEPS)
    n = len(kept["cards"]) + 1
    assert kept["cards"] == list(range(n - 1, 0, -1)), kept
    assert kept["plates"] == list(range(len(kept["plates"]))), kept
    assert kept["beforeTable"] and kept["plateKept"] and kept["rulesOpen"] and kept["focus"], kept
    assert kept["probe"] == "An", kept
    assert script_errors(page) == []
    page.context.close()
