"""A hostile client against the HTTP surface: each test is named after a weakness that a
review found open (issue 12) and fails on the code before its fix."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import httpx
import pytest
from fastapi.testclient import TestClient

from app.api.context import SEAT_COOKIE
from app.logs import TextFormatter
from tests.api.table import bearer, new_room, seat_four, view

HTMX = {"HX-Request": "true"}
SAME_SITE_PAGE = {"Sec-Fetch-Site": "same-site", "Sec-Fetch-Mode": "navigate"}


def _seat_cookie(r: httpx.Response) -> str | None:
    """The seat token a response sets (one Set-Cookie per path, the same token)."""
    for header in r.headers.get_list("set-cookie"):
        name, _, rest = header.partition("=")
        if name == SEAT_COOKIE:
            return rest.split(";", 1)[0]
    return None


def _started_room(client: TestClient) -> tuple[str, list[str]]:
    code = new_room(client)
    tokens = seat_four(client, code)
    r = client.post(f"/api/rooms/{code}/start", headers=bearer(tokens[0]))
    assert r.status_code == 200, r.text
    return code, tokens


def test_csrf_a_same_site_page_cannot_act_for_a_seated_browser(client: TestClient) -> None:
    """A page on another port or a sibling subdomain could post the table's forms: SameSite=Lax
    sends the seat cookie on same-site requests."""
    code, tokens = _started_room(client)
    before = view(client, code)
    turn = before["turn"]
    client.cookies.set(SEAT_COOKIE, tokens[turn], path=f"/r/{code}")
    move = {"type": "stand"} if before["phase"] == "beg" else {"type": "play"}
    for path, form in (
        (f"/r/{code}/act", move),
        (f"/r/{code}/start", {}),
        (f"/r/{code}/rematch", {}),
        (f"/r/{code}/bot", {"seat": "1"}),
    ):
        r = client.post(path, data=form, headers=SAME_SITE_PAGE, follow_redirects=False)
        assert r.status_code == 403, (path, r.text)
        assert r.json()["error"] == "forbidden"
    # and a same-site page cannot start or rematch through the JSON routes either
    r = client.post(f"/api/rooms/{code}/start", headers=SAME_SITE_PAGE)
    assert r.status_code == 403
    assert view(client, code)["version"] == before["version"]


def test_csrf_an_origin_of_another_port_is_refused(client: TestClient) -> None:
    """Browsers without Sec-Fetch-Site still send Origin: another port is another site's page."""
    code = new_room(client)
    headers = {"Origin": "http://testserver:8001"}
    r = client.post(f"/r/{code}/join", data={"name": "Ann"}, headers=headers)
    assert r.status_code == 403
    assert all(s is None for s in view(client, code)["seats"])
    r = client.post(f"/r/{code}/join", data={"name": "Ann"}, headers={"Origin": "null"})
    assert r.status_code == 403


def test_csrf_own_pages_and_scripts_still_post(client: TestClient) -> None:
    """The check refuses only other sites: our own page (by either header) and a script with
    neither header still take seats."""
    code = new_room(client)
    own = [
        {"Sec-Fetch-Site": "same-origin", **HTMX},
        {"Origin": "http://testserver", **HTMX},
        HTMX,
    ]
    for seat, headers in enumerate(own):
        client.cookies.clear()
        r = client.post(f"/r/{code}/join", data={"name": "Ann", "seat": str(seat)}, headers=headers)
        assert r.status_code == 200, r.text
    client.cookies.clear()
    r = client.post(f"/api/rooms/{code}/join", json={"name": "Dee"})
    assert r.status_code == 200


def test_csrf_a_cross_site_join_cannot_replace_the_seat_cookie(client: TestClient) -> None:
    """While the table filled, a cross-site page could post `join` and overwrite the victim's
    seat cookie with a new seat's: the old seat's token was lost."""
    code = new_room(client)
    r = client.post(f"/r/{code}/join", data={"name": "Ann"}, headers=HTMX)
    mine = _seat_cookie(r)
    assert mine
    r = client.post(
        f"/r/{code}/join",
        data={"name": "Eve"},
        headers={"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate"},
    )
    assert r.status_code == 403
    assert _seat_cookie(r) is None
    assert sum(s is not None for s in view(client, code)["seats"]) == 1
    assert view(client, code, mine)["you"] == 0


