"""SQLite's WAL checkpoints in a thread of their own.

By default SQLite checkpoints inside whichever commit takes the write-ahead log past 1,000
pages: copying those pages into the database file (and syncing it) then happens in the
middle of a move, on the event loop's thread, a pause for every table of the server several
times a second under load (bench.live). Engines made with
``background_checkpoints`` turn that off, and this thread checkpoints instead: PASSIVE, so it
never waits for, nor blocks, a writer or a reader, and the log still restarts from its
beginning once it has been copied.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from typing import Any

from sqlalchemy import Engine

log = logging.getLogger("allfours.store")

EVERY_S = 0.25


class WalCheckpointer:
    def __init__(self, engine: Engine, every_s: float = EVERY_S) -> None:
        self.engine = engine
        self.every_s = every_s
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self.engine.dialect.name != "sqlite" or self._thread is not None:
            return
        self._stop.clear()
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
        except Exception:  # no database: the app's health check says so; no checkpoints then
            log.warning("WAL checkpoints are off: no connection", exc_info=True)
            return
        try:
            driver: Any = conn.driver_connection
            while not self._stop.wait(self.every_s):
                self._checkpoint(driver)
            self._checkpoint(driver)
        finally:
            conn.close()

    @staticmethod
    def _checkpoint(driver: sqlite3.Connection) -> None:
        try:
            driver.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        except sqlite3.Error:  # a busy or closing database: the next round tries again
            log.debug("WAL checkpoint skipped", exc_info=True)
