"""Felt latency: from a click on a card to that card on the other three players' screens.

Starts the server on a fresh SQLite file, opens four real Chromium contexts (Debian's
Chromium, as the browser tests launch it) on one room, seats them and plays whole games flat
out: each player clicks a legal card (or stands) as soon as their page says it is their turn.
Each page stamps the moments it sees (``performance.timeOrigin + performance.now()``, one
clock for the whole machine): the click, the action's request leaving the mover's page, each
other page's event arriving from the stream, and the first animation frame after that page's
table shows the card (in the trick, or in the lift being collected and swept). Prints
p50/p90/p99 of click-to-screen over every (card, other player), and where the time goes.

    python -m bench.felt                 # two games
    python -m bench.felt --games 4 --target 7
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, Page, sync_playwright

from bench.live import HOST, server
from tests.e2e.conftest import LAUNCH_ARGS
from tests.e2e.gate import CHROMIUM, missing_browser

ADMIN = "felt-bench-admin"

# Stamps in the page: the click on a hand card, the action's request, each stream event
# (and whether it held the watched card), and the frame after the watched card is in the table.
WATCH = """
(() => {
  const now = () => performance.timeOrigin + performance.now();
  const felt = window.__felt = {clicked: {}, sent: null, watching: null, heard: null, seen: null};
  document.addEventListener("click", (e) => {
    const card = e.target.closest && e.target.closest("[data-hand] [data-card]");
    if (card) felt.clicked[card.dataset.card] = now();
  }, true);
  document.addEventListener("htmx:beforeRequest", () => { felt.sent = now(); });
  function shows(code) {
    const table = document.querySelector("#table");
    if (!table) return false;
    if (table.querySelector(`.trick [data-played="${code}"]`)) return true;
    const lift = table.querySelector(".trick .collected");
    const has = (el, key) => el && key !== felt.lift && el.querySelector(`[data-card="${code}"]`);
    if (lift && has(lift, lift.dataset.lift)) return true;
    const ghost = document.querySelector(".sweep-ghost");
    return !!(ghost && has(ghost, ghost.dataset.sweep));
  }
  function check() {
    const code = felt.watching;
    if (!code || felt.seen !== null || felt.pending || !shows(code)) return;
    felt.pending = true;
    const at = now();
    requestAnimationFrame(() => { felt.seen = now(); felt.inDom = at; felt.pending = false; });
  }
  document.addEventListener("htmx:sseBeforeMessage", (e) => {
    const code = felt.watching;
    const data = (e.detail && e.detail.data) || "";
    if (code && felt.heard === null && data.indexOf(`"${code}"`) !== -1) felt.heard = now();
  });
  new MutationObserver(check).observe(document, {subtree: true, childList: true, attributes: true});
  felt.watch = (code) => {
    const lift = document.querySelector("#table .trick .collected");
    Object.assign(felt, {watching: code, heard: null, seen: null, inDom: null, pending: false,
                         lift: lift ? lift.dataset.lift : null});
    check();
  };
})();
"""


def _percentiles(values: list[float]) -> str:
    qs = statistics.quantiles(values, n=100, method="inclusive")
    return f"p50 {qs[49]:.0f} ms  p90 {qs[89]:.0f} ms  p99 {qs[98]:.0f} ms  (n={len(values)})"


def _open(browser: Browser, base: str, code: str) -> Page:
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    context.add_init_script(WATCH)
    page = context.new_page()
    page.goto(f"{base}/r/{code}")
    page.wait_for_selector("#table")
    return page


def _version(page: Page) -> int:
    return int(page.get_attribute("#table", "data-version") or 0)


def _mover(pages: list[Page]) -> Page | None:
    """The page that shows its player's turn, None once the game is over."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        for page in pages:
            if page.locator("#table[data-phase=game_over]").count():
                return None
            if page.locator("#table[data-your-turn]").count():
                return page
        time.sleep(0.002)
    raise TimeoutError("nobody's turn for a minute")


