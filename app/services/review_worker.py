"""The reviews' workers: processes of their own, at lower priority, so a review never runs
on the server's event loop nor takes a core from the tables before they have had theirs; or,
at the host's choice (ALLFOURS_REVIEW_SPEED=full), at full speed on a core to spare.

A worker claims the oldest waiting review (a lease in the database: app/store/review_repo.py),
computes it (app/bots/review.py), writing its progress as it goes and renewing its lease, and
keeps the result. A worker with nothing to do for ``IDLE_S`` ends; the app starts one again
when a review is asked for, and at its start when reviews are waiting (a restart loses none).
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import signal
import socket
import threading
import time
from collections.abc import Callable
from multiprocessing.context import SpawnProcess
from multiprocessing.synchronize import Event

from sqlalchemy.engine import Engine

from app.services.reviews import compute, lease_until, utcnow
from app.settings import ReviewSpeed
from app.store import review_repo
from app.store.db import make_engine, write

log = logging.getLogger("allfours.reviews")

NICE = 10  # below the server's own processes
IDLE_S = 30.0  # a worker with nothing to do ends after this
POLL_S = 0.5
# Pacer: the server is busy above this share of a core; the worker looks every WINDOW_S of
# its work and then rests NAP_S at a time, MAX_REST_S at most before it works a window.
SERVER_BUSY = 0.25
WINDOW_S = 0.2
NAP_S = 0.2
MAX_REST_S = 2.0
PROGRESS_EVERY_S = 1.0  # the page's progress bar moves at least this often


class Taken(Exception):
    """The review was taken over by another worker (this one's lease ran out), or the app
    is stopping: leave it."""


def work_once(
    engine: Engine,
    worker: str,
    worlds: int,
    stop: Event | None = None,
    pace: Callable[[], object] | None = None,
) -> bool:
    """Claim one waiting review and do it; False if none was waiting. ``pace`` is called
    after each decision reviewed (it may rest)."""
    with write(engine) as conn:
        now = utcnow()
        for review in review_repo.waiting(conn, now):
            row = review_repo.claim(conn, review, worker, now, lease_until(now))
            if row is not None:
                break
        else:
            return False
    last = time.monotonic()

    def progress(done: int, total: int) -> None:
        nonlocal last
        if stop is not None and stop.is_set():
            raise Taken
        if pace is not None:
            pace()
        if time.monotonic() - last < PROGRESS_EVERY_S:
            return
        last = time.monotonic()
        with write(engine) as conn:
            now = utcnow()
            if not review_repo.advance(conn, row.id, worker, done / total, now, lease_until(now)):
                raise Taken

    try:
        result = compute(row.game, worlds, progress)
    except Taken:
        with write(engine) as conn:
            review_repo.release(conn, row.id, worker, utcnow())
        return True
    with write(engine) as conn:
        review_repo.finish(conn, row.id, worker, result, utcnow())
    return True


class Pacer:
    """Rests a worker while the server that started it is busy. Its priority alone does not
    keep a review from the moves: on a machine of two cores (or one core's two threads) the
    work beside the server slows the server's own (at 500 moves/s the moves' p99 went from 9
    to 40 ms). So every ``WINDOW_S`` of work the worker reads the server's CPU (Linux's
    /proc) and, while the server used more than ``SERVER_BUSY`` of a core, rests, up to
    ``MAX_REST_S`` at a time: under a lasting load it works about a tenth of the time, and
    a review still ends. Where there is no /proc it never rests."""

    def __init__(self, server_pid: int, stop: Event | None = None) -> None:
        self._stat = f"/proc/{server_pid}/stat"
        self._stop = stop
        self._tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
        self._at = time.monotonic()
        self._cpu = self._server_cpu()

    def _server_cpu(self) -> float | None:
        """The server's CPU seconds so far (user and system), None if it cannot be read."""
        try:
            with open(self._stat, encoding="ascii") as f:
                fields = f.read().rpartition(")")[2].split()
        except (OSError, UnicodeDecodeError):
            return None
        return (int(fields[11]) + int(fields[12])) / self._tick

    def busy(self) -> float | None:
        """The server's share of a core since the last reading (None: cannot be read)."""
        now, cpu = time.monotonic(), self._server_cpu()
        if cpu is None or self._cpu is None:
            self._cpu = cpu
            return None
        share = (cpu - self._cpu) / max(now - self._at, 1e-3)
        self._at, self._cpu = now, cpu
        return share

    def __call__(self) -> float:
        """Rest while the server is busy; the seconds rested."""
        if time.monotonic() - self._at < WINDOW_S:
            return 0.0
        rested = 0.0
        while rested < MAX_REST_S and (self.busy() or 0.0) > SERVER_BUSY:
            if self._stop is not None and self._stop.wait(NAP_S):
                break
            if self._stop is None:
                time.sleep(NAP_S)
            rested += NAP_S
        return rested


