"""The site as an installable app in a real Chromium (app/web/install.py): the manifest and
the service worker load with no console error and no CSP refusal, Chromium's install
criteria are met, offline a page shows the offline page, which comes back by itself, and no
page with cards is ever in the worker's cache."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from tests.e2e.conftest import LAUNCH_ARGS
from tests.e2e.gate import CHROMIUM
from tests.e2e.players import WATCH_PAGE, add_bots, console_errors, create_room, start, take_seat


@pytest.fixture
def profile(browser: Browser, tmp_path: Path) -> Iterator[BrowserContext]:
    """A browser with a profile on disk: Chromium installs no app from an incognito one
    (a new context is one)."""
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=str(CHROMIUM), args=LAUNCH_ARGS
    )
    context.add_init_script(WATCH_PAGE)
    try:
        yield context
    finally:
        context.close()


# Every URL the page's origin keeps in any cache.
CACHED = """async () => {
  const urls = [];
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      const url = new URL(request.url);
      urls.push(url.pathname + url.search);
    }
  }
  return urls;
}"""


def _controlled(page: Page) -> None:
    """Until the worker is active and controls the page (it claims its clients)."""
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=60_000)


def _installability_errors(page: Page) -> list[Any]:
    """Chromium's own install check, asked until it passes (the manifest's icons are
    fetched in the background) or 60 s have gone by."""
    cdp = page.context.new_cdp_session(page)
    deadline = time.monotonic() + 60
    while True:
        errors: list[Any] = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
        if not errors or time.monotonic() > deadline:
            return errors
        page.wait_for_function("() => true")  # a round trip to the page before asking again


def test_the_home_page_is_installable(profile: BrowserContext, server: str) -> None:
    page = profile.new_page()
    errors = console_errors(page)
    page.goto(f"{server}/?lang=fr")
    _controlled(page)
    manifest = page.evaluate(
        "fetch(document.querySelector('link[rel=manifest]').href).then(r => r.json())"
    )
    assert manifest["lang"] == "fr" and manifest["display"] == "standalone"
    assert _installability_errors(page) == []
    assert errors == []


def test_a_table_offline_shows_the_offline_page_and_comes_back(
    profile: BrowserContext, server: str
) -> None:
    code = create_room(server, seed=35)
    page = profile.new_page()
    errors = console_errors(page)
    page.goto(f"{server}/r/{code}?lang=de")
    page.wait_for_selector("#table")
    take_seat(page, "Ann", 0)
    add_bots(page)
    start(page)
    _controlled(page)
    assert _installability_errors(page) == []
    assert errors == []
    # The worker keeps the static files and the offline page, never a page with cards.
    page.reload()
    page.wait_for_selector("#table [data-card]")
    kept = page.evaluate(CACHED)
    assert "/offline" in kept and any(u.startswith("/static/app.js?v=") for u in kept)
    assert all(u == "/offline" or u.startswith("/static/") for u in kept), kept

    page.context.set_offline(True)
    page.goto(f"{server}/r/{code}")
    page.wait_for_selector("[data-offline]")
    assert "Der Tisch braucht die Verbindung" in page.inner_text("[data-offline]")
    assert page.url == f"{server}/r/{code}"
    page.context.set_offline(False)
    page.wait_for_selector("#table [data-card]", timeout=60_000)  # back by itself
    assert all(u == "/offline" or u.startswith("/static/") for u in page.evaluate(CACHED))


# The app opened from the home screen (display-mode: standalone), as Chromium's headless
# shell cannot install one: the page's own test of the mode is answered yes.
STANDALONE = """(() => {
  const own = window.matchMedia.bind(window);
  window.matchMedia = (query) => query.includes("display-mode: standalone")
    ? {matches: true, media: query, onchange: null, addListener() {}, removeListener() {},
       addEventListener() {}, removeEventListener() {}, dispatchEvent() { return false; }}
    : own(query);
})();"""


def test_installed_back_at_a_table_in_play_asks_before_leaving(
    browser: Browser, server: str
) -> None:
    context = browser.new_context()
    context.add_init_script(WATCH_PAGE)
    context.add_init_script(STANDALONE)
    page = context.new_page()
    errors = console_errors(page)
    page.goto(f"{server}/?lang=en")
    code = create_room(server, seed=36)
    page.goto(f"{server}/r/{code}")
    page.wait_for_selector("#table")
    take_seat(page, "Ann", 0)
    add_bots(page)
    start(page)
    page.wait_for_function("history.state && history.state['allfours-guard'] === true")
    # Back (the gesture): the question, and the table stays.
    page.evaluate("history.back()")
    page.wait_for_selector("#leave-dialog[open]")
    assert page.url.startswith(f"{server}/r/{code}")
    page.click("[data-leave-cancel]")
    page.wait_for_selector("#leave-dialog:not([open])", state="attached")
    page.wait_for_function("history.state && history.state['allfours-guard'] === true")
    assert page.url.startswith(f"{server}/r/{code}") and page.is_visible("#table")
    # Back again, and this time leave: the page before the table.
    page.evaluate("history.back()")
    page.wait_for_selector("#leave-dialog[open]")
    with page.expect_navigation():
        page.click("[data-leave-confirm]")
    assert page.url == f"{server}/?lang=en"
    assert errors == []
