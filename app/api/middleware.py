"""Pure ASGI middleware: the request body size limit (413) and the rate limit (429)."""

from __future__ import annotations

import json
import time
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send


async def send_error(send: Send, status: int, error: str, detail: str, **headers: str) -> None:
    body = json.dumps({"error": error, "detail": detail}).encode()
    raw = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    raw += [(k.replace("_", "-").encode(), v.encode()) for k, v in headers.items()]
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": body})


class BodyLimit:
    """Refuses bodies over ``limit`` bytes with 413, by Content-Length or while reading them.

    A body without Content-Length (chunked) is read here, up to the limit, before the route
    sees it: a route that parses the body would otherwise turn the refusal into its own 400.
    """

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        detail = f"the body may hold at most {self.limit} bytes"
        length = next((v for k, v in scope["headers"] if k == b"content-length"), None)
        if length is not None:
            try:
                too_large = int(length) > self.limit
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
            if seen > self.limit:
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


class RateLimit:
    """A token bucket per client address: ``per_minute`` requests, refilled continuously."""

    def __init__(self, app: ASGIApp, per_minute: int, exempt: tuple[str, ...] = ()) -> None:
        self.app = app
        self.capacity = float(per_minute)
        self.rate = per_minute / 60.0
        self.exempt = exempt
        self._buckets: dict[str, tuple[float, float]] = {}
        self._last_sweep = time.monotonic()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or self.capacity <= 0:
            await self.app(scope, receive, send)
            return
        path: str = scope.get("path", "")
        if path.startswith(self.exempt):
            await self.app(scope, receive, send)
            return
        client: Any = scope.get("client")
        address = client[0] if client else "unknown"
        now = time.monotonic()
        tokens, last = self._buckets.get(address, (self.capacity, now))
        tokens = min(self.capacity, tokens + (now - last) * self.rate)
        if tokens < 1:
            self._buckets[address] = (tokens, now)
            retry = max(1, int((1 - tokens) / self.rate) + 1)
            await send_error(
                send,
                429,
                "too_many_requests",
                f"more than {int(self.capacity)} requests a minute from {address}",
                retry_after=str(retry),
            )
            return
        self._buckets[address] = (tokens - 1, now)
        self._sweep(now)
        await self.app(scope, receive, send)

    def _sweep(self, now: float) -> None:
        if now - self._last_sweep < 60:
            return
        self._last_sweep = now
        full = self.capacity / self.rate if self.rate else 0
        for address, (_, last) in list(self._buckets.items()):
            if now - last > full:
                del self._buckets[address]
