"""One hostile client against a real server (`python -m app.serve`), over raw loopback
sockets: each test is named after a weakness a review found open (issue 12) and fails on the
code before its fix. Loopback addresses other than 127.0.0.1 stand for other machines
(127.0.0.1 itself is a trusted proxy by uvicorn's default FORWARDED_ALLOW_IPS).

Timeouts are set small here; the bounds on waiting are generous (a noisy machine)."""

from __future__ import annotations

import contextlib
import json
import random
import re
import resource
import socket
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.net import RESERVED_FDS, connection_cap
from tests.hosting.support import Server

ROOT = Path(__file__).resolve().parents[2]
ADMIN = "limits-admin-token"
ATTACKER = "127.0.0.3"
NEIGHBOUR = "127.0.0.2"
WAIT_S = 30.0  # a bound on waiting, not a speed requirement


@pytest.fixture
def serve(tmp_path: Path, start_server: Callable[..., Server]) -> Callable[..., Server]:
    """Starts servers on SQLite, with settings from ``env`` and, if given, the open-file
    limit (soft, hard) the process starts with; stops them all afterwards."""
    count = iter(range(1_000_000))

    def start(nofile: tuple[int, int] | None = None, **env: str) -> Server:
        database = tmp_path / f"db-{next(count)}" / "allfours.db"
        settings = {
            "FORWARDED_ALLOW_IPS": "127.0.0.1",
            "ALLFOURS_ADMIN_TOKEN": ADMIN,
            "ALLFOURS_AWAY_S": "3600",
            **env,
        }
        return start_server(f"sqlite:///{database}", nofile, **settings)

    return start


# -- raw HTTP over loopback --------------------------------------------------------------


def connect(server: Server, source: str = ATTACKER, timeout: float = WAIT_S) -> socket.socket:
    s = socket.socket()
    s.bind((source, 0))
    s.settimeout(timeout)
    s.connect(("127.0.0.1", server.port))
    return s


def request(path: str, *headers: str, method: str = "GET", body: bytes = b"") -> bytes:
    lines = [f"{method} {path} HTTP/1.1", "Host: limits", *headers]
    if body or method == "POST":
        lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


