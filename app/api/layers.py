"""Every layer an HTTP request passes on its way in, outermost first, declared once.

Outside the app, uvicorn (app/serve.py) runs:
  app/net.py GuardedHttpTools  connection limits: header and body deadlines (408), header
                               size (431), connections per address and in all (429, 503)
  ProxyHeadersMiddleware       the client's address behind a trusted proxy
Then the app, as ``AllFours.build_middleware_stack`` builds it from ``layers(settings)``:
  ServerErrorMiddleware        an exception no handler took becomes a logged 500
  RequestLog (app/logs.py)     one log line per request, once its answer is complete
  Headers (app/api/security)   every answer's headers: policy, caching, Vary, the language
  Gate (app/api/gate.py)       early answers (rate 429, another site 403, body size 413), then
                               the request's language
  Compressed (below)           gzip for a client that accepts it; event streams never pass
  ExceptionMiddleware          the API's errors as JSON (app/api/errors.py)
  AsyncExitStackMiddleware     FastAPI's: closes uploaded files
  the router, then the route

FastAPI's own optional layers (its telemetry hook, its app-wide body limit) are left out: the
gate has the body limit, and nothing here reports to OpenTelemetry. Starlette's
``add_middleware`` is not used: a layer added there would not be in this list.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from fastapi import FastAPI
from fastapi.middleware.asyncexitstack import AsyncExitStackMiddleware
from starlette.datastructures import Headers as RequestHeaders
from starlette.middleware.errors import ServerErrorMiddleware
from starlette.middleware.exceptions import ExceptionMiddleware
from starlette.middleware.gzip import GZipMiddleware, GZipResponder
from starlette.types import ASGIApp, Receive, Scope, Send

from app.api.caching import NOT_COMPRESSED
from app.api.gate import Gate
from app.api.replay_pages import UPLOAD_MAX_BYTES
from app.api.security import Headers
from app.logs import RequestLog
from app.settings import Settings

Layer = Callable[[ASGIApp], ASGIApp]
GZIP_MINIMUM_SIZE = 512  # bytes: below this the gzip header and checksum outweigh the gain
NOT_COUNTED = ("/static/", "/healthz")  # paths the rate limit lets by


def layers(settings: Settings) -> list[Layer]:
    """The app's own layers, outermost first."""
    return [
        RequestLog,  # one log line per request, once its answer is complete
        Headers,  # every answer's headers: policy, caching, Vary, the remembered language
        partial(  # rate (429), another site's page (403), body size (413); the language
            Gate,
            per_minute=settings.rate_limit,
            exempt=NOT_COUNTED,
            body_limit=settings.max_body_bytes,
            body_limits={"/records/open": UPLOAD_MAX_BYTES},  # a record file
        ),
        Compressed,  # gzip for a client that accepts it (never an event stream)
    ]


class Compressed(GZipMiddleware):
    """Starlette's gzip, for a client that accepts it; anything else goes straight on (the
    ``Vary: Accept-Encoding`` of an answer that could have been gzipped is the headers
    layer's). An event stream never passes through here: a page's stream gzips itself,
    flushed event by event (app/api/stream_gzip.py)."""

    def __init__(self, app: ASGIApp) -> None:
        super().__init__(
            app,
            minimum_size=GZIP_MINIMUM_SIZE,
            compresslevel=6,
            exclude_content_types=NOT_COMPRESSED,
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            headers = RequestHeaders(scope=scope)
            stream = "text/event-stream" in headers.get("accept", "")
            if not stream and "gzip" in headers.get("accept-encoding", ""):
                responder = GZipResponder(
                    self.app,
                    self.minimum_size,
                    compresslevel=self.compresslevel,
                    thread_minimum_size=self.thread_minimum_size,
                    exclude_content_types=self.exclude_content_types,
                )
                await responder(scope, receive, send)
                return
        await self.app(scope, receive, send)


class AllFours(FastAPI):
    """FastAPI whose layers are exactly ``layers`` (outermost first), between Starlette's
    500 handler outside and the API's error handlers inside."""

    def __init__(self, *, layers: Sequence[Layer], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.layers = tuple(layers)

    def build_middleware_stack(self) -> ASGIApp:
        handlers = dict(self.exception_handlers)
        last_resort = handlers.pop(Exception, None) or handlers.pop(500, None)
        app: ASGIApp = AsyncExitStackMiddleware(self.router)
        app = ExceptionMiddleware(app, handlers=handlers, debug=self.debug)
        for layer in reversed(self.layers):
            app = layer(app)
        return ServerErrorMiddleware(app, handler=last_resort, debug=self.debug)