def play_game(pages: list[Page], rng: random.Random, rows: list[dict[str, float]]) -> None:
    while (mover := _mover(pages)) is not None:
        others = [p for p in pages if p is not mover]
        if mover.locator("[data-action=stand]").count():
            v = _version(mover)
            mover.click("[data-action=stand]")
            mover.wait_for_function(
                "v => Number(document.querySelector('#table').dataset.version) > v", arg=v
            )
            continue
        if mover.locator("[data-action=run_pack]").count():
            v = _version(mover)
            mover.click("[data-action=run_pack]")
            mover.wait_for_function(
                "v => Number(document.querySelector('#table').dataset.version) > v", arg=v
            )
            continue
        legal = mover.locator("[data-hand] [data-legal]")
        n = legal.count()
        if n == 0:
            time.sleep(0.005)  # the table is between two swaps
            continue
        card = legal.nth(rng.randrange(n))
        code = card.get_attribute("data-card")
        for p in others:
            p.evaluate("code => window.__felt.watch(code)", code)
        v = _version(mover)
        card.click()
        # The mover's own page first has the table its move made (the action's answer or the
        # stream): until then it still says it is its turn, and the next round would take it
        # for the next mover and click a card of the old table (a refused or another move,
        # the watched card never coming). No figure is taken from the mover's page.
        mover.wait_for_function(
            "v => Number(document.querySelector('#table').dataset.version) > v", arg=v
        )
        for p in others:
            # The game's last card: the result page follows it, with no trick to show it in.
            p.wait_for_function(
                "() => window.__felt.seen !== null"
                " || document.querySelector('#table[data-phase=game_over]') !== null",
                timeout=30_000,
            )
        clicked = mover.evaluate("code => window.__felt.clicked[code]", code)
        sent = mover.evaluate("() => window.__felt.sent")
        for p in others:
            f: dict[str, Any] = p.evaluate(
                "() => ({heard: __felt.heard, inDom: __felt.inDom, seen: __felt.seen})"
            )
            if f["seen"] is None:
                continue
            # An event heard before the request left carried the code in an older lift.
            heard = f["heard"] if f["heard"] is not None and f["heard"] >= sent else f["inDom"]
            rows.append(
                {
                    "felt": f["seen"] - clicked,
                    "to_request": sent - clicked,
                    "to_event": heard - sent,
                    "to_dom": f["inDom"] - heard,
                    "to_frame": f["seen"] - f["inDom"],
                }
            )


def main(argv: Sequence[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.felt", description=__doc__)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--target", type=int, default=7, help="the game's target (points)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    why = missing_browser()
    if why is not None:
        raise SystemExit(why)
    rng = random.Random(args.seed)
    rows: list[dict[str, float]] = []
    with (
        tempfile.TemporaryDirectory() as folder,
        server(
            f"sqlite:///{Path(folder) / 'felt.db'}",
            env={"ALLFOURS_ROOMS_PER_HOUR": "0", "ALLFOURS_ADMIN_TOKEN": ADMIN},
        ) as (port, _),
        sync_playwright() as pw,
    ):
        base = f"http://{HOST}:{port}"
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        for game in range(args.games):
            r = httpx.post(f"{base}/api/rooms", json={"rules": {"target": args.target}})
            r.raise_for_status()
            code = r.json()["code"]
            pages = [_open(browser, base, code) for _ in range(4)]
            for seat, page in enumerate(pages):
                page.fill("input[name=name]", f"P{seat}")
                page.click(f"[data-action=join][data-seat='{seat}']")
                page.wait_for_selector(f"#table[data-you='{seat}']")
            v = _version(pages[0])
            pages[0].click("[data-action=start]")
            pages[0].wait_for_function(
                "v => Number(document.querySelector('#table').dataset.version) > v", arg=v
            )
            before = len(rows)
            play_game(pages, rng, rows)
            print(f"game {game + 1}: {len(rows) - before} card sightings")
            for page in pages:
                page.context.close()
        browser.close()
    print(f"\nclick -> card on the other three screens: {_percentiles([r['felt'] for r in rows])}")
    print(
        f"  click -> the action's request:          {_percentiles([r['to_request'] for r in rows])}"
    )
    print(
        f"  request -> the event on the other page: {_percentiles([r['to_event'] for r in rows])}"
    )
    print(f"  event -> the card in the page's table:  {_percentiles([r['to_dom'] for r in rows])}")
    print(
        f"  table -> the next frame:                {_percentiles([r['to_frame'] for r in rows])}"
    )


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
