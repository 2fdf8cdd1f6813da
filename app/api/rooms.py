"""The JSON API of API.md: rooms, seats, actions, hand records, live events."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Path, Request, Response
from sse_starlette import EventSourceResponse

from app.api.admin_token import is_admin
from app.api.answers import (
    NO_STORE,
    errors_of,
    from_browser,
    remember_table,
    set_seat_cookie,
    view_response,
)
from app.api.context import (
    Context,
    ContextDep,
    MaybeMeDep,
    TokenDep,
    get_context,
    get_token,
    player_key,
)
from app.api.limits import ROOM_QUOTA
from app.api.presolved import presolved
from app.api.schemas import (
    ActionIn,
    CreateRoom,
    Join,
    Joined,
    RenegeIn,
    RoomCreated,
    SeatBot,
)
from app.api.stream import event_stream
from app.reasons import N_, reason
from app.services import errors
from app.services.decide import action_from
from app.services.play_now import PUBLIC_PLAY_OFF
from app.services.view import RoomView
from app.views.records import HandRecordView
from app.views.shapes import CallView, call_view

router = APIRouter(prefix="/api", tags=["rooms"])
SEED_ADMIN_ONLY = reason(
    "seed_admin_only",
    "seed is an admin option (ALLFOURS_ADMIN_TOKEN)",
    N_("Only the server's admin may choose the seed."),
)

Code = Annotated[str, Path(description="the room code")]


@router.post(
    "/rooms",
    status_code=201,
    response_model=RoomCreated,
    responses=errors_of(403, 422),
    dependencies=[ROOM_QUOTA],  # ALLFOURS_ROOMS_PER_HOUR per client address
)
async def create_room(
    ctx: ContextDep,
    request: Request,
    me: MaybeMeDep,
    body: Annotated[CreateRoom | None, Body()] = None,
) -> RoomCreated:
    body = body or CreateRoom()
    if body.seed is not None and not _is_admin(ctx, request):
        raise errors.Forbidden(SEED_ADMIN_ONLY)
    if body.options.public and not ctx.settings.public_play:
        raise errors.Forbidden(PUBLIC_PLAY_OFF)  # the host's switch: no public tables
    snap = await ctx.rooms.write(
        ctx.rooms.create_room,
        rules=body.chosen_rules(),
        seed=body.seed,
        options=body.options,
        by=me.player.id if me else None,
    )
    return RoomCreated(code=snap.code, url=f"/r/{snap.code}")


def _is_admin(ctx: Context, request: Request) -> bool:
    return is_admin(ctx.settings.admin_token, request)


@router.post("/rooms/{code}/join", response_model=Joined, responses=errors_of(403, 404, 409, 422))
async def join(
    ctx: ContextDep,
    code: Code,
    body: Join,
    token: TokenDep,
    me: MaybeMeDep,
    request: Request,
    response: Response,
) -> Joined:
    """A seat; with a player key, under the player's profile (its name, its handle), and the
    key acts for the seat from every device of the player's (``token`` is then null)."""
    joined = await ctx.rooms.write(
        ctx.rooms.join,
        code=code,
        name=me.player.name if me else body.name,
        seat=body.seat,
        token=token,
        player=me.seat_player if me else None,
    )
    if not joined.pending:
        ctx.presence.touch(code, joined.seat)
    if me is not None:
        remember_table(response, request, code, joined.token)
        return Joined(seat=joined.seat, token=None, pending=joined.pending)
    if from_browser(request):
        set_seat_cookie(response, request, joined.snap, joined.token)
    return Joined(seat=joined.seat, token=joined.token, pending=joined.pending)


