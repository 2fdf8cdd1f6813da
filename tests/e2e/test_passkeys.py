"""Passkeys in a real browser (API.md § Fourth round, *Players*): a player adds a passkey on
one device with the profile page's button, and signs a second device in with it.

Chromium's virtual authenticator (DevTools' WebAuthn domain) plays the phone. It lives per
page, so the second device gets its own, holding a copy of the first one's credential, as a
passkey synced between a player's devices would be. The page is the two partials
(_passkeys.html, _passkey_signin.html) and passkeys.js, served at the real server's origin
by the browser's own routing, so this test does not wait for the profile page. The host is
``localhost``: WebAuthn takes no IP address as the site's id, and allows plain HTTP there."""

from __future__ import annotations

from typing import Any

import httpx
from playwright.sync_api import Browser, BrowserContext, Page, Route

from app.api.context import PLAYER_COOKIE
from app.web.assets import static_url
from app.web.render import environment

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Passkeys</title>
<script src="{{ static_url('passkeys.js') }}" defer></script></head>
<body>{% if passkeys is not none %}{% include "_passkeys.html" %}{% endif %}
{% include "_passkey_signin.html" %}</body></html>"""
PATH = "/__passkeys_test"
AUTHENTICATOR = {
    "protocol": "ctap2",
    "transport": "internal",
    "hasResidentKey": True,
    "hasUserVerification": True,
    "isUserVerified": True,
    "automaticPresenceSimulation": True,
}


def local(server: str) -> str:
    return server.replace("127.0.0.1", "localhost")


def serve_page(page: Page, base: str, key: str | None) -> None:
    """The test page at the server's origin: the own passkeys (a signed-in device), or only
    the sign-in button; after signing in, the page goes to the caller's profile as JSON."""

    def fulfill(route: Route) -> None:
        passkeys = None
        if key is not None:
            r = httpx.get(f"{base}/api/me/passkeys", headers={"Authorization": f"Bearer {key}"})
            passkeys = r.json()
        html = (
            environment()
            .from_string(PAGE)
            .render(passkeys=passkeys, passkey_next="/api/me", static_url=static_url)
        )
        route.fulfill(status=200, content_type="text/html; charset=utf-8", body=html)

    page.route(base + PATH, fulfill)


def authenticator(context: BrowserContext, page: Page) -> tuple[Any, str]:
    cdp = context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    made = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": AUTHENTICATOR})
    return cdp, made["authenticatorId"]


def test_a_passkey_added_on_one_device_signs_another_in(browser: Browser, server: str) -> None:
    base = local(server)
    r = httpx.post(f"{base}/api/players", json={"handle": "pass_e2e", "name": "Pat"})
    assert r.status_code == 201, r.text
    key = r.json()["key"]

    first = browser.new_context(base_url=base)
    second = browser.new_context(base_url=base)
    try:
        first.add_cookies([{"name": PLAYER_COOKIE, "value": key, "url": base}])
        page = first.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        cdp, phone = authenticator(first, page)
        serve_page(page, base, key)
        page.goto(PATH)
        assert page.locator("[data-passkey-none]").is_visible()
        with page.expect_navigation():
            page.click("[data-passkey-add]")
        page.wait_for_selector("[data-passkey-list] [data-passkey]")
        assert page.locator("[data-passkey-status]").first.text_content() == ""
        made = cdp.send("WebAuthn.getCredentials", {"authenticatorId": phone})["credentials"]
        assert len(made) == 1 and made[0]["isResidentCredential"] and made[0]["rpId"] == "localhost"

        other = second.new_page()
        other.on("pageerror", lambda e: errors.append(str(e)))
        cdp2, laptop = authenticator(second, other)
        cdp2.send("WebAuthn.addCredential", {"authenticatorId": laptop, "credential": made[0]})
        serve_page(other, base, None)
        other.goto(PATH)
        with other.expect_navigation(url=f"{base}/api/me"):
            other.click("[data-passkey-signin]")
        me = other.context.request.get(f"{base}/api/me").json()
        assert me["handle"] == "pass_e2e" and len(me["devices"]) == 2
        assert me["passkeys"][0]["last_used"] is not None
        cookie = next(c for c in second.cookies() if c["name"] == PLAYER_COOKIE)
        assert cookie["httpOnly"] and cookie["value"] != key

        # removed on the first device, the passkey signs nobody in
        with page.expect_navigation():
            page.click("[data-passkey-remove]")
        page.wait_for_selector("[data-passkey-none]")
        other.goto(PATH)
        other.click("[data-passkey-signin]")
        status = other.locator("[data-passkey-status]")
        status.filter(has_text="could not be checked").wait_for()
        assert not errors, errors
    finally:
        first.close()
        second.close()
