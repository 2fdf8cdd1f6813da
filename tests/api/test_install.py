"""The site as an installable app (app/api/install.py, app/web/install.py): the manifest in
the reader's language, its icons, the service worker's list and cache name, the offline page."""

from __future__ import annotations

import json
import re
import struct
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.api.security import CSP
from app.web import assets, install
from app.web.assets import STATIC

FELT = "#184d33"


def _png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR"
    width, height = struct.unpack(">II", head[16:24])
    return width, height


@pytest.mark.parametrize(
    ("lang", "name"),
    [
        ("en", "All Fours: the Trinidad card game"),
        ("fr", "All Fours\u202f: le jeu de cartes de Trinidad"),
    ],
)
def test_the_manifest_in_the_readers_language(client: TestClient, lang: str, name: str) -> None:
    r = client.get(f"/manifest.webmanifest?lang={lang}")
    assert r.status_code == 200
    assert r.headers["content-type"] == "application/manifest+json"
    assert r.headers["cache-control"] == "no-cache"
    assert r.headers["content-security-policy"] == CSP
    m = r.json()
    assert m["name"] == name and m["short_name"] == "All Fours" and m["lang"] == lang
    assert (m["start_url"], m["scope"], m["display"]) == ("/", "/", "standalone")
    assert m["background_color"] == m["theme_color"] == FELT
    purposes = sorted((i["sizes"], i["purpose"]) for i in m["icons"])
    assert purposes == [("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")]


def test_the_manifest_follows_the_browsers_language(client: TestClient) -> None:
    m = client.get("/manifest.webmanifest", headers={"Accept-Language": "de-DE,de;q=0.9"}).json()
    assert m["lang"] == "de" and m["name"] == "All Fours: das Kartenspiel aus Trinidad"


def test_every_icon_exists_at_its_declared_size(client: TestClient) -> None:
    for icon in client.get("/manifest.webmanifest").json()["icons"]:
        side = int(icon["sizes"].split("x")[0])
        assert icon["type"] == "image/png"
        path, _, version = icon["src"].removeprefix("/static/").partition("?v=")
        assert version == assets.version(path)
        assert _png_size(STATIC / path) == (side, side)
        r = client.get(icon["src"])
        assert r.status_code == 200 and r.headers["content-type"] == "image/png"
    assert _png_size(STATIC / "icons" / "apple-touch-icon.png") == (180, 180)


def test_every_page_links_the_manifest_and_the_touch_icon(client: TestClient) -> None:
    for path in ("/", "/how-to-play?lang=ms", "/offline"):
        html = client.get(path).text
        lang = re.search(r'<html lang="(\w+)"', html)
        assert lang and f'<link rel="manifest" href="/manifest.webmanifest?lang={lang[1]}">' in html
        assert 'rel="apple-touch-icon"' in html and "/static/install.js?v=" in html


def _precache(js: str) -> list[str]:
    found = re.search(r"^const PRECACHE = (.*);$", js, re.M)
    assert found
    urls: list[str] = json.loads(found[1])
    return urls


def _cache(js: str) -> str:
    found = re.search(r'^const CACHE = "([^"]+)";$', js, re.M)
    assert found
    return found[1]


def test_the_worker_keeps_exactly_the_versioned_static_files_and_the_offline_page(
    client: TestClient,
) -> None:
    r = client.get("/sw.js")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/javascript")
    assert r.headers["cache-control"] == "no-cache"
    assert r.headers["content-security-policy"] == CSP
    files = sorted(
        p.relative_to(STATIC).as_posix()
        for p in STATIC.rglob("*")
        if p.is_file() and p.suffix in (".css", ".js", ".svg", ".png")
    )
    assert "app.js" in files and "icons/icon-512.png" in files
    expected = [f"/static/{f}?v={assets.version(f)}" for f in files]
    assert sorted(_precache(r.text)) == sorted([*expected, "/offline"])
    # Nothing that holds a player's cards, tokens or keys.
    code = "\n".join(line.split("//")[0] for line in r.text.splitlines())
    assert "/api/" not in code and "/r/" not in code and "__" not in code
    assert "cache.put" not in code


def test_a_changed_static_file_is_a_new_cache(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = client.get("/sw.js").text
    real = assets.version

    def changed(name: str) -> str:
        return "0123456789ab" if name == "app.css" else real(name)

    monkeypatch.setattr(assets, "version", changed)
    after = client.get("/sw.js").text
    assert "/static/app.css?v=0123456789ab" in _precache(after)
    assert _cache(after) != _cache(before) and _cache(after).startswith(install.CACHE_PREFIX)
    monkeypatch.undo()
    assert _cache(client.get("/sw.js").text) == _cache(before)  # the same files: the same


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "The table needs the connection"),
        ("de", "Der Tisch braucht die Verbindung: Diese Seite versucht es von selbst"),
    ],
)
def test_the_offline_page_in_the_readers_language(
    client: TestClient, lang: str, words: str
) -> None:
    r = client.get(f"/offline?lang={lang}")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert f'<html lang="{lang}">' in r.text and words in r.text
    assert r.headers["content-security-policy"] == CSP
    assert "/static/offline.js?v=" in r.text
    assert "<script>" not in r.text and "style=" not in r.text  # nothing inline
