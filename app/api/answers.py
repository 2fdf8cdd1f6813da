"""What the routes answer with, shared by every route module (no route module imports
another's): the JSON view, the page's table after a form, the seat cookie, the event stream,
the error shapes of the OpenAPI document."""

from __future__ import annotations

from typing import Any

from fastapi import Request, Response
from fastapi.responses import HTMLResponse, RedirectResponse
from sse_starlette import EventSourceResponse

from app import i18n
from app.api.context import SEAT_COOKIE, Context
from app.api.limits import LimitedEventSource
from app.api.schemas import ErrorOut
from app.live.hub import StreamEnd
from app.services.events import room_events
from app.services.housekeeping import until_gone
from app.services.identity import seat_of
from app.services.snapshot import RoomSnap
from app.services.view import json_renderer, view_text
from app.web.render import table_renderer

# How long a stopping server lets each event stream end on its own (it takes a wake-up).
SHUTDOWN_GRACE_S = 1.0


def errors_of(*codes: int) -> dict[int | str, dict[str, Any]]:
    return {code: {"model": ErrorOut} for code in codes}


def viewer_seat(ctx: Context, snap: RoomSnap, token: str | None) -> int | None:
    """The caller's seat (None: a spectator); a seated caller counts as present."""
    seat = seat_of(snap, token)
    if seat is not None:
        ctx.presence.touch(snap.code, seat)
    return seat


def view_response(ctx: Context, snap: RoomSnap, token: str | None) -> Response:
    """The caller's view as JSON, rendered once and shared with the caller's own stream.
    Never cached: it holds the caller's hand."""
    seat = viewer_seat(ctx, snap, token)
    text = view_text(ctx.views, snap, seat, ctx.presence, json_renderer)
    return Response(text, media_type="application/json", headers=NO_STORE)


NO_STORE = {"Cache-Control": "no-store"}


def set_seat_cookie(response: Response, request: Request, snap: RoomSnap, token: str) -> None:
    """The browser's seat token: HttpOnly, SameSite=Lax, scoped to this room's pages and API,
    Secure when served over HTTPS. A browser that already holds another seat of this table
    keeps that cookie: a second seat never silently takes the place of the first."""
    held = request.cookies.get(SEAT_COOKIE)
    if held and held != token and seat_of(snap, held) is not None:
        return
    for path in (f"/r/{snap.code}", f"/api/rooms/{snap.code}"):
        response.set_cookie(
            SEAT_COOKIE,
            token,
            max_age=60 * 60 * 24 * 30,
            path=path,
            httponly=True,
            samesite="lax",
            secure=request.url.scheme == "https",
        )


def from_browser(request: Request) -> bool:
    """A page's fetch or htmx request, not a script: only browsers get the seat cookie, so
    one cookie-keeping API client can seat four players and still look on as a spectator."""
    headers = request.headers
    return "sec-fetch-mode" in headers or "hx-request" in headers


def htmx(request: Request) -> bool:
    return request.headers.get("hx-request") == "true"


def table_html(ctx: Context, snap: RoomSnap, token: str | None) -> str:
    """The caller's table, rendered once and shared with the caller's own stream."""
    seat = viewer_seat(ctx, snap, token)
    return view_text(ctx.views, snap, seat, ctx.presence, table_renderer(i18n.current()))


def page_answer(ctx: Context, request: Request, snap: RoomSnap, token: str | None) -> Response:
    """The table after a form: the fragment for htmx, back to the room for a plain form."""
    if htmx(request):
        return HTMLResponse(table_html(ctx, snap, token), headers={"Cache-Control": "no-store"})
    return RedirectResponse(f"/r/{snap.code}", status_code=303)


def event_stream(
    ctx: Context, snap: RoomSnap, token: str | None, *, gzip: bool = False, **kwargs: Any
) -> EventSourceResponse:
    """An SSE response for one viewer; ``kwargs`` go to ``room_events`` (e.g. ``render``).
    With ``gzip`` it is compressed, flushed per event, for a client that accepts gzip.
    It counts against the caps on open streams per client address and per room (429 before
    it starts, app/api/limits.py); a reader that stops reading is dropped by the connection
    layer (app/net.py)."""
    seat = seat_of(snap, token)
    end = StreamEnd()
    stream = room_events(
        tables=ctx.tables,
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
        until_gone(stream),
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
