"""The JSON API of API.md: rooms, seats, actions, hand records, live events."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Path, Request, Response
from sse_starlette import EventSourceResponse
from starlette.concurrency import run_in_threadpool

from app.api.admin_token import is_admin
from app.api.context import SEAT_COOKIE, Context, ContextDep, TokenDep
from app.api.limits import ROOM_QUOTA, LimitedEventSource
from app.api.schemas import (
    ActionIn,
    CreateRoom,
    ErrorOut,
    Join,
    Joined,
    RoomCreated,
    SeatBot,
    View,
)
from app.live.hub import StreamEnd
from app.reasons import N_, reason
from app.rules.view import HandRecordView
from app.services import errors
from app.services.decide import action_from
from app.services.events import room_events
from app.services.housekeeping import until_gone
from app.services.identity import seat_of
from app.services.snapshot import RoomSnap
from app.services.view import json_renderer, view_text

router = APIRouter(prefix="/api", tags=["rooms"])
# How long a stopping server lets each event stream end on its own (it takes a wake-up).
SHUTDOWN_GRACE_S = 1.0

SEED_ADMIN_ONLY = reason(
    "seed_admin_only",
    "seed is an admin option (ALLFOURS_ADMIN_TOKEN)",
    N_("Only the server's admin may choose the seed."),
)

Code = Annotated[str, Path(description="the room code")]


def errors_of(*codes: int) -> dict[int | str, dict[str, Any]]:
    return {code: {"model": ErrorOut} for code in codes}


def viewer_seat(ctx: Context, snap: RoomSnap, token: str | None) -> int | None:
    """The caller's seat (None: a spectator); a seated caller counts as present."""
    seat = seat_of(snap, token)
    if seat is not None:
        ctx.presence.touch(snap.code, seat)
    return seat


def _view_response(ctx: Context, snap: RoomSnap, token: str | None) -> Response:
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


@router.post(
    "/rooms",
    status_code=201,
    response_model=RoomCreated,
    responses=errors_of(403, 422),
    dependencies=[ROOM_QUOTA],  # ALLFOURS_ROOMS_PER_HOUR per client address
)
async def create_room(
    ctx: ContextDep, request: Request, body: Annotated[CreateRoom | None, Body()] = None
) -> RoomCreated:
    body = body or CreateRoom()
    if body.seed is not None and not _is_admin(ctx, request):
        raise errors.Forbidden(SEED_ADMIN_ONLY)
    snap = await ctx.tables.call(
        ctx.tables.create_room,
        rules=body.chosen_rules(),
        seed=body.seed,
        options=body.options,
    )
    return RoomCreated(code=snap.code, url=f"/r/{snap.code}")


def _is_admin(ctx: Context, request: Request) -> bool:
    return is_admin(ctx.settings.admin_token, request)


@router.post("/rooms/{code}/join", response_model=Joined, responses=errors_of(404, 409, 422))
async def join(
    ctx: ContextDep, code: Code, body: Join, token: TokenDep, request: Request, response: Response
) -> Joined:
    joined = await ctx.tables.call(
        ctx.tables.join, code=code, name=body.name, seat=body.seat, token=token
    )
    if not joined.pending:
        ctx.presence.touch(code, joined.seat)
    if from_browser(request):
        set_seat_cookie(response, request, joined.snap, joined.token)
    return Joined(seat=joined.seat, token=joined.token, pending=joined.pending)


def from_browser(request: Request) -> bool:
    """A page's fetch or htmx request, not a script: only browsers get the seat cookie, so
    one cookie-keeping API client can seat four players and still look on as a spectator."""
    headers = request.headers
    return "sec-fetch-mode" in headers or "hx-request" in headers


@router.post("/rooms/{code}/bots", response_model=View, responses=errors_of(401, 404, 409, 422))
async def seat_bot(
    ctx: ContextDep, code: Code, body: SeatBot, token: TokenDep, request: Request
) -> Response:
    """A seated player (or the admin: a table of four bots) seats a computer player."""
    snap = await ctx.tables.call(
        ctx.tables.seat_bot,
        code=code,
        token=token,
        seat=body.seat,
        level=body.level,
        admin=_is_admin(ctx, request),
    )
    return _view_response(ctx, snap, token)


@router.post("/rooms/{code}/start", response_model=View, responses=errors_of(401, 404, 409))
async def start(ctx: ContextDep, code: Code, token: TokenDep, request: Request) -> Response:
    snap = await ctx.tables.call(
        ctx.tables.start, code=code, token=token, admin=_is_admin(ctx, request)
    )
    return _view_response(ctx, snap, token)


@router.get("/rooms/{code}", response_model=View, responses=errors_of(404))
async def get_room(ctx: ContextDep, code: Code, token: TokenDep) -> Response:
    snap = await run_in_threadpool(ctx.tables.snapshot, code)
    return _view_response(ctx, snap, token)


@router.post(
    "/rooms/{code}/actions", response_model=View, responses=errors_of(401, 403, 404, 409, 422)
)
async def act(ctx: ContextDep, code: Code, body: ActionIn, token: TokenDep) -> Response:
    action = action_from(body.type, body.card)
    snap = await ctx.tables.call(
        ctx.tables.act, code=code, token=token, action=action, expected=body.version
    )
    return _view_response(ctx, snap, token)


@router.post("/rooms/{code}/rematch", response_model=View, responses=errors_of(401, 404, 409))
async def rematch(ctx: ContextDep, code: Code, token: TokenDep) -> Response:
    snap = await ctx.tables.call(ctx.tables.rematch, code=code, token=token)
    return _view_response(ctx, snap, token)


@router.get("/rooms/{code}/hands/{n}", response_model=HandRecordView, responses=errors_of(404, 422))
async def hand_record(
    ctx: ContextDep,
    code: Code,
    n: Annotated[int, Path(description="the hand's number, 1-based")],
    token: TokenDep,
) -> Response:
    record = await run_in_threadpool(ctx.tables.hand_record, code, n, token)
    return Response(record.model_dump_json(), media_type="application/json", headers=NO_STORE)


@router.get(
    "/rooms/{code}/events",
    response_class=EventSourceResponse,
    responses={
        200: {
            "description": "event: state, id: <version>, data: <view JSON>; pings as comments",
            "content": {"text/event-stream": {"schema": {"type": "string"}}},
        },
        **errors_of(404),
    },
)
async def events(ctx: ContextDep, code: Code, token: TokenDep) -> EventSourceResponse:
    snap = await run_in_threadpool(ctx.tables.snapshot, code)
    return event_stream(ctx, snap, token)


def event_stream(
    ctx: Context, snap: RoomSnap, token: str | None, *, gzip: bool = False, **kwargs: Any
) -> EventSourceResponse:
    """An SSE response for one viewer; ``kwargs`` go to ``room_events`` (e.g. ``render``).
    With ``gzip`` it is compressed, flushed per event, for a client that accepts gzip.
    It counts against the caps on open streams per client address and per room (429 before
    it starts, app/api/limits.py), and a reader that stops reading is dropped."""
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
        send_timeout=ctx.settings.send_timeout_s,
        headers={"X-Accel-Buffering": "no", "Cache-Control": "no-store"},
        # Not an anyio.Event: sse-starlette only calls its set(), when the server stops.
        shutdown_event=end,
        shutdown_grace_period=SHUTDOWN_GRACE_S,
    )
