"""A club's pages (app/api/club_pages.py, app/web/club.py), without a browser: an admin opens
a club and runs it from its page (an invite link, a season, a club night), a member joins by
the link's Join button, the season's board; refusals said on the page; in the reader's language."""

from __future__ import annotations

from fastapi.testclient import TestClient

from app.api.context import PLAYER_COOKIE
from tests.api.table import bearer
from tests.clubs.helpers import club, profile, register_players
from tests.night.helpers import night
from tests.web.dom import having, parse


def _browser(client: TestClient, key: str | None) -> TestClient:
    """Another browser on the same server, signed in with ``key``."""
    b = TestClient(client.app)
    if key:
        b.cookies.set(PLAYER_COOKIE, key)
    return b


def test_an_admin_runs_the_club_from_its_page(client: TestClient) -> None:
    admin = _browser(client, profile(client, "qua"))
    member = _browser(client, profile(client, "rho"))
    guest = _browser(client, None)
    assert 'action="/c"' not in guest.get("/c").text  # sign in first
    assert guest.post("/c", data={"name": "X"}, follow_redirects=False).status_code == 401
    assert admin.post("/c", data={"name": "  "}).status_code == 422
    r = admin.post("/c", data={"name": "Unity <b>Club</b>"}, follow_redirects=False)
    assert r.status_code == 303
    code = r.headers["location"].rsplit("/", 1)[1]
    page = admin.get(f"/c/{code}")
    assert page.status_code == 200 and "Unity &lt;b&gt;Club&lt;/b&gt;" in page.text
    assert having(parse(page.text), "data-admin")
    assert not having(parse(member.get(f"/c/{code}").text), "data-admin")
    # The invite link, followed by a signed-in player and by a guest.
    r = admin.post(f"/c/{code}/invites")
    assert r.status_code == 200
    url = having(parse(r.text), "data-invite-link")[0].get("value")
    assert url and url.startswith(f"http://testserver/c/{code}/join/")  # whole, to send
    link = url.removeprefix("http://testserver")
    page = guest.get(link)  # names the club, and asks for a profile first
    assert page.status_code == 200 and "Unity &lt;b&gt;Club&lt;/b&gt;" in page.text
    assert "join-club" not in page.text
    assert guest.post(link, follow_redirects=False).status_code == 401
    page = member.get(link)  # opening the link joins nothing: Join does
    assert [b.get("data-action") for b in having(parse(page.text), "data-action")] == ["join-club"]
    assert [m["handle"] for m in club(client, code)["members"]] == ["qua"]
    assert member.post(link, follow_redirects=False).status_code == 303
    assert having(parse(member.get(link).text), "data-club-member")  # a member already
    assert [m["handle"] for m in club(client, code)["members"]] == ["qua", "rho"]
    mine = having(parse(member.get("/c").text), "data-my-club")
    assert [a.get("data-my-club") for a in mine] == [code]  # the member's clubs, on /c
    # A season, then a night of it: on to the night's director page.
    r = member.post(f"/c/{code}/seasons", data={"name": "Spring", "after": "0"})
    assert r.status_code == 403
    r = admin.post(f"/c/{code}/nights", data={"name": "Friday"})
    assert r.status_code == 422 and "start one first" in r.text  # no season yet
    r = admin.post(
        f"/c/{code}/seasons", data={"name": "Spring", "after": "0"}, follow_redirects=False
    )
    assert r.status_code == 303
    r = admin.post(f"/c/{code}/seasons", data={"name": "Again", "after": "0"})
    assert r.status_code == 422 and "Another season was just started" in r.text
    # The club's page offers the night's formats (issue #46); one it does not know: a 4xx.
    assert 'name="format"' in admin.get(f"/c/{code}").text
    r = admin.post(f"/c/{code}/nights", data={"name": "Friday", "format": "bridge"})
    assert r.status_code == 422
    r = admin.post(
        f"/c/{code}/nights",
        data={"name": "Friday", "format": "swiss_knockout"},
        follow_redirects=False,
    )
    assert r.status_code == 303 and "/d/" in r.headers["location"]
    night_code = r.headers["location"].split("/")[2]
    assert night(client, night_code)["format"] == "swiss_knockout"
    director = r.headers["location"].rsplit("/", 1)[1]
    assert register_players(client, night_code, director, ["qua", "rho"]).status_code == 201
    # The night's pages link back to the club's.
    for page in (admin.get(r.headers["location"]), member.get(f"/n/{night_code}")):
        assert page.status_code == 200 and page.url.path.startswith(f"/n/{night_code}")
        links = having(parse(page.text), "data-club-link")
        assert [a.get("href") for a in links] == [f"/c/{code}"]
    nights = having(parse(admin.get(f"/c/{code}").text), "data-night")
    assert [n.get("data-night") for n in nights] == [night_code]
    # Names an admin, removes a member.
    r = admin.post(f"/c/{code}/admins", data={"handle": "rho"}, follow_redirects=False)
    assert r.status_code == 303
    r = member.post(f"/c/{code}/remove", data={"handle": "qua"}, follow_redirects=False)
    assert r.status_code == 303
    r = member.post(f"/c/{code}/remove", data={"handle": "rho"})
    assert r.status_code == 422 and "last admin" in r.text
    # A revoked invite link says so.
    r = client.delete(f"/api/clubs/{code}/invites", headers=bearer(member.cookies[PLAYER_COOKIE]))
    assert r.status_code == 200
    assert admin.get(link, follow_redirects=False).status_code == 410


def test_the_season_board_and_the_page_in_five_languages(client: TestClient) -> None:
    admin = _browser(client, profile(client, "sig"))
    code = (
        admin.post("/c", data={"name": "Bar league"}, follow_redirects=False)
        .headers["location"]
        .rsplit("/", 1)[1]
    )
    admin.post(f"/c/{code}/seasons", data={"name": "Winter"})
    admin.post(f"/c/{code}/seasons", data={"name": "Spring", "after": "1"})
    past = having(parse(admin.get(f"/c/{code}").text), "data-past-season")
    assert [li.get("data-past-season") for li in past] == ["1"]  # its exports still there
    seen = set()
    for lang in ("en", "fr", "de", "lb", "ms"):
        page = admin.get(f"/c/{code}?lang={lang}")
        assert page.status_code == 200 and f'lang="{lang}"' in page.text
        board = admin.get(f"/c/{code}/board?lang={lang}")
        assert board.status_code == 200 and having(parse(board.text), "data-season")
        seen.add(next(e for e in parse(page.text) if e.get("id") == "admin-h").all_text())
    assert len(seen) == 5  # each language its own words
    assert client.get("/c/nope1234").status_code == 404
