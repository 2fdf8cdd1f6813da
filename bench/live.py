"""Live events under load: how long a move takes to reach all four seats' event streams.

Starts the server on a fresh SQLite file (rate limit, per-address caps and bot delay off)
in a subprocess, seats four players in each of R rooms, opens the 4 x R seat streams on
loopback and plays random legal moves at M moves per second across the rooms. Prints the
move-to-all-four-streams latency (from sending the POST to the last of the room's four
streams receiving the new version) and the server's memory.

    python -m bench.live                       # a single room, then 200 rooms at 200 moves/s
    python -m bench.live --rooms 1000 --rate 500 --seconds 30     # the target load
    python -m bench.live --rooms 1000 --rate 500 --seconds 15 --chat-rooms 100   # and talk
    python -m bench.live --rooms 1000 --rate 500 --seconds 30 --players 1000   # profiles
    python -m bench.live --rooms 1000 --rate 500 --seconds 30 --push 1000   # and Web Push
    python -m bench.live --rooms 1000 --rate 500 --seconds 20 --reviews 24   # and reviews

With ``--players N`` the first N seats are held by players with a profile (their key acts
for the seat, and their streams end with it: the key is checked again as they go). With
``--push N`` the first N seats are players with a profile, each subscribed to Web Push
at a push service on loopback (a stand-in that takes every POST), their pages out of sight,
and "your turn" pushed at once (``--push-after 0``, the default: every turn of theirs is a
notification sent, the worst case for the moves beside them; ``--push-after 15`` is the
server's own wait, where a turn as quick as the benchmark's is hardly ever pushed).

With ``--reviews N`` the database holds N finished games' reviews waiting before the server
starts (games of standard computer players, played here): the server starts its review
worker (``ALLFOURS_REVIEW_WORKERS``, a process of its own at lower priority) at once, and it
works through them while the benchmark plays; how many it finished is printed.

Each figure is followed by bench.bare's under the same load (a bare FastAPI + sse-starlette
app doing one SQLite commit a move, no game: bench/bare.py) and the ratios of the two, so that
what the server costs beyond the framework is read from one run on one machine state
(``--no-bare``: the server alone).

The client is raw asyncio (HTTP/1.1 keep-alive and a small chunked SSE reader), not httpx:
it shares the machine's two cores with the server, and should cost it as little as it can.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import gc
import json
import os
import random
import resource
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import deque
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

HOST = "127.0.0.1"
IDLE_S = 4.0  # seconds the server's idle CPU is measured before the play


# -- the server --------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        port: int = s.getsockname()[1]
        return port


# One client address stands for 4,000 browsers here: its caps are off.
LOAD_ENV = {
    "ALLFOURS_ROOMS_PER_HOUR": "0",
    "ALLFOURS_PROFILES_PER_HOUR": "0",
    "ALLFOURS_MAX_STREAMS_PER_ADDRESS": "0",
    "ALLFOURS_MAX_CONNECTIONS": "10000",
}


@contextlib.contextmanager
def server(
    database_url: str, *, nofile: int = 0, env: dict[str, str] | None = None
) -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    """`python -m app.serve` on a free port, its open-file limit ``nofile`` (soft and hard)
    if given; stopped with SIGTERM (SIGKILL if it lingers)."""
    port = free_port()
    environ = {
        **os.environ,
        "DATABASE_URL": database_url,
        "HOST": HOST,
        "PORT": str(port),
        "ALLFOURS_RATE_LIMIT": "0",
        "ALLFOURS_BOT_DELAY_MS": "0",
        "LOG_LEVEL": "warning",
        **(env or {}),
    }

    def limit_files() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))

    with serving(
        ["-m", "app.serve"], port, env=environ, preexec_fn=limit_files if nofile else None
    ) as proc:
        yield port, proc


@contextlib.contextmanager
def serving(args: list[str], port: int, **popen: Any) -> Iterator[subprocess.Popen[bytes]]:
    """``python ARGS`` from the project's folder, once it answers /healthz on ``port``;
    stopped with SIGTERM (SIGKILL if it lingers)."""
    proc = subprocess.Popen(
        [sys.executable, *args],
        cwd=Path(__file__).resolve().parent.parent,
        stdin=subprocess.DEVNULL,
        **popen,
    )
    try:
        _wait_healthy(port, proc)
        yield proc
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _wait_healthy(port: int, proc: subprocess.Popen[bytes], timeout_s: float = 60) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited with {proc.returncode} before serving")
        try:
            with socket.create_connection((HOST, port), timeout=1) as s:
                s.sendall(b"GET /healthz HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n")
                if s.recv(64).startswith(b"HTTP/1.1 200"):
                    return
        except OSError:
            pass
        time.sleep(0.1)
    raise RuntimeError("the server did not answer /healthz in time")


def rss_mb(pid: int) -> tuple[float, float]:
    """(current, peak) resident memory of a process and its children, in MB."""
    now = peak = 0.0
    for p in [pid, *_children(pid)]:
        with contextlib.suppress(OSError):
            fields = dict(
                line.split(":", 1) for line in Path(f"/proc/{p}/status").read_text().splitlines()
            )
            now += int(fields["VmRSS"].split()[0]) / 1024
            peak += int(fields["VmHWM"].split()[0]) / 1024
    return now, peak


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _kids_cpu(pid: int) -> dict[int, float]:
    """The CPU seconds so far of each child process (of those still there)."""
    found = {}
    for kid in _children(pid):
        with contextlib.suppress(OSError):
            found[kid] = cpu_seconds(kid)
    return found


def _children(pid: int) -> list[int]:
    found: list[int] = []
    with contextlib.suppress(OSError):
        for task in Path(f"/proc/{pid}/task").iterdir():
            kids = (task / "children").read_text().split()
            for kid in map(int, kids):
                found += [kid, *_children(kid)]
    return found


# -- a small HTTP/1.1 client -------------------------------------------------------------


class HttpError(Exception):
    def __init__(self, status: int, body: bytes) -> None:
        super().__init__(f"{status} {body[:200]!r}")
        self.status = status


class Connection:
    """One keep-alive HTTP/1.1 connection; one request at a time."""

    def __init__(self, port: int) -> None:
        self.port = port
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None

    async def request(
        self, method: str, path: str, body: Any = None, token: str | None = None
    ) -> Any:
        payload = b"" if body is None else json.dumps(body).encode()
        head = f"{method} {path} HTTP/1.1\r\nHost: bench\r\nContent-Length: {len(payload)}\r\n"
        if body is not None:
            head += "Content-Type: application/json\r\n"
        if token:
            head += f"Authorization: Bearer {token}\r\n"
        message = head.encode() + b"\r\n" + payload
        for attempt in (1, 2):
            if self._writer is None:
                self._reader, self._writer = await asyncio.open_connection(HOST, self.port)
            assert self._reader is not None
            self._writer.write(message)
            status_line = await self._reader.readline()
            if status_line:
                break
            # uvicorn closes a keep-alive connection idle for 5 s: open a new one, send again
            # (the server read nothing from the closed one).
            self.close()
            if attempt == 2:
                raise ConnectionError("the server closed the connection")
        assert self._reader is not None
        status = int(status_line.split()[1])
        length = 0
        while (line := await self._reader.readline()) not in (b"\r\n", b"\n", b""):
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        data = await self._reader.readexactly(length)
        if status >= 400:
            raise HttpError(status, data)
        return json.loads(data) if data else None

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
        self._reader = self._writer = None


async def events(port: int, path: str, token: str | None) -> AsyncIterator[tuple[int, bytes]]:
    """(version, data) for each `state` event of one SSE stream (table talk is skipped)."""
    reader, writer = await asyncio.open_connection(HOST, port)
    auth = f"Authorization: Bearer {token}\r\n" if token else ""
    writer.write(
        f"GET {path} HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n{auth}\r\n".encode()
    )
    try:
        status = await reader.readline()
        if b" 200 " not in status:
            raise HttpError(int(status.split()[1]), status)
        chunked = False
        while (line := await reader.readline()) not in (b"\r\n", b""):
            if line.lower().startswith(b"transfer-encoding:") and b"chunked" in line.lower():
                chunked = True
        pending = b""
        version = -1
        data = b""
        name = b"message"
        while True:
            if chunked:
                size = int((await reader.readline()).split(b";")[0], 16)
                if size == 0:
                    return
                pending += (await reader.readexactly(size + 2))[:-2]
            else:
                more = await reader.read(65536)
                if not more:
                    return
                pending += more
            *lines, pending = pending.split(b"\n")
            for raw in lines:
                line = raw.rstrip(b"\r")
                if line.startswith(b"id:"):
                    version = int(line[3:])
                elif line.startswith(b"event:"):
                    name = line[6:].strip()
                elif line.startswith(b"data:"):
                    data = line[5:].lstrip()
                elif not line and data:
                    if name == b"state":
                        yield version, data
                    data, name = b"", b"message"
    finally:
        writer.close()


# -- the players -------------------------------------------------------------------------


@dataclass
class Room:
    code: str
    tokens: list[str]
    version: int = 0
    turn: int | None = None
    phase: str = "lobby"
    legal: list[list[dict[str, Any]]] = field(default_factory=lambda: [[], [], [], []])
    seen: list[int] = field(default_factory=lambda: [0, 0, 0, 0])  # version per seat's stream
    arrived: list[float] = field(default_factory=lambda: [0.0] * 4)
    waiting_for: int | None = None  # the version a move in flight makes
    done: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass
class Result:
    rooms: int
    rate: float
    seconds: float
    latencies_ms: list[float]
    skipped: int
    errors: int
    rss_mb: float
    peak_rss_mb: float
    server_cpu: float  # cores busy on average while playing
    client_cpu: float  # the same for this benchmark's own process (it shares the machine)
    idle_cpu: float = 0.0  # cores the server kept busy with the streams open and no move made
    said: int = 0  # chat messages said while playing
    pushed: int = 0  # notifications the push service took while playing
    # the server's child processes (its post office, its review workers), not in server_cpu
    children_cpu: float = 0.0

    def percentile(self, q: float) -> float:
        if not self.latencies_ms:
            return float("nan")
        ordered = sorted(self.latencies_ms)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    def line(self) -> str:
        moves = len(self.latencies_ms)
        return (
            f"rooms={self.rooms} streams={4 * self.rooms} target={self.rate:g} moves/s "
            f"played={moves} ({moves / self.seconds:.0f}/s) skipped={self.skipped} "
            f"errors={self.errors}  latency p50={self.percentile(0.50):.2f} ms "
            f"p99={self.percentile(0.99):.2f} ms max={max(self.latencies_ms, default=0):.2f} ms"
            f"  server RSS={self.rss_mb:.0f} MB (peak {self.peak_rss_mb:.0f} MB)"
            f" CPU={self.server_cpu:.0%} (client {self.client_cpu:.0%})"
            f" = {self.server_cpu * 1000 / max(moves / self.seconds, 1e-9):.2f} ms of server CPU"
            " per move"
            f"; above idle ({self.idle_cpu:.0%}): {self.per_move_ms():.2f} ms a move"
            + (f" (moves and talk: {self.said} messages)" if self.said else "")
            + (f" (and {self.pushed} pushes sent)" if self.pushed else "")
            + (f"; its child processes CPU={self.children_cpu:.0%}" if self.children_cpu else "")
        )

    def per_move_ms(self) -> float:
        """The server's CPU per move less what it spends with the same streams open and
        nothing played (pings, clocks, the collector): on a machine too busy to reach the
        target rate, the idle part would otherwise be charged to the fewer moves made."""
        moves = len(self.latencies_ms) / self.seconds
        return (self.server_cpu - self.idle_cpu) * 1000 / max(moves, 1e-9)


async def _follow(port: int, room: Room, seat: int, ready: asyncio.Event) -> None:
    async for version, data in events(port, f"/api/rooms/{room.code}/events", room.tokens[seat]):
        now = time.perf_counter()
        ready.set()
        view = json.loads(data)
        room.legal[seat] = view["legal"]
        if version > room.seen[seat]:
            room.seen[seat] = version
            room.arrived[seat] = now
        if version >= room.version:
            room.version, room.turn, room.phase = version, view["turn"], view["phase"]
        if room.waiting_for is not None and min(room.seen) >= room.waiting_for:
            room.done.set()


async def _play(
    conn: Connection,
    room: Room,
    rng: random.Random,
    latencies: list[float],
    measuring: list[bool],
) -> None:
    """One move in `room` (or a rematch after the game); waits for all four streams."""
    if room.phase == "game_over":
        move_path, body, seat = f"/api/rooms/{room.code}/rematch", {}, 0
    else:
        seat = room.turn if room.turn is not None else 0
        if not room.legal[seat]:
            return
        action = dict(rng.choice(room.legal[seat]))
        action["version"] = room.version
        move_path, body = f"/api/rooms/{room.code}/actions", action
    room.done.clear()
    room.waiting_for = room.version + 1
    sent = time.perf_counter()
    view = await conn.request("POST", move_path, body, room.tokens[seat])
    room.waiting_for = view["version"]
    if min(room.seen) < room.waiting_for:
        await asyncio.wait_for(room.done.wait(), 30)
    if measuring[0] and "type" in body:
        latencies.append((max(room.arrived) - sent) * 1000)
    room.waiting_for = None


async def run(
    port: int,
    pid: int,
    rooms: int,
    rate: float,
    seconds: float,
    seed: int = 1,
    chat_rooms: int = 0,
    chat_burst: bool = False,
    push: PushService | None = None,
    profiles: int = 0,
) -> Result:
    rng = random.Random(seed)
    pool = [Connection(port) for _ in range(min(64, max(4, rooms)))]

    # Set up: rooms, seats, streams, then start every game.
    conns: asyncio.Queue[Connection] = asyncio.Queue()
    for conn in pool:
        conns.put_nowait(conn)

    async def on_a_connection(method: str, path: str, body: Any, token: str | None) -> Any:
        conn = await conns.get()
        try:
            return await conn.request(method, path, body, token)
        finally:
            conns.put_nowait(conn)

    players = [0]

    async def a_player(code: str, seat: int) -> str:
        """A profile at the seat; with the push service, subscribed to it, its page out of
        sight."""
        players[0] += 1
        made = await on_a_connection(
            "POST", "/api/players", {"handle": f"bench{players[0]}", "name": f"P{seat}"}, None
        )
        key: str = made["key"]
        await on_a_connection("POST", f"/api/rooms/{code}/join", {"name": "x", "seat": seat}, key)
        if push is not None:
            subscription = {"subscription": push.subscription()}
            await on_a_connection("POST", "/api/me/push", subscription, key)
            await on_a_connection("POST", f"/api/rooms/{code}/sight", {"visible": False}, key)
        return key

    async def open_one() -> Room:
        created = await on_a_connection("POST", "/api/rooms", {}, None)
        code = created["code"]
        tokens = []
        for seat in range(4):
            if players[0] < profiles:
                tokens.append(await a_player(code, seat))
                continue
            joined = await on_a_connection(
                "POST", f"/api/rooms/{code}/join", {"name": f"P{seat}", "seat": seat}, None
            )
            tokens.append(joined["token"])
        return Room(code, tokens)

    table = list(await asyncio.gather(*(open_one() for _ in range(rooms))))
    followers = []
    for room in table:
        readies = []
        for seat in range(4):
            ready = asyncio.Event()
            followers.append(asyncio.create_task(_follow(port, room, seat, ready)))
            readies.append(ready.wait())
        await asyncio.gather(*readies)

    async def start_one(room: Room) -> None:
        room.done.clear()
        room.waiting_for = 10**9  # not known until the start answers
        path = f"/api/rooms/{room.code}/start"
        view = await on_a_connection("POST", path, {}, room.tokens[0])
        room.waiting_for = view["version"]
        if min(room.seen) < room.waiting_for:
            await asyncio.wait_for(room.done.wait(), 30)
        room.waiting_for = None

    await asyncio.gather(*(start_one(room) for room in table))
    # This client's own collector must not stall the measurement: it stands for thousands of
    # browsers, yet one collection of its young objects (every stream's pending reads) stops
    # all of them at once for tens of milliseconds, which would be counted as the server's
    # latency. So it does not collect while measuring (its cycles wait until the end).
    gc.collect()
    gc.freeze()
    gc.disable()

    # The server's CPU with every stream open and nothing played, over a few seconds.
    idle_from, idle_cpu_from = time.perf_counter(), cpu_seconds(pid)
    await asyncio.sleep(IDLE_S)
    idle_cpu = (cpu_seconds(pid) - idle_cpu_from) / (time.perf_counter() - idle_from)

    # Play: one move slot every 1/rate seconds, given to the next room with no move in flight.
    latencies: list[float] = []
    errors = skipped = 0
    measuring = [False]
    idle: deque[Room] = deque(table)
    free_conns: deque[Connection] = deque(pool)
    in_flight: set[asyncio.Task[None]] = set()

    async def one(room: Room, conn: Connection) -> None:
        nonlocal errors
        try:
            await _play(conn, room, rng, latencies, measuring)
        except (HttpError, TimeoutError, OSError, KeyError, ValueError):
            errors += 1
            conn.close()
            conn = Connection(port)
        finally:
            idle.append(room)
            free_conns.append(conn)

    # Table talk beside the moves: one message a second in each of the first ``chat_rooms``
    # rooms, from each seat in turn (within the flood limit), on their own connections. Each
    # room talks on its own beat, the rooms' beats spread over the second as the moves are
    # (tables don't talk in step); with ``chat_burst`` they all talk in the same instant, the
    # worst case for the moves queued behind them.
    talkers = [Connection(port) for _ in range(chat_rooms)]
    said = [0]

    async def talk(room: Room, conn: Connection, n: int) -> None:
        try:
            await conn.request(
                "POST", f"/api/rooms/{room.code}/chat", {"text": f"talk {n}"}, room.tokens[n % 4]
            )
            said[0] += 1
        except (HttpError, TimeoutError, OSError):
            pass

    async def talker(i: int, began: float) -> None:
        offset = 0.0 if chat_burst else i / chat_rooms
        n = 0
        while True:
            due = began + offset + n
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            await talk(table[i], talkers[i], n)
            n += 1

    async def chatter() -> None:
        began = time.perf_counter()
        await asyncio.gather(*(talker(i, began) for i in range(chat_rooms)))

    chatting = asyncio.create_task(chatter()) if chat_rooms else None

    warmup = min(2.0, seconds / 5)
    start = time.perf_counter()
    cpu_at_start = cpu_seconds(pid)
    client_at_start = cpu_seconds(os.getpid())
    kids_at_start = _kids_cpu(pid)
    pushed_at_start = push.taken if push is not None else 0
    tick = 0
    while (now := time.perf_counter()) - start < seconds + warmup:
        measuring[0] = now - start >= warmup
        due = start + tick / rate
        if due > now:
            await asyncio.sleep(due - now)
        tick += 1
        if not idle or not free_conns:
            skipped += measuring[0]
            continue
        task = asyncio.create_task(one(idle.popleft(), free_conns.popleft()))
        in_flight.add(task)
        task.add_done_callback(in_flight.discard)
    measuring[0] = False
    if chatting is not None:
        chatting.cancel()
        await asyncio.gather(chatting, return_exceptions=True)
        print(
            f"  table talk: {said[0]} messages in {chat_rooms} rooms beside the moves", flush=True
        )
    for conn in talkers:
        conn.close()
    elapsed = time.perf_counter() - start
    pushed = (push.taken if push is not None else 0) - pushed_at_start
    server_cpu = (cpu_seconds(pid) - cpu_at_start) / elapsed
    client_cpu = (cpu_seconds(os.getpid()) - client_at_start) / elapsed
    kids_cpu = sum(c - kids_at_start.get(k, 0.0) for k, c in _kids_cpu(pid).items()) / elapsed
    if in_flight:
        await asyncio.wait(in_flight, timeout=30)
    gc.unfreeze()
    gc.enable()
    now_mb, peak_mb = rss_mb(pid)
    for task in followers:
        task.cancel()
    await asyncio.gather(*followers, return_exceptions=True)
    for conn in pool:
        conn.close()
    return Result(
        rooms,
        rate,
        seconds,
        latencies,
        skipped,
        errors,
        now_mb,
        peak_mb,
        server_cpu,
        client_cpu,
        idle_cpu,
        said[0],
        pushed,
        kids_cpu,
    )


class PushService:
    """A push service on loopback for the benchmark: it takes every POST (201) and counts
    them; the subscriptions it hands out have real P-256 keys (the server checks them)."""

    def __init__(self) -> None:
        self.taken = 0
        self.port = free_port()
        self._server: asyncio.Server | None = None
        key = ec.generate_private_key(ec.SECP256R1()).public_key()
        point = key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
        self._p256dh = base64.urlsafe_b64encode(point).rstrip(b"=").decode()
        self._made = 0
        self._open: set[asyncio.StreamWriter] = set()

    @property
    def origin(self) -> str:
        return f"http://{HOST}:{self.port}"

    def subscription(self) -> dict[str, Any]:
        self._made += 1
        auth = base64.urlsafe_b64encode(os.urandom(16)).rstrip(b"=").decode()
        return {
            "endpoint": f"{self.origin}/push/{self._made}",
            "keys": {"p256dh": self._p256dh, "auth": auth},
        }

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._take, HOST, self.port)

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
        for writer in list(self._open):
            writer.close()
        await asyncio.sleep(0.1)  # each connection's reader sees its end

    async def _take(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._open.add(writer)
        try:
            while True:
                length = 0
                line = await reader.readline()
                if not line:
                    return
                while (line := await reader.readline()) not in (b"\r\n", b"\n", b""):
                    name, _, value = line.partition(b":")
                    if name.strip().lower() == b"content-length":
                        length = int(value)
                await reader.readexactly(length)
                self.taken += 1
                writer.write(b"HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n")
                await writer.drain()
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            self._open.discard(writer)
            writer.close()


def queue_reviews(database_url: str, count: int, seed: int) -> None:
    """``count`` finished games' reviews waiting in a fresh database (migrated here)."""
    from app.bots import choose, rng_for
    from app.bots.budget import Budget
    from app.rules import Phase, Rules, apply, new_game, observe
    from app.rules.state import Action
    from app.serve import migrate
    from app.services.reviews import game_inputs, key_of, utcnow
    from app.store import review_repo
    from app.store.db import make_engine, write

    migrate(database_url)
    rules, quick = Rules(), Budget(ms=None, cap_ms=None, max_worlds=8)
    engine = make_engine(database_url)
    try:
        for n in range(count):
            game_seed = seed * 1000 + n
            state = new_game(rules, game_seed)
            actions: list[Action] = []
            while state.phase is not Phase.GAME_OVER:
                assert state.turn is not None
                rng = rng_for(game_seed, len(actions))
                actions.append(
                    choose(observe(state, state.turn), "standard", rng=rng, budget=quick)
                )
                state = apply(state, actions[-1])
            game = game_inputs(state, None, actions, ())
            key = key_of(game)
            with write(engine) as conn:
                review_repo.ask(conn, key, f"bench{n}", 1, game, utcnow())
    finally:
        engine.dispose()


