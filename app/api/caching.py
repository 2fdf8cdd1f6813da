"""What browsers may keep: static files a year under their versioned URLs, pages never.

A page links each static file as ``/static/<name>?v=<version>`` (app/web/assets.py): that
URL always means the same bytes, so it is ``immutable`` for a year. The same file asked for
without its current version (an old page, a hand-typed URL) must be revalidated. HTML is
rendered per viewer and per moment: never reused from a cache.
"""

from __future__ import annotations

from urllib.parse import parse_qs

from fastapi.staticfiles import StaticFiles
from starlette.responses import Response
from starlette.types import Scope

from app.web.assets import version

IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"


class VersionedStatic(StaticFiles):
    """StaticFiles whose answers say how long they may be kept."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        response = await super().get_response(path, scope)
        if response.status_code in (200, 304):
            query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
            try:
                current = query.get("v", [""])[0] == version(path)
            except OSError:  # gone since it was served: nothing to promise
                current = False
            response.headers["Cache-Control"] = IMMUTABLE if current else REVALIDATE
        return response


def html_not_cached(headers: list[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    """An answer's headers, with ``no-cache`` added to HTML (pages, fragments, error pages)
    that says nothing of caching itself: the browser asks again each time; and HTML varies
    with the reader's language (Accept-Language, the language cookie). Applied where the
    security headers are (app/api/security.py), so an answer's start passes one wrapper."""
    names = {name.lower(): value for name, value in headers}
    if not names.get(b"content-type", b"").startswith(b"text/html"):
        return headers
    # A page is in its reader's language (app/i18n.py): the cookie or Accept-Language chose it.
    varies = [v.strip() for v in names.get(b"vary", b"").decode("latin-1").split(",") if v.strip()]
    said = {v.lower() for v in varies}
    varies += [v for v in ("Accept-Language", "Cookie") if v.lower() not in said]
    out = [(name, value) for name, value in headers if name.lower() != b"vary"]
    out.append((b"vary", ", ".join(varies).encode("latin-1")))
    if b"cache-control" not in names:
        out.append((b"cache-control", REVALIDATE.encode()))
    return out
