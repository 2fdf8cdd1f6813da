"""The gate's tools (app/api/gate.py): the API's error answered from below the routes and the
body size limit (413). The token buckets of the rate limits (429) are app/services/quotas.py's."""

from __future__ import annotations

import json
from functools import partial

from starlette.datastructures import Headers
from starlette.types import Message, Receive, Scope, Send

from app import i18n
from app.api.language import language_of, menu_address
from app.reasons import error_body
from app.web.error_page import render_error


def wants_page(scope: Scope) -> bool:
    """A browser's own visit to an address outside the API (a link followed, a path typed, a
    form sent without script): not htmx's request, not a stream, not a script's fetch. Its
    error is a page in the reader's language (app/web/error_page.py), not JSON."""
    path: str = scope.get("path", "")
    headers = Headers(scope=scope)
    if path == "/api" or path.startswith("/api/") or headers.get("hx-request") == "true":
        return False
    return "text/html" in headers.get("accept", "")


def error_page_of(scope: Scope, status: int) -> str:
    """The error page in the reader's language, for an answer made outside the language
    layer (the gate's, an unexpected error's)."""
    with i18n.reading(language_of(scope)[0], where=partial(menu_address, scope)):
        return render_error(status)


async def send_error(
    send: Send, status: int, error: str, detail: str, scope: Scope | None = None, **headers: str
) -> None:
    """The API's error from below the routes; with ``scope``, a page to a browser's visit."""
    if scope is not None and wants_page(scope):
        body = error_page_of(scope, status).encode()
        kind = b"text/html; charset=utf-8"
    else:
        body = json.dumps(error_body(error, detail)).encode()
        kind = b"application/json"
    raw = [(b"content-type", kind), (b"content-length", str(len(body)).encode())]
    raw += [(k.replace("_", "-").encode(), v.encode()) for k, v in headers.items()]
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": body})


async def body_within(limit: int, scope: Scope, receive: Receive, send: Send) -> Receive | None:
    """``receive`` for a request whose body holds at most ``limit`` bytes, else None once
    413 (or 400, a bad Content-Length) has been answered.

    A body without Content-Length (chunked) is read here, up to the limit, before the route
    sees it: a route that parses the body would otherwise turn the refusal into its own 400.
    """
    length = next((v for k, v in scope["headers"] if k == b"content-length"), None)
    if length is not None:
        try:
            too_large = int(length) > limit
        except ValueError:
            await send_error(send, 400, "bad_request", "bad Content-Length", scope)
            return None
        if too_large:
            await send_error(
                send, 413, "too_large", f"the body may hold at most {limit} bytes", scope
            )
            return None
        return receive
    if scope["method"] in ("GET", "HEAD", "OPTIONS"):
        return receive
    chunks: list[bytes] = []
    seen = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return None  # the client went away before the body was complete
        chunk = message.get("body", b"")
        seen += len(chunk)
        if seen > limit:
            await send_error(
                send, 413, "too_large", f"the body may hold at most {limit} bytes", scope
            )
            return None
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    whole: Message = {"type": "http.request", "body": b"".join(chunks), "more_body": False}
    delivered = False

    async def replay() -> Message:
        nonlocal delivered
        if not delivered:
            delivered = True
            return whole
        return await receive()

    return replay
