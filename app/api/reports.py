"""A player's report of another (API.md § Fourth round, *Reports*): ``POST /api/reports``.
The admin's side (the reports, bans) is in app/api/admin.py."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from app.api.answers import errors_of
from app.api.context import ContextDep, MeDep
from app.api.report_schemas import ReportIn, ReportOut
from app.services import moderation

router = APIRouter(prefix="/api", tags=["players"])


@router.post(
    "/reports",
    status_code=201,
    response_model=ReportOut,
    responses=errors_of(401, 403, 404, 422, 429),
)
async def make_report(ctx: ContextDep, me: MeDep, body: ReportIn) -> JSONResponse:
    """Report a player from a table the reporter sat at (else 403): the report keeps the
    room's chat and its games' records as they are now. A few an hour per player (429)."""
    made = await ctx.players.run(
        moderation.report,
        ctx.rooms,
        me,
        handle=body.handle,
        room=body.room,
        why=body.reason,
        text=body.text,
    )
    return JSONResponse(made, status_code=201, headers={"Cache-Control": "no-store"})
