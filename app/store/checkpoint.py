"""SQLite's WAL checkpoints in a thread of their own, which owns the pragmas that allow it.

By default SQLite checkpoints inside whichever commit takes the write-ahead log past 1,000
pages: copying those pages into the database file (and syncing it) then happens in the
middle of a move, on the event loop's thread, a pause for every table of the server several
times a second under load (bench.live). While a ``WalCheckpointer`` runs, the connections of
its engine leave that to it (``wal_autocheckpoint=0``), and it checkpoints every
``every_s``: PASSIVE, so it never waits for, nor blocks, a writer or a reader.

PASSIVE copies pages but cannot make the log start again from its beginning while readers
keep using it, and under constant readers they always do: the file would grow without bound.
Once the log holds ``escalate_pages``, the thread asks for a TRUNCATE, which waits for those
readers at most ``ESCALATE_WAIT_MS`` (a brief stall of the writers, once in a long while) and
empties the file; busy, it tries again at the next round.

Whenever the thread stops (``stop()``, or an error), SQLite's own checkpoints come back: the
pool is renewed and new connections keep the default, so the log can never be left to grow
because nobody checkpoints it.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from typing import Any

from sqlalchemy import Engine, event

log = logging.getLogger("allfours.store")

EVERY_S = 0.25
ESCALATE_PAGES = 10_000  # about 40 MB of log at SQLite's 4 KiB pages
ESCALATE_WAIT_MS = 100


class WalCheckpointer:
    def __init__(
        self, engine: Engine, every_s: float = EVERY_S, escalate_pages: int = ESCALATE_PAGES
    ) -> None:
        self.engine = engine
        self.every_s = every_s
        self.escalate_pages = escalate_pages
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._running = False  # connections opened meanwhile leave checkpoints to the thread
        if engine.dialect.name == "sqlite":
            event.listen(engine, "connect", self._on_connect)

    def _on_connect(self, dbapi_conn: Any, _record: Any) -> None:
        if self._running:
            dbapi_conn.execute("PRAGMA wal_autocheckpoint=0")

    def start(self) -> None:
        if self.engine.dialect.name != "sqlite" or self._thread is not None:
            return
        self._stop.clear()
        self._running = True
        self.engine.dispose()  # connections opened before start would still checkpoint
        self._thread = threading.Thread(target=self._run, name="wal-checkpoint", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop the thread after a last checkpoint (the next start begins from a short log)."""
        thread, self._thread = self._thread, None
        if thread is None:
            return
        self._stop.set()
        thread.join()

    def _run(self) -> None:
        try:
            conn = self.engine.raw_connection()
        except Exception:  # no database: the app's health check says so
            log.warning("no WAL checkpoint thread: no connection", exc_info=True)
            self._hand_back()
            return
        try:
            driver: Any = conn.driver_connection
            while not self._stop.wait(self.every_s):
                self._checkpoint(driver)
            self._checkpoint(driver)
        except Exception:
            log.warning("the WAL checkpoint thread failed", exc_info=True)
        finally:
            conn.close()
            self._hand_back()

    def _hand_back(self) -> None:
        """SQLite's own checkpoints again, on every connection opened from now on."""
        self._running = False
        self.engine.dispose()

    def _checkpoint(self, driver: sqlite3.Connection) -> None:
        try:
            _busy, log_pages, _copied = driver.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
            if log_pages >= self.escalate_pages:
                self._truncate(driver, log_pages)
        except sqlite3.Error:  # a busy or closing database: the next round tries again
            log.debug("WAL checkpoint skipped", exc_info=True)

    @staticmethod
    def _truncate(driver: sqlite3.Connection, log_pages: int) -> None:
        (timeout,) = driver.execute("PRAGMA busy_timeout").fetchone()
        driver.execute(f"PRAGMA busy_timeout={ESCALATE_WAIT_MS}")
        try:
            (busy, _, _) = driver.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        finally:
            driver.execute(f"PRAGMA busy_timeout={timeout}")
        log.info(
            "WAL truncated" if not busy else "WAL too long, readers busy: truncating later",
            extra={"event": "checkpoint", "log_pages": log_pages, "truncated": not busy},
        )
