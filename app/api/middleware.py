"""Pure ASGI middleware: the request body size limit (413) and the rate limit (429)."""

from __future__ import annotations

import json
import math
import time
from collections.abc import Mapping
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.reasons import error_body


async def send_error(send: Send, status: int, error: str, detail: str, **headers: str) -> None:
    body = json.dumps(error_body(error, detail)).encode()
    raw = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    raw += [(k.replace("_", "-").encode(), v.encode()) for k, v in headers.items()]
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": body})


class BodyLimit:
    """Refuses bodies over ``limit`` bytes with 413, by Content-Length or while reading them.

    A body without Content-Length (chunked) is read here, up to the limit, before the route
    sees it: a route that parses the body would otherwise turn the refusal into its own 400.
    """

    def __init__(self, app: ASGIApp, limit: int, paths: Mapping[str, int] | None = None) -> None:
        self.app = app
        self.limit = limit
        self.paths = dict(paths or {})  # exact paths with a limit of their own (an upload)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.paths.get(scope["path"], self.limit)
        detail = f"the body may hold at most {limit} bytes"
        length = next((v for k, v in scope["headers"] if k == b"content-length"), None)
        if length is not None:
            try:
                too_large = int(length) > limit
            except ValueError:
                await send_error(send, 400, "bad_request", "bad Content-Length")
                return
            if too_large:
                await send_error(send, 413, "too_large", detail)
                return
            await self.app(scope, receive, send)
            return
        if scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        seen = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away before the body was complete
            chunk = message.get("body", b"")
            seen += len(chunk)
            if seen > limit:
                await send_error(send, 413, "too_large", detail)
                return
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

        await self.app(scope, replay, send)


class TokenBuckets:
    """A token bucket per key: a burst of ``capacity``, refilled evenly at ``per_second``."""

    def __init__(self, capacity: int, per_second: float) -> None:
        self.capacity = float(capacity)
        self.rate = per_second
        self._buckets: dict[str, tuple[float, float]] = {}
        self._last_sweep = time.monotonic()

    def take(self, key: str, now: float | None = None) -> int:
        """0 when ``key`` may go on now (one token taken), else the seconds until it may."""
        now = time.monotonic() if now is None else now
        tokens, last = self._buckets.get(key, (self.capacity, now))
        tokens = min(self.capacity, tokens + (now - last) * self.rate)
        if tokens < 1:
            self._buckets[key] = (tokens, now)
            return max(1, math.ceil((1 - tokens) / self.rate))
        self._buckets[key] = (tokens - 1, now)
        self._sweep(now)
        return 0

    def _sweep(self, now: float) -> None:
        """Forget the buckets that have been full again for a while (once a minute)."""
        if now - self._last_sweep < 60:
            return
        self._last_sweep = now
        full = self.capacity / self.rate
        for key, (_, last) in list(self._buckets.items()):
            if now - last > full:
                del self._buckets[key]


class RateLimit:
    """``per_minute`` requests per client address (a token bucket), then 429."""

    def __init__(self, app: ASGIApp, per_minute: int, exempt: tuple[str, ...] = ()) -> None:
        self.app = app
        self.per_minute = per_minute
        self.buckets = TokenBuckets(per_minute, per_minute / 60.0) if per_minute > 0 else None
        self.exempt = exempt

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path: str = scope.get("path", "")
        if scope["type"] != "http" or self.buckets is None or path.startswith(self.exempt):
            await self.app(scope, receive, send)
            return
        client: Any = scope.get("client")
        address = client[0] if client else "unknown"
        wait = self.buckets.take(address)
        if wait:
            await send_error(
                send,
                429,
                "too_many_requests",
                f"more than {self.per_minute} requests a minute from {address}",
                retry_after=str(wait),
            )
            return
        await self.app(scope, receive, send)
