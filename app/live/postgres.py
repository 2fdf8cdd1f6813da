"""PostgreSQL LISTEN/NOTIFY: several app processes on one database serve one room.

A move's transaction runs ``pg_notify('allfours', 'room:version')``, so the notification
leaves if and only if the move commits. Each process keeps one dedicated connection that
LISTENs on the channel and hands every payload to its hub. That connection can drop
(a database restart, a failover, ``pg_terminate_backend``): the listener reconnects with
growing, jittered delays, and once it listens again it tells every stream of the process to
re-read its room, because notifications sent while nobody listened are gone for good.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
from contextlib import suppress

import psycopg
from sqlalchemy import Connection, text
from sqlalchemy.engine import make_url

from app.live.hub import Hub, RoomEvent
from app.live.notifier import (
    CHANNEL,
    Notifier,
    event_payload,
    key_payload,
    parse_event_payload,
    parse_key_payload,
    parse_payload,
    payload,
)

log = logging.getLogger("allfours.live.postgres")

_NOTIFY = text("SELECT pg_notify(:channel, :payload)")

# A connection that dies without a word (a cable pulled, a NAT forgetting it) is noticed by
# the TCP keepalives and by a `SELECT 1` whenever the channel has been quiet this long.
QUIET_CHECK_S = 20.0
CHECK_TIMEOUT_S = 10.0


def listener_conninfo(database_url: str) -> str:
    """The SQLAlchemy URL as a libpq one (no ``+psycopg``), with timeouts and keepalives."""
    url = make_url(database_url).set(drivername="postgresql")
    query = {
        "connect_timeout": "10",
        "keepalives": "1",
        "keepalives_idle": "10",
        "keepalives_interval": "5",
    }
    query.update({k: str(v) for k, v in url.query.items()})
    # The pid tells an operator (and the scale-out test) whose listener a backend is.
    query["application_name"] = f"allfours-listener-{os.getpid()}"
    return url.set(query=query).render_as_string(hide_password=False)


class PostgresNotifier(Notifier):
    def __init__(
        self,
        hub: Hub,
        database_url: str,
        *,
        min_backoff_s: float = 0.05,
        max_backoff_s: float = 5.0,
        start_timeout_s: float = 10.0,
    ) -> None:
        super().__init__(hub)
        self._conninfo = listener_conninfo(database_url)
        self._min_backoff_s = min_backoff_s
        self._max_backoff_s = max_backoff_s
        self._start_timeout_s = start_timeout_s
        self._task: asyncio.Task[None] | None = None
        self._listening = asyncio.Event()
        # For operators and tests: which backend listens, and how often it (re)connected.
        self.backend_pid: int | None = None
        self.connects = 0

    def in_transaction(self, conn: Connection, code: str, version: int) -> None:
        conn.execute(_NOTIFY, {"channel": CHANNEL, "payload": payload(code, version)})

    def event_in_transaction(self, conn: Connection, code: str, event: RoomEvent) -> None:
        conn.execute(_NOTIFY, {"channel": CHANNEL, "payload": event_payload(code, event)})

    def keys_ended_in_transaction(self, conn: Connection, digests: list[str]) -> None:
        for digest in digests:
            conn.execute(_NOTIFY, {"channel": CHANNEL, "payload": key_payload(digest)})

    @property
    def listening(self) -> bool:
        return self._listening.is_set()

    async def start(self) -> None:
        if self._task is not None and not self._task.done():
            # One listener per process. An app whose lifespan is entered a second time on
            # another event loop (schemathesis does that beside a test client) keeps the first.
            return
        self._listening = asyncio.Event()
        self._task = asyncio.create_task(self._listen_forever(), name="allfours-listener")
        # Serve even if the database is not there yet: the loop keeps trying, /healthz says 503
        # meanwhile, and the first connection resyncs whatever streams opened in between.
        with suppress(TimeoutError):
            await asyncio.wait_for(self._listening.wait(), self._start_timeout_s)

    async def stop(self) -> None:
        task = self._task
        if task is None or task.get_loop() is not asyncio.get_running_loop():
            return  # not ours to stop: the lifespan that started it stops it
        self._task = None
        task.cancel()
        with suppress(asyncio.CancelledError):
            await task

    async def _listen_forever(self) -> None:
        backoff = self._min_backoff_s
        while True:
            connects_before = self.connects
            try:
                await self._listen_once()
            except (psycopg.Error, OSError, TimeoutError) as err:
                reason = " ".join(str(err).split()) or type(err).__name__
                log.warning(
                    "listener connection lost; reconnecting",
                    extra={"event": "listener_lost", "reason": reason},
                )
            self._listening.clear()
            self.backend_pid = None
            if self.connects > connects_before:
                backoff = self._min_backoff_s  # it did listen: a fresh loss starts over
            # Jitter: replicas that lost the database together don't come back in step.
            await asyncio.sleep(random.uniform(backoff / 2, backoff))
            backoff = min(backoff * 2, self._max_backoff_s)

    async def _listen_once(self) -> None:
        async with await psycopg.AsyncConnection.connect(self._conninfo, autocommit=True) as conn:
            await conn.execute(f"LISTEN {CHANNEL}")
            self.backend_pid = conn.info.backend_pid
            self.connects += 1
            self._listening.set()
            if self.connects > 1:
                log.info(
                    "listener reconnected; resyncing every stream",
                    extra={"event": "listener_back", "streams": self.hub.stream_count()},
                )
            # Always resync: on the first connection this wakes streams that opened while
            # the database was still out of reach.
            self.hub.resync_all_threadsafe()
            while True:
                heard = False
                async for notify in conn.notifies(timeout=QUIET_CHECK_S):
                    heard = True
                    if (digest := parse_key_payload(notify.payload)) is not None:
                        self.hub.keys_ended_threadsafe([digest])
                        continue
                    parsed = parse_payload(notify.payload)
                    if parsed is not None:
                        # To the hub's own loop, like a local commit's announcement.
                        self.hub.publish_threadsafe(*parsed)
                    elif (event := parse_event_payload(notify.payload)) is not None:
                        self.hub.event_threadsafe(*event)
                if not heard:
                    await asyncio.wait_for(conn.execute("SELECT 1"), CHECK_TIMEOUT_S)
