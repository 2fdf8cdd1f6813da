"""A page a browser asks for answers a page, in the reader's language, whatever went wrong
(an unknown address, a mangled link, a route's refusal); the API keeps its JSON errors."""

from __future__ import annotations

import re
from collections.abc import Iterator

import httpx
import pytest
from fastapi.testclient import TestClient
from markupsafe import escape

from app.i18n import LANGUAGES, _, reading
from app.night.reasons import UNKNOWN_LINK
from app.settings import Settings
from app.web.error_page import message_of
from tests.databases import database_url  # noqa: F401 - a fixture
from tests.night.helpers import open_night, register

BROWSER = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}


def _said(page: str) -> tuple[str, str]:
    """The error page's title and sentence."""
    title = re.search(r"<h1>(.*?)</h1>", page, re.S)
    said = re.search(r'<p role="alert" data-error="\d+">(.*?)</p>', page, re.S)
    assert title and said, page[:400]
    return title[1], said[1]


def _is_page(r: httpx.Response, status: int, lang: str = "en") -> str:
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("text/html")
    text = r.text
    assert f'<html lang="{lang}">' in text and "app.css" in text  # the site's look
    return text


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_an_unknown_address_is_a_page_in_the_readers_language(
    client: TestClient, lang: str
) -> None:
    text = _is_page(client.get(f"/profile?lang={lang}", headers=BROWSER), 404, lang)
    with reading(lang):
        expected = (
            _("Page not found"),
            _(
                "There is no page at this address: check the link, or start again from the "
                "home page."
            ),
        )
    assert _said(text) == tuple(str(escape(s)) for s in expected)
    assert 'href="/"' in text
    assert 'href="/profile?lang=' in text  # the language menu keeps the address
    # The browser's own language, without asking.
    header = {**BROWSER, "Accept-Language": f"{lang},en;q=0.5"}
    assert f'<html lang="{lang}">' in client.get("/no/such/page", headers=header).text


def test_the_api_keeps_its_json_errors(client: TestClient) -> None:
    for path in ("/api/profile", "/api/rooms/zzzzzz", "/api/nights/zzzzzz"):
        r = client.get(path, headers=BROWSER)
        assert r.status_code == 404 and r.headers["content-type"] == "application/json", path
        assert set(r.json()) >= {"error", "detail", "code", "params"}
        assert r.json()["error"] == "not_found"
    r = client.get("/profile")  # a script's request (no text/html): JSON as before
    assert r.status_code == 404 and r.json()["error"] == "not_found"
    # htmx's own requests read the JSON's message, in the page's language.
    r = client.post("/r/zzzzzz/start?lang=fr", headers={**BROWSER, "HX-Request": "true"})
    assert r.status_code == 404 and r.headers["content-type"] == "application/json"
    assert r.json()["code"] == "no_room" and r.json()["message"]


def test_a_routes_refusal_and_a_method_not_allowed_are_pages(client: TestClient) -> None:
    text = _is_page(client.get("/r/zzzzzz/sheet?lang=de", headers=BROWSER), 404, "de")
    assert "zzzzzz" not in _said(text)[0]
    _is_page(client.post("/how-to-play?lang=en", headers=BROWSER), 405)
    _is_page(client.get("/r/zzzzzz/games/first/replay?lang=en", headers=BROWSER), 404)
    # A form sent without script, refused: the reason on a page.
    text = _is_page(client.post("/r/zzzzzz/start?lang=en", headers=BROWSER), 404)
    assert _said(text)[1]


def test_a_mangled_player_link_says_it_is_not_valid_in_the_readers_language(
    client: TestClient,
) -> None:
    code, director = open_night(client)
    token = register(client, code, ["Ann", "Bo"], director)["links"][0].rsplit("/", 1)[1]
    for lang in LANGUAGES:
        r = client.get(f"/n/{code}/p/{token[:-4]}?lang={lang}", headers=BROWSER)
        text = _is_page(r, 403, lang)
        with reading(lang):
            sentence = _(UNKNOWN_LINK.sentence)
        assert _said(text)[1] == str(escape(sentence))
    # Another night's link still says so; the API names each reason by its code.
    other, _director = open_night(client)
    stranger = register(client, other, ["Cy", "Di"])["links"][0].rsplit("/", 1)[1]
    text = _is_page(client.get(f"/n/{code}/p/{stranger}?lang=en", headers=BROWSER), 403)
    assert "another night" in _said(text)[1]
    r = client.post(f"/api/nights/{code}/sit", headers={"Authorization": f"Bearer {token}x"})
    assert r.status_code == 403 and r.json()["code"] == "night_link_unknown"


@pytest.fixture
def failing(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    """A server whose home page fails as an unexpected error would."""
    from app.api import pages
    from app.main import create_app

    def broken() -> str:
        raise RuntimeError("a bug")

    monkeypatch.setattr(pages, "render_home", broken)
    with TestClient(create_app(settings), raise_server_exceptions=False) as c:
        yield c


def test_an_unexpected_error_is_a_page_in_the_readers_language(failing: TestClient) -> None:
    text = _is_page(failing.get("/?lang=ms", headers=BROWSER), 500, "ms")
    with reading("ms"):
        assert _said(text)[0] == str(escape(_("Something went wrong")))
    assert 'href="/?lang=' in text  # the language menu, outside the gate too
    assert "a bug" not in text and "Traceback" not in text
    r = failing.get("/")
    assert r.status_code == 500 and r.json()["error"] == "internal"


def test_the_gates_refusals_are_pages_for_a_browser(database_url: str) -> None:  # noqa: F811
    """Before any route: too many requests (429), another site's form (403), a body too
    large (413): a page in the reader's language for a browser, JSON for the API."""
    from app.api.replay_pages import UPLOAD_MAX_BYTES
    from app.main import create_app
    from tests.api.conftest import app_settings

    app = create_app(app_settings(database_url, rate_limit=3))
    with TestClient(app) as c:
        text = _is_page(
            c.post(
                "/r/abc/start?lang=de",
                headers={**BROWSER, "Sec-Fetch-Site": "cross-site"},
            ),
            403,
            "de",
        )
        assert "cross-site" not in text
        big = {"record": ("r.json", b"x" * (UPLOAD_MAX_BYTES + 1), "application/json")}
        _is_page(c.post("/records/open?lang=fr", files=big, headers=BROWSER), 413, "fr")
        answers = [c.get("/how-to-play?lang=ms", headers=BROWSER) for _n in range(3)]
        text = _is_page(answers[-1], 429, "ms")  # three a minute: the third is one too many
        with reading("ms"):
            assert _said(text)[1] == str(escape(message_of(429)))
        r = c.get("/api/rooms/abc")
        assert r.status_code == 429 and r.json()["error"] == "too_many_requests"
