"""A club's invite link acts only when posted (security review round 5, finding 8): opening
the link (a GET, which any site can make a signed-in browser send) joined the club, and the
link's token was written whole to the request log and to the unexpected-error line."""

from __future__ import annotations

import logging
import re

import pytest
from fastapi.testclient import TestClient

from app.api.context import PLAYER_COOKIE
from app.logs import JsonFormatter, public_path
from tests.clubs.helpers import invite, open_club, profile

CROSS_SITE = {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate"}


def _browser(client: TestClient, key: str) -> TestClient:
    b = TestClient(client.app)
    b.cookies.set(PLAYER_COOKIE, key)
    return b


def _members(client: TestClient, code: str) -> list[str]:
    return [m["handle"] for m in client.get(f"/api/clubs/{code}").json()["members"]]


def _server_log(caplog: pytest.LogCaptureFixture) -> str:
    formatter = JsonFormatter()
    return "\n".join(formatter.format(r) for r in caplog.records if not r.name.startswith("httpx"))


def test_a_cross_site_get_of_an_invite_link_joins_nothing(client: TestClient) -> None:
    """Opening the invite link from another site's page joined the club (a GET that acted)."""
    admin = profile(client, "inv_admin")
    code = open_club(client, admin, "Corner Club")
    token = invite(client, code, admin)
    link = f"/c/{code}/join/{token}"
    erin = _browser(client, profile(client, "inv_erin"))
    page = erin.get(link, headers=CROSS_SITE, follow_redirects=False)
    assert page.status_code == 200 and "Corner Club" in page.text  # the club, named
    assert 'data-action="join-club"' in page.text
    assert _members(client, code) == ["inv_admin"]
    # Another site's page cannot press Join for her: the gate refuses its POST.
    r = erin.post(link, headers={"Sec-Fetch-Site": "cross-site"}, follow_redirects=False)
    assert r.status_code == 403
    assert _members(client, code) == ["inv_admin"]
    # Her own press of Join, from the page itself, joins.
    r = erin.post(link, headers={"Sec-Fetch-Site": "same-origin"}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/c/{code}"
    assert _members(client, code) == ["inv_admin", "inv_erin"]
    # A wrong token names no club; a revoked one says so.
    assert erin.get(f"/c/{code}/join/nope").status_code == 404
    revoked = client.delete(
        f"/api/clubs/{code}/invites", headers={"Authorization": f"Bearer {admin}"}
    )
    assert revoked.status_code == 200
    assert erin.get(link).status_code == 410


def test_an_invite_links_token_reaches_no_log_line(
    client: TestClient, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The request log and the unexpected-error line wrote the invite link's token whole."""
    caplog.set_level(logging.DEBUG)
    admin = profile(client, "inv_logger")
    code = open_club(client, admin, "Quiet Club")
    token = invite(client, code, admin)
    browser = _browser(client, profile(client, "inv_frank"))
    assert browser.get(f"/c/{code}/join/{token}").status_code == 200
    assert browser.post(f"/c/{code}/join/{token}", follow_redirects=False).status_code == 303
    paths = [getattr(r, "path", None) for r in caplog.records]
    assert paths.count(f"/c/{code}/join/…") == 2  # the request lines are there, without it
    assert token not in _server_log(caplog)

    def broken(*_args: object) -> object:
        raise RuntimeError("a fault")

    monkeypatch.setattr(client.app.state.ctx.clubs, "invited", broken)  # type: ignore[attr-defined]
    caplog.clear()
    crashing = TestClient(client.app, raise_server_exceptions=False)
    crashing.cookies.set(PLAYER_COOKIE, browser.cookies[PLAYER_COOKIE])
    assert crashing.get(f"/c/{code}/join/{token}").status_code == 500
    said = [r.getMessage() for r in caplog.records if r.name == "allfours.api"]
    assert f"unexpected error on GET /c/{code}/join/…" in said
    assert token not in _server_log(caplog)


def test_every_link_that_carries_a_secret_is_logged_without_it() -> None:
    """A club's invite link was the one secret-bearing path the log kept whole."""
    for path, kept in (
        ("/c/abc123/join/s3cr3t", "/c/abc123/join/…"),
        ("/n/abc123/p/s3cr3t", "/n/abc123/p/…"),
        ("/n/abc123/d/s3cr3t/direct", "/n/abc123/d/…/direct"),
        ("/signin/sc.s3cr3t", "/signin/…"),
        ("/c/abc123", "/c/abc123"),
    ):
        assert public_path(path) == kept


def _invite_shown(admin: TestClient, code: str) -> str:
    page = admin.post(f"/c/{code}/invites")
    assert page.status_code == 200
    found = re.search(r'value="([^"]+)" data-invite-link', page.text)
    assert found, page.text
    return found.group(1)


def test_the_invite_link_is_shown_whole_with_the_sites_public_address(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 46: a path alone ("/c/…/join/…") sent in a message opens nothing."""
    key = profile(client, "inv_owner")
    code = open_club(client, key, "Whole Club")
    admin = _browser(client, key)
    assert _invite_shown(admin, code).startswith(f"http://testserver/c/{code}/join/")
    # Behind a proxy the request's own address may be the inner one: the public one, if set.
    ctx = client.app.state.ctx  # type: ignore[attr-defined]
    public = ctx.settings.model_copy(update={"public_url": "https://cards.example.org"})
    monkeypatch.setattr(ctx, "settings", public)
    assert _invite_shown(admin, code).startswith(f"https://cards.example.org/c/{code}/join/")


def test_a_newcomer_makes_a_profile_on_the_invite_and_comes_back_to_join(
    client: TestClient,
) -> None:
    """Issue 46: a person with no profile was told "Make a profile or sign in first" and
    never came back to the invite. The form is on the invite's page; made, back to it."""
    admin = profile(client, "inv_host")
    code = open_club(client, admin, "Open Door Club")
    link = f"/c/{code}/join/{invite(client, code, admin)}"
    stranger = TestClient(client.app)
    page = stranger.get(link)
    assert page.status_code == 200 and "data-club-make-profile" in page.text
    assert f'name="next" value="{link}"' in page.text
    made = stranger.post(
        "/me/new",
        data={"handle": "inv_gina", "name": "Gina", "page": "me", "next": link},
        follow_redirects=False,
    )
    assert made.status_code == 303 and made.headers["location"] == link
    page = stranger.get(link)
    assert 'data-action="join-club"' in page.text
    assert stranger.post(link, follow_redirects=False).status_code == 303
    assert _members(client, code) == ["inv_host", "inv_gina"]


def test_a_handle_refused_keeps_the_way_back_to_the_invite(client: TestClient) -> None:
    admin = profile(client, "inv_keeper")
    code = open_club(client, admin, "Twice Club")
    link = f"/c/{code}/join/{invite(client, code, admin)}"
    stranger = TestClient(client.app)
    taken = stranger.post(
        "/me/new", data={"handle": "inv_keeper", "name": "Kim", "page": "me", "next": link}
    )
    assert taken.status_code == 409 and f'name="next" value="{link}"' in taken.text


@pytest.mark.parametrize(
    "elsewhere",
    ["https://evil.example/", "//evil.example/x", "/\\evil.example", "javascript:alert(1)",
     "/c/x\r\nLocation: https://evil.example", "c/relative"],
)  # fmt: skip
def test_the_way_back_after_a_profile_never_leaves_the_site(
    client: TestClient, elsewhere: str
) -> None:
    """``next`` is followed only as a path of this site: no open redirect."""
    stranger = TestClient(client.app)
    handle = f"inv_x{abs(hash(elsewhere)) % 10_000}"
    made = stranger.post(
        "/me/new",
        data={"handle": handle, "name": "X", "page": "me", "next": elsewhere},
        follow_redirects=False,
    )
    assert made.status_code == 303 and made.headers["location"] == "/me"
