"""Every game of a room kept: its record (JSON, to export and check with
``python -m app.verify``), its scorer's notebook, and the same deals again. Thin routes over
app/services/records.py."""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Path, Response
from fastapi.responses import JSONResponse, PlainTextResponse

from app.api.context import ContextDep, TokenDep
from app.api.limits import ROOM_QUOTA
from app.api.record_schemas import GameRecordOut, ReplayCreated
from app.api.schemas import ErrorOut
from app.services import records

router = APIRouter(prefix="/api", tags=["records"])

Code = Annotated[str, Path(description="the room code")]
GameNumber = Annotated[
    int, Path(ge=1, le=2**31 - 1, description="the game's number in the room, 1-based")
]
NO_STORE = {"Cache-Control": "no-store"}  # a running game's record changes with each move


def _errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    return {code: {"model": ErrorOut} for code in codes}


@router.get("/rooms/{code}/games/{g}", response_model=GameRecordOut, responses=_errors(404, 422))
async def game_record(ctx: ContextDep, code: Code, g: GameNumber) -> Response:
    """The record of game ``g``: everything public so far; its seed once it is over."""
    record = await ctx.rooms.read(records.load_record, ctx.rooms, code, g)
    body = json.dumps(records.record_json(record), separators=(",", ":"))
    return Response(body, media_type="application/json", headers=NO_STORE)


@router.get(
    "/rooms/{code}/games/{g}/notebook.txt",
    response_class=PlainTextResponse,
    responses={
        200: {
            "description": "the game as a scorer's notebook",
            "content": {"text/plain": {"schema": {"type": "string"}}},
        },
        **_errors(404, 422),
    },
)
async def game_notebook(ctx: ContextDep, code: Code, g: GameNumber) -> PlainTextResponse:
    record = await ctx.rooms.read(records.load_record, ctx.rooms, code, g)
    return PlainTextResponse(records.notebook(record), headers=NO_STORE)


@router.post(
    "/rooms/{code}/games/{g}/again",
    status_code=201,
    response_model=ReplayCreated,
    responses=_errors(403, 404, 409, 422),
    dependencies=[ROOM_QUOTA],  # a new room, as POST /api/rooms counts it
)
async def play_again(ctx: ContextDep, code: Code, g: GameNumber, token: TokenDep) -> JSONResponse:
    """A new room dealing the same deals (same seed, same first dealer), for a player seated
    in that game once it is over."""
    snap = await ctx.rooms.write(records.play_again, ctx.rooms, code, g, token)
    return JSONResponse({"code": snap.code, "url": f"/r/{snap.code}"}, status_code=201)
