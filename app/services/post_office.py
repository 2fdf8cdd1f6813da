"""Web Push sent from a process of its own (issue #47): the serving process only writes the
letters (app/services/push.py); this process claims them from the outbox, sends them and
writes what the push services answered, so that the sending threads (the GIL, their writes)
never share the serving process with the moves.

It starts with the first letter this server posts (or at the app's start, when letters are
waiting), at a lower priority (``nice``, not ``SCHED_IDLE``: a push is a player's too, and
under ``SCHED_IDLE`` it would wait for as long as every core is busy), and lives until the
app stops, so that a letter to be tried again later is. The serving process wakes it at once
when it posts a letter; its counters (sent, failed) are read by the serving process, which
reports them (``Push.sent``, ``/metrics``).
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import signal
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.context import SpawnProcess
from multiprocessing.sharedctypes import Synchronized
from multiprocessing.synchronize import Event
from typing import Any, Protocol

from sqlalchemy import Engine

from app.push import postman
from app.settings import Settings
from app.store import push_repo as repo
from app.store.db import make_engine

log = logging.getLogger("allfours.push")

NICE = 10  # as the review workers': below the server's own processes
SENDERS = 8  # pushes in flight at once, per process
IDLE_S = 1.0  # how often the outbox is looked at when nothing here woke the sender
STOP_WAIT_S = 5.0


class Sender(Protocol):
    """What sends (app/services/push.py's Push): claims, sends and settles the letters."""

    sent: int
    failed: int

    def __init__(self, engine: Engine, settings: Settings) -> None: ...
    def claim(self) -> list[repo.Letter]: ...
    def send(self, letter: repo.Letter) -> postman.Answer: ...
    def settle(self, sent: Sequence[tuple[repo.Letter, postman.Answer]]) -> None: ...


def _run(
    sender: type[Sender],
    settings_values: dict[str, Any],
    wake: Event,
    stop: Event,
    sent: Synchronized[int],
    failed: Synchronized[int],
) -> None:
    """The post office's life: letters sent until the app stops it."""
    with contextlib.suppress(OSError):
        os.nice(NICE)
    # Ctrl-C reaches the whole process group: the app stops this process itself (``stop``).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    settings = Settings(**{**settings_values, "push_process": False})  # it sends: here
    engine = make_engine(settings.database_url, pool_size=SENDERS + 1)
    push = sender(engine, settings)

    def in_turn(letters: list[repo.Letter]) -> list[tuple[repo.Letter, postman.Answer]]:
        """One subscription's letters, one after the other in the order they were posted (a
        phone hears "your table has started" before "your turn")."""
        answers = []
        for letter in letters:
            try:
                answers.append((letter, push.send(letter)))
            except Exception:
                log.exception("a push failed", extra={"event": "push_error"})
        return answers

    try:
        with ThreadPoolExecutor(SENDERS, thread_name_prefix="allfours-push") as senders:
            more, counted = False, (0, 0)
            while not stop.is_set():
                if not more:
                    wake.wait(IDLE_S)
                wake.clear()
                more = False
                try:
                    letters = push.claim()
                    if letters:
                        answers = senders.map(in_turn, _by_subscription(letters))
                        push.settle([a for some in answers for a in some])
                        more = True  # there may be more
                except Exception:
                    log.exception("the outbox could not be used", extra={"event": "push_error"})
                    stop.wait(IDLE_S)
                _add(sent, push.sent - counted[0])
                _add(failed, push.failed - counted[1])
                counted = (push.sent, push.failed)
    finally:
        engine.dispose()


def _by_subscription(letters: list[repo.Letter]) -> list[list[repo.Letter]]:
    """The letters of each subscription, in the order they were posted."""
    grouped: dict[int, list[repo.Letter]] = {}
    for letter in sorted(letters, key=lambda letter: letter.id):
        grouped.setdefault(letter.subscription, []).append(letter)
    return list(grouped.values())


def _add(counter: Synchronized[int], n: int) -> None:
    if n:
        with counter.get_lock():
            counter.value += n


class PostOffice:
    """The serving process's handle on its post office process."""

    def __init__(self, sender: type[Sender], settings_values: dict[str, Any]) -> None:
        self._sender, self._settings = sender, settings_values
        self._context = multiprocessing.get_context("spawn")  # never fork a running server
        self._lock = threading.Lock()
        self._process: SpawnProcess | None = None
        self._wake: Event | None = None
        self._stop: Event | None = None
        self._sent: Synchronized[int] | None = None
        self._failed: Synchronized[int] | None = None
        self._stopped = False

    def wake(self) -> None:
        """A letter was posted: the process, started if it is not, looks at the outbox now
        (blocking while it starts: called from a worker thread)."""
        with self._lock:
            if self._stopped:
                return
            if self._process is None or not self._process.is_alive():
                self._start()
            assert self._wake is not None
            self._wake.set()

    def _start(self) -> None:
        self._wake, self._stop = self._context.Event(), self._context.Event()
        if self._sent is None or self._failed is None:  # kept across a restart: they only grow
            self._sent, self._failed = self._context.Value("q", 0), self._context.Value("q", 0)
        self._process = self._context.Process(
            target=_run,
            args=(
                self._sender,
                self._settings,
                self._wake,
                self._stop,
                self._sent,
                self._failed,
            ),
            name="allfours-push",
            daemon=True,
        )
        self._process.start()

    def counts(self) -> tuple[int, int]:
        """Sent and failed by the post office so far."""
        sent, failed = self._sent, self._failed
        return (sent.value if sent else 0, failed.value if failed else 0)

    @property
    def pid(self) -> int | None:
        process = self._process
        return process.pid if process is not None and process.is_alive() else None

    def stop(self) -> None:
        with self._lock:
            self._stopped = True
            process, stop = self._process, self._stop
            if process is None or stop is None:
                return
            stop.set()
            process.join(STOP_WAIT_S)
            if process.is_alive():
                process.terminate()
                process.join(1.0)
            self._process = None
