"""The gate's tools (app/api/gate.py): the API's error answered from below the routes, the body
size limit (413) and the token buckets of the rate limits (429)."""

from __future__ import annotations

import json
import math
import time

from starlette.types import Message, Receive, Scope, Send

from app.reasons import error_body


async def send_error(send: Send, status: int, error: str, detail: str, **headers: str) -> None:
    body = json.dumps(error_body(error, detail)).encode()
    raw = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
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
            await send_error(send, 400, "bad_request", "bad Content-Length")
            return None
        if too_large:
            await send_error(send, 413, "too_large", f"the body may hold at most {limit} bytes")
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
            await send_error(send, 413, "too_large", f"the body may hold at most {limit} bytes")
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
