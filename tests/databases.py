"""The databases the server tests run on: a temporary SQLite file and a throwaway PostgreSQL
database (127.0.0.1:5432, trust auth), made once per test module and dropped after it.

PostgreSQL tests skip only when ALLFOURS_TEST_POSTGRES is unset and no server answers; CI
sets it, so a missing server fails there.
"""

from __future__ import annotations

import atexit
import os
import secrets
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from app.serve import migrate

PG_ADMIN = "host=127.0.0.1 port=5432 user=postgres dbname=postgres connect_timeout=3"
BACKENDS = ["sqlite", "postgresql"]


def _postgres_or_skip() -> None:
    try:
        psycopg.connect(PG_ADMIN).close()
    except psycopg.OperationalError as err:
        if os.environ.get("ALLFOURS_TEST_POSTGRES"):
            pytest.fail(f"ALLFOURS_TEST_POSTGRES is set but PostgreSQL does not answer: {err}")
        pytest.skip("no PostgreSQL on 127.0.0.1:5432 (set ALLFOURS_TEST_POSTGRES to require it)")


_SQLITE_HEAD: list[Path] = []  # the migrated SQLite file copied for each module, once made


def _sqlite_at_head() -> Path:
    """A SQLite file migrated to head, once per test process: each module gets a copy of it
    instead of running every migration again (15 of them, for each of ~100 modules)."""
    if not _SQLITE_HEAD:
        folder = Path(tempfile.mkdtemp(prefix="allfours-template-"))
        atexit.register(shutil.rmtree, folder, True)
        migrate(f"sqlite:///{folder / 'head.db'}", "head")
        _SQLITE_HEAD.append(folder / "head.db")
    return _SQLITE_HEAD[0]


def _copy_sqlite(source: Path, target: Path) -> None:
    """A consistent copy (SQLite's backup API: whatever a write-ahead log still holds too)."""
    with sqlite3.connect(source) as src, sqlite3.connect(target) as dst:
        src.backup(dst)
    src.close()
    dst.close()


def make_database(kind: str, folder: Path, revision: str = "head") -> Iterator[str]:
    if kind == "sqlite":
        url = f"sqlite:///{folder / 'allfours.db'}"
        # A folder not made yet is the server's to make (privately, as migrate does:
        # tests/hosting/test_secrets_at_rest.py reads its mode), so only an existing one
        # takes the copy.
        if revision == "head" and folder.is_dir():
            _copy_sqlite(_sqlite_at_head(), folder / "allfours.db")
        else:
            migrate(url, revision)
        yield url
        return
    _postgres_or_skip()
    name = f"allfours_test_{secrets.token_hex(6)}"
    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    url = f"postgresql+psycopg://postgres@127.0.0.1:5432/{name}"
    try:
        migrate(url, revision)
        yield url
    finally:
        with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="module", params=BACKENDS)
def database_url(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    yield from make_database(request.param, tmp_path_factory.mktemp(request.param))
