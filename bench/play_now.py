"""Play now under load: the time from pressing "Play now" (``POST /api/play``, a new guest
each time) to a seat at a public table in play, while bench.live's tables play on.

Starts the server on a fresh SQLite file as bench.live does, runs bench.live's load (R rooms,
4 seat streams each, M moves a second) and, once its tables are set up and playing, presses
"Play now" N times at a steady pace. Prints the presses' p50/p99 and the load's own line.

    python -m bench.play_now     # 200 presses beside 200 rooms at 200 moves/s
    python -m bench.play_now --presses 200 --rooms 1000 --rate 500
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass

from bench.live import (
    IDLE_S,
    LOAD_ENV,
    Connection,
    HttpError,
    _loop_factory,
    _raise_fd_limit,
    run,
    server,
)


@dataclass
class Presses:
    latencies_ms: list[float]
    tables: set[str]
    pending: int  # seats taken from a computer player at the next deal
    errors: int

    def percentile(self, q: float) -> float:
        ordered = sorted(self.latencies_ms)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")

    def line(self) -> str:
        return (
            f"play now: presses={len(self.latencies_ms)} errors={self.errors}"
            f" tables={len(self.tables)} (seats from the next deal: {self.pending})"
            f"  press to seat p50={self.percentile(0.50):.1f} ms"
            f" p99={self.percentile(0.99):.1f} ms max={max(self.latencies_ms, default=0):.1f} ms"
        )


async def _press(port: int, presses: int, per_second: float) -> Presses:
    """``presses`` new guests press "Play now", one every 1/``per_second`` seconds, each on
    its own connection (a new browser)."""
    out = Presses([], set(), 0, 0)

    async def one(n: int) -> None:
        conn = Connection(port)
        started = time.perf_counter()
        try:
            seated = await conn.request("POST", "/api/play", {"name": f"Guest {n}"})
        except (HttpError, OSError):
            out.errors += 1
            return
        finally:
            conn.close()
        out.latencies_ms.append((time.perf_counter() - started) * 1000)
        out.tables.add(seated["code"])
        out.pending += bool(seated.get("pending"))

    tasks = []
    for n in range(presses):
        tasks.append(asyncio.create_task(one(n)))
        await asyncio.sleep(1 / per_second)
    await asyncio.gather(*tasks)
    return out


async def _load_and_press(
    port: int, pid: int, rooms: int, rate: float, presses: int, per_second: float
) -> tuple[str, Presses]:
    seconds = presses / per_second + 10
    load = asyncio.create_task(run(port, pid, rooms, rate, seconds))
    # bench.live's run turns this process's collector off once its tables are set up, then
    # measures the server idle for IDLE_S before the moves: the presses start with the moves.
    while gc.isenabled():
        if load.done():
            break
        await asyncio.sleep(0.05)
    await asyncio.sleep(IDLE_S + 1)
    pressed = await _press(port, presses, per_second)
    return (await load).line(), pressed


def main(argv: Sequence[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.play_now", description=__doc__)
    parser.add_argument("--presses", type=int, default=200)
    parser.add_argument("--per-second", type=float, default=10.0, help="presses a second")
    parser.add_argument("--rooms", "-R", type=int, default=200, help="bench.live's rooms")
    parser.add_argument("--rate", "-M", type=float, default=200.0, help="its moves a second")
    args = parser.parse_args(list(argv))
    _raise_fd_limit()
    with tempfile.TemporaryDirectory(prefix="allfours-bench-") as folder:
        url = f"sqlite:///{folder}/bench.db"
        with (
            server(url, env=LOAD_ENV) as (port, proc),
            asyncio.Runner(loop_factory=_loop_factory()) as runner,
        ):
            load, pressed = runner.run(
                _load_and_press(
                    port, proc.pid, args.rooms, args.rate, args.presses, args.per_second
                )
            )
    print(pressed.line(), flush=True)
    print(f"  under bench.live's load: {load}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
