"""Browser tests: the real server in a subprocess, Debian's Chromium driven by Playwright.

One browser context per player (browsers allow six HTTP/1.1 connections per host, and each
page holds one event stream). Run on their own: ``pytest tests/e2e`` (the Makefile does).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

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
    why = missing_browser()
    if why is None:
        return
    skip = pytest.mark.skip(reason=f"skipping browser tests: {why}")
    for item in items:
        item.add_marker(skip)


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``make run``'s server on a free port, a fresh SQLite file, bots without delay."""
    folder = tmp_path_factory.mktemp("e2e")
    proc = ServerProcess(
        f"sqlite:///{folder / 'allfours.db'}", folder / "server.log", ALLFOURS_ADMIN_TOKEN=ADMIN
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


@pytest.fixture(scope="session")
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS
