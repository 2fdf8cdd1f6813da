"""The pages' forms for friends, blocks and invitations (issue #36): the profile page's "Add
friend" and "Block", the own page's "Accept" and "Unblock", the table's "Invite a friend".
Each answers with the page it came from."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Path
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app.api.context import Context, ContextDep, MaybeMeDep
from app.api.errors import status_of
from app.services import errors, invites
from app.services.players import SignedIn
from app.web.error_page import render_error
from app.web.refusals import page_message

router = APIRouter(include_in_schema=False)

Handle = Annotated[str, Path(max_length=40)]


def _refused(refused: errors.ApiError) -> HTMLResponse:
    status = status_of(refused)
    return HTMLResponse(render_error(status, page_message(refused)), status)


async def _tie(ctx: Context, me: SignedIn | None, handle: str, tie: str) -> Response:
    """Add a friend (or accept their request), remove one, block, unblock."""
    if me is None:
        return RedirectResponse("/me", status_code=303)
    doing = {
        "friend": ctx.social.befriend,
        "unfriend": ctx.social.unfriend,
        "block": ctx.social.block,
        "unblock": ctx.social.unblock,
    }[tie]
    try:
        await ctx.players.run(doing, me, handle)
    except errors.ApiError as refused:
        return _refused(refused)
    return RedirectResponse(f"/p/{handle.strip().lower()}", status_code=303)


# Each by its own path: a profile's other pages (/p/{handle}/report) are not ties.
@router.post("/p/{handle}/friend")
async def befriend(ctx: ContextDep, me: MaybeMeDep, handle: Handle) -> Response:
    return await _tie(ctx, me, handle, "friend")


@router.post("/p/{handle}/unfriend")
async def unfriend(ctx: ContextDep, me: MaybeMeDep, handle: Handle) -> Response:
    return await _tie(ctx, me, handle, "unfriend")


@router.post("/p/{handle}/block")
async def block(ctx: ContextDep, me: MaybeMeDep, handle: Handle) -> Response:
    return await _tie(ctx, me, handle, "block")


@router.post("/p/{handle}/unblock")
async def unblock(ctx: ContextDep, me: MaybeMeDep, handle: Handle) -> Response:
    return await _tie(ctx, me, handle, "unblock")


@router.post("/r/{code}/invite")
async def invite(
    ctx: ContextDep,
    me: MaybeMeDep,
    code: Annotated[str, Path(max_length=40)],
    handle: Annotated[str, Form(max_length=40)],
) -> Response:
    if me is None:
        return RedirectResponse("/me", status_code=303)
    try:
        await ctx.players.run(invites.invite, ctx.rooms, ctx.social, me, code, handle)
    except errors.ApiError as refused:
        return _refused(refused)
    return RedirectResponse(f"/r/{code}", status_code=303)
