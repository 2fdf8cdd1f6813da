"""Every page in every language: ``<html lang>`` is the language shown, and none of the
English texts of the catalogs is left in what a reader (or a screen reader) gets; the choice
is remembered in a cookie, taken from Accept-Language otherwise, and the JSON API's details
stay English while a page's own requests also get the reason in the reader's language."""

from __future__ import annotations

import html as htmllib
import random
import re
from functools import cache

import pytest
from babel.messages.pofile import read_po
from fastapi.testclient import TestClient

from app import i18n
from tests.api.table import bearer, new_room, play_random, seat_four
from tests.api.test_records import redealt

TRANSLATED = [lang for lang in i18n.LANGUAGES if lang != i18n.SOURCE]
SAME_ORIGIN = {"Sec-Fetch-Site": "same-origin"}
SHOWN_ATTRIBUTES = ("title", "aria-label", "placeholder", "alt", "data-reason")
# Shorter English fragments ("the deal", "Kick") may be the game's own words or a name.
LONGEST_KEPT = 13


def texts(value: str | tuple[str, ...] | list[str] | None) -> tuple[str, ...]:
    """A catalog entry's text or texts (a plural has several)."""
    if value is None:
        return ()
    return (value,) if isinstance(value, str) else tuple(value)


@cache
def english(lang: str) -> tuple[str, ...]:
    """The English fragments of every text ``lang`` says otherwise (placeholders and markup
    cut out): none of them may be left on a page in ``lang``."""
    path = i18n.LOCALE_DIR / lang / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as fp:
        catalog = read_po(fp, locale=lang)
    out: set[str] = set()
    for m in catalog:
        if not m.id:
            continue
        sources = texts(m.id)
        said = texts(m.string)
        for source in sources:
            if source in said:
                continue  # the same in both (a game word, "Tobago")
            for part in re.split(r"%\(\w+\)s|\{\w+\}|<[^>]+>", source):
                part = part.strip(" .,:;·()!?")
                if len(part) > LONGEST_KEPT and not any(part in s for s in said):
                    out.add(part)
    return tuple(sorted(out))


@cache
def said(lang: str) -> frozenset[str]:
    """The fragments of ``lang``'s own texts: what may read the same as in English."""
    path = i18n.LOCALE_DIR / lang / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as fp:
        catalog = read_po(fp, locale=lang)
    out = set()
    for m in catalog:
        for text in texts(m.string):
            for part in re.split(r"%\(\w+\)s|\{\w+\}|<[^>]+>", text):
                out.add(" ".join(part.split()).strip(" .,:;·()!?"))
    return frozenset(out)


def shown(page: str) -> str:
    """What a reader gets of a page: its text and the attributes read out or shown."""
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    body = re.sub(r'<svg class="sprite".*?</svg>', " ", body, flags=re.S)
    attributes = re.findall(rf'\b(?:{"|".join(SHOWN_ATTRIBUTES)})="([^"]*)"', body)
    text = re.sub(r"<[^>]+>", " ", body)
    return htmllib.unescape(" ".join([text, *attributes]))


# What stays as it is in every language: the code's own name, a file name, a command.
KEPT = ("python -m app.verify", "docs/fairness.md")


def sentences(page: str) -> set[str]:
    """The runs of words of a page (between its tags), long enough to be a sentence."""
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    body = re.sub(r'<svg class="sprite".*?</svg>', " ", body, flags=re.S)
    runs = re.split(r"<[^>]+>", body)
    runs += re.findall(rf'\b(?:{"|".join(SHOWN_ATTRIBUTES)})="([^"]*)"', body)
    out = set()
    for run in runs:
        run = " ".join(htmllib.unescape(run).split()).strip(" .,:;·()!?")
        if re.fullmatch(r"[a-z0-9]{4}( [a-z0-9]{4})*", run):
            continue  # a room code, read out in groups
        if len(run) > LONGEST_KEPT and len(re.findall(r"[A-Za-z]{3,}", run)) >= 3:
            out.add(run)
    return out - set(KEPT)


def assert_in(lang: str, page: str, source: str | None = None) -> None:
    """``page`` is in ``lang``: no English text of the catalogs in it, nor any sentence of
    ``source`` (the same page in English)."""
    found = re.search(r'<html lang="([a-z]+)"', page)
    assert found and found.group(1) == lang, page[:200]
    reader = " ".join(shown(page).split())
    left = [e for e in english(lang) if e in reader]
    assert not left, f"English left on a {lang} page: {left}"
    if source is not None:
        left = sorted(
            s for s in sentences(source) & sentences(page) if not any(s in t for t in said(lang))
        )
        assert not left, f"sentences of the English page left on the {lang} page: {left}"


