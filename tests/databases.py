"""The databases the server tests run on: a temporary SQLite file and a throwaway PostgreSQL
database (127.0.0.1:5432, trust auth), made once per test module and dropped after it.

PostgreSQL tests skip only when ALLFOURS_TEST_POSTGRES is unset and no server answers; CI
sets it, so a missing server fails there.
"""

from __future__ import annotations

import os
import secrets
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


def make_database(kind: str, folder: Path, revision: str = "head") -> Iterator[str]:
    if kind == "sqlite":
        url = f"sqlite:///{folder / 'allfours.db'}"
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
