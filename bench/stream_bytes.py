"""The live table's weight: bytes on the wire per move per viewer on the page's event stream.

Starts the server on a fresh SQLite file, seats four players, opens each seat's page stream
(``/r/{code}/events``, as a browser: ``Accept-Encoding: gzip, deflate, br``, or without gzip
with ``--identity``) and plays a whole game through the JSON API, each move only once every
stream has its version. Prints the bytes each stream received as sent (compressed or not,
HTTP framing aside) per move, and the server's CPU time per move.

It then replays the events one stream received through other deflate settings (window bits,
memory level), and through "only what changed" (a line diff against the previous event,
gzipped the same way), printing bytes per event, memory per stream and CPU per event of each.

    python -m bench.stream_bytes
    python -m bench.stream_bytes --identity      # the stream uncompressed
"""

from __future__ import annotations

import argparse
import asyncio
import difflib
import itertools
import random
import statistics
import tempfile
import time
import tracemalloc
import zlib
from collections.abc import Sequence
from pathlib import Path

import httpx

from bench.live import HOST, cpu_seconds, server

BROWSER = {"Accept-Encoding": "gzip, deflate, br", "Accept": "text/event-stream"}
IDENTITY = {"Accept-Encoding": "identity", "Accept": "text/event-stream"}
# (wbits, memLevel): zlib's default first, the server's (app/api/stream_gzip.py) among them
SETTINGS = [(15, 8), (15, 5), (15, 4), (15, 3), (14, 8), (14, 5), (14, 4), (13, 5)]
LEVEL = 6


class Stream:
    """One seat's page stream: the bytes received as sent, and the events decoded."""

    def __init__(self) -> None:
        self.wire = 0
        self.events: list[bytes] = []  # each event's bytes as the server wrote them
        self.version = 0
        self.ready = asyncio.Event()
        self.changed = asyncio.Event()

    def take(self, event: bytes) -> None:
        self.events.append(event)
        for line in event.split(b"\r\n"):
            if line.startswith(b"id: "):
                self.version = max(self.version, int(line[4:]))
                self.ready.set()
        self.changed.set()


async def follow(client: httpx.AsyncClient, path: str, token: str, gz: bool, out: Stream) -> None:
    headers = {**(BROWSER if gz else IDENTITY), "Authorization": f"Bearer {token}"}
    async with client.stream("GET", path, headers=headers) as r:
        r.raise_for_status()
        coded = r.headers.get("content-encoding") == "gzip"
        inflate = zlib.decompressobj(16 + 15) if coded else None
        pending = b""
        async for raw in r.aiter_raw():
            out.wire += len(raw)
            pending += inflate.decompress(raw) if inflate is not None else raw
            while b"\r\n\r\n" in pending:
                event, pending = pending.split(b"\r\n\r\n", 1)
                out.take(event + b"\r\n\r\n")


async def play(port: int, pid: int, gz: bool, seed: int) -> tuple[list[Stream], int, float]:
    rng = random.Random(seed)
    base = f"http://{HOST}:{port}"
    async with (
        httpx.AsyncClient(base_url=base, timeout=30) as api,
        httpx.AsyncClient(base_url=base, timeout=httpx.Timeout(30, read=None)) as sse,
    ):
        code = (await api.post("/api/rooms", json={})).json()["code"]
        tokens = []
        for seat in range(4):
            joined = await api.post(
                f"/api/rooms/{code}/join", json={"name": f"P{seat}", "seat": seat}
            )
            tokens.append(joined.json()["token"])
        streams = [Stream() for _ in range(4)]
        tasks = [
            asyncio.create_task(follow(sse, f"/r/{code}/events", tokens[s], gz, streams[s]))
            for s in range(4)
        ]
        for s in streams:
            await asyncio.wait_for(s.ready.wait(), 30)
        before = [s.wire for s in streams]
        cpu0 = cpu_seconds(pid)
        view = (
            await api.post(f"/api/rooms/{code}/start", json={}, headers=_auth(tokens[0]))
        ).json()
        moves = 1
        while True:
            await _all_have(streams, view["version"])
            if view["phase"] == "game_over":
                break
            seat = view["turn"]
            view = (await api.get(f"/api/rooms/{code}", headers=_auth(tokens[seat]))).json()
            action = dict(rng.choice(view["legal"]))
            action["version"] = view["version"]
            r = await api.post(
                f"/api/rooms/{code}/actions", json=action, headers=_auth(tokens[seat])
            )
            r.raise_for_status()
            view = r.json()
            moves += 1
        cpu = cpu_seconds(pid) - cpu0
        for s, b in zip(streams, before, strict=True):
            s.wire -= b  # the game's moves only, not the first snapshot
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        return streams, moves, cpu


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def _all_have(streams: list[Stream], version: int) -> None:
    for s in streams:
        while s.version < version:
            s.changed.clear()
            await asyncio.wait_for(s.changed.wait(), 30)


