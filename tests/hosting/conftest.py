"""A throwaway PostgreSQL database per test (127.0.0.1:5432, trust auth, user postgres).

The tests that need it skip only when ALLFOURS_TEST_POSTGRES is unset and no server
answers; CI sets it, so there a missing server fails instead.
"""

import os
import resource
import secrets
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import psycopg
import pytest

from tests.hosting.support import Server, free_port, wait_healthy

ROOT = Path(__file__).resolve().parents[2]

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
    yield from fresh_database(postgres_admin)


def fresh_database(postgres_admin: str) -> Iterator[str]:
    """A fresh, empty database's SQLAlchemy URL; dropped when the generator closes."""
    name = f"allfours_hosting_{secrets.token_hex(6)}"
    with psycopg.connect(postgres_admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    base = postgres_admin.rsplit("/", 1)[0].replace("postgresql://", "postgresql+psycopg://", 1)
    try:
        yield f"{base}/{name}"
    finally:
        with psycopg.connect(postgres_admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def start_server(tmp_path: Path) -> Iterator[Callable[..., Server]]:
    """Starts servers (migrations first, as `make run` does); stops them all afterwards."""
    started: list[Server] = []

    def start(database_url: str, nofile: tuple[int, int] | None = None, **env: str) -> Server:
        """``nofile``: the open-file limit (soft, hard) the process starts with."""
        port = free_port()
        log = tmp_path / f"server-{port}.log"
        environ = {
            **os.environ,
            "DATABASE_URL": database_url,
            "HOST": "127.0.0.1",
            "PORT": str(port),
            "ALLFOURS_RATE_LIMIT": "0",
            "ALLFOURS_BOT_DELAY_MS": "0",
            "LOG_LEVEL": "info",
            **env,
        }
        with log.open("wb") as sink:
            proc = subprocess.Popen(
                [sys.executable, "-m", "app.serve"],
                env=environ,
                stdin=subprocess.DEVNULL,
                stdout=sink,
                stderr=subprocess.STDOUT,
                cwd=ROOT,
                preexec_fn=(lambda: resource.setrlimit(resource.RLIMIT_NOFILE, nofile))
                if nofile is not None
                else None,
            )
        server = Server(proc, port, log)
        started.append(server)
        wait_healthy(server)
        return server

    yield start
    for server in started:
        server.proc.send_signal(signal.SIGTERM)
    for server in started:
        try:
            server.proc.wait(20)
        except subprocess.TimeoutExpired:
            server.proc.kill()
            server.proc.wait()
