"""Browser tests: the real server in a subprocess, Debian's Chromium driven by Playwright.

One browser context per player (browsers allow six HTTP/1.1 connections per host, and each
page holds one event stream). Run on their own: ``pytest tests/e2e`` (the Makefile does).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.e2e.gate import CHROMIUM, missing_browser

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


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``make run``'s server on a free port, a fresh SQLite file, bots without delay."""
    port = _free_port()
    db = tmp_path_factory.mktemp("e2e") / "allfours.db"
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{db}",
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "ALLFOURS_ADMIN_TOKEN": ADMIN,
        "ALLFOURS_BOT_DELAY_MS": "0",
        "ALLFOURS_RATE_LIMIT": "0",
        "LOG_LEVEL": "warning",
    }
    log = (tmp_path_factory.getbasetemp() / "server.log").open("w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "app.serve"], cwd=ROOT, env=env, stdout=log, stderr=log
    )
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_healthy(base, proc)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


def _wait_healthy(base: str, proc: subprocess.Popen[bytes]) -> None:
    for _ in range(300):
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited with {proc.returncode}: see server.log")
        try:
            if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise RuntimeError("the server did not become healthy")


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
