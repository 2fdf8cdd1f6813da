"""Today's boards at scale (issue #49): 1,000 people on one day in one process, on SQLite.
Their results arrive one by one, board after board, in a shuffled order (each recorded by the
call that the move ending a board makes, app/store/daily_repo.py ``record_board``, without
playing the cards); after every tenth result its player reads that board's
traveller (GET /api/daily/{date}/boards/{n}) and someone reads the whole day (GET
/api/daily/{date}: every traveller they played, the ranking). Prints the latency of those
answers (p50, p99, max), the service's call (SQL reads included, not HTTP): the matchpoints
are kept as results arrive (app/services/daily.py ``DayBook``), never recounted from every
record.

    python -m bench.daily [--people 1000] [--boards 8]
"""

from __future__ import annotations

import argparse
import random
import secrets
import statistics
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from app.live.hub import Hub
from app.live.notifier import LocalNotifier
from app.serve import migrate
from app.services.daily import Caller, Daily
from app.services.identity import token_hash
from app.services.rooms import Rooms
from app.store import daily_repo
from app.store.db import make_engine, write


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.daily", description=__doc__)
    parser.add_argument("--people", type=int, default=1000)
    parser.add_argument("--boards", type=int, default=8)
    parser.add_argument("--every", type=int, default=10, help="results between two reads")
    args, _ = parser.parse_known_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="allfours-bench-daily-"))
    url = f"sqlite:///{folder / 'daily.db'}"
    migrate(url, "head")
    engine = make_engine(url)
    daily = Daily(engine, Rooms(engine, LocalNotifier(Hub())), boards=args.boards, day_s=86400)
    day = daily.today()
    tokens = [secrets.token_urlsafe(16) for _ in range(args.people)]
    now = datetime.now(UTC)
    with write(engine) as conn:
        for i, token in enumerate(tokens):
            daily_repo.insert_entry(
                conn, day_id=day.id, room_code=f"B{i:05d}", player_id=None,
                guest=token_hash(token), at=now,
            )  # fmt: skip
    rng = random.Random(49)
    finished: list[int] = []  # people with a board played
    # Each person plays the boards in order; the people interleave, as a day's results come.
    next_board = dict.fromkeys(range(args.people), 1)
    latencies: list[float] = []
    whole: list[float] = []
    recorded = 0
    while next_board:
        person = rng.choice(list(next_board))
        board = next_board[person]
        next_board[person] = board + 1
        if board == args.boards:
            del next_board[person]
        ns, ew = rng.randint(0, 7), rng.randint(0, 7)
        with write(engine) as conn:
            daily_repo.record_board(conn, f"B{person:05d}", board, (ns, ew), now)
        recorded += 1
        if board == 1:
            finished.append(person)
        if recorded % args.every == 0:
            # The board just played's traveller, as its player reads it after the board.
            caller = Caller(None, tokens[person])
            started = time.perf_counter()
            one = daily.traveller(day.day, board, caller)
            latencies.append((time.perf_counter() - started) * 1000)
            assert one["results"]
            # And the whole day as someone who has played reads it (every traveller of theirs,
            # the ranking): the page /daily's.
            started = time.perf_counter()
            answer = daily.day_view(day.day, Caller(None, tokens[rng.choice(finished)]))
            whole.append((time.perf_counter() - started) * 1000)
            assert answer["boards"] and answer["ranking"]
    print(
        f"today's boards: {args.people} people, {args.boards} boards, {recorded} results"
        f" arriving (SQLite, one process); a read after every {args.every}th result"
    )
    for what, found in (
        ("a board's traveller, GET /api/daily/{date}/boards/{n}", latencies),
        ("the whole day (all travellers played, ranking), GET /api/daily/{date}", whole),
    ):
        found.sort()
        p99 = found[max(int(len(found) * 0.99) - 1, 0)]
        print(
            f"  {what}: {len(found)} reads, ms p50 {statistics.median(found):.1f},"
            f" p99 {p99:.1f}, max {found[-1]:.1f}"
        )
    engine.dispose()


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
