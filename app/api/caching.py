"""What browsers may keep: static files a year under their versioned URLs, pages never.

A page links each static file as ``/static/<name>?v=<version>`` (app/web/assets.py): that
URL always means the same bytes, so it is ``immutable`` for a year. The same file asked for
without its current version (an old page, a hand-typed URL) must be revalidated. HTML is
rendered per viewer and per moment: never reused from a cache.
"""

from __future__ import annotations

from urllib.parse import parse_qs

from fastapi.staticfiles import StaticFiles
from starlette.middleware.gzip import DEFAULT_EXCLUDED_CONTENT_TYPES
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


# Never gzipped: already compressed formats, and the event streams, which gzip would hold
# back until a buffer fills (a move must reach every screen at once; a page's stream gzips
# itself, event by event: app/api/stream_gzip.py).
NOT_COMPRESSED = tuple(dict.fromkeys((*DEFAULT_EXCLUDED_CONTENT_TYPES, "text/event-stream")))
_NOT_COMPRESSED = tuple(t.removesuffix("*").encode() for t in NOT_COMPRESSED)  # prefixes


def html_not_cached(headers: list[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    """An answer's headers, with ``no-cache`` added to HTML (pages, fragments, error pages)
    that says nothing of caching itself: the browser asks again each time; HTML varies with
    the reader's language (Accept-Language, the language cookie), and every answer that may
    be gzipped (all but NOT_COMPRESSED) with Accept-Encoding. Applied where the security
    headers are (app/api/security.py), so an answer's start passes one wrapper."""
    names = {name.lower(): value for name, value in headers}
    media = names.get(b"content-type", b"").partition(b";")[0].strip().lower()
    html = media == b"text/html"
    compressible = bool(media) and not media.startswith(_NOT_COMPRESSED)
    if not html and not compressible:
        return headers
    wanted = ("Accept-Language", "Cookie", "Accept-Encoding") if html else ("Accept-Encoding",)
    varies = [v.strip() for v in names.get(b"vary", b"").decode("latin-1").split(",") if v.strip()]
    said = {v.lower() for v in varies}
    varies += [v for v in wanted if v.lower() not in said]
    out = [(name, value) for name, value in headers if name.lower() != b"vary"]
    out.append((b"vary", ", ".join(varies).encode("latin-1")))
    if html and b"cache-control" not in names:
        out.append((b"cache-control", REVALIDATE.encode()))
    return out
