"""The players' pages: ``/p/{handle}`` (a profile) and ``/players`` (the leaderboard). Thin,
like the other pages: app/services/career.py counts, app/web/profile.py renders."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query
from fastapi.responses import HTMLResponse

from app.api.context import ContextDep, MaybeMeDep
from app.services import career, errors
from app.web.profile import render_leaderboard, render_profile, render_profile_missing

router = APIRouter(include_in_schema=False)

# A profile changes when a game ends; it differs with who asks (an unlisted one).
NO_STORE = {"Cache-Control": "no-store"}


@router.get("/p/{handle}", response_class=HTMLResponse)
async def profile_page(
    ctx: ContextDep,
    me: MaybeMeDep,
    handle: str,
    done: Annotated[str | None, Query(max_length=20)] = None,
) -> HTMLResponse:
    viewer = me.player.id if me is not None else None
    try:
        found = await ctx.players.run(career.profile, ctx.engine, handle[:40], viewer)
    except errors.NotFound:
        return HTMLResponse(render_profile_missing(handle), 404, headers=NO_STORE)
    tie = await ctx.players.run(ctx.social.tie, me, found["handle"]) if me else None
    return HTMLResponse(render_profile(found, tie, done), headers=NO_STORE)


@router.get("/players", response_class=HTMLResponse)
async def leaderboard_page(
    ctx: ContextDep, me: MaybeMeDep, with_: Annotated[str, Query(alias="with", max_length=8)] = ""
) -> HTMLResponse:
    """Everyone, or (``?with=me``, signed in) those who sat through a game with the reader."""
    return await _board(ctx, me, with_me=with_ == "me")


async def _board(ctx: ContextDep, me: MaybeMeDep, *, with_me: bool) -> HTMLResponse:
    mine = me.player.id if with_me and me is not None else None
    board = await ctx.players.run(career.leaderboard, ctx.engine, mine)
    page = render_leaderboard(board, signed_in=me is not None, with_me=mine is not None)
    return HTMLResponse(page, headers=NO_STORE)
