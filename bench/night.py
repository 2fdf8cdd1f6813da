"""A club night played by computer players, first round to final: how long a table's last
card takes to reach the board.

Starts the server (or two, on one PostgreSQL database) in subprocesses, opens a night of N
pairs (Swiss, then a knockout of 8; round robin for fewer than 8 pairs), registers the
pairs, and for every round draws it and seats computer players in every seat, through the
first process's API. A board reads the night's events from the last process. For each
table, the time from its match's last card (``rooms.changed_at``, committed with that card)
to the board's first event showing the table over is a sample; the figures are p50, p99 and
the worst. At the end the standings are checked against a count made straight from the
exported game records (each checked with app.verify).

    python -m bench.night                                   # 32 pairs, SQLite
    python -m bench.night --database postgresql --processes 2
    python -m bench.night --pairs 8 --target 7              # a small night
    python -m bench.night --pairs 8 --target 7 --season 4   # a club's season of 4 nights

With ``--season N``, a club (its pairs' players are its members, registered by handle) plays
N nights of the same pairs in one season; after the last night's last card, the time the
club's answer (``GET /api/clubs/{code}``, whose season standings are counted from every
night's records on each read) takes is printed, and the season's standings are checked
against the sum of the nights' own.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import json
import secrets
import statistics
import tempfile
import time
from collections.abc import Iterator
from datetime import UTC
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import create_engine, select

from app.store.models import Room
from bench.live import LOAD_ENV, server
from tests.night.count import independent_standings

Json = dict[str, Any]
PG_ADMIN = "host=127.0.0.1 port=5432 user=postgres dbname=postgres connect_timeout=3"


@contextlib.contextmanager
def database(kind: str) -> Iterator[str]:
    if kind == "sqlite":
        with tempfile.TemporaryDirectory() as folder:
            yield f"sqlite:///{Path(folder) / 'allfours.db'}"
        return
    import psycopg

    name = f"allfours_bench_{secrets.token_hex(6)}"
    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:5432/{name}"
    finally:
        with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


class Board:
    """The night's event stream, as a board reads it: when each table was first seen over."""

    def __init__(self, base: str, code: str) -> None:
        self.url = f"{base}/api/nights/{code}/events"
        self.seen_over: dict[str, float] = {}  # room -> wall-clock time the board saw it over
        self.events = 0

    async def run(self) -> None:
        async with (
            httpx.AsyncClient(timeout=None) as client,
            client.stream("GET", self.url) as stream,
        ):
            data: list[str] = []
            async for line in stream.aiter_lines():
                if line.startswith("data:"):
                    data.append(line[5:].strip())
                elif not line and data:
                    now = time.time()
                    self.events += 1
                    night = json.loads("\n".join(data))
                    data = []
                    for r in night["rounds"]:
                        for t in r["tables"]:
                            if t["state"] == "over":
                                self.seen_over.setdefault(t["room"], now)


@dataclasses.dataclass(frozen=True)
class Club:
    """A club whose members are the bench's pairs' players (handles ``b<n>x``/``b<n>y``)."""

    code: str
    admin: str  # the admin's player key

    def handles(self, n: int) -> list[str]:
        return [f"bench{n}x", f"bench{n}y"]


async def club_of(base: str, pairs: int) -> Club:
    async with httpx.AsyncClient(base_url=base, timeout=60) as api:

        async def player(handle: str) -> str:
            r = await api.post("/api/players", json={"handle": handle, "name": handle})
            r.raise_for_status()
            return str(r.json()["key"])

        admin = await player("benchadmin")
        auth = {"Authorization": f"Bearer {admin}"}
        r = await api.post("/api/clubs", json={"name": "Bench club"}, headers=auth)
        r.raise_for_status()
        club = Club(r.json()["code"], admin)
        r = await api.post(f"/api/clubs/{club.code}/invites", headers=auth)
        invite = r.json()["invite"]
        for n in range(pairs):
            for handle in club.handles(n):
                key = await player(handle)
                r = await api.post(
                    f"/api/clubs/{club.code}/join",
                    json={"invite": invite},
                    headers={"Authorization": f"Bearer {key}"},
                )
                r.raise_for_status()
        r = await api.post(f"/api/clubs/{club.code}/seasons", json={"name": "Bench"}, headers=auth)
        r.raise_for_status()
        return club


