"""The floor under bench.live: what the same load costs a server that does nothing but the I/O.

A bare ASGI app (no framework, no database, no game: each room a counter, each view the same
canned JSON of a real view's size with the seat's move in it) under the same uvicorn as
`python -m app.serve` (uvloop, httptools, one process, ``sys.setswitchinterval`` as there),
driven by bench.live's own client: the rooms, the four seat streams per room, the moves and
the moves-to-four-streams latency. What it prints per move is the part of bench.live's figure
that the socket, uvicorn, the event loop and the SSE framing cost whatever the app does:

    python -m bench.floor --rooms 1000 --rate 500 --seconds 30
    python -m bench.floor --serve PORT          # the stub server alone (bench.floor starts it)

A move here is one POST answered with a small JSON body and four SSE events of
``--view-bytes`` each (a JSON seat view in play is about 1,700 bytes), plus a ping every 15 s
per stream, as the app sends.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import secrets
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from bench import live

PING_S = 15.0
VIEW_BYTES = 1700

Scope = dict[str, Any]


@dataclass
class _Room:
    code: str
    version: int = 0
    turn: int = 0
    streams: list[set[asyncio.Event]] = field(default_factory=lambda: [set(), set(), set(), set()])


class Stub:
    """The four routes bench.live calls, and /healthz."""

    def __init__(self, view_bytes: int) -> None:
        self.rooms: dict[str, _Room] = {}
        self.tokens: dict[str, tuple[str, int]] = {}
        self.pad = "x" * max(0, view_bytes - 120)

    def view(self, room: _Room, seat: int) -> str:
        legal = [{"type": "play", "card": "AS"}] if seat == room.turn else []
        return json.dumps(
            {
                "version": room.version,
                "phase": "play",
                "turn": room.turn,
                "you": seat,
                "legal": legal,
                "pad": self.pad,
            }
        )

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})
            return
        path: str = scope["path"]
        if path == "/healthz":
            await _answer(send, {"ok": True})
            return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        token = _bearer(scope)
        parts = path.strip("/").split("/")  # api rooms [code] [verb]
        if parts == ["api", "rooms"]:
            code = secrets.token_hex(6)
            self.rooms[code] = _Room(code)
            await _answer(send, {"code": code})
        elif parts[-1] == "join":
            seat = json.loads(body)["seat"]
            token = secrets.token_urlsafe(16)
            self.tokens[token] = (parts[2], seat)
            await _answer(send, {"token": token, "seat": seat})
        elif parts[-1] == "events":
            code, seat = self.tokens[token]
            await self.stream(send, self.rooms[code], seat)
        else:  # start, actions, rematch: the next version, the turn moves on
            code, seat = self.tokens[token]
            room = self.rooms[code]
            room.version += 1
            room.turn = (room.turn + 1) % 4
            for wakers in room.streams:
                for waker in wakers:
                    waker.set()
            await _answer(send, {"version": room.version, "turn": room.turn})

    async def stream(self, send: Any, room: _Room, seat: int) -> None:
        waker = asyncio.Event()
        room.streams[seat].add(waker)
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [
                    (b"content-type", b"text/event-stream"),
                    (b"cache-control", b"no-store"),
                ],
            }
        )
        sent = -1
        try:
            while True:
                if room.version != sent:
                    sent = room.version
                    event = f"event: state\r\nid: {sent}\r\ndata: {self.view(room, seat)}\r\n\r\n"
                    await send(
                        {"type": "http.response.body", "body": event.encode(), "more_body": True}
                    )
                waker.clear()
                try:
                    await asyncio.wait_for(waker.wait(), PING_S)
                except TimeoutError:
                    await send(
                        {"type": "http.response.body", "body": b": ping\r\n\r\n", "more_body": True}
                    )
        finally:
            room.streams[seat].discard(waker)


def _bearer(scope: Scope) -> str:
    for name, value in scope["headers"]:
        if name == b"authorization":
            return str(value.decode().removeprefix("Bearer "))
    return ""


async def _answer(send: Any, payload: dict[str, Any]) -> None:
    body = json.dumps(payload).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 200,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def serve(port: int, view_bytes: int) -> None:
    run_as_the_app(Stub(view_bytes), port)


def run_as_the_app(app: Any, port: int) -> None:
    """``app`` under uvicorn as `python -m app.serve` runs ours (bench.bare's app too)."""
    import uvicorn

    sys.setswitchinterval(0.0005)  # as app.serve
    uvicorn.run(
        app,
        host=live.HOST,
        port=port,
        log_level="warning",
        access_log=False,
        http="httptools",
        loop="uvloop",
        limit_concurrency=20000,
    )


@contextlib.contextmanager
def stub_server(view_bytes: int) -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    port = live.free_port()
    args = ["-m", "bench.floor", "--serve", str(port), "--view-bytes", str(view_bytes)]
    with live.serving(args, port) as proc:
        yield port, proc


def main(argv: Sequence[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.floor", description=__doc__)
    parser.add_argument("--rooms", "-R", type=int, default=1000)
    parser.add_argument("--rate", "-M", type=float, default=500.0)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--view-bytes", type=int, default=VIEW_BYTES)
    parser.add_argument("--serve", type=int, metavar="PORT", help=argparse.SUPPRESS)
    args = parser.parse_args(list(argv))
    if args.serve:
        serve(args.serve, args.view_bytes)
        return
    measure(f"the floor (a bare ASGI app, {args.view_bytes}-byte views)", stub_server, args)


Server = Callable[[int], contextlib.AbstractContextManager[tuple[int, "subprocess.Popen[bytes]"]]]


def measure(label: str, server: Server, args: argparse.Namespace) -> live.Result:
    """bench.live's client against ``server(view_bytes)`` (this stub, or bench.bare's app):
    the load of ``args`` (rooms, rate, seconds), and its figures printed after ``label``."""
    live._raise_fd_limit()
    with (
        server(args.view_bytes) as (port, proc),
        asyncio.Runner(loop_factory=live._loop_factory()) as runner,
    ):
        began = time.perf_counter()
        result = runner.run(live.run(port, proc.pid, args.rooms, args.rate, args.seconds))
    print(f"{label}: {result.line()}")
    print(f"  ({time.perf_counter() - began:.0f} s in all, pid {os.getpid()})")
    return result


if __name__ == "__main__":
    main(sys.argv[1:])
