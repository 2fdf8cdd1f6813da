"""SQLite's WAL checkpoints: off in the commits of the app's engine, done by their own thread."""

from __future__ import annotations

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


def test_commits_leave_the_copying_to_the_checkpoint_thread(tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    url = f"sqlite:///{db}"
    migrate(url)
    engine = make_engine(url, background_checkpoints=True)
    try:
        with engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == 0
        size = db.stat().st_size
        # Far past SQLite's 1,000-page mark: no commit copied a page into the database file.
        _add_rooms(engine, "a", 1500)
        assert db.stat().st_size == size

        checkpointer = WalCheckpointer(engine, every_s=0.01)
        checkpointer.start()
        _add_rooms(engine, "b", 10)
        checkpointer.stop()
        assert db.stat().st_size > size + 1500 * 2000
    finally:
        engine.dispose()


def test_other_engines_keep_sqlites_own_checkpoints(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'a.db'}"
    migrate(url)
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == 1000
    finally:
        engine.dispose()
