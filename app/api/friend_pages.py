"""The pages' forms for friends, blocks and invitations (issue #36): the profile page's "Add
friend" and "Block", the own page's "Accept" and "Unblock", the table's "Invite a friend".
Each answers with the page it came from."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
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


def _tie_route(tie: str) -> Callable[..., Awaitable[Response]]:
    async def route(ctx: ContextDep, me: MaybeMeDep, handle: Handle) -> Response:
        return await _tie(ctx, me, handle, tie)

    return route


# Each by its own path: a profile's other pages (/p/{handle}/report) are not ties.
for _name in ("friend", "unfriend", "block", "unblock"):
    router.post(f"/p/{{handle}}/{_name}", name=f"tie_{_name}")(_tie_route(_name))


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
