"""Engine setup: SQLite (WAL, busy_timeout, foreign keys, BEGIN IMMEDIATE) or PostgreSQL."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from contextvars import ContextVar
from pathlib import Path
from typing import Any
from weakref import WeakKeyDictionary

from sqlalchemy import Connection, Engine, create_engine, event, exc, text

from app.settings import data_folder

BUSY_TIMEOUT_MS = 10_000


def normalize_url(url: str) -> str:
    """PostgreSQL always through psycopg 3 (psycopg2 is not installed)."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url.removeprefix(prefix)
    return url


def make_engine(url: str, *, pool_size: int = 10) -> Engine:
    """The engine for ``url``; on SQLite a ``WalCheckpointer`` may take the checkpoints over
    (app.store.checkpoint: it owns the pragma that turns the commits' own off)."""
    url = normalize_url(url)
    if url.startswith("sqlite"):
        folder = data_folder(url)
        if folder is not None:
            private_file(sqlite_file(url))
        engine = create_engine(
            url,
            connect_args={"check_same_thread": False, "timeout": BUSY_TIMEOUT_MS / 1000},
            pool_size=pool_size,
            max_overflow=20,
        )
        _sqlite_pragmas(engine)
        return engine
    return create_engine(url, pool_size=pool_size, max_overflow=20, pool_pre_ping=True)


def sqlite_file(url: str) -> Path:
    return Path(url.removeprefix("sqlite:///").split("?", 1)[0])


def private_file(path: Path) -> None:
    """Make ``path`` an empty file only its owner reads (0600), in a folder only its owner
    opens (0700) when it is made here, unless it is there already (a file there keeps its
    mode). SQLite gives its -wal and -shm files the database file's mode: they are 0600 too.
    The database holds what players' secrets are (API.md § Fifth round, "Secrets at rest")."""
    if not path.parent.exists():
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    with suppress(FileExistsError):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))


def _sqlite_pragmas(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        # Take transaction control from pysqlite so that "begin" below decides the mode.
        dbapi_conn.isolation_level = None
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        # A deferred read-then-write transaction gets "database is locked" under load:
        # writers take the write lock up front.
        # Straight to the driver: nothing of SQLAlchemy's statement machinery is needed here.
        mode = "IMMEDIATE" if conn.get_execution_options().get("write") else "DEFERRED"
        statement = f"BEGIN {mode}"
        try:
            conn.connection.driver_connection.execute(statement)  # type: ignore[union-attr]
        except sqlite3.OperationalError as err:  # "database is locked": callers retry on it
            raise exc.OperationalError(statement, (), err) from err


# One SQLite writer at a time in this process. Without it, writer threads queue inside
# SQLite's busy handler, which sleeps in growing steps (up to 100 ms): under load a move
# then waits tens of milliseconds for a lock that was free long before (bench.live).
class _Writer:
    """The engine's writer lock and, held under it, one long-lived write connection: a
    pool checkout, its reset on return and ``execution_options`` per move cost more than
    the three statements of a move (bench.live's profile)."""

    def __init__(self, engine: Engine) -> None:
        self.lock = threading.Lock()
        self.conn: Connection | None = None
        self.pool: object = None  # the pool it came from: dispose() makes a new one
        event.listen(engine, "engine_disposed", self._on_dispose)

    def connection(self, engine: Engine) -> Connection:
        """The write connection (the lock held): a new one after a dispose, since the
        checkpointer disposes the pool to set its pragma on every connection."""
        if self.conn is not None and (self.pool is not engine.pool or self.conn.closed):
            self.drop()
        if self.conn is None:
            self.conn = engine.connect().execution_options(write=True)
            self.pool = engine.pool
        return self.conn

    def drop(self) -> None:
        conn, self.conn = self.conn, None
        if conn is not None:
            with suppress(Exception):  # a connection that failed may fail to close too
                conn.close()

    def _on_dispose(self, _engine: Engine) -> None:
        with self.lock:
            self.drop()


_sqlite_writers: WeakKeyDictionary[Engine, _Writer] = WeakKeyDictionary()
_writers_made = threading.Lock()


def _writer(engine: Engine) -> _Writer:
    writer = _sqlite_writers.get(engine)
    if writer is None:
        with _writers_made:
            writer = _sqlite_writers.get(engine)
            if writer is None:
                writer = _sqlite_writers[engine] = _Writer(engine)
    return writer


def writer_lock(engine: Engine) -> threading.Lock:
    """The lock every SQLite write of this process takes (tests hold it to stand for a long
    write elsewhere)."""
    return _writer(engine).lock


# Set while a write runs on the event loop's own thread (``on_loop``): there it may not wait
# for the writer lock, since the thread holding it may need the loop to finish.
_on_loop: ContextVar[bool] = ContextVar("allfours_write_on_loop", default=False)


class WriterBusy(Exception):
    """An inline write found the SQLite writer lock taken: run it in a worker thread instead."""


def inline_writes(engine: Engine) -> bool:
    """Whether short writes may run on the event loop's thread: SQLite only, where a commit
    is a local file write (WAL, synchronous=NORMAL: no fsync) that costs less than the hop to
    a worker thread and back. PostgreSQL waits on the network: always a worker thread."""
    return engine.dialect.name == "sqlite"


@contextmanager
def on_loop() -> Iterator[None]:
    """Writes inside this block refuse to wait for the writer lock (``WriterBusy``)."""
    token = _on_loop.set(True)
    try:
        yield
    finally:
        _on_loop.reset(token)


def _may_wait() -> bool:
    """False inside ``on_loop`` on the loop's own thread. Tasks started there (the keeper's)
    inherit the flag with the context, and so do the worker threads they hand writes to:
    those may wait, since they block no loop."""
    if not _on_loop.get():
        return True
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return True
    return False


@contextmanager
def write(engine: Engine) -> Iterator[Connection]:
    """One write transaction (BEGIN IMMEDIATE on SQLite), committed on success."""
    if engine.dialect.name != "sqlite":
        with engine.connect().execution_options(write=True) as conn, conn.begin():
            yield conn
        return
    writer = _writer(engine)
    if not writer.lock.acquire(blocking=_may_wait()):
        raise WriterBusy
    try:
        conn = writer.connection(engine)
        try:
            with conn.begin():
                yield conn
        except exc.DBAPIError:
            writer.drop()  # the driver failed (busy, closed, corrupt): a fresh one next time
            raise
        finally:
            if conn.in_transaction():  # a BEGIN that half failed: never reuse it
                writer.drop()
    finally:
        writer.lock.release()


@contextmanager
def read(engine: Engine) -> Iterator[Connection]:
    """One read transaction that sees one moment of the database. SQLite's read transaction
    does; PostgreSQL's default (READ COMMITTED) lets each statement see the commits made since
    the last one, so a room read in two queries could pair one version's number with the
    next version's moves: there, REPEATABLE READ (psycopg sends it with the BEGIN)."""
    conn = engine.connect()
    if engine.dialect.name == "postgresql":
        conn = conn.execution_options(isolation_level="REPEATABLE READ")
    with conn, conn.begin():
        yield conn


def ping(engine: Engine) -> None:
    with engine.connect() as conn:
        conn.execute(text("SELECT 1"))