def cookie(token: str) -> dict[str, str]:
    return {"Cookie": f"allfours_seat={token}"}


@pytest.fixture
def pages(client: TestClient) -> dict[str, tuple[str, dict[str, str]]]:
    """Each page of the site at an address (with the cookie of the seat that reads it)."""
    lobby = new_room(client)
    playing = new_room(client)
    tokens = seat_four(client, playing)
    assert client.post(f"/api/rooms/{playing}/start", headers=bearer(tokens[0])).is_success
    over, over_tokens = redealt(client)
    play_random(client, over, over_tokens, random.Random(12), check=False)
    none: dict[str, str] = {}
    return {
        "home": ("/", none),
        "how to play": ("/how-to-play", none),
        "lobby": (f"/r/{lobby}", none),
        "table": (f"/r/{playing}", cookie(tokens[0])),
        "table, watching": (f"/r/{playing}", none),
        "result": (f"/r/{over}", cookie(over_tokens[1])),
        "score sheet": (f"/r/{over}/sheet", cookie(over_tokens[0])),
        "stats": (f"/r/{over}/stats", none),
        "replay": (f"/r/{over}/games/1/replay", cookie(over_tokens[0])),
        "open a record": ("/records/open", none),
        "no such table": ("/join?code=zzzz-zzzz-zzzz", none),
        "no such replay": ("/r/zzzzzzzzzzzz/replay", none),
        "no replay yet": (f"/r/{playing}/games/1/replay", none),
        "no stats": ("/r/zzzzzzzzzzzz/stats", none),
    }


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_page_speaks_the_language_asked_for(
    client: TestClient, pages: dict[str, tuple[str, dict[str, str]]], lang: str
) -> None:
    for name, (path, headers) in pages.items():
        joiner = "&" if "?" in path else "?"
        source = client.get(f"{path}{joiner}lang=en", headers=headers, follow_redirects=True)
        r = client.get(f"{path}{joiner}lang={lang}", headers=headers, follow_redirects=True)
        assert r.headers["content-type"].startswith("text/html"), (name, r.status_code)
        assert r.status_code == source.status_code
        try:
            assert_in(lang, r.text, source.text)
        except AssertionError as err:
            raise AssertionError(f"{name} ({path}): {err}") from None


def test_english_is_the_default_and_the_pages_say_it_in_english(
    client: TestClient, pages: dict[str, tuple[str, dict[str, str]]]
) -> None:
    for path, headers in pages.values():
        page = client.get(path, headers=headers, follow_redirects=True).text
        assert '<html lang="en"' in page


def test_the_choice_is_remembered_and_the_browser_language_is_the_fallback(
    client: TestClient,
) -> None:
    r = client.get("/how-to-play", headers={"Accept-Language": "de-DE,de;q=0.9"})
    assert '<html lang="de"' in r.text and "set-cookie" not in r.headers
    # A cache must keep each language apart.
    varies = {v.strip().lower() for v in r.headers["vary"].split(",")}
    assert {"accept-language", "cookie"} <= varies
    r = client.get("/?lang=lb")
    assert f"{i18n.LANG_COOKIE}=lb" in r.headers["set-cookie"]
    assert "SameSite=Lax" in r.headers["set-cookie"] and "Path=/" in r.headers["set-cookie"]
    # The cookie now rides along (TestClient keeps it), over the browser's language.
    r = client.get("/how-to-play", headers={"Accept-Language": "fr"})
    assert '<html lang="lb"' in r.text
    r = client.get("/how-to-play?lang=ms")
    assert '<html lang="ms"' in r.text
    # A page's own request in a language (its stream, a fragment) leaves the choice alone.
    r = client.get("/how-to-play?lang=de", headers={"HX-Request": "true"})
    assert '<html lang="de"' in r.text and "set-cookie" not in r.headers
    assert '<html lang="ms"' in client.get("/how-to-play").text
    client.cookies.clear()
    assert '<html lang="en"' in client.get("/how-to-play?lang=xx").text


