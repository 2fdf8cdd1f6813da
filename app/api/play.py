"""Play now and the lobby (API.md § Fourth round, *Play now, friends, blocks*): ``POST
/api/play`` and ``GET /api/lobby``. Thin routes over app/services/play_now.py."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Request, Response
from fastapi.responses import HTMLResponse, RedirectResponse
from pydantic import BaseModel, ConfigDict, Field

from app.api.answers import (
    NO_STORE,
    errors_of,
    from_browser,
    guest_name,
    remember_table,
    set_seat_cookie,
)
from app.api.bearer import bearer_token
from app.api.context import Context, ContextDep, MaybeMeDep
from app.api.errors import headers_of, status_of
from app.api.limits import may_open
from app.api.lobby import LobbyOut, lobby
from app.api.schemas import PlayerName, PresetName
from app.players import keys
from app.rules import PRESETS
from app.services import errors
from app.services.play_now import PUBLIC_PLAY_OFF, PlayNowSeat
from app.web.refusals import page_message
from app.web.render import render_home, render_public_tables

router = APIRouter(prefix="/api", tags=["play now"])

# A guest's seat token from play now, kept site-wide so that pressing again (from the home
# page) finds the same seat: the room's own seat cookie is scoped to the room's paths.
PLAY_COOKIE = "allfours_play"


class PlayIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    preset: PresetName | None = Field(None, description="only tables of this preset")
    name: PlayerName | None = Field(
        None, description="a guest's seat name (a player sits under the profile's)"
    )


class PlayOut(BaseModel):
    code: str
    url: str
    seat: int
    token: str | None = Field(
        None, description="a guest's seat token (absent for a player, or when seated already)"
    )
    pending: bool = Field(
        False,
        exclude_if=lambda pending: not pending,
        description="a computer player's seat, the caller's from the next deal",
    )


def guest_token(request: Request) -> str | None:
    """A guest's seat token from an earlier press: the bearer, else the play cookie."""
    given = bearer_token(request)
    if given is not None:
        return None if keys.is_key(given) else given
    return request.cookies.get(PLAY_COOKIE) or None


async def seat_now(
    ctx: Context, request: Request, me: MaybeMeDep, preset: str | None, name: str | None
) -> PlayNowSeat:
    """Play now for the routes: the host's switch, the room quota when a table is opened."""
    if not ctx.settings.public_play:
        raise errors.Forbidden(PUBLIC_PLAY_OFF)
    seated = await ctx.play_now.press(
        me=me,
        token=guest_token(request),
        name=name or guest_name(),
        preset=preset,
        may_open=may_open(request),
    )
    if not seated.pending:
        ctx.presence.touch(seated.code, seated.seat)
    return seated


def keep_seat(request: Request, response: Response, me: MaybeMeDep, seated: PlayNowSeat) -> None:
    """The browser's cookies for the seat: the room's seat cookie and the play cookie for a
    guest, the tables cookie for everyone."""
    if seated.token is None:
        return
    if me is not None:
        remember_table(response, request, seated.code, seated.token)
        return
    set_seat_cookie(response, request, seated.snap, seated.token)
    response.set_cookie(
        PLAY_COOKIE,
        seated.token,
        max_age=60 * 60 * 24,
        path="/",
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )


@router.post("/play", response_model=PlayOut, responses=errors_of(403, 422, 429))
async def play_now(
    ctx: ContextDep,
    request: Request,
    response: Response,
    me: MaybeMeDep,
    body: Annotated[PlayIn | None, Body()] = None,
) -> PlayOut:
    """A seat now, for a guest or a player: at a public table waiting in its lobby, else at
    one in play where a computer player holds a seat (from the next deal), else at a new
    public table with three computer players, started at once. Pressed again: the same seat."""
    body = body or PlayIn()
    seated = await seat_now(ctx, request, me, body.preset, body.name)
    if from_browser(request):
        keep_seat(request, response, me, seated)
    response.headers.update(NO_STORE)
    return PlayOut(
        code=seated.code,
        url=f"/r/{seated.code}",
        seat=seated.seat,
        token=seated.token,
        pending=seated.pending,
    )


@router.get("/lobby", response_model=LobbyOut)
async def get_lobby(ctx: ContextDep, response: Response, me: MaybeMeDep) -> LobbyOut:
    """The public tables (anyone may watch one): seats with names, computer players and
    handles (an unlisted player's only to themself), the preset, the phase, rated or not,
    spectators."""
    response.headers.update(NO_STORE)
    return await ctx.rooms.read(lobby, ctx, me.player.id if me else None)


# -- the home page's -----------------------------------------------------------------------

pages = APIRouter(include_in_schema=False)


@pages.get("/lobby", response_class=HTMLResponse)
async def lobby_fragment(ctx: ContextDep, me: MaybeMeDep) -> HTMLResponse:
    """The home page's list of public tables, polled by htmx."""
    found = await ctx.rooms.read(lobby, ctx, me.player.id if me else None)
    return HTMLResponse(render_public_tables(found.tables), headers=NO_STORE)


@pages.post("/play")
async def play_now_page(ctx: ContextDep, request: Request, me: MaybeMeDep) -> Response:
    """The home page's "Play now": to the table, its seat kept in the browser's cookies."""
    form = await request.form()
    chosen = form.get("preset")
    preset = chosen if isinstance(chosen, str) and chosen in PRESETS else None
    try:
        seated = await seat_now(ctx, request, me, preset, None)
    except errors.ApiError as refused:
        status = status_of(refused)
        off = not ctx.settings.public_play
        page = render_home(error=page_message(refused), public_play=not off)
        return HTMLResponse(page, status, headers=headers_of(refused))
    response = RedirectResponse(f"/r/{seated.code}", status_code=303)
    keep_seat(request, response, me, seated)
    return response
