"""A room's live stream for one viewer, composed here and nowhere else:

    room_events (app/services/events.py)    the viewer's events: a view per version, chat,
        |                                    presence, as dicts (event, id, data)
    until_gone                               ends quietly once the room is removed
        |
    while_signed_in                          a player's stream (by their key) ends once
        |                                    that device is signed out or the profile gone
    frames (app/api/sse_frames.py)           each event as its SSE bytes
        |
    LimitedEventSource                       the response: a place in the StreamGate first
        |                                    (429 without one), pings, shutdown
    GzipEvents (app/api/stream_gzip.py)      with ``gzip`` and a client that accepts it: the
                                             bytes compressed, flushed per event

The stages are one job each; ``event_stream`` is the one place they are chained. A reader that
stops reading is dropped by the connection layer (app/net.py), not here.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterator
from contextlib import aclosing, suppress
from typing import Any

from sse_starlette import EventSourceResponse
from starlette.types import Message, Receive, Scope, Send

from app.api.context import Context
from app.api.errors import error_response, status_of
from app.api.limits import StreamGate, client_address
from app.api.sse_frames import frames
from app.api.stream_gzip import GzipEvents, accepts_gzip
from app.live.hub import StreamEnd
from app.players import keys
from app.services import errors
from app.services.events import room_events
from app.services.identity import seat_of
from app.services.players import Players
from app.services.snapshot import RoomSnap

# How long a stopping server lets each event stream end on its own (it takes a wake-up).
SHUTDOWN_GRACE_S = 1.0

# The sse-starlette minor versions LimitedEventSource was tested on: it replaces one of
# sse-starlette's private methods (tests/api/test_sse_starlette_version.py holds it there).
TESTED_SSE_STARLETTE = ("3.7",)

Json = dict[str, Any]


def event_stream(
    ctx: Context,
    snap: RoomSnap,
    token: str | None,
    *,
    gzip: bool = False,
    key: str | None = None,
    **kwargs: Any,
) -> EventSourceResponse:
    """An SSE response for one viewer; ``kwargs`` go to ``room_events`` (e.g. ``render``).
    With ``gzip`` it is compressed, flushed per event, for a client that accepts gzip.
    It counts against the caps on open streams per client address and per room (429 before
    it starts, app/api/limits.py). With a player's ``key``, it ends once the key acts no more.
    """
    seat = seat_of(snap, token)
    end = StreamEnd()
    events = room_events(
        rooms=ctx.rooms,
        hub=ctx.hub,
        presence=ctx.presence,
        views=ctx.views,
        code=snap.code,
        seat=seat,
        end=end,
        talk=ctx.talk,
        token=token,
        **kwargs,
    )
    return LimitedEventSource(
        frames(
            while_signed_in(until_gone(out_of_sight_after(events, ctx, snap, seat)), ctx, key, end),
            LimitedEventSource.DEFAULT_SEPARATOR,
        ),
        gate=ctx.streams,
        room=snap.code,
        seat=seat,
        gzip=gzip,
        ping=ctx.settings.ping_s,
        # No per-send timeout (a cancel scope per event: LimitedEventSource sends straight):
        # the connection drops a reader that stops reading (app/net.py, send_timeout_s).
        headers={"X-Accel-Buffering": "no", "Cache-Control": "no-store"},
        # Not an anyio.Event: sse-starlette only calls its set(), when the server stops.
        shutdown_event=end,
        shutdown_grace_period=SHUTDOWN_GRACE_S,
    )


async def out_of_sight_after(
    events: AsyncIterator[Json], ctx: Context, snap: RoomSnap, seat: int | None
) -> AsyncGenerator[Json, None]:
    """A seat's events; once they end and the seat has no other stream here, a player's page
    is out of sight (Web Push tells a player whose turn comes while none is in sight; a
    guest's seat has no one to tell)."""
    held = snap.seats[seat] if seat is not None else None
    player_seat = held.seat if held is not None and held.player is not None else None
    try:
        async with aclosing(events) as own:  # type: ignore[type-var]
            async for event in own:
                yield event
    finally:
        if player_seat is not None and not ctx.presence.connected(snap.code, player_seat):
            ctx.push.stream_closed(snap.code, player_seat)


async def until_gone(events: AsyncIterator[Json]) -> AsyncGenerator[Json, None]:
    """A room's events that end quietly once the room is removed (its next read finds none)."""
    with suppress(errors.NotFound):
        async for event in events:
            yield event


async def while_signed_in(
    events: AsyncIterator[Json], ctx: Context, key: str | None, end: StreamEnd
) -> AsyncGenerator[Json, None]:
    """A player's events while the key they were asked with still acts: a device signed out,
    or a profile deleted, sees nothing more of the seat (API.md § Players), and its stream
    ends at once, event or not: the hub wakes it (``end``) when the key is signed out, in
    this process or another (API.md § Fifth round, "Sessions end")."""
    if key is None:
        async for event in events:
            yield event
        return
    players: Players = ctx.players
    with ctx.hub.watch_key(keys.hashed(key), end):
        # Served from memory while the key lives: a sign-out forgets it and ends the stream
        # at once, in every process; this check is for one signed out before the watch
        # began, or unheard while the notifier reconnected (which forgets every key).
        async for event in events:
            if await players.acting(key) is None:
                return
            yield event


class LimitedEventSource(EventSourceResponse):
    """An event stream of ready frames that takes its place in the ``StreamGate`` before it
    starts (429 in the API's error format when there is none) and gives it back when it ends.
    With ``gzip``, a client that accepts gzip gets it compressed, flushed after every event
    (app/api/stream_gzip.py)."""

    def __init__(
        self,
        content: AsyncIterator[bytes],
        *,
        gate: StreamGate,
        room: str,
        seat: int | None,
        gzip: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(content, **kwargs)
        self.gate = gate
        self.room = room
        self.seat = seat
        self.gzip = gzip

    async def _send_with_timeout(self, send: Send, message: Message) -> None:
        # sse-starlette opens a cancel scope around every send, even with no timeout set (a
        # few microseconds an event, python -m bench.send_path): the write-stall limit is the
        # connection's (app/net.py), so each event goes straight out. A send that fails is
        # marked as sse-starlette's own does, so it tries no closing send after it.
        try:
            await send(message)
        except BaseException:
            self._send_interrupted = True
            raise

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        gate = self.gate
        address = client_address(scope)
        refused = gate.admit(address, self.room, self.seat)
        if refused is not None:
            answer = error_response(
                status_of(refused),
                refused.error,
                refused.detail,
                {"Retry-After": "30"},
                code=refused.code,
                params=refused.params,
            )
            await answer(scope, receive, send)
            return
        if self.gzip and accepts_gzip(scope):
            send = GzipEvents(send)
        try:
            await super().__call__(scope, receive, send)
        finally:
            gate.release(address, self.room, self.seat)
