"""A bare FastAPI SSE + SQLite app under bench.live's load: what a move costs a plain app.

Between bench.floor (no framework, no database) and the real server: FastAPI routes with
pydantic bodies and a bearer dependency, sse-starlette's EventSourceResponse for the seat
streams, and one SQLite commit per move (WAL, synchronous=NORMAL as the app has it: BEGIN
IMMEDIATE, the room's version bumped, the move inserted, COMMIT), on the event loop's thread.
No game: each view is bench.floor's canned JSON of a real view's size with the seat's move in
it. Driven by bench.live's own client, under the same uvicorn as `python -m app.serve`:

    python -m bench.bare --rooms 1000 --rate 500 --seconds 20
    python -m bench.bare --serve PORT          # the app alone (bench.bare starts it)

The issue's yardstick: the app's move-to-all-streams p99 against this one's.
"""

import argparse
import asyncio
import contextlib
import secrets
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator, Iterator, Sequence
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Header, HTTPException
from pydantic import BaseModel
from sse_starlette import EventSourceResponse

from bench import floor, live

SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (code TEXT PRIMARY KEY, version INTEGER, turn INTEGER);
CREATE TABLE IF NOT EXISTS moves (
    code TEXT, version INTEGER, seat INTEGER, type TEXT, card TEXT,
    PRIMARY KEY (code, version)
);
"""


class JoinIn(BaseModel):
    name: str
    seat: int


class MoveIn(BaseModel):
    type: str | None = None
    card: str | None = None
    version: int | None = None


def bare_app(database: Path, view_bytes: int) -> FastAPI:
    """The four routes bench.live calls, and /healthz, as a plain FastAPI app would have them."""
    db = sqlite3.connect(database, isolation_level=None, check_same_thread=False)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    db.executescript(SCHEMA)
    stub = floor.Stub(view_bytes)  # the rooms, the tokens and the canned views
    app = FastAPI()

    def seat_of(authorization: Annotated[str, Header()] = "") -> tuple[floor._Room, int]:
        found = stub.tokens.get(authorization.removeprefix("Bearer "))
        if found is None:
            raise HTTPException(401)
        code, seat = found
        return stub.rooms[code], seat

    Seat = Annotated[tuple[floor._Room, int], Depends(seat_of)]

    @app.get("/healthz")
    async def healthz() -> dict[str, bool]:
        return {"ok": True}

    @app.post("/api/rooms")
    async def create() -> dict[str, str]:
        code = secrets.token_hex(6)
        db.execute("INSERT INTO rooms VALUES (?, 0, 0)", (code,))
        stub.rooms[code] = floor._Room(code)
        return {"code": code}

    @app.post("/api/rooms/{code}/join")
    async def join(code: str, body: JoinIn) -> dict[str, Any]:
        token = secrets.token_urlsafe(16)
        stub.tokens[token] = (code, body.seat)
        return {"token": token, "seat": body.seat}

    @app.post("/api/rooms/{code}/start")
    @app.post("/api/rooms/{code}/rematch")
    async def start(code: str, seat: Seat) -> dict[str, int]:
        return commit(*seat, MoveIn(type="start"))

    @app.post("/api/rooms/{code}/actions")
    async def act(code: str, body: MoveIn, seat: Seat) -> dict[str, int]:
        return commit(*seat, body)

    def commit(room: floor._Room, seat: int, move: MoveIn) -> dict[str, int]:
        """One write transaction, one commit; then every stream of the room is woken."""
        db.execute("BEGIN IMMEDIATE")
        try:
            db.execute(
                "UPDATE rooms SET version = ?, turn = ? WHERE code = ?",
                (room.version + 1, (room.turn + 1) % 4, room.code),
            )
            db.execute(
                "INSERT INTO moves VALUES (?, ?, ?, ?, ?)",
                (room.code, room.version + 1, seat, move.type, move.card),
            )
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        room.version += 1
        room.turn = (room.turn + 1) % 4
        for wakers in room.streams:
            for waker in wakers:
                waker.set()
        return {"version": room.version, "turn": room.turn}

    @app.get("/api/rooms/{code}/events")
    async def events(code: str, seat: Seat) -> EventSourceResponse:
        room, me = seat
        return EventSourceResponse(views(room, me), ping=int(floor.PING_S))

    async def views(room: floor._Room, seat: int) -> AsyncIterator[dict[str, Any]]:
        waker = asyncio.Event()
        room.streams[seat].add(waker)
        sent = -1
        try:
            while True:
                if room.version != sent:
                    sent = room.version
                    yield {"event": "state", "id": str(sent), "data": stub.view(room, seat)}
                waker.clear()
                await waker.wait()
        finally:
            room.streams[seat].discard(waker)

    return app


def serve(port: int, view_bytes: int, database: Path) -> None:
    floor.run_as_the_app(bare_app(database, view_bytes), port)


@contextlib.contextmanager
def bare_server(view_bytes: int) -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    port = live.free_port()
    with tempfile.TemporaryDirectory() as folder:
        database = str(Path(folder) / "bare.db")
        args = ["-m", "bench.bare", "--serve", str(port), "--view-bytes", str(view_bytes)]
        with live.serving([*args, "--database", database], port) as proc:
            yield port, proc


def main(argv: Sequence[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.bare", description=__doc__)
    parser.add_argument("--rooms", "-R", type=int, default=1000)
    parser.add_argument("--rate", "-M", type=float, default=500.0)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--view-bytes", type=int, default=floor.VIEW_BYTES)
    parser.add_argument("--serve", type=int, metavar="PORT", help=argparse.SUPPRESS)
    parser.add_argument("--database", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(list(argv))
    if args.serve:
        serve(args.serve, args.view_bytes, args.database)
        return
    floor.measure(f"bare FastAPI SSE + SQLite ({args.view_bytes}-byte views)", bare_server, args)


if __name__ == "__main__":
    main(sys.argv[1:])
