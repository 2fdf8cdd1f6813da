"""Admin endpoints (``ALLFOURS_ADMIN_TOKEN``): list rooms with their state, close a room."""

from __future__ import annotations

import hmac
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request

from app.api.admin_token import admin_token_given
from app.api.answers import errors_of
from app.api.context import ContextDep
from app.reasons import N_, reason
from app.services import errors
from app.services.housekeeping import Housekeeping

router = APIRouter(prefix="/api/admin", tags=["admin"])

_ADMIN_ONLY = N_("Only the server's admin may do that.")
ADMIN_OFF = reason(
    "admin_off", "the admin endpoints are off (ALLFOURS_ADMIN_TOKEN is unset)", _ADMIN_ONLY
)
ADMIN_TOKEN_NEEDED = reason(
    "admin_token_needed",
    "the admin token is needed (Authorization: Bearer <token>)",
    _ADMIN_ONLY,
)
ADMIN_TOKEN_WRONG = reason("admin_token_wrong", "that is not the admin token", _ADMIN_ONLY)

_ERRORS = errors_of(401, 403, 404, 409)


def require_admin(ctx: ContextDep, request: Request) -> None:
    admin = ctx.settings.admin_token
    if not admin:
        raise errors.Forbidden(ADMIN_OFF)
    given = admin_token_given(request)
    if not given:
        raise errors.Unauthorized(ADMIN_TOKEN_NEEDED)
    if not hmac.compare_digest(given.encode(), admin.encode()):
        raise errors.Forbidden(ADMIN_TOKEN_WRONG)


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
