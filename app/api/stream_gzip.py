"""The page's event stream gzipped for a browser that accepts it, one flush per event.

A table is about 12 KB of HTML and the next version differs from it in a few places, so a
deflate stream whose window still holds the previous event sends each move in a few hundred
bytes. Each event is flushed (``Z_SYNC_FLUSH``) as soon as it is written: the browser's gzip
decoder gives it to the EventSource whole, and nothing waits for a buffer to fill (Starlette's
``GZipMiddleware`` never sees ``text/event-stream``, app/main.py).

The deflate state is per connection (each stream's history is its own), so its size is
chosen with the number of open streams in mind. The window must span the previous event: at
16 KB (``WBITS`` 14) a table with the hand summary no longer fits and one event in ten costs
2 KB, so it is zlib's 32 KB; ``MEM_LEVEL`` 5 (instead of 8) shrinks the hash tables, about
155 KB a stream instead of 270 KB, for a few bytes more per event (``python -m
bench.stream_bytes`` prints bytes, memory and CPU per event for several settings).
"""

from __future__ import annotations

import asyncio
import zlib

from starlette.datastructures import Headers, MutableHeaders
from starlette.types import Message, Scope, Send

# What python -m bench.stream_bytes chose (bytes per move and memory per stream).
LEVEL = 6
WBITS = 15  # 32 KB: more than the largest table's HTML
MEM_LEVEL = 5
GZIP = 16  # wbits + 16: a gzip header and trailer around the deflate stream


def accepts_gzip(scope: Scope) -> bool:
    """The client named gzip in Accept-Encoding, and not with ``q=0``."""
    for item in Headers(scope=scope).get("accept-encoding", "").split(","):
        name, _, params = item.strip().partition(";")
        if name.strip().lower() not in ("gzip", "x-gzip"):
            continue
        q = params.strip().lower().removeprefix("q=")
        try:
            return not params or float(q) > 0
        except ValueError:
            return True
    return False


def stream_compressor() -> zlib._Compress:
    return zlib.compressobj(LEVEL, zlib.DEFLATED, GZIP + WBITS, MEM_LEVEL)


class GzipEvents:
    """An ASGI ``send`` that gzips a response's body, flushing after every message.

    The event loop task and sse-starlette's ping task both send: a lock keeps each
    message's compression and its sending together, so the deflate stream stays in order.
    """

    def __init__(self, send: Send) -> None:
        self._send = send
        self._deflate = stream_compressor()
        self._lock = asyncio.Lock()

    async def __call__(self, message: Message) -> None:
        async with self._lock:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(raw=list(message.get("headers", [])))
                headers["Content-Encoding"] = "gzip"
                headers.add_vary_header("Accept-Encoding")
                if "content-length" in headers:
                    del headers["content-length"]
                message = {**message, "headers": headers.raw}
            elif message["type"] == "http.response.body":
                body: bytes = message.get("body", b"")
                more = bool(message.get("more_body", False))
                if more and not body:
                    await self._send(message)
                    return
                deflate = self._deflate
                data = deflate.compress(body) + deflate.flush(
                    zlib.Z_SYNC_FLUSH if more else zlib.Z_FINISH
                )
                message = {**message, "body": data}
            await self._send(message)
