"""A throwaway PostgreSQL database per test (127.0.0.1:5432, trust auth, user postgres).

The tests that need it skip only when ALLFOURS_TEST_POSTGRES is unset and no server
answers; CI sets it, so there a missing server fails instead.
"""

import os
import secrets
from collections.abc import Iterator

import psycopg
import pytest

ADMIN_URL = os.environ.get(
    "ALLFOURS_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres"
)


@pytest.fixture(scope="session")
def postgres_admin() -> str:
    try:
        with psycopg.connect(ADMIN_URL, connect_timeout=3):
            pass
    except psycopg.OperationalError as err:
        if os.environ.get("ALLFOURS_TEST_POSTGRES"):
            pytest.fail(f"ALLFOURS_TEST_POSTGRES is set but PostgreSQL does not answer: {err}")
        pytest.skip(f"no PostgreSQL at {ADMIN_URL}")
    return ADMIN_URL


@pytest.fixture
def postgres_url(postgres_admin: str) -> Iterator[str]:
    """The SQLAlchemy URL of a fresh, empty database, dropped afterwards."""
    name = f"allfours_hosting_{secrets.token_hex(6)}"
    with psycopg.connect(postgres_admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    base = postgres_admin.rsplit("/", 1)[0].replace("postgresql://", "postgresql+psycopg://", 1)
    try:
        yield f"{base}/{name}"
    finally:
        with psycopg.connect(postgres_admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
