"""One hostile address against one server: what it can hold, and whether a neighbour is served.

Starts the server on a fresh SQLite file with the open-file limit many systems start
processes with (1,024, soft and hard: the server cannot raise it), then, from 127.0.0.3:

1. opens 200 event streams over 8 rooms (25 each, under the room cap) and counts the
   answers (200 streaming, 429 refused);
2. opens 1,010 idle TCP connections and counts those refused at once;
3. from 127.0.0.2, the neighbour, times GET / and the first event of a stream of its own;
4. sends six 50 MB headers at once and notes how much of each the server read and its
   memory before and after.

Everything stays on loopback (127.0.0.0/8) and bounded in count and time.

    python -m bench.limits                 # the settings' defaults
    python -m bench.limits --nofile 0      # the open-file limit of this shell, raised at start
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

from bench.live import server

HOST = "127.0.0.1"
ATTACKER = "127.0.0.3"
NEIGHBOUR = "127.0.0.2"


def connect(port: int, source: str, timeout: float = 10) -> socket.socket:
    s = socket.socket()
    s.bind((source, 0))
    s.settimeout(timeout)
    s.connect((HOST, port))
    return s


def status_of(s: socket.socket) -> int:
    """The status of the answer on ``s``; 0 if closed or reset first."""
    data = b""
    try:
        while b"\r\n" not in data:
            chunk = s.recv(4096)
            if not chunk:
                return 0
            data += chunk
    except OSError:
        return 0
    return int(data.split(b" ", 2)[1])


def get(port: int, path: str, source: str) -> tuple[int, float]:
    start = time.perf_counter()
    with connect(port, source) as s:
        try:
            s.sendall(f"GET {path} HTTP/1.1\r\nHost: bench\r\n\r\n".encode())
        except OSError:
            return 0, time.perf_counter() - start
        return status_of(s), time.perf_counter() - start


def new_room(port: int) -> str:
    with connect(port, HOST) as s:
        s.sendall(b"POST /api/rooms HTTP/1.1\r\nHost: bench\r\nContent-Length: 0\r\n\r\n")
        data = b""
        while not data.endswith(b"}"):
            data += s.recv(4096)
    code: str = json.loads(data.split(b"\r\n\r\n", 1)[1])["code"]
    return code


def open_files(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def header_flood(port: int, n: int = 6, size: int = 50_000_000) -> list[int]:
    """``n`` connections each sending one ``size``-byte header; the bytes each got through."""
    sent = [0] * n

    def one(i: int) -> None:
        with contextlib.suppress(OSError), connect(port, ATTACKER, timeout=30) as s:
            chunk = b"GET / HTTP/1.1\r\nHost: bench\r\nX-Big: " + b"a" * 65_000
            while sent[i] < size:
                s.sendall(chunk)
                sent[i] += len(chunk)
                chunk = b"a" * 65_536

    threads = [threading.Thread(target=one, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    return sent


def run(nofile: int, streams: int, idle: int) -> None:
    folder = tempfile.mkdtemp(prefix="allfours-limits-")
    url = f"sqlite:///{folder}/allfours.db"
    with server(url, nofile=nofile, env={"FORWARDED_ALLOW_IPS": HOST}) as (port, proc):
        limit = Path(f"/proc/{proc.pid}/limits").read_text()
        files = next(line for line in limit.splitlines() if line.startswith("Max open files"))
        print(f"server: {' '.join(files.split()[3:5])} open files (soft hard)")
        rooms = [new_room(port) for _ in range(8)]
        held: list[socket.socket] = []
        answers: dict[int, int] = {}
        for n in range(streams):
            s = connect(port, ATTACKER)
            code = rooms[n % len(rooms)]
            s.sendall(f"GET /api/rooms/{code}/events HTTP/1.1\r\nHost: bench\r\n\r\n".encode())
            status = status_of(s)
            answers[status] = answers.get(status, 0) + 1
            held.append(s)
        print(f"{ATTACKER}: {streams} streams asked for: {dict(sorted(answers.items()))}")
        sockets = [connect(port, ATTACKER) for _ in range(idle)]
        time.sleep(0.5)
        refused = 0
        for s in sockets:
            s.settimeout(0.01)
            with contextlib.suppress(OSError):
                if s.recv(64).startswith(b"HTTP/1.1 429"):
                    refused += 1
        print(
            f"{ATTACKER}: {idle} idle connections: {refused} refused at once, "
            f"{idle - refused} held (until the header timeout)"
        )
        print(f"server: {open_files(proc.pid)} files open")
        status, took = get(port, "/", NEIGHBOUR)
        print(f"{NEIGHBOUR}: GET / -> {status} in {took * 1000:.1f} ms")
        status, took = get(port, f"/r/{rooms[0]}/events", NEIGHBOUR)
        print(f"{NEIGHBOUR}: its own stream -> {status} in {took * 1000:.1f} ms")
        for s in [*held, *sockets]:
            s.close()
        time.sleep(0.5)
        before = rss_mb(proc.pid)
        sent = header_flood(port)
        after = rss_mb(proc.pid)
        print(
            f"{ATTACKER}: six 50 MB headers: at most {max(sent) / 1e6:.2f} MB of one sent "
            f"before the server closed; RSS {before:.0f} -> {after:.0f} MB"
        )
        status, took = get(port, "/", NEIGHBOUR)
        print(f"{NEIGHBOUR}: GET / -> {status} in {took * 1000:.1f} ms")


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.limits")
    parser.add_argument("--nofile", type=int, default=1024, help="0: this shell's limit")
    parser.add_argument("--streams", type=int, default=200)
    parser.add_argument("--idle", type=int, default=1010)
    args = parser.parse_args(argv)
    run(args.nofile, args.streams, args.idle)


if __name__ == "__main__":
    main(sys.argv[1:])
