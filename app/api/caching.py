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
from starlette.types import ASGIApp, Message, Receive, Scope, Send

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


class HtmlNotCached:
    """Every HTML answer (pages, fragments, error pages) without a caching header of its own
    gets ``no-cache``: the browser asks again each time."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_marked(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = message.get("headers", [])
                names = {name.lower(): value for name, value in headers}
                html = names.get(b"content-type", b"").startswith(b"text/html")
                if html and b"cache-control" not in names:
                    message = {**message, "headers": [*headers, (b"cache-control", b"no-cache")]}
            await send(message)

        await self.app(scope, receive, send_marked)
