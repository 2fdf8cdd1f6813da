"""Web Push in a real Chromium (issue #35): the profile page subscribes this device, or says
plainly why it cannot (Chromium here reaches no push service of its own); a push delivered to
the service worker (by Chromium's DevTools protocol, as a push service would) is shown as a
notification, one per table; and the table's page tells the server when it leaves sight, so
that "your turn" reaches the player's subscription (the loopback push service of the tests,
which checks the VAPID signature and decrypts the payload)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from app.api.context import PLAYER_COOKIE
from tests.e2e.conftest import ADMIN, LAUNCH_ARGS
from tests.e2e.gate import CHROMIUM
from tests.e2e.players import WATCH_PAGE, console_errors
from tests.live.server import ServerProcess
from tests.push.receiver import Receiver


@pytest.fixture(scope="module")
def receiver() -> Iterator[Receiver]:
    with Receiver().running() as running:
        yield running


@pytest.fixture(scope="module")
def push_server(tmp_path_factory: pytest.TempPathFactory, receiver: Receiver) -> Iterator[str]:
    """A server allowed to push to the loopback push service, telling a turn after 1 s."""
    folder = tmp_path_factory.mktemp("push")
    proc = ServerProcess(
        f"sqlite:///{folder / 'allfours.db'}",
        folder / "server.log",
        ALLFOURS_ADMIN_TOKEN=ADMIN,
        ALLFOURS_PUSH_HOSTS=receiver.origin,
        ALLFOURS_PUSH_TURN_AFTER_S="1",
    ).start()
    try:
        yield proc.url
    finally:
        proc.stop()


@pytest.fixture
def device(browser: Browser, tmp_path: Path, push_server: str) -> Iterator[BrowserContext]:
    """A phone's browser with a profile on disk (a service worker's push needs one), its
    notifications allowed for the site."""
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=str(CHROMIUM), args=LAUNCH_ARGS
    )
    context.grant_permissions(["notifications"], origin=push_server)
    context.add_init_script(WATCH_PAGE)
    try:
        yield context
    finally:
        context.close()


def _profile(base: str, handle: str, language: str) -> str:
    r = httpx.post(
        f"{base}/api/players", json={"handle": handle, "name": handle.title(), "language": language}
    )
    assert r.status_code == 201, r.text
    return str(r.json()["key"])


def _registration_id(page: Page) -> Any:
    """The service worker's registration, as Chromium's DevTools protocol names it."""
    cdp = page.context.new_cdp_session(page)
    found: list[str] = []
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda e: found.extend(
            r["registrationId"] for r in e["registrations"] if not r["isDeleted"]
        ),
    )
    cdp.send("ServiceWorker.enable")
    deadline = time.monotonic() + 30
    while not found and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    assert found, "no service worker registration"
    return cdp, found[-1]


NOTIFICATIONS = """async () => {
  const reg = await navigator.serviceWorker.ready;
  return (await reg.getNotifications()).map(n => (
    {title: n.title, body: n.body, tag: n.tag, url: n.data && n.data.url}));
}"""


def test_the_profile_page_turns_push_on_or_says_why_not_and_the_worker_shows_a_push(
    device: BrowserContext, push_server: str
) -> None:
    key = _profile(push_server, "phone_ann", "fr")
    device.add_cookies([{"name": PLAYER_COOKIE, "value": key, "url": f"{push_server}/"}])
    page = device.new_page()
    errors = console_errors(page)
    page.goto(f"{push_server}/me?lang=fr")
    page.click("[data-push-on]")
    status = page.locator("[data-push-status]")
    status.wait_for(state="visible", timeout=60_000)
    page.wait_for_function(
        "document.querySelector('[data-push-status]').textContent.trim() !== ''", timeout=60_000
    )
    said = status.inner_text()
    listed = httpx.get(f"{push_server}/api/me", headers={"Authorization": f"Bearer {key}"}).json()
    if listed["push_subscriptions"]:
        # A push service answered this Chromium: the subscription is the profile's.
        assert "Vous serez prévenu" in said, said
        assert page.is_visible("[data-push-off]")
    else:
        # None answers here (no network to the browser's vendor): said plainly, in French.
        assert "Aucun service de notification ne répond" in said, said
    # Whatever the push service, the worker shows what is delivered to it, one per table.
    page.evaluate("async () => { await navigator.serviceWorker.ready; return true; }")
    cdp, registration = _registration_id(page)

    def deliver() -> None:
        for title in ("À vous de jouer", "Encore à vous"):
            letter = {
                "type": "turn",
                "title": title,
                "body": "Table p9d5 btxd hggh",
                "url": "/r/p9d5btxdhggh",
                "tag": "table-p9d5btxdhggh",
            }
            cdp.send(
                "ServiceWorker.deliverPushMessage",
                {
                    "origin": push_server + "/",
                    "registrationId": registration,
                    "data": json.dumps(letter),
                },
            )

    # Asked until the second has replaced the first (wait_for_function takes a promise for
    # a true value at once, so the page is asked from here). Under load a delivery to a
    # worker still starting has been seen to vanish (once in a full run): both are
    # delivered again, in order, every 5 s.
    deliver()
    deadline, again = time.monotonic() + 60, time.monotonic() + 5
    shown = page.evaluate(NOTIFICATIONS)
    while not (len(shown) == 1 and shown[0]["title"] == "Encore à vous"):
        if time.monotonic() > deadline:
            break
        if time.monotonic() > again:
            deliver()
            again = time.monotonic() + 5
        page.wait_for_timeout(100)
        shown = page.evaluate(NOTIFICATIONS)
    assert shown == [
        {
            "title": "Encore à vous",
            "body": "Table p9d5 btxd hggh",
            "tag": "table-p9d5btxdhggh",
            "url": "/r/p9d5btxdhggh",
        }
    ]
    assert errors == [] or all(
        "push service" in e.lower() or "registration failed" in e.lower() for e in errors
    ), errors


def test_the_table_page_out_of_sight_brings_your_turn_to_the_phone(
    device: BrowserContext, push_server: str, receiver: Receiver
) -> None:
    key = _profile(push_server, "phone_ben", "de")
    phone = receiver.browser()
    auth = {"Authorization": f"Bearer {key}"}
    r = httpx.post(
        f"{push_server}/api/me/push",
        json={"subscription": phone.subscription(), "events": ["turn"]},
        headers=auth,
    )
    assert r.status_code == 201, r.text
    made = httpx.post(
        f"{push_server}/api/rooms", json={}, headers={"Authorization": f"Bearer {ADMIN}"}
    )
    code = made.json()["code"]
    assert (
        httpx.post(
            f"{push_server}/api/rooms/{code}/join", json={"name": "x", "seat": 0}, headers=auth
        ).status_code
        == 200
    )
    for seat in (1, 2, 3):
        httpx.post(f"{push_server}/api/rooms/{code}/bots", json={"seat": seat}, headers=auth)
    device.add_cookies([{"name": PLAYER_COOKIE, "value": key, "url": f"{push_server}/"}])
    page = device.new_page()
    page.goto(f"{push_server}/r/{code}?lang=de")
    page.wait_for_selector("#table[data-you='0']")
    page.wait_for_function() if False else None
    assert httpx.post(f"{push_server}/api/rooms/{code}/start", headers=auth).status_code == 200
    page.wait_for_selector("#table[data-your-turn]", timeout=60_000)
    # In sight: nothing is pushed however long the turn lasts.
    page.wait_for_timeout(2500)
    assert receiver.heard_by(phone) == []
    # The player switches to another app: the page leaves sight.
    page.evaluate(
        """() => {
          Object.defineProperty(document, 'visibilityState', {value: 'hidden', configurable: true});
          Object.defineProperty(document, 'hidden', {value: true, configurable: true});
          document.dispatchEvent(new Event('visibilitychange'));
        }"""
    )
    letter = receiver.wait_for(phone, timeout=30)[0]
    assert letter["type"] == "turn" and letter["title"] == "Du bist dran", letter
    assert letter["url"] == f"/r/{code}" and letter["tag"] == f"table-{code}"