def deflated(events: list[bytes], wbits: int, mem_level: int) -> tuple[list[int], int, float]:
    """Bytes per event through one gzip stream flushed per event, the compressor's memory
    (traced allocations once it has seen the events) and CPU seconds per event."""
    tracemalloc.start()
    deflate = zlib.compressobj(LEVEL, zlib.DEFLATED, 16 + wbits, mem_level)
    sizes = []
    t0 = time.process_time()
    for e in events:
        sizes.append(len(deflate.compress(e) + deflate.flush(zlib.Z_SYNC_FLUSH)))
    cpu = (time.process_time() - t0) / len(events)
    memory = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    del deflate
    return sizes, memory, cpu


def changed_only(events: list[bytes]) -> list[bytes]:
    """Each event as the lines that changed since the previous one (an edit script: the
    kept runs as line counts, the new lines in full), what a patching client would need."""
    out = [events[0]]
    for old, new in itertools.pairwise(events):
        a, b = old.split(b"\n"), new.split(b"\n")
        script = []
        for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
            if op == "equal":
                script.append(b"=%d" % (i2 - i1))
            else:
                script.append(b"-%d" % (i2 - i1))
                script.extend(b"+" + line for line in b[j1:j2])
        out.append(b"\n".join(script))
    return out


def _row(name: str, sizes: list[int], memory: str, cpu: float) -> None:
    mean = statistics.mean(sizes)
    p90 = statistics.quantiles(sizes, n=10)[-1]
    print(f"{name:<26} {mean:>11.0f} {p90:>6.0f} {memory:>14} {cpu * 1e6:>7.0f} us")


def report(streams: list[Stream], moves: int, cpu: float, gz: bool) -> None:
    wire = [s.wire for s in streams]
    encoding = "gzip" if gz else "identity"
    print(f"stream: /r/{{code}}/events, {encoding}; a whole game: {moves} moves")
    print(f"bytes on the wire per stream: {wire}")
    per = statistics.mean(wire) / moves
    print(f"bytes per move per viewer: {per:.0f}")
    print(f"server CPU per move (4 page streams, HTML): {cpu / moves * 1000:.2f} ms")
    events = streams[0].events
    tables = [e for e in events if b"event: state" in e]
    raw = statistics.mean(len(e) for e in tables)
    print(f"\none stream's {len(events)} events ({len(tables)} tables, {raw:.0f} bytes each)")
    print(f"{'setting':<26} {'bytes/event':>11} {'p90':>6} {'memory/stream':>14} {'CPU/event':>10}")
    for wbits, mem in SETTINGS:
        sizes, memory, c = deflated(events, wbits, mem)
        _row(f"gzip wbits={wbits} mem={mem}", sizes, f"{memory / 1024:.0f} KB", c)
    t0 = time.process_time()
    diffs = changed_only(events)
    diff_cpu = (time.process_time() - t0) / len(events)
    _row("changed lines only", [len(d) for d in diffs], "(per text)", diff_cpu)
    sizes, memory, c = deflated(diffs, 15, 5)
    _row("changed lines, gzip 15/5", sizes, f"{memory / 1024:.0f} KB", c)


def main(argv: Sequence[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.stream_bytes", description=__doc__)
    parser.add_argument("--identity", action="store_true", help="ask for the stream uncompressed")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    gz = not args.identity
    with (
        tempfile.TemporaryDirectory() as folder,
        server(f"sqlite:///{Path(folder) / 'stream.db'}", env={"ALLFOURS_ROOMS_PER_HOUR": "0"}) as (
            port,
            proc,
        ),
    ):
        streams, moves, cpu = asyncio.run(play(port, proc.pid, gz, args.seed))
    report(streams, moves, cpu, gz)


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
