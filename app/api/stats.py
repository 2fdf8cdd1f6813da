"""The stats players brag about: ``GET /api/rooms/{code}/stats`` and the page
``/r/{code}/stats`` (linked from the result page). Thin routes over app/services/stats.py."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path
from fastapi.responses import HTMLResponse, Response

from app.api.context import ContextDep
from app.api.schemas import ErrorOut
from app.services import errors
from app.services.stats import StatsOut, room_stats
from app.web.stats import render_stats, render_stats_unavailable

router = APIRouter(prefix="/api", tags=["stats"])
pages = APIRouter(include_in_schema=False)

Code = Annotated[str, Path(description="the room code")]
# The figures change when a game ends: never kept by a browser or a proxy past that.
NO_CACHE = {"Cache-Control": "no-cache"}


@router.get(
    "/rooms/{code}/stats",
    response_model=StatsOut,
    responses={404: {"model": ErrorOut}},
)
async def stats(ctx: ContextDep, code: Code) -> Response:
    """Per partnership and per player over the room's finished games, replayed from their
    action logs: bullseyes, hang jacks made and suffered (by jack), jacks won home, kick
    points, High, Low, Game won, the highest Game count, gave one and ran the pack."""
    found = await ctx.rooms.read(room_stats, ctx.rooms, code)
    return Response(found.model_dump_json(), media_type="application/json", headers=NO_CACHE)


@pages.get("/r/{code}/stats", response_class=HTMLResponse)
async def stats_page(ctx: ContextDep, code: str) -> HTMLResponse:
    try:
        found = await ctx.rooms.read(room_stats, ctx.rooms, code)
    except errors.NotFound:
        return HTMLResponse(render_stats_unavailable(code), 404)
    return HTMLResponse(render_stats(found), headers=NO_CACHE)
