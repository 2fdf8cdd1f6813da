"""What each layer costs an event on its way out: the CPU time one ASGI message takes through
each wrapper of ``send`` that an event stream's messages pass (app/api/layers.py), and the
wrappers left out (Starlette's gzip pass-through, sse-starlette's per-send timeout); then what
writing one event's bytes costs, sse-starlette's encoder beside app/api/sse_frames.py.

    python -m bench.send_path            # microseconds per message, each layer alone

Each figure is the median of several runs of N messages through the layer alone, less the
same messages sent straight: the layer's own cost. In-process, no sockets: what a layer adds
to every event of every open stream.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import anyio
from sse_starlette import ServerSentEvent
from starlette.middleware.errors import ServerErrorMiddleware
from starlette.middleware.exceptions import ExceptionMiddleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.api.caching import NOT_COMPRESSED
from app.api.layers import Compressed
from app.api.security import Headers
from app.api.sse_frames import frame
from app.logs import RequestLog

START: Message = {
    "type": "http.response.start",
    "status": 200,
    "headers": [(b"content-type", b"text/event-stream"), (b"cache-control", b"no-store")],
}
EVENT = b"event: state\r\nid: 7\r\ndata: " + b"x" * 1500 + b"\r\n\r\n"
SCOPE: Scope = {
    "type": "http",
    "method": "GET",
    "path": "/api/rooms/ABCDEFGHJKMN/events",
    "headers": [(b"accept", b"text/event-stream"), (b"host", b"bench")],
    "query_string": b"",
    "client": ("127.0.0.1", 1),
}
Timed = Callable[[int], Awaitable[float]]


async def _receive() -> Message:
    return {"type": "http.request", "body": b"", "more_body": False}


async def _sink(message: Message) -> None:
    return None


def _stream(n: int) -> ASGIApp:
    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        await send(START)
        body = {"type": "http.response.body", "body": EVENT, "more_body": True}
        for _ in range(n):
            await send(body)
        await send({"type": "http.response.body", "body": b"", "more_body": False})

    return app


def through(layer: Callable[[ASGIApp], ASGIApp] | None) -> Timed:
    async def timed(n: int) -> float:
        app = _stream(n) if layer is None else layer(_stream(n))
        began = time.process_time()
        await app(dict(SCOPE), _receive, _sink)
        return time.process_time() - began

    return timed


def with_send_timeout(timeout: float | None, scope: bool = True) -> Timed:
    """sse-starlette's ``_send_with_timeout``: a cancel scope around every send (with no
    timeout too); ``scope=False`` sends straight, as app/api/limits.py does."""

    async def timed(n: int) -> float:
        body = {"type": "http.response.body", "body": EVENT, "more_body": True}
        began = time.process_time()
        for _ in range(n):
            if scope:
                with anyio.move_on_after(timeout):
                    await _sink(body)
            else:
                await _sink(body)
        return time.process_time() - began

    return timed


LAYERS: list[tuple[str, Timed]] = [
    ("ServerErrorMiddleware (Starlette, outermost)", through(ServerErrorMiddleware)),
    ("RequestLog", through(RequestLog)),
    ("Headers", through(Headers)),
    ("Compressed, an event stream (goes straight on)", through(Compressed)),
    (
        "GZipMiddleware before (its pass-through, no gzip asked)",
        through(
            lambda app: GZipMiddleware(app, minimum_size=512, exclude_content_types=NOT_COMPRESSED)
        ),
    ),
    ("ExceptionMiddleware (Starlette)", through(lambda app: ExceptionMiddleware(app))),
    ("sse-starlette's per-send cancel scope, a 30 s timeout", with_send_timeout(30.0)),
    ("sse-starlette's per-send cancel scope, no timeout", with_send_timeout(None)),
]


# A seat's JSON view in play (one line) and a table's HTML fragment (many lines).
JSON_VIEW = '{"phase":"play","hand":["AS","KS"],' + '"x":"' + "y" * 1600 + '"}'
HTML_TABLE = "\n".join(f'<div class="seat" data-seat="{i % 4}">{"z" * 60}</div>' for i in range(40))


def framing(encode: Callable[[dict[str, str]], bytes], data: str) -> Timed:
    """What writing one event's bytes costs (absolute, not less a bare send)."""

    async def timed(n: int) -> float:
        event = {"event": "state", "id": "7", "data": data}
        began = time.process_time()
        for _ in range(n):
            encode(event)
        return time.process_time() - began

    return timed


def _sse_starlette(event: dict[str, str]) -> bytes:
    return ServerSentEvent(event["data"], event=event["event"], id=event["id"]).encode()


FRAMING: list[tuple[str, Timed]] = [
    ("framing a JSON view, sse-starlette's encoder", framing(_sse_starlette, JSON_VIEW)),
    ("framing a JSON view, app/api/sse_frames.py", framing(frame, JSON_VIEW)),
    ("framing the table's HTML, sse-starlette's encoder", framing(_sse_starlette, HTML_TABLE)),
    ("framing the table's HTML, app/api/sse_frames.py", framing(frame, HTML_TABLE)),
]


async def _median(timed: Timed, n: int, runs: int) -> float:
    return statistics.median([await timed(n) for _ in range(runs)])


async def measure(n: int, runs: int) -> list[tuple[str, float]]:
    bare = await _median(through(None), n, runs)
    plain = await _median(with_send_timeout(None, scope=False), n, runs)
    out = []
    for name, timed in LAYERS:
        base = plain if "cancel scope" in name else bare
        out.append((name, (await _median(timed, n, runs) - base) / n * 1e6))
    for name, timed in FRAMING:
        out.append((name, await _median(timed, n, runs) / n * 1e6))
    return out


def main(argv: Sequence[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.send_path", description=__doc__)
    parser.add_argument("--messages", type=int, default=20_000)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args(list(argv))
    results: Any = asyncio.run(measure(args.messages, args.runs))
    for name, us in results:
        print(f"{us:7.2f} us per message  {name}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
