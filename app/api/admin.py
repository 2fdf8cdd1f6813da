"""Admin endpoints (``ALLFOURS_ADMIN_TOKEN``): list rooms with their state, close a room."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request

from app.api.admin_token import admin_token_given, check_admin
from app.api.answers import errors_of
from app.api.context import ContextDep
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
