"""SQLite's WAL checkpoints: while the app's checkpoint thread runs, commits copy no page; it
hands them back when it stops, and empties a log that readers kept from starting again."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from sqlalchemy import Engine

from app.serve import migrate
from app.store import repo
from app.store.checkpoint import WalCheckpointer
from app.store.db import make_engine, write


def _add_rooms(engine: Engine, prefix: str, n: int) -> None:
    for i in range(n):
        with write(engine) as conn:
            repo.insert_room(conn, code=f"{prefix}{i}", rules={"pad": "x" * 2000}, seed=None)


def _autocheckpoint(engine: Engine) -> int:
    with engine.connect() as conn:
        pages = conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar()
    assert isinstance(pages, int)
    return pages


def _keep_log(db: Path) -> sqlite3.Connection:
    """A connection that has read the database: the log file stays while it is open."""
    keep = sqlite3.connect(db)
    keep.execute("SELECT count(*) FROM rooms").fetchall()
    return keep


def _engine(tmp_path: Path) -> tuple[Engine, Path]:
    db = tmp_path / "a.db"
    url = f"sqlite:///{db}"
    migrate(url)
    return make_engine(url), db


def test_commits_leave_the_copying_to_the_checkpoint_thread(tmp_path: Path) -> None:
    engine, db = _engine(tmp_path)
    checkpointer = WalCheckpointer(engine, every_s=3600)  # one round only, at stop
    try:
        checkpointer.start()
        assert _autocheckpoint(engine) == 0
        size = db.stat().st_size
        # Far past SQLite's 1,000-page mark: no commit copied a page into the database file.
        _add_rooms(engine, "a", 1500)
        assert db.stat().st_size == size
        checkpointer.stop()
        assert db.stat().st_size > size + 1500 * 2000
    finally:
        checkpointer.stop()
        engine.dispose()


def test_sqlites_own_checkpoints_come_back_when_the_thread_stops(tmp_path: Path) -> None:
    """The engine turned auto-checkpoints off for good: had the thread stopped, nothing would
    have copied the log back, and it would have grown without bound."""
    engine, _ = _engine(tmp_path)
    checkpointer = WalCheckpointer(engine, every_s=0.01)
    try:
        assert _autocheckpoint(engine) == 1000  # nothing turns them off before the thread runs
        checkpointer.start()
        assert _autocheckpoint(engine) == 0
        checkpointer.stop()
        assert _autocheckpoint(engine) == 1000
    finally:
        engine.dispose()


def test_sqlites_own_checkpoints_come_back_when_the_thread_fails(tmp_path: Path) -> None:
    engine, _ = _engine(tmp_path)
    checkpointer = WalCheckpointer(engine, every_s=0.01)

    def broken(driver: object) -> None:
        raise RuntimeError("a checkpoint that fails")

    checkpointer._checkpoint = broken  # type: ignore[method-assign]
    try:
        checkpointer.start()
        deadline = time.monotonic() + 10
        while _autocheckpoint(engine) != 1000 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert _autocheckpoint(engine) == 1000
    finally:
        checkpointer.stop()
        engine.dispose()


def test_a_long_log_is_truncated_not_left_to_grow(tmp_path: Path) -> None:
    """PASSIVE checkpoints copy the log but never shorten the file; under constant readers
    the log never starts again from its beginning, so it only grew."""
    engine, db = _engine(tmp_path)
    wal = db.with_name(db.name + "-wal")
    checkpointer = WalCheckpointer(engine, every_s=3600, escalate_pages=200)
    keep = _keep_log(db)
    try:
        checkpointer.start()
        _add_rooms(engine, "a", 600)  # about 600 pages of log, none copied yet
        assert wal.stat().st_size > 200 * 4096
        checkpointer.stop()  # its last round finds the log over 200 pages
        assert wal.stat().st_size == 0
    finally:
        keep.close()
        engine.dispose()


def test_a_short_log_is_only_copied(tmp_path: Path) -> None:
    engine, db = _engine(tmp_path)
    wal = db.with_name(db.name + "-wal")
    checkpointer = WalCheckpointer(engine, every_s=3600, escalate_pages=10_000)
    keep = _keep_log(db)
    try:
        checkpointer.start()
        _add_rooms(engine, "a", 50)
        checkpointer.stop()
        assert wal.stat().st_size > 0  # reused from its start by the next writer
    finally:
        keep.close()
        engine.dispose()