def reviews_waiting(database_url: str) -> int:
    """Reviews in the database not done yet (waiting or under way)."""
    from app.store import review_repo
    from app.store.db import make_engine, read

    engine = make_engine(database_url)
    try:
        with read(engine) as conn:
            return review_repo.count_unfinished(conn)
    finally:
        engine.dispose()


def _loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop when it is there (uvicorn[standard] brings it): the client should cost little."""
    try:
        import uvloop
    except ImportError:
        return None
    factory: Callable[[], asyncio.AbstractEventLoop] = uvloop.new_event_loop
    return factory


def _raise_fd_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


SCENARIOS = [
    # (rooms, moves/s, seconds): a lone table's latency, then a busy server.
    (1, 20.0, 10.0),
    (200, 200.0, 20.0),
]


def main(argv: Sequence[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.live", description=__doc__)
    parser.add_argument("--rooms", "-R", type=int, help="rooms (4 seat streams each)")
    parser.add_argument("--rate", "-M", type=float, help="moves per second over all rooms")
    parser.add_argument("--seconds", type=float, default=20.0, help="how long to play")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--chat-rooms", type=int, default=0, help="rooms where a message is said every second"
    )
    parser.add_argument(
        "--push",
        type=int,
        default=0,
        help="players (the first seats) subscribed to Web Push, told of every turn",
    )
    parser.add_argument(
        "--players",
        type=int,
        default=0,
        help="the first seats held by players with a profile (their key acts for the seat)",
    )
    parser.add_argument(
        "--push-after",
        type=float,
        default=0.0,
        help="seconds out of sight before a turn is pushed (0: every turn; the server's is 15)",
    )
    parser.add_argument(
        "--reviews",
        type=int,
        default=0,
        help="finished games' reviews waiting for the server's review worker as it starts",
    )
    parser.add_argument(
        "--chat-burst",
        action="store_true",
        help="those rooms all talk in the same instant (else each on its own beat)",
    )
    parser.add_argument(
        "--no-bare",
        dest="bare",
        action="store_false",
        help="skip the bench.bare run under the same load that follows each figure",
    )
    args = parser.parse_args(list(argv))
    if args.rooms is None and args.rate is None:
        scenarios = SCENARIOS
    else:
        scenarios = [(args.rooms or 1, args.rate or 20.0, args.seconds)]
    _raise_fd_limit()
    for rooms, rate, seconds in scenarios:
        with tempfile.TemporaryDirectory(prefix="allfours-bench-") as folder:
            url = f"sqlite:///{folder}/bench.db"
            push = PushService() if args.push else None
            env = dict(LOAD_ENV)
            if args.reviews:
                queue_reviews(url, args.reviews, args.seed)
            if push is not None:
                env |= {
                    "ALLFOURS_PUSH_HOSTS": push.origin,
                    "ALLFOURS_PUSH_TURN_AFTER_S": str(args.push_after),
                }
            with (
                server(url, env=env) as (port, proc),
                asyncio.Runner(loop_factory=_loop_factory()) as runner,
            ):
                if push is not None:
                    runner.run(push.start())
                result = runner.run(
                    run(
                        port,
                        proc.pid,
                        rooms,
                        rate,
                        seconds,
                        args.seed,
                        args.chat_rooms,
                        args.chat_burst,
                        push,
                        max(args.push, args.players),
                    )
                )
                if push is not None:
                    runner.run(push.stop())
            if args.reviews:
                left = reviews_waiting(url)
        print(result.line(), flush=True)
        if args.reviews:
            print(
                f"  reviews: {args.reviews - left} done by the worker, {left} still waiting",
                flush=True,
            )
        if result.latencies_ms:
            print(
                f"  mean={statistics.fmean(result.latencies_ms):.2f} ms over "
                f"{len(result.latencies_ms)} moves",
                flush=True,
            )
        if args.bare:
            beside_bare(result, rooms, rate, seconds)


def beside_bare(result: Result, rooms: int, rate: float, seconds: float) -> None:
    """bench.bare under the same load, just after, and the server's figures over its."""
    from bench import bare, floor  # they import this module

    load = argparse.Namespace(rooms=rooms, rate=rate, seconds=seconds, view_bytes=floor.VIEW_BYTES)
    yard = floor.measure("  bench.bare beside it", bare.bare_server, load)
    p99 = result.percentile(0.99) / max(yard.percentile(0.99), 1e-9)
    cpu = result.per_move_ms() / max(yard.per_move_ms(), 1e-9)
    print(f"  the server over bench.bare: p99 {p99:.2f}x, server CPU a move {cpu:.2f}x", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
