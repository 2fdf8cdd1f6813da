"""The pages' forms for friends, blocks and invitations (issue #36): the profile page's "Add
friend" and "Block", the own page's "Accept", "Decline", "Withdraw" and "Unblock", the
table's "Invite a friend". Each answers with the page it came from (a form from the own page
says so: ``back=me``), told what was done (``?done=``, a word the page shows, issue #46).
"Remove friend" and "Block" ask first: their links open a page with one button that acts
(as "Delete my profile" does), which works on a phone without a script."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, Literal

from fastapi import APIRouter, Form, Path
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app.api.answers import NO_STORE
from app.api.context import Context, ContextDep, MaybeMeDep
from app.api.errors import status_of
from app.players.handles import folded_handle
from app.players.reasons import NO_PLAYER
from app.services import errors, invites
from app.services.players import SignedIn
from app.web.error_page import render_error
from app.web.players import render_tie_confirm
from app.web.refusals import page_message

router = APIRouter(include_in_schema=False)

Handle = Annotated[str, Path(max_length=40)]
# Where a tie's form came from: its answer goes back there.
Back = Annotated[Literal["me", "profile"], Form()]


def _refused(refused: errors.ApiError) -> HTMLResponse:
    status = status_of(refused)
    return HTMLResponse(render_error(status, page_message(refused)), status)


async def _tie(ctx: Context, me: SignedIn | None, handle: str, tie: str, back: str) -> Response:
    """Add a friend (or accept their request), remove one, block, unblock, decline a
    request, withdraw one's own."""
    if me is None:
        return RedirectResponse("/me", status_code=303)
    social = ctx.social
    doing = {
        "friend": social.befriend,
        "unfriend": social.unfriend,
        "block": social.block,
        "unblock": social.unblock,
        "decline": social.decline,
        "withdraw": social.withdraw,
    }[tie]
    try:
        result = await ctx.players.run(doing, me, handle)
    except errors.ApiError as refused:
        return _refused(refused)
    # A friend request says whether it made friends (the other had asked too).
    done = ("friends" if result else "asked") if tie == "friend" else DONE[tie]
    if back == "me":
        return RedirectResponse(f"/me?done={done}#friends-h", status_code=303)
    return RedirectResponse(f"/p/{handle.strip().lower()}?done={done}", status_code=303)


# The word each tie's page shows after it (app/templates/_tie_done.html).
DONE = {
    "unfriend": "unfriended",
    "block": "blocked",
    "unblock": "unblocked",
    "decline": "declined",
    "withdraw": "withdrawn",
}


def _tie_route(tie: str) -> Callable[..., Awaitable[Response]]:
    async def route(
        ctx: ContextDep, me: MaybeMeDep, handle: Handle, back: Back = "profile"
    ) -> Response:
        return await _tie(ctx, me, handle, tie, back)

    return route


# Each by its own path: a profile's other pages (/p/{handle}/report) are not ties.
for _name in ("friend", "unfriend", "block", "unblock", "decline", "withdraw"):
    router.post(f"/p/{{handle}}/{_name}", name=f"tie_{_name}")(_tie_route(_name))


def _confirm_route(tie: str) -> Callable[..., Awaitable[Response]]:
    async def route(me: MaybeMeDep, handle: Handle) -> Response:
        """The step before a tie is cut: one button that does it, one link back."""
        if me is None:
            return RedirectResponse("/me", status_code=303)
        folded = folded_handle(handle)
        if folded is None:
            return _refused(errors.NotFound(NO_PLAYER, handle=handle[:40]))
        return HTMLResponse(render_tie_confirm(tie, folded), headers=NO_STORE)

    return route


for _name in ("unfriend", "block"):
    router.get(f"/p/{{handle}}/{_name}", name=f"confirm_{_name}")(_confirm_route(_name))


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
    return RedirectResponse(f"/r/{code}?invited=1", status_code=303)