def test_join_never_overwrites_the_cookie_of_another_seat(client: TestClient) -> None:
    """A browser holding seat 0 that joined again under another identity (a stale bearer token)
    got seat 1's cookie in place of seat 0's, silently."""
    code = new_room(client)
    r = client.post(f"/r/{code}/join", data={"name": "Ann"}, headers=HTMX)
    seat0 = _seat_cookie(r)
    assert seat0
    client.cookies.set(SEAT_COOKIE, seat0, path=f"/api/rooms/{code}")
    r = client.post(
        f"/api/rooms/{code}/join",
        json={"name": "Ben"},
        headers={"Sec-Fetch-Mode": "cors", **bearer("not-a-seat-token")},
    )
    assert r.status_code == 200 and r.json()["seat"] == 1
    assert _seat_cookie(r) is None  # the JSON answer holds the new token; the cookie stays
    assert view(client, code, seat0)["you"] == 0


@pytest.mark.parametrize("path", ["/", "/r/{code}", "/api/rooms/{code}", "/api/rooms/nosuch"])
def test_headers_every_answer_carries_the_security_policy(client: TestClient, path: str) -> None:
    """No Content-Security-Policy, frame-ancestors, nosniff or Referrer-Policy was sent."""
    code = new_room(client)
    r = client.get(path.format(code=code))
    csp = r.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["referrer-policy"] == "same-origin"


def test_headers_the_seat_cookie_is_secure_over_https(client: TestClient) -> None:
    """Served over HTTPS (a trusted proxy's X-Forwarded-Proto), the seat cookie had no Secure
    flag, so a later plain-HTTP request would carry it in clear."""
    code = new_room(client)
    secure = TestClient(client.app, base_url="https://testserver")
    r = secure.post(f"/r/{code}/join", data={"name": "Ann"}, headers=HTMX)
    cookies = r.headers.get_list("set-cookie")
    assert cookies and all("secure" in c.lower() for c in cookies)
    r = client.post(f"/r/{code}/join", data={"name": "Ben"}, headers=HTMX)
    assert not any("secure" in c.lower() for c in r.headers.get_list("set-cookie"))


def test_log_injection_control_characters_in_a_path_are_escaped() -> None:
    """CR, ESC and TAB in a request path reached the text log raw: a forged line, a terminal
    driven by escape codes."""
    record = logging.LogRecord("allfours.request", logging.INFO, "", 0, "request", None, None)
    record.path = "/r/x\r2026-12-01 info allfours.move move\x1b[2J\tz"
    record.event = "request"
    line = TextFormatter().format(record)
    assert "\r" not in line and "\n" not in line and "\x1b" not in line and "\t" not in line
    assert "\\r2026" in line and "\\u001b" in line
    message = logging.LogRecord("x", logging.ERROR, "", 0, "on %s", ("/a\rb\x9bc",), None)
    assert TextFormatter().format(message).endswith("on /a\\rb\\x9bc")


def test_contract_a_chunked_body_over_the_limit_gets_413(client: TestClient) -> None:
    """A body over the limit sent without Content-Length (chunked) got 400, not 413."""
    code = new_room(client)

    def chunks() -> Iterator[bytes]:
        for _ in range(40):
            yield b" " * 1024

    r = client.post(
        f"/api/rooms/{code}/join",
        content=chunks(),
        headers={"Content-Type": "application/json"},
    )
    assert r.status_code == 413, r.text
    assert r.json()["error"] == "too_large"
    small = client.post(
        f"/api/rooms/{code}/join",
        content=iter([b'{"name": ', b'"Ann"}']),
        headers={"Content-Type": "application/json"},
    )
    assert small.status_code == 200, small.text


