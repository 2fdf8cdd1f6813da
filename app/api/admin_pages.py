"""The host's page ``/admin`` (issue #36) and its forms.

Signing in takes the admin token once (a form; tries per address, counted apart from the
players' sign-ins); the browser then keeps a cookie holding not the token but a new sign-in
signed with it (app/services/admin_sessions.py): HttpOnly, ``SameSite=Strict``, Secure behind
HTTPS, on ``/admin`` only, twelve hours by the server's clock, ended for good by signing out
(a copy of it too). A changed token ends every such sign-in. The forms are protected as
every form of the house: the gate refuses a state-changing request sent by another site's
page (app/api/gate.py), and a Strict cookie never comes along with one anyway.
"""

from __future__ import annotations

import hmac
from typing import Annotated

from fastapi import APIRouter, Form, Path, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from prometheus_client import REGISTRY

from app.api.admin_token import ADMIN_TOKEN_NEEDED, ADMIN_TOKEN_WRONG
from app.api.answers import NO_STORE
from app.api.context import Context, ContextDep
from app.api.numbers import gauges
from app.api.player_answers import admin_signin_try
from app.services import admin_sessions, errors, moderation
from app.services.admin_sessions import SIGNED_IN_S
from app.web.admin import AdminPage, Figure, render_admin, render_admin_signin
from app.web.refusals import page_message

router = APIRouter(include_in_schema=False)

ADMIN_COOKIE = "allfours_admin"
ADMIN_PATH = "/admin"
ROOMS_SHOWN = 100
REPORTS_SHOWN = 50
COUNTERS = ("allfours_moves_total", "allfours_push_sent_total", "allfours_push_failed_total")

Handle = Annotated[str, Path(max_length=40)]


async def signed_in(ctx: Context, request: Request) -> bool:
    given = request.cookies.get(ADMIN_COOKIE, "")
    if not ctx.settings.admin_token or not given:
        return False
    return await ctx.rooms.read(admin_sessions.holds, ctx.engine, ctx.settings.admin_token, given)


def _page(html: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(html, status, headers=NO_STORE)


def _signin_page(ctx: Context, status: int = 200, error: str | None = None) -> HTMLResponse:
    if not ctx.settings.admin_token:
        return _page(render_admin_signin(off=True), 403)
    return _page(render_admin_signin(error=error), status)


def _home() -> RedirectResponse:
    return RedirectResponse(ADMIN_PATH, status_code=303)


async def _admin_page(ctx: Context, status: int = 200, error: str | None = None) -> HTMLResponse:
    rooms = await ctx.rooms.read(ctx.housekeeping.rooms, limit=ROOMS_SHOWN)
    nights = await ctx.rooms.read(ctx.nights.open_tables)
    reports = await ctx.rooms.read(moderation.reports, ctx.engine, limit=REPORTS_SHOWN)
    bans = await ctx.rooms.read(moderation.bans, ctx.engine)
    figures = [Figure(name, value) for name, (_, value) in (await gauges(ctx)).items()]
    figures += [Figure(name, REGISTRY.get_sample_value(name) or 0) for name in COUNTERS]
    page = AdminPage(rooms, nights, reports, bans, figures, error)
    return _page(render_admin(page), status)


@router.get(ADMIN_PATH, response_class=HTMLResponse)
async def admin_page(ctx: ContextDep, request: Request) -> Response:
    """The host's page, or its sign-in form."""
    if not await signed_in(ctx, request):
        return _signin_page(ctx)
    return await _admin_page(ctx)


@router.post(ADMIN_PATH + "/signin")
async def admin_signin(
    ctx: ContextDep, request: Request, token: Annotated[str, Form(max_length=400)] = ""
) -> Response:
    if not ctx.settings.admin_token:
        return _signin_page(ctx)
    admin_signin_try(ctx, request)  # guesses per address, in a bucket of its own
    if not token:
        return _signin_page(ctx, 401, page_message(errors.Unauthorized(ADMIN_TOKEN_NEEDED)))
    if not hmac.compare_digest(token.encode(), ctx.settings.admin_token.encode()):
        return _signin_page(ctx, 403, page_message(errors.Forbidden(ADMIN_TOKEN_WRONG)))
    response = _home()
    response.set_cookie(
        ADMIN_COOKIE,
        admin_sessions.new_sign_in(ctx.settings.admin_token),
        max_age=SIGNED_IN_S,
        path=ADMIN_PATH,
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
    )
    return response


@router.post(ADMIN_PATH + "/signout")
async def admin_signout(ctx: ContextDep, request: Request) -> Response:
    if await signed_in(ctx, request):  # ends this sign-in and any copy, on every process
        await ctx.players.run(admin_sessions.sign_out, ctx.engine)
    response = _home()
    response.delete_cookie(
        ADMIN_COOKIE,
        path=ADMIN_PATH,
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
    )
    return response


def _refused(ctx: Context) -> HTMLResponse:
    """A form sent without the sign-in: the sign-in form, refused."""
    if not ctx.settings.admin_token:
        return _page(render_admin_signin(off=True), 403)
    return _page(
        render_admin_signin(error=page_message(errors.Unauthorized(ADMIN_TOKEN_NEEDED))), 403
    )


async def _ban(ctx: Context, handle: str, reason: str) -> Response:
    try:
        await ctx.players.run(moderation.ban, ctx.engine, handle, reason, by=moderation.BY_PAGE)
        await ctx.rooms.write(moderation.banish, ctx.rooms, handle)  # their public seats: bots
    except (errors.Invalid, errors.NotFound) as refused:
        return await _admin_page(
            ctx, 404 if isinstance(refused, errors.NotFound) else 422, page_message(refused)
        )
    return _home()


@router.post(ADMIN_PATH + "/players/{handle}/ban")
async def ban_form(
    ctx: ContextDep,
    request: Request,
    handle: Handle,
    reason: Annotated[str, Form(max_length=2000)] = "",
) -> Response:
    if not await signed_in(ctx, request):
        return _refused(ctx)
    return await _ban(ctx, handle, reason)


@router.post(ADMIN_PATH + "/ban")
async def ban_by_handle_form(
    ctx: ContextDep,
    request: Request,
    handle: Annotated[str, Form(max_length=40)] = "",
    reason: Annotated[str, Form(max_length=2000)] = "",
) -> Response:
    if not await signed_in(ctx, request):
        return _refused(ctx)
    return await _ban(ctx, handle, reason)


@router.post(ADMIN_PATH + "/players/{handle}/unban")
async def unban_form(ctx: ContextDep, request: Request, handle: Handle) -> Response:
    if not await signed_in(ctx, request):
        return _refused(ctx)
    try:
        await ctx.players.run(moderation.unban, ctx.engine, handle)
    except errors.NotFound as refused:
        return await _admin_page(ctx, 404, page_message(refused))
    return _home()
