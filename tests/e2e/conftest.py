"""Browser tests: the real server in a subprocess, Debian's Chromium driven by Playwright.

One browser context per player (browsers allow six HTTP/1.1 connections per host, and each
page holds one event stream). Run on their own: ``pytest tests/e2e`` (the Makefile does).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.axe import AxeMissing, install, required
from tests.e2e.gate import CHROMIUM, missing_browser
from tests.live.server import ServerProcess

ROOT = Path(__file__).resolve().parents[2]
ADMIN = "e2e-admin-token"
SCREENSHOTS = ROOT / "docs" / "screenshots"
LAUNCH_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # This hook sees every collected item of the run, not only this folder's: skip only ours,
    # and never quietly where a browser is required.
    why = missing_browser()
    if why is None:
        return
    if os.environ.get("ALLFOURS_REQUIRE_BROWSER") == "1":
        pytest.exit(f"browser tests required (ALLFOURS_REQUIRE_BROWSER=1): {why}", 1)
    skip = pytest.mark.skip(reason=f"skipping browser tests: {why}")
    here = Path(__file__).parent
    for item in items:
        if item.path.is_relative_to(here):
            item.add_marker(skip)


DAILY_BOARDS = 2


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``make run``'s server on a free port, a fresh SQLite file, bots without delay, two
    boards a day."""
    folder = tmp_path_factory.mktemp("e2e")
    proc = ServerProcess(
        f"sqlite:///{folder / 'allfours.db'}",
        folder / "server.log",
        ALLFOURS_ADMIN_TOKEN=ADMIN,
        ALLFOURS_DAILY_BOARDS=str(DAILY_BOARDS),  # today's boards played to the end in a test
    ).start()
    try:
        yield proc.url
    finally:
        proc.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(autouse=True)
def _contexts_closed(request: pytest.FixtureRequest) -> Iterator[None]:
    """Every browser context a test opened is closed when it ends, however it ends: a page
    left open holds its event stream and keeps rendering its room's moves (the crawl's
    computer players play on), which the later tests' pages would otherwise share the
    machine and the server with."""
    yield
    if "browser" in request.fixturenames:
        for context in request.getfixturevalue("browser").contexts:
            context.close()


@pytest.fixture(scope="session")
def screenshots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the tests' pictures go: the README's own (docs/screenshots) only when asked
    (``make screenshots``), so a test run leaves the checkout as it found it."""
    if os.environ.get("ALLFOURS_SCREENSHOTS") != "1":
        return tmp_path_factory.mktemp("screenshots")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


@pytest.fixture(scope="session")
def axe() -> str:
    """axe-core's script, for the pages' accessibility checks (tests/e2e/axe.py installs it)."""
    try:
        return install().read_text(encoding="utf-8")
    except AxeMissing as why:
        if required():
            pytest.fail(f"axe-core required (ALLFOURS_REQUIRE_BROWSER=1): {why}")
        pytest.skip(f"skipping the accessibility checks: {why}")
