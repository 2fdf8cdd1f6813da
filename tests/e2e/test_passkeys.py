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


def add_passkey(
    context: BrowserContext, base: str, key: str, errors: list[str]
) -> tuple[Page, Any]:
    """The profile's first device adds a passkey with the page's button: its page, and the
    credential its authenticator made (a copy of it is the passkey synced to another device)."""
    context.add_cookies([{"name": PLAYER_COOKIE, "value": key, "url": base}])
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    cdp, phone = authenticator(context, page)
    serve_page(page, base, key)
    page.goto(PATH)
    assert page.locator("[data-passkey-none]").is_visible()
    with page.expect_navigation():
        page.click("[data-passkey-add]")
    page.wait_for_selector("[data-passkey-list] [data-passkey]")
    assert page.locator("[data-passkey-status]").first.text_content() == ""
    made = cdp.send("WebAuthn.getCredentials", {"authenticatorId": phone})["credentials"]
    assert len(made) == 1 and made[0]["isResidentCredential"] and made[0]["rpId"] == "localhost"
    return page, made[0]


def synced_device(context: BrowserContext, credential: Any, errors: list[str]) -> Page:
    """A second device of the player's, its authenticator holding the synced passkey."""
    other = context.new_page()
    other.on("pageerror", lambda e: errors.append(str(e)))
    cdp, laptop = authenticator(context, other)
    cdp.send("WebAuthn.addCredential", {"authenticatorId": laptop, "credential": credential})
    return other


def test_a_passkey_added_on_one_device_signs_another_in(browser: Browser, server: str) -> None:
    base = local(server)
    r = httpx.post(f"{base}/api/players", json={"handle": "pass_e2e", "name": "Pat"})
    assert r.status_code == 201, r.text
    key = r.json()["key"]

    first = browser.new_context(base_url=base)
    second = browser.new_context(base_url=base)
    try:
        errors: list[str] = []
        page, credential = add_passkey(first, base, key, errors)
        other = synced_device(second, credential, errors)
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


def test_a_member_signs_in_from_a_club_invite_with_a_passkey_and_joins(
    browser: Browser, server: str
) -> None:
    """A player opens a club's invite on a device not signed in yet (issue #46): the invite's
    page offers their passkey beside the profile form, and signing in brings them back to
    the invite, where Join is one tap (it went to /me, and the invite was lost)."""
    base = local(server)
    keys = {}
    for handle, name in (("pk_club_owner", "Ria"), ("pk_club_guest", "Sol")):
        r = httpx.post(f"{base}/api/players", json={"handle": handle, "name": name})
        assert r.status_code == 201, r.text
        keys[handle] = r.json()["key"]
    owner = {"Authorization": f"Bearer {keys['pk_club_owner']}"}
    club = httpx.post(f"{base}/api/clubs", json={"name": "Point Fortin Fours"}, headers=owner)
    assert club.status_code == 201, club.text
    code = club.json()["code"]
    invite = httpx.post(f"{base}/api/clubs/{code}/invites", headers=owner).json()["url"]
    assert invite.startswith(base)

    first = browser.new_context(base_url=base)
    phone = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}
    second = browser.new_context(base_url=base, **phone)  # type: ignore[arg-type]
    try:
        errors: list[str] = []
        _, credential = add_passkey(first, base, keys["pk_club_guest"], errors)
        other = synced_device(second, credential, errors)
        other.goto(invite)
        # A profile made here would be a new one: the form says so, not "Keep my games".
        assert other.locator("[data-action=keep-games]").inner_text() == "Make my profile"
        with other.expect_navigation(url=invite):
            other.click("[data-club-sign-in] [data-passkey-signin]")
        other.click("[data-action=join-club]")
        other.wait_for_url(f"**/c/{code}")
        members = httpx.get(f"{base}/api/clubs/{code}", headers=owner).json()["members"]
        assert {m["handle"] for m in members} == {"pk_club_owner", "pk_club_guest"}
        assert not errors, errors
    finally:
        first.close()
        second.close()