async def play(
    base: str, board_base: str, pairs: int, match: int, rules: Json, club: Club | None = None
) -> Json:
    # uvicorn closes a keep-alive connection idle for 5 s: the client lets go of one first
    # (a round's wait for the board is longer), or a reused one fails with a ReadError.
    limits = httpx.Limits(keepalive_expiry=2)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as api:
        fmt = "swiss_knockout" if pairs >= 8 else "round_robin"
        options = {
            "grace_s": 0,
            "match": match,
            **({"knockout": 8} if fmt != "round_robin" else {}),
        }
        body = {"name": "Bench night", "format": fmt, "rules": rules, "options": options}
        opener = {}
        if club is not None:
            body["club"] = club.code
            opener = {"Authorization": f"Bearer {club.admin}"}
        r = await api.post("/api/nights", json=body, headers=opener)
        r.raise_for_status()
        code, director = r.json()["code"], r.json()["director_token"]
        auth = {"Authorization": f"Bearer {director}"}
        for n in range(pairs):
            pair = {"players": club.handles(n)} if club else {"names": [f"A{n}", f"B{n}"]}
            r = await api.post(f"/api/nights/{code}/pairs", json=pair, headers=auth)
            r.raise_for_status()
        board = Board(board_base, code)
        watching = asyncio.create_task(board.run())
        rounds = 0
        while True:
            r = await api.post(f"/api/nights/{code}/rounds", headers=auth)
            if r.status_code == 409 and r.json()["code"] == "night_over":
                break
            r.raise_for_status()
            rounds += 1
            tables = r.json()["rounds"][-1]["tables"]
            await asyncio.gather(
                *(
                    api.post(
                        f"/api/nights/{code}/tables/{t['table']}/substitute",
                        json={"seat": seat, "bot": "easy"},
                        headers=auth,
                    )
                    for t in tables
                    for seat in range(4)
                )
            )
            rooms = {t["room"] for t in tables}
            while not rooms <= board.seen_over.keys():
                await asyncio.sleep(0.05)
        await asyncio.sleep(0.2)
        watching.cancel()
        with contextlib.suppress(asyncio.CancelledError, httpx.HTTPError):
            await watching
        export = (await api.get(f"/api/nights/{code}/export.json")).json()
        return {"code": code, "rounds": rounds, "board": board, "export": export}


def last_cards(database_url: str, rooms: list[str]) -> dict[str, float]:
    """When each room's last change (its match's last card) was committed."""
    engine = create_engine(database_url.replace("postgresql://", "postgresql+psycopg://"))
    table = Room.__table__
    with engine.connect() as conn:
        rows = conn.execute(select(table.c.code, table.c.changed_at).where(table.c.code.in_(rooms)))
        found = {}
        for code, at in rows:
            at = at.replace(tzinfo=UTC) if at.tzinfo is None else at
            found[code] = at.timestamp()
    engine.dispose()
    return found


def standings_match(export: Json) -> bool:
    expected = independent_standings(export)
    return all(
        line[column] == value
        for line in export["night"]["standings"]
        for column, value in expected[line["pair"]].items()
    )


