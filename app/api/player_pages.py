"""The player's own pages (API.md § Fourth round, *Players*): "Keep my games" (home, a table,
the result), the own page ``/me`` and its forms, and the page a sign-in link opens.

Thin, as the other pages: each form calls the players' service as its JSON twin does
(app/api/players.py) and answers with a redirect (303) or the page again with the refusal
in the reader's words. A new key only ever goes into the player cookie; no page carries a
key, a seat token or a sign-in code, but for the one-time link the own page was asked for.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Path, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app import i18n
from app.api.answers import NO_STORE, forget_seat_cookie, remember_tables, tables_held
from app.api.context import Context, ContextDep, MaybeMeDep, TokenDep
from app.api.errors import status_of
from app.api.limits import client_address
from app.api.player_answers import clear_player_cookie, set_player_cookie, signin_try
from app.players.devices import device_name
from app.services import errors
from app.services.identity import check_code
from app.services.players import NewKey, SignedIn
from app.web.players import (
    SigninLinkShown,
    devices_shown,
    render_keep_games,
    render_me,
    render_me_delete,
    render_no_profile,
    render_signin,
    signin_link_shown,
)
from app.web.profile_form import ProfileForm, local_path
from app.web.refusals import page_message
from app.web.render import render_home

router = APIRouter(include_in_schema=False)

Handle = Annotated[str, Form(max_length=60)]
Name = Annotated[str, Form(max_length=60)]
CodeInPath = Annotated[str, Path(max_length=80)]


def _page(html: str, status: int = 200) -> HTMLResponse:
    # The player's own pages are theirs alone: no cache keeps them.
    return HTMLResponse(html, status, headers=NO_STORE)


def _status(refused: errors.ApiError) -> int:
    return 409 if isinstance(refused, errors.HandleTaken) else 422


async def _claim_held(ctx: Context, request: Request, new: NewKey, response: Response) -> None:
    """The seats this browser holds (its tables cookie's marks) become the new key's player's;
    the cookie then names them by the player's seat token, the one that acts there now."""
    claimed = await ctx.players.run(ctx.players.claim_marks, new.player, tables_held(request))
    _taken_over(ctx, request, new, claimed, response)


def _taken_over(
    ctx: Context, request: Request, new: NewKey, codes: list[str], response: Response
) -> None:
    """The player cookie set; each claimed room's seat cookie gone (the key acts now)."""
    set_player_cookie(response, request, new.key)
    for code in codes:
        forget_seat_cookie(response, request, code)
    if codes:
        tokens = [(c, ctx.players.seat_token(new.player, c)) for c in codes]
        remember_tables(response, request, tokens)


# -- "Keep my games" -----------------------------------------------------------------------


@router.post("/me/new")
async def keep_games(
    ctx: ContextDep,
    request: Request,
    me: MaybeMeDep,
    handle: Handle = "",
    name: Name = "",
    page: Annotated[str, Form(max_length=10)] = "home",
    next: Annotated[str, Form(max_length=400)] = "",
) -> Response:
    """A profile from the home page (or /me, or a club's invite): the seats this browser
    holds become its. ``next``: the page to go back to (the invite), a local path only."""
    back = local_path(next)
    if me is not None:
        return RedirectResponse(back or "/me", status_code=303)
    try:
        new = await ctx.players.run(
            ctx.players.create,
            address=client_address(request.scope),
            handle=handle,
            name=name,
            language=i18n.current(),
            device=device_name(request.headers.get("user-agent")),
        )
    except (errors.Invalid, errors.HandleTaken) as refused:
        form = ProfileForm("/me/new", handle[:20], name[:40], page_message(refused), page, back)
        html = render_no_profile(form) if page == "me" else render_home(profile=form)
        return _page(html, _status(refused))
    response = RedirectResponse(back or "/me", status_code=303)
    await _claim_held(ctx, request, new, response)
    return response


@router.get("/r/{code}/profile", response_class=HTMLResponse)
async def keep_games_page(ctx: ContextDep, code: CodeInPath, me: MaybeMeDep) -> Response:
    """The table's "Keep my games" link: the form, posted back to the room's path."""
    await ctx.rooms.read(ctx.rooms.snapshot, code)  # no such table: its 404 page
    if me is not None:
        return RedirectResponse("/me", status_code=303)
    return _page(render_keep_games(ProfileForm(f"/r/{code}/profile"), code))


@router.post("/r/{code}/profile")
async def keep_games_at_table(
    ctx: ContextDep,
    request: Request,
    code: CodeInPath,
    token: TokenDep,
    me: MaybeMeDep,
    handle: Handle = "",
    name: Name = "",
) -> Response:
    """A profile from a table (its link, or the result at game over): posted to the room's
    path, the room's seat cookie comes along, and that seat becomes the profile's, with the
    games already played in it; the page goes on at the same seat, now under the key."""
    check_code(code)
    if me is not None:
        return RedirectResponse(f"/r/{code}", status_code=303)
    try:
        new = await ctx.players.run(
            ctx.players.create,
            address=client_address(request.scope),
            handle=handle,
            name=name,
            language=i18n.current(),
            device=device_name(request.headers.get("user-agent")),
            claim=[token] if token else [],
        )
    except (errors.Invalid, errors.HandleTaken) as refused:
        form = ProfileForm(f"/r/{code}/profile", handle[:20], name[:40], page_message(refused))
        return _page(render_keep_games(form, code), _status(refused))
    response = RedirectResponse(f"/r/{code}", status_code=303)
    # The browser's other tables too, as from the home page.
    claimed = await ctx.players.run(ctx.players.claim_marks, new.player, tables_held(request))
    _taken_over(ctx, request, new, list(dict.fromkeys([code, *claimed])), response)
    return response


# -- the own page ----------------------------------------------------------------------------


async def _me_page(
    ctx: Context,
    me: SignedIn,
    *,
    link: SigninLinkShown | None = None,
    error: str | None = None,
    done: str | None = None,
    find: str = "",
) -> HTMLResponse:
    devices = await ctx.players.run(ctx.players.devices, me)
    shown = devices_shown(devices, me.device)
    passkeys = await ctx.passkeys.run(ctx.passkeys.of, me)
    pushed = await ctx.players.run(ctx.push.subscriptions, me.player.id)
    ties = await ctx.players.run(ctx.social.ties, me)
    found, find_error, status = None, None, 200
    if find:  # the friends' search box (issue #46)
        try:
            found = await ctx.players.run(ctx.social.search, me, find)
        except errors.ApiError as refused:
            find_error, status = page_message(refused), status_of(refused)
    page = render_me(
        me,
        shown,
        link=link,
        error=error,
        passkeys=passkeys,
        push_count=len(pushed),
        ties=ties,
        done=done,
        find=find,
        found=found,
        find_error=find_error,
    )
    return _page(page, status)


@router.get("/me", response_class=HTMLResponse)
async def own_page(
    ctx: ContextDep,
    me: MaybeMeDep,
    done: Annotated[str | None, Query(max_length=20)] = None,
    find: Annotated[str, Query(max_length=80)] = "",
) -> Response:
    """The own page; ``done``: the tie a form just changed; ``find``: the friends' search."""
    if me is None:
        return _page(render_no_profile(ProfileForm("/me/new", page="me")))
    return await _me_page(ctx, me, done=done, find=find.strip())


@router.post("/me/change")
async def change(
    ctx: ContextDep,
    me: MaybeMeDep,
    name: Annotated[str | None, Form(max_length=60)] = None,
    language: Annotated[str | None, Form(max_length=16)] = None,
    listed: Annotated[bool | None, Form()] = None,
) -> Response:
    """One of the own page's forms: the name, the language, or whether the player is listed."""
    if me is None:
        return RedirectResponse("/me", status_code=303)
    try:
        player = await ctx.players.run(
            ctx.players.change, me, name=name, language=language, listed=listed
        )
    except errors.Invalid as refused:
        return await _me_page(ctx, me, error=page_message(refused))
    # A new language is the page's too (the menu's cookie follows the address's ?lang=).
    where = f"/me?lang={player.language}" if language and player.language else "/me"
    return RedirectResponse(where, status_code=303)


@router.post("/me/devices/{device}/name")
async def rename_device(
    ctx: ContextDep,
    me: MaybeMeDep,
    device: Annotated[int, Path(ge=1, le=2**62)],
    name: Annotated[str, Form(max_length=200)] = "",
) -> Response:
    if me is None:
        return RedirectResponse("/me", status_code=303)
    try:
        await ctx.players.run(ctx.players.rename_device, me, device, name)
    except (errors.Invalid, errors.NotFound) as refused:
        page = await _me_page(ctx, me, error=page_message(refused))
        page.status_code = status_of(refused)
        return page
    return RedirectResponse("/me#devices-h", status_code=303)


@router.post("/me/devices/{device}/sign-out")
async def sign_out(
    ctx: ContextDep,
    request: Request,
    me: MaybeMeDep,
    device: Annotated[int, Path(ge=1, le=2**62)],
) -> Response:
    if me is None:
        return RedirectResponse("/me", status_code=303)
    await ctx.players.run(ctx.players.sign_out, me, device)
    if device != me.device:
        return RedirectResponse("/me", status_code=303)
    response = RedirectResponse("/", status_code=303)
    clear_player_cookie(response, request)
    return response


@router.post("/me/signin-link", response_class=HTMLResponse)
async def signin_link(ctx: ContextDep, request: Request, me: MaybeMeDep) -> Response:
    """A one-time link for another device: shown on the own page as its URL and a QR code
    (the one page that carries a code: this answer, never stored)."""
    if me is None:
        return RedirectResponse("/me", status_code=303)
    code, seconds = await ctx.players.run(ctx.players.signin_link, me)
    url = str(request.base_url).rstrip("/") + f"/signin/{code}"
    return await _me_page(ctx, me, link=signin_link_shown(url, seconds))


@router.get("/me/delete", response_class=HTMLResponse)
async def delete_page(me: MaybeMeDep) -> Response:
    if me is None:
        return RedirectResponse("/me", status_code=303)
    return _page(render_me_delete(me))


@router.post("/me/delete")
async def delete(ctx: ContextDep, request: Request, me: MaybeMeDep) -> Response:
    response = RedirectResponse("/", status_code=303)
    if me is not None:
        await ctx.players.run(ctx.players.delete, me)
    clear_player_cookie(response, request)
    return response


# -- a sign-in link --------------------------------------------------------------------------
# Under /signin/ only: app/logs.py writes these paths without their code.


@router.get("/signin/{code}", response_class=HTMLResponse)
async def signin_page(ctx: ContextDep, request: Request, code: CodeInPath) -> Response:
    """What a scanned QR code opens: the profile the code signs in to, named (its name and
    handle), and one button that asks before it signs in (a link may be someone else's,
    sent as "join my table"). The code is written nowhere in the page: the form posts to
    this very address. A used or expired code: 410; a guess too many: 429."""
    try:
        signin_try(ctx, request)
        player = await ctx.players.run(ctx.players.signin_profile, code)
    except errors.Gone:
        return _page(render_signin(gone=True), 410)
    except errors.TooMany as refused:
        return _too_many(refused)
    return _page(render_signin(profile=(player.name, player.handle)))


def _too_many(refused: errors.TooMany) -> Response:
    page = _page(render_signin(error=page_message(refused)), 429)
    page.headers["Retry-After"] = str(refused.retry_after or 60)
    return page


@router.post("/signin/{code}")
async def signin(ctx: ContextDep, request: Request, code: CodeInPath) -> Response:
    """This device signed in by the code (once, within its ten minutes). It signs in,
    nothing more: the seats this browser holds stay the guest's (issue #43). A used or
    expired code: 410."""
    try:
        signin_try(ctx, request)
        new = await ctx.players.run(
            ctx.players.signin, code, device=device_name(request.headers.get("user-agent"))
        )
    except errors.Gone:
        return _page(render_signin(gone=True), 410)
    except errors.TooMany as refused:
        return _too_many(refused)
    response = RedirectResponse("/me", status_code=303)
    set_player_cookie(response, request, new.key)
    return response
