"""The store: SQLite pragmas, the migrations against the models, the version check, and the
append-only action log."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from app.serve import migrate
from app.services.snapshot import load
from app.store import repo
from app.store.db import make_engine, read, write
from app.store.models import Base


def test_sqlite_runs_in_wal_with_busy_timeout_and_foreign_keys(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'deep' / 'folder' / 'a.db'}"
    migrate(url)  # creates the folder
    engine = make_engine(url)
    with engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        busy_timeout = conn.exec_driver_sql("PRAGMA busy_timeout").scalar()
        assert busy_timeout is not None and busy_timeout >= 1000
    engine.dispose()


def test_sqlite_writers_take_the_lock_up_front(tmp_path: Path) -> None:
    """BEGIN IMMEDIATE: a second writer waits at BEGIN instead of failing mid-transaction."""
    url = f"sqlite:///{tmp_path / 'a.db'}"
    migrate(url)
    engine = make_engine(url)
    order: list[str] = []
    inside = threading.Event()
    release = threading.Event()

    def first() -> None:
        with write(engine) as conn:
            repo.insert_room(conn, code="first", rules={}, seed=None)
            order.append("first in")
            inside.set()
            release.wait(10)
            order.append("first out")

    def second() -> None:
        inside.wait(10)
        with write(engine) as conn:
            order.append("second in")
            repo.insert_room(conn, code="second", rules={}, seed=None)

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for t in threads:
        t.start()
    inside.wait(10)
    release.set()
    for t in threads:
        t.join()
    assert order == ["first in", "first out", "second in"]
    engine.dispose()


def test_migrations_match_the_models(database_url: str) -> None:
    engine = make_engine(database_url)
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    engine.dispose()
    assert diff == []


def test_migrating_twice_is_harmless(database_url: str) -> None:
    migrate(database_url)
    migrate(database_url)


def test_the_version_check_lets_one_writer_through(database_url: str) -> None:
    engine = make_engine(database_url)
    with write(engine) as conn:
        room_id = repo.insert_room(conn, code="vcheck", rules={}, seed=None)
    with write(engine) as conn:
        assert repo.bump_version(conn, room_id, 0) is True
    with write(engine) as conn:
        assert repo.bump_version(conn, room_id, 0) is False
    with read(engine) as conn:
        room = repo.room_by_code(conn, "vcheck")
        assert room is not None and room.version == 1
    engine.dispose()


def test_actions_are_unique_per_game_and_seq(database_url: str) -> None:
    engine = make_engine(database_url)
    with write(engine) as conn:
        room_id = repo.insert_room(conn, code="uniq", rules={}, seed=None)
        game_id = repo.insert_game(
            conn,
            room_id=room_id,
            number=1,
            rules={},
            seed=1,
            first_dealer=0,
            version=1,
            turn=1,
            shuffle=2,
        )
        repo.insert_action(
            conn, game_id=game_id, seq=1, seat=1, type="stand", card=None, version=2, auto=False
        )
    with pytest.raises(IntegrityError), write(engine) as conn:
        repo.insert_action(
            conn, game_id=game_id, seq=1, seat=1, type="beg", card=None, version=3, auto=False
        )
    with read(engine) as conn:
        assert [a.type for a in repo.actions_of(conn, game_id)] == ["stand"]
        actions = conn.execute(text("SELECT count(*) FROM actions")).scalar()
        assert actions is not None and actions >= 1
    engine.dispose()


def test_foreign_keys_are_enforced(database_url: str) -> None:
    engine = make_engine(database_url)
    with pytest.raises(IntegrityError), write(engine) as conn:
        repo.insert_seat(
            conn,
            room_id=999_999,
            seat=0,
            name="x",
            bot=False,
            level=None,
            token_hash=None,
            version=1,
        )
    engine.dispose()


def test_sqlite_write_on_the_loop_never_waits_and_worker_threads_still_do(tmp_path: Path) -> None:
    """Inside ``on_loop`` on the event loop's thread a taken writer lock is ``WriterBusy`` (the
    caller moves to a worker thread); a worker thread that inherited the flag (a task started
    by an inline move hands its write to a thread) waits for the lock as usual."""
    import asyncio

    from app.store.db import WriterBusy, on_loop

    url = f"sqlite:///{tmp_path / 'a.db'}"
    migrate(url)
    engine = make_engine(url)
    inside = threading.Event()
    release = threading.Event()

    def holder() -> None:
        with write(engine) as conn:
            repo.insert_room(conn, code="holder", rules={}, seed=None)
            inside.set()
            release.wait(10)

    def inherited() -> str:
        with write(engine) as conn:
            repo.insert_room(conn, code="inherited", rules={}, seed=None)
        return "written"

    async def main() -> str:
        with on_loop():
            with pytest.raises(WriterBusy), write(engine):
                pass
            waiting = asyncio.ensure_future(asyncio.to_thread(inherited))
        await asyncio.sleep(0.05)
        assert not waiting.done()  # it waits for the holder rather than failing
        release.set()
        return await waiting

    thread = threading.Thread(target=holder)
    thread.start()
    inside.wait(10)
    try:
        assert asyncio.run(main()) == "written"
    finally:
        release.set()
        thread.join(10)
    with read(engine) as conn:
        assert repo.room_by_code(conn, "inherited") is not None
        assert repo.room_by_code(conn, "holder") is not None
    engine.dispose()


def test_a_read_sees_one_moment_and_a_room_is_read_at_its_own_version(database_url: str) -> None:
    """A stream reads the room's row, then its seats and moves: a move committed in between
    must not slip into a snapshot labelled with the version before it (PostgreSQL's READ
    COMMITTED would show it to the later statements; a leak of the mover's card once)."""
    engine = make_engine(database_url)
    with write(engine) as conn:
        room_id = repo.insert_room(conn, code="moment", rules={}, seed=None)
        repo.bump_version(conn, room_id, 0)
        repo.insert_seat(
            conn,
            room_id=room_id,
            seat=0,
            name="Ann",
            bot=False,
            level=None,
            token_hash=None,
            version=1,
        )
    with read(engine) as conn:
        room = repo.room_by_code(conn, "moment")
        assert room is not None and room.version == 1
        with write(engine) as other:  # a second seat sits down meanwhile (version 2)
            assert repo.bump_version(other, room_id, 1)
            repo.insert_seat(
                other,
                room_id=room_id,
                seat=1,
                name="Ben",
                bot=False,
                level=None,
                token_hash=None,
                version=2,
            )
        assert [s.name for s in repo.seats_of(conn, room_id)] == ["Ann"]
        snap = load(conn, room)
        assert snap.version == 1
        assert [s.name if s else None for s in snap.seats] == ["Ann", None, None, None]
    engine.dispose()