def test_the_language_menu_is_on_every_page_and_keeps_the_address(client: TestClient) -> None:
    page = client.get("/join?code=zzzz&lang=fr").text
    for lang, name in i18n.LANGUAGES.items():
        assert f'href="/join?code=zzzz&amp;lang={lang}"' in page
        assert f'lang="{lang}" hreflang="{lang}" data-lang="{lang}"' in page
        assert name in page
    assert 'data-lang="fr" aria-current="true"' in page


def test_the_api_detail_stays_english_and_a_page_gets_the_reason_in_its_language(
    client: TestClient,
) -> None:
    code = new_room(client)
    tokens = seat_four(client, code)
    assert client.post(f"/api/rooms/{code}/start", headers=bearer(tokens[0])).is_success
    turn = client.get(f"/api/rooms/{code}", headers=bearer(tokens[0])).json()["turn"]
    waiting = tokens[(turn + 1) % 4]
    api = client.post(
        f"/api/rooms/{code}/actions?lang=de",
        json={"type": "stand"},
        headers={**bearer(waiting), "Accept-Language": "de"},
    )
    assert api.status_code == 403
    assert api.json() == {
        "error": "not_your_turn",
        "detail": api.json()["detail"],
        "code": api.json()["code"],
        "params": api.json()["params"],
    }
    assert "turn" in api.json()["detail"]
    page = client.post(
        f"/r/{code}/act",
        data={"type": "stand"},
        headers={**cookie(waiting), **SAME_ORIGIN, "HX-Request": "true", "Accept-Language": "de"},
    )
    assert page.status_code == 403
    assert page.json()["detail"] == api.json()["detail"]
    assert page.json()["message"] == "Du bist nicht dran."


def test_the_stream_and_the_table_fragment_render_in_the_readers_language(
    client: TestClient,
) -> None:
    code = new_room(client)
    tokens = seat_four(client, code)
    assert client.post(f"/api/rooms/{code}/start", headers=bearer(tokens[0])).is_success
    fragments = {
        lang: client.get(f"/r/{code}/table?lang={lang}", headers=cookie(tokens[0]))
        for lang in i18n.LANGUAGES
    }
    tags = {r.headers["etag"] for r in fragments.values()}
    assert len(tags) == len(i18n.LANGUAGES)  # a switch of language is never a 304
    for lang, r in fragments.items():
        assert r.status_code == 200
        reader = " ".join(shown(r.text).split())
        if lang != i18n.SOURCE:
            left = [e for e in english(lang) if e in reader]
            assert not left, (lang, left)
    # The cached render of one language is never served to another reader.
    french = client.get(f"/r/{code}/table?lang=fr", headers=cookie(tokens[0])).text
    german = client.get(f"/r/{code}/table?lang=de", headers=cookie(tokens[0])).text
    assert french != german


def _menu_links(page: str) -> dict[str, str]:
    found = re.findall(r'<a href="([^"]*)" lang="(\w+)" hreflang="\w+" data-lang=', page)
    return {lang: htmllib.unescape(href) for href, lang in found}


def test_the_menu_of_a_forms_answer_names_a_page_that_can_be_read_again(
    client: TestClient,
) -> None:
    """What broke: the language menu of a sign-in link shown (POST /me/signin-link) and of a
    club's new invite (POST /c/{code}/invites) named their POST addresses: 405."""
    made = client.post("/api/players", json={"handle": "menu_ann", "name": "Ann"})
    key = made.json()["key"]
    code = client.post("/api/clubs", json={"name": "Menu club"}, headers=bearer(key)).json()["code"]
    client.cookies.set("allfours_player", key)
    answers = {
        "/me": client.post("/me/signin-link", headers=SAME_ORIGIN),
        f"/c/{code}": client.post(f"/c/{code}/invites", headers=SAME_ORIGIN),
    }
    for where, answer in answers.items():
        assert answer.status_code == 200, answer.text
        links = _menu_links(answer.text)
        assert set(links) == set(i18n.LANGUAGES), links
        for lang, href in links.items():
            assert href == f"{where}?lang={lang}"
            again = client.get(href)
            assert again.status_code == 200 and f'<html lang="{lang}"' in again.text, href
    # A form's answer at an address that can be read again keeps it (the report form's).
    refused = client.post("/p/menu_ann/report?lang=de", data={"room": "x"}, headers=SAME_ORIGIN)
    assert _menu_links(refused.text)["fr"] == "/p/menu_ann/report?lang=fr"