def test_contract_the_json_view_holding_a_hand_is_never_cached(client: TestClient) -> None:
    """The JSON view holds the caller's hand but had no Cache-Control: no-store."""
    code, tokens = _started_room(client)
    beggar = tokens[view(client, code)["turn"]]
    for r in (
        client.get(f"/api/rooms/{code}", headers=bearer(tokens[0])),
        client.post(f"/api/rooms/{code}/actions", json={"type": "stand"}, headers=bearer(beggar)),
    ):
        assert r.status_code == 200, r.text
        assert r.headers["cache-control"] == "no-store"


def test_contract_openapi_agrees_with_the_server(client: TestClient) -> None:
    """The document left out the 400 for bad JSON, let `name: ""` and `card: ""` pass, and
    wrote the seed's maximum as a float."""
    doc = client.get("/openapi.json").json()
    schemas = doc["components"]["schemas"]
    seed = next(s for s in schemas["CreateRoom"]["properties"]["seed"]["anyOf"] if "maximum" in s)
    assert seed["maximum"] == 2**63 - 1 and isinstance(seed["maximum"], int)
    assert '"maximum":9223372036854775807' in client.get("/openapi.json").text
    seat = next(s for s in schemas["Join"]["properties"]["seat"]["anyOf"] if "maximum" in s)
    assert seat["maximum"] == 3 and isinstance(seat["maximum"], int)
    assert schemas["Join"]["properties"]["name"]["minLength"] == 1
    card = next(s for s in schemas["ActionIn"]["properties"]["card"]["anyOf"] if "type" in s)
    assert card["pattern"] == "^[AKQJT2-9][CDHS]$"
    for path, operations in doc["paths"].items():
        for method, operation in operations.items():
            if "requestBody" in operation:
                assert {"400", "413", "429"} <= set(operation["responses"]), (method, path)
    json_type = {"Content-Type": "application/json"}
    r = client.post("/api/rooms", content=b"{not json", headers=json_type)
    assert r.status_code == 400


@pytest.mark.parametrize(
    "name",
    [
        *("You", "you", "YOU ", "\uff39\uff4f\uff55", "Us", "Them", "Team 1"),
        *("Bot", "Bot 2", "bot (easy)", "Ann (auto)", "Ann & Cy"),
        *("\u2800", "\u115f", "\u3164\u3164", "\uffa0", "\u2800 \u2800"),
    ],
)
def test_names_invisible_or_impersonating_a_table_label_are_refused(
    client: TestClient, name: str
) -> None:
    """A human could call themselves "You", a computer player's name or something invisible
    (U+2800, U+115F): the table then read "You & Cy"."""
    code = new_room(client)
    r = client.post(f"/api/rooms/{code}/join", json={"name": name})
    assert r.status_code == 422, (name, r.text)
    r = client.post(f"/r/{code}/join", data={"name": name}, headers=HTMX)
    assert r.status_code == 422, (name, r.text)
    assert all(s is None for s in view(client, code)["seats"])


@pytest.mark.parametrize("name", ["Zoë", "Youssef", "Bobby", "Ann&Cy", "Ann, Cy", "李", "😂"])
def test_names_that_only_look_alike_are_kept(client: TestClient, name: str) -> None:
    """The label check refuses the table's own words, not names that contain them."""
    code = new_room(client)
    r = client.post(f"/api/rooms/{code}/join", json={"name": name})
    assert r.status_code == 200, (name, r.text)


def test_docs_swagger_ui_loads_nothing_from_a_cdn(client: TestClient) -> None:
    """/docs loaded Swagger UI from a public CDN without integrity hashes (and leaked the
    Referer); it now comes from the package's own files."""
    page = client.get("/docs")
    assert page.status_code == 200
    assert "://" not in page.text
    for asset in ("/docs/assets/swagger-ui.css", "/docs/assets/swagger-ui-bundle.js"):
        assert asset in page.text
        assert client.get(asset).status_code == 200
    assert "<script>" not in page.text  # no inline script: the CSP stays strict
    assert client.get("/redoc").status_code == 404
