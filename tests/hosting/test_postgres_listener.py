"""The LISTEN/NOTIFY notifier against a real PostgreSQL, in one process."""

import asyncio
import time
from collections.abc import Callable

import psycopg
import pytest
from sqlalchemy import create_engine

from app.live.hub import Hub
from app.live.notifier import CHANNEL
from app.live.postgres import PostgresNotifier, listener_conninfo


async def _until(condition: Callable[[], object], timeout_s: float = 10.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.01)


def _libpq(url: str) -> str:
    return url.replace("postgresql+psycopg://", "postgresql://", 1)


@pytest.mark.asyncio
async def test_only_a_committed_move_is_heard(postgres_url: str) -> None:
    hub = Hub()
    hub.bind(asyncio.get_running_loop())
    heard: list[tuple[str, int]] = []
    hub.on_version(lambda code, version: heard.append((code, version)))
    notifier = PostgresNotifier(hub, postgres_url)
    await notifier.start()
    engine = create_engine(postgres_url)
    try:
        assert notifier.listening
        with engine.connect() as conn:
            with conn.begin() as trans:
                notifier.in_transaction(conn, "lost", 6)
                trans.rollback()
            with conn.begin():
                notifier.in_transaction(conn, "kept", 7)
        await _until(lambda: heard)
        assert heard == [("kept", 7)]
    finally:
        await notifier.stop()
        engine.dispose()


@pytest.mark.asyncio
async def test_a_killed_listener_reconnects_and_resyncs_every_stream(postgres_url: str) -> None:
    hub = Hub()
    hub.bind(asyncio.get_running_loop())
    heard: list[tuple[str, int]] = []
    hub.on_version(lambda code, version: heard.append((code, version)))
    notifier = PostgresNotifier(hub, postgres_url, min_backoff_s=1.5)
    await notifier.start()
    try:
        with hub.subscribe("room") as stream:
            first_pid = notifier.backend_pid
            assert first_pid is not None
            async with await psycopg.AsyncConnection.connect(
                _libpq(postgres_url), autocommit=True
            ) as other:
                await other.execute("SELECT pg_terminate_backend(%s)", [first_pid])
                await _until(lambda: not notifier.listening)
                # Sent while nobody listens: gone for good, which is why streams resync.
                await other.execute("SELECT pg_notify(%s, %s)", [CHANNEL, "room:8"])
                assert not notifier.listening
                stream.resync = False
                await _until(lambda: notifier.listening)
                assert notifier.backend_pid not in (None, first_pid)
                assert stream.resync, "streams were not told to re-read after the reconnect"
                await other.execute("SELECT pg_notify(%s, %s)", [CHANNEL, "room:9"])
                await _until(lambda: ("room", 9) in heard)
        assert ("room", 8) not in heard
        assert notifier.connects == 2
    finally:
        await notifier.stop()


@pytest.mark.asyncio
async def test_no_database_at_start_does_not_stop_the_server() -> None:
    hub = Hub()
    hub.bind(asyncio.get_running_loop())
    notifier = PostgresNotifier(
        hub, "postgresql+psycopg://postgres@127.0.0.1:1/none", start_timeout_s=0.3
    )
    await notifier.start()
    assert not notifier.listening
    await notifier.stop()


def test_listener_url_is_libpq_with_keepalives_and_a_name() -> None:
    url = listener_conninfo("postgresql+psycopg://u:p%40ss@db:5432/allfours?sslmode=require")
    assert url.startswith("postgresql://u:p%40ss@db:5432/allfours?")
    assert "sslmode=require" in url and "keepalives=1" in url
    assert "application_name=allfours-listener" in url
