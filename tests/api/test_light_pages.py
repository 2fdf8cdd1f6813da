"""A lighter page: answers gzipped for a browser that accepts it, static files under
versioned URLs kept for a year, HTML never kept."""

from __future__ import annotations

import gzip
import re

from fastapi.testclient import TestClient

from app.api.caching import IMMUTABLE
from app.api.layers import GZIP_MINIMUM_SIZE as MINIMUM_SIZE
from app.web.assets import version
from tests.api.table import new_room

GZIP = {"Accept-Encoding": "gzip"}
PLAIN = {"Accept-Encoding": "identity"}


def _linked(html: str) -> list[str]:
    return re.findall(r'(?:href|src)="(/static/[^"]+)"', html)


def test_pages_and_static_files_are_gzipped_when_the_browser_accepts_it(
    client: TestClient,
) -> None:
    code = new_room(client)
    page = client.get(f"/r/{code}").text
    for url in ["/", f"/r/{code}", "/how-to-play", *_linked(page)]:
        plain = client.get(url, headers=PLAIN)
        assert "content-encoding" not in plain.headers, url
        with client.stream("GET", url, headers=GZIP) as r:
            raw = b"".join(r.iter_raw())
        compressed = plain.headers["content-type"] == "image/png"  # the touch icon: already
        if len(plain.content) < MINIMUM_SIZE or compressed:  # the favicon: not worth a header
            assert "content-encoding" not in r.headers and raw == plain.content, url
            continue
        assert r.headers["content-encoding"] == "gzip", url
        assert "accept-encoding" in r.headers["vary"].lower(), url
        assert gzip.decompress(raw) == plain.content, url
        assert len(raw) < len(plain.content) / 2, url  # pages, CSS and scripts: text


def test_the_page_links_its_static_files_by_version(client: TestClient) -> None:
    linked = _linked(client.get("/").text)
    names = {u.split("?")[0].removeprefix("/static/") for u in linked}
    assert {"app.css", "pages.css", "app.js", "vendor/htmx.min.js"} <= names
    for url in linked:
        path, _, query = url.partition("?")
        assert query == f"v={version(path.removeprefix('/static/'))}", url


def test_a_versioned_static_file_is_kept_a_year_an_unversioned_one_is_revalidated(
    client: TestClient,
) -> None:
    current = f"/static/app.css?v={version('app.css')}"
    r = client.get(current)
    assert r.status_code == 200 and r.headers["cache-control"] == IMMUTABLE
    assert IMMUTABLE == "public, max-age=31536000, immutable"
    for other in ("/static/app.css", "/static/app.css?v=0123456789ab"):
        assert client.get(other).headers["cache-control"] == "no-cache", other
    again = client.get(current, headers={"If-None-Match": r.headers["etag"]})
    assert again.status_code == 304 and again.headers["cache-control"] == IMMUTABLE
    assert client.get("/static/no-such.css").status_code == 404
    assert client.get("/static/../app/main.py").status_code == 404


def test_html_is_never_kept(client: TestClient) -> None:
    code = new_room(client)
    for url in ("/", "/how-to-play", f"/r/{code}", f"/r/{code}/table", "/r/nosuchroom"):
        cache = client.get(url).headers["cache-control"]
        assert "no-cache" in cache or "no-store" in cache, url