def _lie_low() -> None:
    """This process runs only on a core the server leaves idle: Linux's SCHED_IDLE, which a
    waking server thread takes the core from at once (a nice value alone still shares it,
    and at 500 moves/s that showed in the moves' latency); elsewhere a nice of ``NICE``."""
    with contextlib.suppress(OSError):  # not allowed here: the work is still off the loop
        os.nice(NICE)
    idle = getattr(os, "SCHED_IDLE", None)
    if idle is not None:
        with contextlib.suppress(OSError):
            os.sched_setscheduler(0, idle, os.sched_param(0))


def pacer(speed: ReviewSpeed, server_pid: int, stop: Event | None = None) -> Pacer | None:
    """What rests a worker at the host's ``speed``: lying low, the ``Pacer`` that watches its
    server; at full speed, nothing."""
    return Pacer(server_pid, stop) if speed == "lie-low" else None


def run(
    database_url: str,
    worlds: int,
    name: str,
    stop: Event,
    idle_s: float = IDLE_S,
    lie_low: bool = True,
    speed: ReviewSpeed = "lie-low",
) -> None:
    """A worker process's life: nice (``lie_low``, when it lies low at all), then reviews
    until none has come for ``idle_s``."""
    if lie_low and speed == "lie-low":
        _lie_low()
    # Ctrl-C reaches the whole process group: the app stops its workers itself (``stop``),
    # so a review under way goes back to the queue rather than dying mid-write.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    engine = make_engine(database_url, pool_size=1)
    worker = f"{socket.gethostname()[:40]}:{os.getpid()}:{name}"
    pace = pacer(speed, os.getppid(), stop)
    idle_since = time.monotonic()
    try:
        while not stop.is_set():
            try:
                worked = work_once(engine, worker, worlds, stop, pace)
            except Exception:  # a review that fails is tried again once its lease runs out
                log.exception("a review failed", extra={"event": "review_failed"})
                stop.wait(POLL_S)
                continue
            if worked:
                idle_since = time.monotonic()
                continue
            if time.monotonic() - idle_since > idle_s:
                return
            stop.wait(POLL_S)
    finally:
        engine.dispose()


class ReviewWorkers:
    """The app's worker processes (``count`` at most; 0: this app reviews nothing, another
    process with workers does)."""

    def __init__(
        self,
        database_url: str,
        worlds: int,
        count: int,
        idle_s: float = IDLE_S,
        *,
        lie_low: bool = True,
        speed: ReviewSpeed = "lie-low",
    ) -> None:
        self._url, self._worlds, self._count, self._idle_s = database_url, worlds, count, idle_s
        # Off (ALLFOURS_REVIEW_LIE_LOW=0): the workers at the usual priority. Under SCHED_IDLE
        # a worker gets no CPU at all while every core is busy, however long that lasts.
        self._lie_low = lie_low
        self._speed: ReviewSpeed = speed  # "full": no rest, the usual priority
        self._context = multiprocessing.get_context("spawn")  # never fork a running server
        # Made with the first worker, let go at the end: an Event holds semaphores of the
        # system's, which a server that never reviewed should not leave behind.
        self._stop: Event | None = None
        self._stopped = False
        self._processes: list[SpawnProcess] = []
        self._lock = threading.Lock()
        self._started = 0

    def ensure(self) -> None:
        """Workers running, up to ``count`` (called from a thread: a spawn takes a while)."""
        with self._lock:
            if self._stopped:
                return
            if self._stop is None:
                self._stop = self._context.Event()
            self._processes = [p for p in self._processes if p.is_alive()]
            while len(self._processes) < self._count:
                self._started += 1
                process = self._context.Process(
                    target=run,
                    args=(
                        self._url,
                        self._worlds,
                        str(self._started),
                        self._stop,
                        self._idle_s,
                        self._lie_low,
                        self._speed,
                    ),
                    name=f"allfours-review-{self._started}",
                    daemon=True,
                )
                process.start()
                self._processes.append(process)

    @property
    def pids(self) -> list[int]:
        """The worker processes' ids, of those alive."""
        return [p.pid for p in self._processes if p.is_alive() and p.pid is not None]

    @property
    def alive(self) -> int:
        return sum(1 for p in self._processes if p.is_alive())

    def stop(self, wait_s: float = 5.0) -> None:
        """Ask the workers to stop (a review under way is left to be taken up again), then
        end those that did not."""
        with self._lock:
            self._stopped = True
            if self._stop is not None:
                self._stop.set()
            deadline = time.monotonic() + wait_s
            for p in self._processes:
                p.join(max(0.0, deadline - time.monotonic()))
                if p.is_alive():
                    p.terminate()
                    p.join(1.0)
            self._processes = []
            self._stop = None