def read_head(s: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """The status, headers and what came after them (b"" status 0: closed before a word)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = s.recv(65536)
        if not chunk:
            return 0, {}, data
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines)}
    return int(status_line.split()[1]), headers, rest


def read_answer(s: socket.socket) -> tuple[int, dict[str, str], dict[str, Any]]:
    """A whole error answer (JSON with Content-Length): status, headers and body."""
    status, headers, rest = read_head(s)
    length = int(headers.get("content-length", "0"))
    while len(rest) < length:
        chunk = s.recv(65536)
        if not chunk:
            break
        rest += chunk
    return status, headers, json.loads(rest[:length]) if length else {}


def read_error(s: socket.socket) -> tuple[int, dict[str, Any]]:
    status, _, body = read_answer(s)
    return status, body


def closed_within(s: socket.socket, seconds: float) -> bool:
    """True once the server closed (or reset) the connection, False if still open."""
    s.settimeout(seconds)
    try:
        while s.recv(65536):
            pass
    except TimeoutError:
        return False
    except ConnectionResetError:
        return True
    return True


def open_stream(server: Server, path: str, *headers: str, source: str = ATTACKER) -> socket.socket:
    s = connect(server, source)
    s.sendall(request(path, *headers))
    return s


def new_room(server: Server) -> str:
    r = httpx.post(server.url + "/api/rooms", json={}, headers={"X-Admin-Token": ADMIN})
    assert r.status_code == 201, r.text
    code: str = r.json()["code"]
    return code


def assert_refused(s: socket.socket, status: int, error: str) -> dict[str, Any]:
    """A refusal in the API's error shape, with the security headers of every answer (the
    connection layer's 408, 431, 429 and 503 too)."""
    got, headers, body = read_answer(s)
    assert got == status, f"answered {got} (not {status}): {body}"
    assert set(body) == {"error", "detail", "code", "params"} and body["error"] == error, body
    assert headers.get("x-content-type-options") == "nosniff", headers
    assert "frame-ancestors 'none'" in headers.get("content-security-policy", ""), headers
    return body


# -- 1. one client locking everyone out ----------------------------------------------------


def test_one_address_cannot_lock_everyone_out(serve: Callable[..., Server]) -> None:
    """With 1,024 open files, 980 streams or 1,010 idle sockets from one address shut out all."""
    server = serve(nofile=(1024, 1024))
    rooms = [new_room(server) for _ in range(8)]
    streams: list[socket.socket] = []
    idle: list[socket.socket] = []
    statuses: list[int] = []
    try:
        for code in rooms:
            for _ in range(25):  # 200 streams in all: 25 per room, under the room's cap
                s = open_stream(server, f"/api/rooms/{code}/events")
                statuses.append(read_head(s)[0])
                streams.append(s)
        idle += [connect(server) for _ in range(1010)]
        # The neighbour is served: the home page, and a stream of its own.
        for path in ("/", f"/r/{rooms[0]}/events"):
            with connect(server, NEIGHBOUR, timeout=10) as s:
                try:
                    s.sendall(request(path))
                    status = read_head(s)[0]
                except OSError as err:  # reset or timed out: not accepted
                    status = 0
                    print(f"{path}: {err!r}")
                assert status == 200, f"{path}: the neighbour was not served"
        # One address holds at most 128 streams; the others were told why, before streaming.
        assert statuses.count(200) == 128 and statuses.count(429) == 72
        # Of the idle sockets, those over the address's 256 connections were refused at once.
        answered = 0
        for s in idle:
            s.settimeout(0.01)
            with contextlib.suppress(TimeoutError, ConnectionResetError):
                if s.recv(1024).startswith(b"HTTP/1.1 429"):
                    answered += 1
        assert answered >= 1010 - (256 - 128)
    finally:
        for s in [*streams, *idle]:
            s.close()
    # Fewer connections than files: 960 of the 1,024 (the rest for the database and logs).
    assert f"at most {1024 - RESERVED_FDS} connections" in server.output()


def test_one_address_cannot_hold_unlimited_streams(serve: Callable[..., Server]) -> None:
    """Every event stream an address opened was kept, until the server ran out of files."""
    server = serve(ALLFOURS_MAX_STREAMS_PER_ADDRESS="3")
    a, b = new_room(server), new_room(server)
    held = [
        open_stream(server, f"/api/rooms/{a}/events"),
        open_stream(server, f"/r/{a}/events"),  # the page's stream counts the same
        open_stream(server, f"/api/rooms/{b}/events"),
    ]
    try:
        assert [read_head(s)[0] for s in held] == [200, 200, 200]
        for path in (f"/api/rooms/{b}/events", f"/r/{b}/events"):
            with open_stream(server, path) as s:
                body = assert_refused(s, 429, "too_many_requests")
                assert ATTACKER in body["detail"]
        with open_stream(server, f"/api/rooms/{b}/events", source=NEIGHBOUR) as s:
            assert read_head(s)[0] == 200
        held.pop().close()  # a stream that ends gives its place back
        deadline = time.monotonic() + WAIT_S
        while True:
            s = open_stream(server, f"/api/rooms/{b}/events")
            status = read_head(s)[0]
            if status == 200:
                held.append(s)
                break
            s.close()
            assert time.monotonic() < deadline, "the closed stream's place never came back"
            time.sleep(0.05)
    finally:
        for s in held:
            s.close()


def test_one_room_cannot_take_unlimited_streams(serve: Callable[..., Server]) -> None:
    """Any number of streams could watch one room (its seated players still get in when full)."""
    server = serve(ALLFOURS_MAX_STREAMS_PER_ROOM="4")
    code = new_room(server)
    joined = httpx.post(f"{server.url}/api/rooms/{code}/join", json={"name": "Ann"})
    token = joined.json()["token"]
    sources = [f"127.0.0.{n}" for n in range(20, 24)]  # four different machines
    held = [open_stream(server, f"/api/rooms/{code}/events", source=src) for src in sources]
    try:
        assert [read_head(s)[0] for s in held] == [200] * 4
        with open_stream(server, f"/r/{code}/events", source="127.0.0.30") as s:
            body = assert_refused(s, 429, "too_many_requests")
            assert "room" in body["detail"]
        seated = open_stream(server, f"/api/rooms/{code}/events", f"Authorization: Bearer {token}")
        held.append(seated)
        assert read_head(seated)[0] == 200
    finally:
        for s in held:
            s.close()


def test_idle_connections_do_not_stay_open(serve: Callable[..., Server]) -> None:
    """A connection that never sent a byte was kept open indefinitely."""
    server = serve(ALLFOURS_HEADER_TIMEOUT_S="0.5")
    with connect(server) as s:
        assert closed_within(s, WAIT_S)


def test_half_sent_headers_do_not_hold_a_connection(serve: Callable[..., Server]) -> None:
    """A request whose headers never ended held its connection indefinitely (slowloris)."""
    server = serve(ALLFOURS_HEADER_TIMEOUT_S="1")
    with connect(server) as s:
        s.sendall(b"GET / HTTP/1.1\r\nHost: limits\r\nX-Slow: a")
        for _ in range(3):  # a byte now and then does not extend the deadline
            time.sleep(0.15)
            s.sendall(b"a")
        assert_refused(s, 408, "timeout")
        assert closed_within(s, WAIT_S)
    with connect(server) as s:  # a keep-alive connection's next request has a deadline too
        s.sendall(request("/healthz"))
        assert read_head(s)[0] == 200
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: lim")
        rest = b""
        while b"408" not in rest:
            chunk = s.recv(65536)
            assert chunk, "closed without the 408"
            rest += chunk


def test_half_sent_body_does_not_hold_a_connection(serve: Callable[..., Server]) -> None:
    """A body shorter than its Content-Length held the connection (and the route) for ever."""
    server = serve(ALLFOURS_BODY_TIMEOUT_S="0.5")
    with connect(server) as s:
        head = request("/api/rooms", "Content-Type: application/json", method="POST")
        s.sendall(head.replace(b"Content-Length: 0", b"Content-Length: 100") + b'{"rules":')
        body = assert_refused(s, 408, "timeout")
        assert "body" in body["detail"]
        assert closed_within(s, WAIT_S)


def test_one_address_cannot_fill_the_server_with_idle_connections(
    serve: Callable[..., Server],
) -> None:
    """1,010 idle sockets from one address took every file descriptor of the server."""
    server = serve(ALLFOURS_MAX_CONNECTIONS_PER_ADDRESS="10")
    held = [connect(server) for _ in range(10)]
    try:
        with connect(server) as s:
            body = assert_refused(s, 429, "too_many_requests")
            assert f"more than 10 open connections from {ATTACKER}" == body["detail"]
        with connect(server, NEIGHBOUR) as s:
            s.sendall(request("/healthz"))
            assert read_head(s)[0] == 200
        # A trusted proxy (FORWARDED_ALLOW_IPS) carries everyone: it has no per-address cap.
        proxied = [connect(server, "127.0.0.1") for _ in range(15)]
        for s in proxied:
            s.sendall(request("/healthz"))
            assert read_head(s)[0] == 200
            s.close()
        held.pop().close()  # a connection that ends gives its place back
        deadline = time.monotonic() + WAIT_S
        while True:
            s = connect(server)
            s.sendall(request("/healthz"))
            if read_head(s)[0] == 200:
                held.append(s)
                break
            s.close()
            assert time.monotonic() < deadline, "the closed connection's place never came back"
            time.sleep(0.05)
    finally:
        for s in held:
            s.close()
    assert "refused connections from 127.0.0.3" in server.output()


def test_connections_are_capped_in_total(serve: Callable[..., Server]) -> None:
    """Nothing capped all connections below the open-file limit: at the limit, all were refused."""
    assert connection_cap(4096, 1_048_576) == 4096
    assert connection_cap(4096, 1024) == 1024 - RESERVED_FDS  # what the files allow
    server = serve(ALLFOURS_MAX_CONNECTIONS="20", ALLFOURS_MAX_CONNECTIONS_PER_ADDRESS="0")
    held = [connect(server, f"127.0.0.{10 + n % 5}") for n in range(20)]
    try:
        with connect(server, "127.0.0.40") as s:
            assert_refused(s, 503, "unavailable")
    finally:
        for s in held:
            s.close()


def _rss_mb(pid: int) -> float:
    found = re.search(r"VmRSS:\s+(\d+) kB", Path(f"/proc/{pid}/status").read_text())
    assert found is not None
    return int(found[1]) / 1024


def _nofile(pid: int) -> tuple[int, int]:
    text = Path(f"/proc/{pid}/limits").read_text()
    found = re.search(r"Max open files\s+(\d+)\s+(\d+)", text)
    assert found is not None, text
    return int(found[1]), int(found[2])


def test_open_file_limit_is_raised_at_start(serve: Callable[..., Server]) -> None:
    """The server kept its soft limit of open files (often 1,024) below a higher hard limit."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard < 2048:
        pytest.skip(f"the hard limit here is only {hard}")
    server = serve(nofile=(512, 2048))
    assert _nofile(server.proc.pid) == (2048, 2048)


def test_a_stream_whose_reader_stopped_reading_is_dropped(
    serve: Callable[..., Server],
) -> None:
    """A stream whose reader never read kept its socket and buffers for as long as the room did."""
    server = serve(ALLFOURS_SEND_TIMEOUT_S="1")
    api = httpx.Client(base_url=server.url, timeout=WAIT_S)
    code = new_room(server)
    token = api.post(f"/api/rooms/{code}/join", json={"name": "Ann", "seat": 0}).json()["token"]
    auth = {"Authorization": f"Bearer {token}"}
    for seat in (1, 2, 3):
        r = api.post(f"/api/rooms/{code}/bots", json={"seat": seat, "level": "easy"}, headers=auth)
        assert r.status_code == 200, r.text
    # A reader with tiny buffers (and segments) that never reads: the server's side fills fast.
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_MAXSEG, 536)
    s.bind((ATTACKER, 0))
    s.connect(("127.0.0.1", server.port))
    s.sendall(request(f"/api/rooms/{code}/events", f"Authorization: Bearer {token}"))
    try:
        deadline = time.monotonic() + WAIT_S
        while not api.get(f"/api/rooms/{code}").json()["seats"][0]["connected"]:
            assert time.monotonic() < deadline, "the stream never opened"
            time.sleep(0.01)
        rng = random.Random(12)
        api.post(f"/api/rooms/{code}/start", headers=auth)
        while True:
            view = api.get(f"/api/rooms/{code}", headers=auth).json()
            if not view["seats"][0]["connected"]:
                break  # the server dropped Ann's stalled stream
            assert time.monotonic() < deadline, f"still streaming at version {view['version']}"
            if view["phase"] == "game_over":
                api.post(f"/api/rooms/{code}/rematch", headers=auth)
            elif view["turn"] == 0 and view["legal"]:
                move = {**rng.choice(view["legal"]), "version": view["version"]}
                api.post(f"/api/rooms/{code}/actions", json=move, headers=auth)
            else:
                time.sleep(0.01)
    finally:
        s.close()
        api.close()
    assert "reader stopped reading" in server.output()
    assert "Traceback" not in server.output()


# -- 2. unbounded headers ------------------------------------------------------------------


def test_huge_headers_are_refused_with_431(serve: Callable[..., Server]) -> None:
    """Six 50 MB headers were accepted and buffered whole (RSS 255 -> 531 MB)."""
    server = serve(ALLFOURS_MAX_HEADER_BYTES="16384")
    with connect(server) as s:  # over the limit in one piece
        s.sendall(request("/healthz", "X-Big: " + "a" * 20_000))
        assert_refused(s, 431, "too_large")
    before = _rss_mb(server.proc.pid)
    with connect(server) as s:  # a 50 MB header, sent as it would be: refused early
        sent = 0
        chunk = b"GET / HTTP/1.1\r\nHost: limits\r\nX-Big: " + b"a" * 65_000
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            while sent < 50_000_000:
                s.sendall(chunk)
                sent += len(chunk)
                chunk = b"a" * 65_536
        # What was sent includes the kernel's buffers on both sides (a few MB on loopback).
        assert sent < 20_000_000, f"{sent} bytes of one header were taken"
    assert _rss_mb(server.proc.pid) - before < 20, "the server kept the header"
    with connect(server, NEIGHBOUR) as s:  # headers under the limit are fine
        s.sendall(request("/healthz", "X-Fine: " + "a" * 12_000))
        assert read_head(s)[0] == 200