def season_matches(season: Json, exports: list[Json]) -> bool:
    """The season's pairs' wins, bullseyes and chalk equal the sums of the nights' own."""
    summed: dict[str, dict[str, int]] = {}
    columns = ("played", "wins", "losses", "bullseyes_for", "bullseyes_against")
    for export in exports:
        night = export["night"]
        names = {p["pair"]: " & ".join(sorted(p["names"])) for p in night["pairs"]}
        for line in night["standings"]:
            mine = summed.setdefault(names[line["pair"]], dict.fromkeys(columns, 0))
            for c in columns:
                mine[c] += line[c]
    found = {
        " & ".join(sorted(p["name"] for p in line["players"])): {c: line[c] for c in columns}
        for line in season["pairs"]
    }
    return found == summed


async def season_read(base: str, club: Club) -> tuple[float, Json]:
    """The club's answer after the last card: how long it took (ms), and its standings."""
    async with httpx.AsyncClient(base_url=base, timeout=60) as api:
        started = time.perf_counter()
        r = await api.get(f"/api/clubs/{club.code}")
        took = (time.perf_counter() - started) * 1000
        r.raise_for_status()
        return took, r.json()["standings"]


def run(kind: str, processes: int, pairs: int, match: int, target: int, season: int = 0) -> Json:
    with database(kind) as url, contextlib.ExitStack() as stack:
        ports = []
        for _ in range(processes):  # one after the other: the first migrates the database
            port, _proc = stack.enter_context(server(url, env=LOAD_ENV))
            ports.append(port)
        base, board_base = f"http://127.0.0.1:{ports[0]}", f"http://127.0.0.1:{ports[-1]}"
        club = asyncio.run(club_of(base, pairs)) if season else None
        started = time.monotonic()
        results = [
            asyncio.run(play(base, board_base, pairs, match, {"target": target}, club))
            for _ in range(max(1, season))
        ]
        found: Json = {}
        if club is not None:
            took, standings = asyncio.run(season_read(board_base, club))
            exports = [r["export"] for r in results]
            found = {
                "season_ms": took,
                "season_nights": standings["nights"],
                "season_ok": season_matches(standings, exports),
            }
        elapsed = time.monotonic() - started
        seen = {room: at for r in results for room, at in r["board"].seen_over.items()}
        cards = last_cards(url, list(seen))
        samples = sorted((seen[r] - cards[r]) * 1000 for r in seen)
        return {
            **found,
            "samples": samples,
            "rounds": sum(r["rounds"] for r in results),
            "tables": len(samples),
            "events": sum(r["board"].events for r in results),
            "elapsed": elapsed,
            "standings_ok": all(standings_match(r["export"]) for r in results),
            "games": sum(len(r["export"]["games"]) for r in results),
        }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.night", description=__doc__)
    parser.add_argument("--pairs", type=int, default=32)
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--match", type=int, default=1, help="bullseyes that win a match")
    parser.add_argument("--target", type=int, default=14, help="points that win a game")
    parser.add_argument(
        "--season", type=int, default=0, help="N nights of the same pairs in a club's season"
    )
    args = parser.parse_args(argv)
    found = run(
        args.database, args.processes, args.pairs, args.match, args.target, season=args.season
    )
    s = found["samples"]
    p99 = s[min(len(s) - 1, round(0.99 * (len(s) - 1)))]
    print(
        f"night of {args.pairs} pairs on {args.database}, {args.processes} process(es): "
        f"{found['rounds']} rounds, {found['tables']} tables, {found['games']} games, "
        f"{found['events']} board events in {found['elapsed']:.1f} s"
    )
    print(
        f"last card -> board: p50 {statistics.median(s):.1f} ms, p99 {p99:.1f} ms, "
        f"max {s[-1]:.1f} ms (n={len(s)})"
    )
    print(f"standings equal an independent count from the records: {found['standings_ok']}")
    if args.season:
        print(
            f"season of {found['season_nights']} nights: its standings after the last night's"
            f" last card in {found['season_ms']:.1f} ms (GET /api/clubs/{{code}}, counted from"
            f" every night's records); equal to the nights' own summed: {found['season_ok']}"
        )


if __name__ == "__main__":
    main()
