"""``/healthz``: 200 when the database answers."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from app.api.context import ContextDep
from app.store.db import ping

router = APIRouter(tags=["health"])


@router.get("/healthz")
async def healthz(ctx: ContextDep) -> JSONResponse:
    try:
        await ctx.rooms.read(ping, ctx.engine)
    except Exception as err:  # any database failure is "unhealthy", never a 500
        return JSONResponse(
            {"status": "unavailable", "error": "database", "detail": type(err).__name__},
            status_code=503,
        )
    return JSONResponse({"status": "ok", "streams": ctx.hub.stream_count()}, status_code=200)
