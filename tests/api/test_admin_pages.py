"""The host's page /admin: one sign-in with the admin token (a cookie derived from it, not
the token), then rooms, reports with their kept chat and records, bans and the numbers, in
the reader's language; its forms refused without the sign-in and from another site."""

from __future__ import annotations

import re
import time

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.services import admin_sessions
from app.settings import Settings
from tests.api.conftest import ADMIN
from tests.api.table import bearer, new_room
from tests.api.test_reports import player, sit

SAME_SITE = {"Sec-Fetch-Site": "same-origin"}


def sign_in(client: TestClient) -> str:
    r = client.post(
        "/admin/signin", data={"token": ADMIN}, headers=SAME_SITE, follow_redirects=False
    )
    assert r.status_code == 303, r.text
    cookie = r.headers["set-cookie"]
    assert ADMIN not in cookie
    for part in ("HttpOnly", "SameSite=strict", "Path=/admin"):
        assert part.lower() in cookie.lower(), cookie
    assert "secure" not in cookie.lower()  # plain http here: Secure only behind https
    return str(client.cookies["allfours_admin"])


def test_signing_in_once_shows_the_page_and_signing_out_ends_it(client: TestClient) -> None:
    first = client.get("/admin")
    assert first.status_code == 200
    assert 'action="/admin/signin"' in first.text and "data-admin-signin" in first.text
    wrong = client.post("/admin/signin", data={"token": "guess"}, headers=SAME_SITE)
    assert wrong.status_code == 403 and "data-error" in wrong.text
    assert "allfours_admin" not in client.cookies
    empty = client.post("/admin/signin", data={"token": ""}, headers=SAME_SITE)
    assert empty.status_code == 401
    mark = sign_in(client)
    assert ADMIN not in mark
    page = client.get("/admin")
    assert page.status_code == 200 and "data-admin>" in page.text
    assert page.headers["cache-control"] == "no-store"
    out = client.post("/admin/signout", headers=SAME_SITE, follow_redirects=False)
    assert out.status_code == 303
    assert "data-admin-signin" in client.get("/admin").text
    # A forged cookie is no sign-in.
    client.cookies.set("allfours_admin", "0" * 64, path="/admin")
    assert "data-admin-signin" in client.get("/admin").text


def test_a_copied_admin_cookie_ends_at_sign_out(client: TestClient) -> None:
    """The admin cookie was a constant HMAC of the token: two sign-ins set the same value,
    and after /admin/signout the old value still opened /admin (review round 5, finding 9).
    Now each sign-in is new, and signing out ends it on the server, copies included."""
    first, second = sign_in(client), sign_in(client)
    assert first != second
    client.cookies.clear()
    client.cookies.set("allfours_admin", first, path="/admin")
    assert "data-admin>" in client.get("/admin").text  # a copy of the first opens the page
    out = client.post("/admin/signout", headers=SAME_SITE, follow_redirects=False)
    assert out.status_code == 303
    for copy in (first, second):
        client.cookies.set("allfours_admin", copy, path="/admin")
        assert "data-admin-signin" in client.get("/admin").text, copy
        r = client.post("/admin/ban", data={"handle": "x"}, headers=SAME_SITE)
        assert r.status_code == 403
    client.cookies.clear()
    sign_in(client)  # a new sign-in after the sign-out opens the page again
    assert "data-admin>" in client.get("/admin").text


def test_an_admin_sign_in_lasts_twelve_hours_by_the_servers_clock(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cookie's Max-Age was the only limit: a kept cookie worked for ever."""
    mark = sign_in(client)
    assert "data-admin>" in client.get("/admin").text
    later = time.time_ns() // 1000 + admin_sessions.SIGNED_IN_S * 10**6
    monkeypatch.setattr(admin_sessions, "_now_us", lambda: later)
    client.cookies.set("allfours_admin", mark, path="/admin")
    assert "data-admin-signin" in client.get("/admin").text


def test_the_page_shows_rooms_reports_with_what_they_kept_and_the_numbers(
    client: TestClient,
) -> None:
    ann, ann_key = player(client, "Ann")
    ben, ben_key = player(client, "Ben")
    code = new_room(client)
    sit(client, code, ann_key)
    sit(client, code, ben_key)
    said = "<script>alert(1)</script> & co"
    r = client.post(f"/api/rooms/{code}/chat", json={"text": said}, headers=bearer(ben_key))
    assert r.status_code == 201
    body = {"handle": ben, "room": code, "reason": "abuse", "text": "<b>rude</b>"}
    assert client.post("/api/reports", json=body, headers=bearer(ann_key)).status_code == 201
    sign_in(client)
    page = client.get("/admin").text
    assert f'href="/r/{code}"' in page
    assert re.search(r'data-figure="allfours_rooms">\d+<', page)
    assert 'data-figure="allfours_moves_total"' in page
    assert f"@{ben}" in page and f"@{ann}" in page
    # Players' words as text, never as markup.
    assert said not in page and "&lt;script&gt;alert(1)&lt;/script&gt; &amp; co" in page
    assert "<b>rude</b>" not in page and "&lt;b&gt;rude&lt;/b&gt;" in page
    assert f'data-action="ban" data-player="{ben}"' in page

    # Ban from the report, then unban from the list.
    r = client.post(
        f"/admin/players/{ben}/ban",
        data={"reason": "abuse at the table"},
        headers=SAME_SITE,
        follow_redirects=False,
    )
    assert r.status_code == 303
    page = client.get("/admin").text
    assert f'data-ban="{ben}"' in page and "abuse at the table" in page
    assert client.get("/api/admin/reports", headers=bearer(ADMIN)).json()["reports"][0]["banned"]
    refused = client.post(
        "/admin/ban", data={"handle": "nobody_here", "reason": "x"}, headers=SAME_SITE
    )
    assert refused.status_code == 404 and "data-error" in refused.text
    r = client.post(f"/admin/players/{ben}/unban", headers=SAME_SITE, follow_redirects=False)
    assert r.status_code == 303
    assert f'data-ban="{ben}"' not in client.get("/admin").text


def test_forms_need_the_sign_in_and_our_own_pages(client: TestClient) -> None:
    handle, _ = player(client, "Cal")
    unsigned = client.post(f"/admin/players/{handle}/ban", data={"reason": "x"}, headers=SAME_SITE)
    assert unsigned.status_code == 403 and "data-admin-signin" in unsigned.text
    sign_in(client)
    for site in ({"Sec-Fetch-Site": "cross-site"}, {"Origin": "https://evil.example"}):
        forged = client.post(f"/admin/players/{handle}/ban", data={"reason": "x"}, headers=site)
        assert forged.status_code == 403, site
    assert f'data-ban="{handle}"' not in client.get("/admin").text


def test_the_page_speaks_the_readers_language(client: TestClient) -> None:
    sign_in(client)
    for lang, heading in [
        ("fr", "Administration du serveur"),
        ("de", "Server-Admin"),
        ("lb", "Server-Admin"),
        ("ms", "Pentadbir pelayan"),
        ("en", "Server admin"),
    ]:
        page = client.get(f"/admin?lang={lang}").text
        assert f'<html lang="{lang}">' in page and heading in page, lang


def test_without_an_admin_token_the_page_is_off(database_url: str) -> None:
    with TestClient(create_app(Settings(database_url=database_url, rate_limit=0))) as off:
        r = off.get("/admin")
        assert r.status_code == 403 and "data-admin-off" in r.text
        r = off.post("/admin/signin", data={"token": "anything"}, headers=SAME_SITE)
        assert r.status_code == 403 and "allfours_admin" not in off.cookies
