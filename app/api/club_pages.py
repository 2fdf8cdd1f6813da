"""A club's pages: open a club (/c), the club (/c/{code}) with an admin's forms, the invite
link's page (/c/{code}/join/{token}, joined by its button) and the season's board for the
venue's screen (/c/{code}/board). Plain forms over the same use cases as the JSON API
(app/services/clubs.py); a refusal is said on the page in the reader's language."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app import i18n
from app.api.answers import site_address
from app.api.context import ContextDep, MaybeMeDep
from app.api.errors import status_of
from app.api.night_schemas import CreateNight, NightFormat
from app.night.standings import Order
from app.players.reasons import KEY_NEEDED
from app.services import errors
from app.services.players import SignedIn
from app.web.club import ClubPage, render, render_join, render_open
from app.web.error_page import render_error
from app.web.refusals import page_message

router = APIRouter(include_in_schema=False)
NO_STORE = {"Cache-Control": "no-store"}


def _html(text: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(text, status, headers=NO_STORE)


def _refused(refused: errors.ApiError) -> HTMLResponse:
    return _html(render_error(status_of(refused), page_message(refused)), status_of(refused))


def _signed(me: SignedIn | None) -> SignedIn:
    if me is None:
        raise errors.Unauthorized(KEY_NEEDED)
    return me


async def _club_page(
    ctx: ContextDep, code: str, me: SignedIn | None, template: str = "club", **kw: object
) -> HTMLResponse:
    try:
        club = await ctx.clubs.run(ctx.clubs.club, code, me)
        role = await ctx.clubs.run(ctx.clubs.role_of, code, me)
    except errors.ApiError as refused:
        return _refused(refused)
    page = ClubPage(
        club,
        admin=role == "admin",
        member=role is not None,
        signed_in=me is not None,
        **kw,  # type: ignore[arg-type]
    )
    status = 422 if kw.get("message") else 200
    return _html(render(template, page), status)


@router.get("/c", response_class=HTMLResponse)
async def open_page(ctx: ContextDep, me: MaybeMeDep) -> HTMLResponse:
    """The player's clubs, and the form that opens one."""
    mine = await ctx.clubs.run(ctx.clubs.mine, me) if me is not None else []
    return _html(render_open(signed_in=me is not None, mine=mine))


@router.post("/c")
async def open_club(
    ctx: ContextDep,
    me: MaybeMeDep,
    name: Annotated[str, Form()] = "",
    order: Annotated[str, Form()] = "wins_first",
) -> Response:
    if me is None:
        return _html(render_open(signed_in=False), 401)
    name = " ".join(name.split())[:80]
    if not name or order not in ("wins_first", "bullseyes_first"):
        return _html(render_open(error=i18n.gettext("Give the club a name.")), 422)
    chosen: Order = "bullseyes_first" if order == "bullseyes_first" else "wins_first"
    opened = await ctx.clubs.run(ctx.clubs.open, me, name, chosen)
    return RedirectResponse(f"/c/{opened.code}", 303)


@router.get("/c/{code}", response_class=HTMLResponse)
async def club_page(ctx: ContextDep, code: str, me: MaybeMeDep) -> HTMLResponse:
    return await _club_page(ctx, code, me)


@router.get("/c/{code}/board", response_class=HTMLResponse)
async def board_page(ctx: ContextDep, code: str) -> HTMLResponse:
    return await _club_page(ctx, code, None, "board")


# Under /c/{code}/join/ only: app/logs.py writes these paths without their token.
@router.get("/c/{code}/join/{token}", response_class=HTMLResponse)
async def join_page(ctx: ContextDep, code: str, token: str, me: MaybeMeDep) -> HTMLResponse:
    """An invite link opens a page naming the club; only its Join button (a POST, which the
    gate refuses from another site's page) joins. A link followed from anywhere joins
    nothing."""
    try:
        club = await ctx.clubs.run(ctx.clubs.invited, code, token, me)
    except errors.ApiError as refused:
        return _refused(refused)
    # A newcomer makes a profile right here; the form brings them back to this page.
    return _html(render_join(club, signed_in=me is not None, back=f"/c/{code}/join/{token}"))


@router.post("/c/{code}/join/{token}")
async def join(ctx: ContextDep, code: str, token: str, me: MaybeMeDep) -> Response:
    """Join pressed: a signed-in player joins; anyone else is asked to make a profile."""
    try:
        await ctx.clubs.run(ctx.clubs.join, _signed(me), code, token)
    except errors.ApiError as refused:
        return _refused(refused)
    return RedirectResponse(f"/c/{code}", 303)


async def _admin_form(
    ctx: ContextDep, code: str, me: SignedIn | None, fn: object, *args: object
) -> Response:
    try:
        await ctx.clubs.run(fn, _signed(me), code, *args)  # type: ignore[arg-type]
    except errors.ApiError as refused:
        if isinstance(refused, errors.Conflict | errors.Invalid):
            return await _club_page(ctx, code, me, message=page_message(refused))
        return _refused(refused)
    return RedirectResponse(f"/c/{code}", 303)


@router.post("/c/{code}/invites", response_class=HTMLResponse)
async def invite(ctx: ContextDep, request: Request, code: str, me: MaybeMeDep) -> Response:
    """A new invite link, shown whole: sent by a message, a path alone opens nothing."""
    try:
        token = await ctx.clubs.run(ctx.clubs.invite, _signed(me), code)
    except errors.ApiError as refused:
        return _refused(refused)
    site = site_address(ctx.settings, request)
    return await _club_page(ctx, code, me, invite_url=f"{site}/c/{code}/join/{token}")


@router.post("/c/{code}/seasons")
async def start_season(
    ctx: ContextDep,
    code: str,
    me: MaybeMeDep,
    name: Annotated[str, Form()] = "",
    after: Annotated[int | None, Form()] = None,
) -> Response:
    name = " ".join(name.split())[:80]
    if not name:
        return await _club_page(ctx, code, me, message=i18n.gettext("Give the season a name."))
    return await _admin_form(ctx, code, me, ctx.clubs.start_season, name, after)


@router.post("/c/{code}/admins")
async def name_admin(
    ctx: ContextDep, code: str, me: MaybeMeDep, handle: Annotated[str, Form()] = ""
) -> Response:
    return await _admin_form(ctx, code, me, ctx.clubs.name_admin, handle)


@router.post("/c/{code}/remove")
async def remove_member(
    ctx: ContextDep, code: str, me: MaybeMeDep, handle: Annotated[str, Form()] = ""
) -> Response:
    return await _admin_form(ctx, code, me, ctx.clubs.remove, handle)


@router.post("/c/{code}/nights")
async def open_night(
    ctx: ContextDep,
    code: str,
    me: MaybeMeDep,
    name: Annotated[str, Form()] = "",
    format: Annotated[NightFormat, Form()] = "round_robin",
) -> Response:
    """An admin opens a night of the running season, in the format picked: on to its
    director's page."""
    name = " ".join(name.split())[:80]
    if not name:
        return await _club_page(ctx, code, me, message=i18n.gettext("Give the night a name."))
    try:
        body = CreateNight(name=name, format=format)  # as the night's own form opens one
        opened = await ctx.clubs.run(
            ctx.clubs.open_night,
            _signed(me),
            code,
            name=body.name,
            format=body.format,
            preset=body.preset,
            rules=body.chosen_rules(),
            options=body.options,
        )
    except errors.ApiError as refused:
        if isinstance(refused, errors.Conflict):
            return await _club_page(ctx, code, me, message=page_message(refused))
        return _refused(refused)
    return RedirectResponse(f"/n/{opened.code}/d/{opened.director_token}", 303)
