"""The table host's routes (issue 15): the player who opened the table (the first one seated)
may put a computer player in an away player's seat, free a seat in the lobby, and move
players between seats before the start or between games. Anyone else: 403."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Form, Path, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from app.api.answers import errors_of, page_answer, view_response
from app.api.context import ContextDep, TokenDep
from app.api.schemas import Seat
from app.bots import LEVELS
from app.services.view import RoomView

router = APIRouter(prefix="/api/rooms/{code}/host", tags=["host"])
Code = Annotated[str, Path(description="the room code")]


class HostBotIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seat: Seat = Field(description="an away player's seat (no event stream open)")
    level: Literal[LEVELS] | None = Field(None, description="default: standard")  # type: ignore[valid-type]


class HostFreeIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seat: Seat


class HostMoveIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seat: Seat = Field(description="the seat of the player who moves")
    to: Seat = Field(description="where they sit now; its holder, if any, takes their seat")


@router.post("/bot", response_model=RoomView, responses=errors_of(403, 404, 409, 422))
async def replace_with_bot(
    ctx: ContextDep, code: Code, body: HostBotIn, token: TokenDep
) -> Response:
    """A computer player takes an away player's seat (they may take it back between hands,
    as any latecomer takes a computer player's seat)."""
    # Away: no stream of theirs open in this process (the one the host's request reached).
    away = not ctx.presence.connected(code, body.seat)
    snap = await ctx.rooms.write(
        ctx.rooms.host_bot, code=code, token=token, seat=body.seat, level=body.level, away=away
    )
    return view_response(ctx, snap, token)


@router.post("/free", response_model=RoomView, responses=errors_of(403, 404, 409, 422))
async def free_seat(ctx: ContextDep, code: Code, body: HostFreeIn, token: TokenDep) -> Response:
    """Empty a seat in the lobby (a player who will not come, a computer player not wanted)."""
    snap = await ctx.rooms.write(ctx.rooms.host_free, code=code, token=token, seat=body.seat)
    return view_response(ctx, snap, token)


@router.post("/move", response_model=RoomView, responses=errors_of(403, 404, 409, 422))
async def move_player(ctx: ContextDep, code: Code, body: HostMoveIn, token: TokenDep) -> Response:
    """Move a player to another seat (swapping with whoever sits there): before the start or
    between games, so partners can change."""
    snap = await ctx.rooms.write(
        ctx.rooms.host_move, code=code, token=token, seat=body.seat, to=body.to
    )
    return view_response(ctx, snap, token)


# -- the same powers from the page's forms (htmx, or plain forms without script) -------------

page_router = APIRouter(prefix="/r/{code}/host", tags=["pages"], include_in_schema=False)


@page_router.post("/bot")
async def page_replace_with_bot(
    ctx: ContextDep,
    request: Request,
    code: str,
    token: TokenDep,
    seat: Annotated[int, Form(ge=0, le=3)],
) -> Response:
    away = not ctx.presence.connected(code, seat)
    snap = await ctx.rooms.write(
        ctx.rooms.host_bot, code=code, token=token, seat=seat, level=None, away=away
    )
    return page_answer(ctx, request, snap, token)


@page_router.post("/free")
async def page_free_seat(
    ctx: ContextDep,
    request: Request,
    code: str,
    token: TokenDep,
    seat: Annotated[int, Form(ge=0, le=3)],
) -> Response:
    snap = await ctx.rooms.write(ctx.rooms.host_free, code=code, token=token, seat=seat)
    return page_answer(ctx, request, snap, token)


@page_router.post("/move")
async def page_move_player(
    ctx: ContextDep,
    request: Request,
    code: str,
    token: TokenDep,
    seat: Annotated[int, Form(ge=0, le=3)],
    to: Annotated[int, Form(ge=0, le=3)],
) -> Response:
    snap = await ctx.rooms.write(ctx.rooms.host_move, code=code, token=token, seat=seat, to=to)
    return page_answer(ctx, request, snap, token)
