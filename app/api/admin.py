"""Admin endpoints (``ALLFOURS_ADMIN_TOKEN``): list rooms with their state, close a room; the
players' reports, ban and unban a player."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request

from app.api.admin_token import admin_token_given, check_admin
from app.api.answers import errors_of
from app.api.context import ContextDep
from app.api.report_schemas import BanIn, BanOut, ReportsOut
from app.services import moderation
from app.services.housekeeping import Housekeeping

router = APIRouter(prefix="/api/admin", tags=["admin"])

_ERRORS = errors_of(401, 403, 404, 409)


def require_admin(ctx: ContextDep, request: Request) -> None:
    check_admin(ctx.settings.admin_token, admin_token_given(request))


async def get_housekeeping(ctx: ContextDep) -> Housekeeping:
    return ctx.housekeeping


Admin = Annotated[None, Depends(require_admin)]
HousekeepingDep = Annotated[Housekeeping, Depends(get_housekeeping)]


@router.get("/rooms", responses=_ERRORS)
async def list_rooms(
    _: Admin,
    ctx: ContextDep,
    housekeeping: HousekeepingDep,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    offset: Annotated[int, Query(ge=0)] = 0,
) -> dict[str, Any]:
    """Rooms, the most recently changed first: phase, seats (connected here), scores, times."""
    listed: dict[str, Any] = await ctx.rooms.read(housekeeping.rooms, limit=limit, offset=offset)
    return listed


@router.post("/rooms/{code}/close", responses=_ERRORS)
async def close_room(
    _: Admin,
    ctx: ContextDep,
    housekeeping: HousekeepingDep,
    code: Annotated[str, Path(min_length=1, max_length=64)],
) -> dict[str, Any]:
    """Remove the room with its games; its open streams end and its links answer 404."""
    await ctx.rooms.write(housekeeping.close, code)
    return {"code": code, "closed": True}


@router.get("/reports", response_model=ReportsOut, responses=_ERRORS)
async def list_reports(
    _: Admin,
    ctx: ContextDep,
    limit: Annotated[int, Query(ge=1, le=200)] = 20,
    offset: Annotated[int, Query(ge=0)] = 0,
) -> dict[str, Any]:
    """Players' reports, the newest first, each with the room's chat and game records as
    they were when it was made, and whether the reported player is banned now."""
    found: dict[str, Any] = await ctx.rooms.read(
        moderation.reports, ctx.engine, limit=limit, offset=offset
    )
    return found


@router.post(
    "/players/{handle}/ban", response_model=BanOut, responses=errors_of(401, 403, 404, 422)
)
async def ban_player(
    _: Admin, ctx: ContextDep, handle: Annotated[str, Path(max_length=40)], body: BanIn
) -> dict[str, Any]:
    """Ban a player: no public play, no new public tables (again: the new reason stands)."""
    done: dict[str, Any] = await ctx.players.run(
        moderation.ban, ctx.engine, handle, body.reason, by=moderation.BY_TOKEN
    )
    await ctx.rooms.write(moderation.banish, ctx.rooms, handle)  # their public seats: bots
    return done


@router.post("/players/{handle}/unban", response_model=BanOut, responses=errors_of(401, 403, 404))
async def unban_player(
    _: Admin, ctx: ContextDep, handle: Annotated[str, Path(max_length=40)]
) -> dict[str, Any]:
    """Lift a player's ban (a player not banned: the same answer)."""
    done: dict[str, Any] = await ctx.players.run(moderation.unban, ctx.engine, handle)
    return done
