"""Public profiles and the leaderboard (API.md § Fourth round): ``GET /api/players/{handle}``
and ``GET /api/players?sort=rating``. Thin routes over app/services/career.py."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Path, Query
from fastapi.responses import JSONResponse

from app.api.answers import errors_of
from app.api.context import ContextDep, MaybeMeDep
from app.api.profile_schemas import LeaderboardOut, ProfileOut
from app.players.reasons import KEY_NEEDED
from app.services import career, errors

router = APIRouter(prefix="/api", tags=["players"])

# A profile changes when a game ends: never kept by a browser or a proxy past that.
NO_CACHE = {"Cache-Control": "no-cache"}


@router.get("/players", response_model=LeaderboardOut, responses=errors_of(401, 422))
async def leaderboard(
    ctx: ContextDep,
    me: MaybeMeDep,
    sort: Annotated[Literal["rating"], Query(description="the order: by rating")] = "rating",
    with_: Annotated[
        Literal["me"] | None,
        Query(alias="with", description="me: only players who sat through a game with you"),
    ] = None,
) -> JSONResponse:
    """The leaderboard: listed players with at least one rated game, by ordinal (mu - 3
    sigma), those with fewer than 10 rated games marked provisional."""
    if with_ == "me" and me is None:
        raise errors.Unauthorized(KEY_NEEDED)
    mine = me.player.id if with_ == "me" and me is not None else None
    found = await ctx.players.run(career.leaderboard, ctx.engine, mine)
    return JSONResponse(found, headers=NO_CACHE)


@router.get("/players/{handle}", response_model=ProfileOut, responses=errors_of(404))
async def profile(
    ctx: ContextDep,
    me: MaybeMeDep,
    handle: Annotated[str, Path(max_length=40, description="the player's handle, any case")],
) -> JSONResponse:
    """A player's public profile: rating, stats, partners, opponents, the last 20 games. An
    unlisted player's only to a player who shared a table with them; else 404."""
    viewer = me.player.id if me is not None else None
    found = await ctx.players.run(career.profile, ctx.engine, handle, viewer)
    found["daily"] = await ctx.daily.read(ctx.daily.days_of_handle, found["handle"])
    return JSONResponse(found, headers=NO_CACHE)
