"""Engine setup: SQLite (WAL, busy_timeout, foreign keys, BEGIN IMMEDIATE) or PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event, text

from app.settings import data_folder

BUSY_TIMEOUT_MS = 10_000


def normalize_url(url: str) -> str:
    """PostgreSQL always through psycopg 3 (psycopg2 is not installed)."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url.removeprefix(prefix)
    return url


def make_engine(url: str, *, pool_size: int = 10) -> Engine:
    url = normalize_url(url)
    if url.startswith("sqlite"):
        folder = data_folder(url)
        if folder is not None:
            folder.mkdir(parents=True, exist_ok=True)
        engine = create_engine(
            url,
            connect_args={"check_same_thread": False, "timeout": BUSY_TIMEOUT_MS / 1000},
            pool_size=pool_size,
            max_overflow=20,
        )
        _sqlite_pragmas(engine)
        return engine
    return create_engine(url, pool_size=pool_size, max_overflow=20, pool_pre_ping=True)


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
        mode = "IMMEDIATE" if conn.get_execution_options().get("write") else "DEFERRED"
        conn.exec_driver_sql(f"BEGIN {mode}")


@contextmanager
def write(engine: Engine) -> Iterator[Connection]:
    """One write transaction (BEGIN IMMEDIATE on SQLite), committed on success."""
    with engine.connect().execution_options(write=True) as conn, conn.begin():
        yield conn


@contextmanager
def read(engine: Engine) -> Iterator[Connection]:
    with engine.connect() as conn, conn.begin():
        yield conn


def ping(engine: Engine) -> None:
    with engine.connect() as conn:
        conn.execute(text("SELECT 1"))