@router.post("/rooms/{code}/bots", response_model=RoomView, responses=errors_of(401, 404, 409, 422))
async def seat_bot(
    ctx: ContextDep, code: Code, body: SeatBot, token: TokenDep, request: Request
) -> Response:
    """A seated player (or the admin: a table of four bots) seats a computer player."""
    snap = await ctx.rooms.write(
        ctx.rooms.seat_bot,
        code=code,
        token=token,
        seat=body.seat,
        level=body.level,
        admin=_is_admin(ctx, request),
    )
    return view_response(ctx, snap, token)


@router.post("/rooms/{code}/start", response_model=RoomView, responses=errors_of(401, 404, 409))
async def start(ctx: ContextDep, code: Code, token: TokenDep, request: Request) -> Response:
    snap = await ctx.rooms.write(
        ctx.rooms.start, code=code, token=token, admin=_is_admin(ctx, request)
    )
    return view_response(ctx, snap, token)


@router.get("/rooms/{code}", response_model=RoomView, responses=errors_of(404))
async def get_room(ctx: ContextDep, code: Code, token: TokenDep) -> Response:
    snap = await ctx.rooms.read(ctx.rooms.snapshot, code)
    return view_response(ctx, snap, token)


async def act(ctx: ContextDep, code: Code, body: ActionIn, token: TokenDep) -> Response:
    action = action_from(body.type, body.card)
    snap = await ctx.rooms.write(
        ctx.rooms.act, code=code, token=token, action=action, expected=body.version
    )
    return view_response(ctx, snap, token)


async def _act_presolved(request: Request, body: ActionIn) -> Response:
    """act with its dependencies fetched as FastAPI would fetch them, without its solver."""
    code: str = request.path_params["code"]
    return await act(await get_context(request), code, body, await get_token(request))


# The move's route: FastAPI's dependency solving is a tenth of a move's CPU (app/api/presolved).
router.add_api_route(
    "/rooms/{code}/actions",
    act,
    methods=["POST"],
    response_model=RoomView,
    responses=errors_of(401, 403, 404, 409, 422),
    route_class_override=presolved(ActionIn, _act_presolved),
)


@router.post(
    "/rooms/{code}/renege", response_model=CallView, responses=errors_of(403, 404, 409, 422)
)
async def call_renege(ctx: ContextDep, code: Code, body: RenegeIn, token: TokenDep) -> Response:
    """R22: the caller's side calls renege on one lift of the hand; judged at once."""
    _, judged = await ctx.rooms.write(ctx.rooms.call_renege, code=code, token=token, lift=body.lift)
    return Response(call_view(judged).model_dump_json(), media_type="application/json")


@router.post("/rooms/{code}/reckoned", status_code=204, responses=errors_of(403, 404, 409))
async def reckoned(ctx: ContextDep, code: Code, token: TokenDep) -> Response:
    """R23: the caller says "score it" in the hand's reckoning."""
    await ctx.rooms.write(ctx.rooms.reckoned, code=code, token=token)
    return Response(status_code=204)


@router.post("/rooms/{code}/rematch", response_model=RoomView, responses=errors_of(401, 404, 409))
async def rematch(ctx: ContextDep, code: Code, token: TokenDep) -> Response:
    snap = await ctx.rooms.write(ctx.rooms.rematch, code=code, token=token)
    return view_response(ctx, snap, token)


@router.get("/rooms/{code}/hands/{n}", response_model=HandRecordView, responses=errors_of(404, 422))
async def hand_record(
    ctx: ContextDep,
    code: Code,
    n: Annotated[int, Path(description="the hand's number, 1-based")],
    token: TokenDep,
) -> Response:
    record = await ctx.rooms.read(ctx.rooms.hand_record, code, n, token)
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
async def events(
    ctx: ContextDep, code: Code, token: TokenDep, me: MaybeMeDep, request: Request
) -> EventSourceResponse:
    snap = await ctx.rooms.read(ctx.rooms.snapshot, code)
    return event_stream(
        ctx,
        snap,
        token,
        key=player_key(request) if me else None,
        hidden=await ctx.social.hidden(me),  # the chat of those the viewer blocked: never
    )
