"""Today's boards (API.md § Fifth round): ``GET /api/daily``, ``POST /api/daily/play``,
``GET /api/daily/{date}``. Thin routes over app/services/daily.py."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Path, Request, Response
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
from app.api.context import ContextDep, MaybeMeDep
from app.api.errors import headers_of, status_of
from app.api.limits import may_open
from app.api.schemas import PlayerName
from app.players import keys
from app.services import errors
from app.services.daily import Caller, DailySeat
from app.web.daily import render_daily
from app.web.error_page import render_error
from app.web.refusals import page_message

router = APIRouter(prefix="/api/daily", tags=["today's boards"])
pages = APIRouter(include_in_schema=False)

# A guest's seat token at their day's table, site-wide, so that pressing again (and the
# page /daily) finds the same table and its travellers.
DAILY_COOKIE = "allfours_daily"


class DailyPlayIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: PlayerName | None = Field(None, description="a guest's seat name")


class DailyPlayOut(BaseModel):
    code: str
    url: str
    token: str | None = Field(None, description="a guest's seat token (absent for a player)")


def caller_of(request: Request, me: Any) -> Caller:
    """A player by their key; a guest by their seat token at the day's table: the bearer,
    else the daily cookie."""
    if me is not None:
        return Caller(me)
    given = bearer_token(request)
    if given is not None and not keys.is_key(given):
        return Caller(None, given)
    return Caller(None, request.cookies.get(DAILY_COOKIE) or None)


@router.get("")
async def get_daily(ctx: ContextDep, request: Request, response: Response, me: MaybeMeDep) -> Any:
    """Today: its date, how many boards, the seed's commitment, the caller's progress."""
    response.headers.update(NO_STORE)
    return await ctx.daily.read(ctx.daily.summary, caller_of(request, me))


@router.post("/play", response_model=DailyPlayOut, responses=errors_of(422))
async def play_daily(
    ctx: ContextDep,
    request: Request,
    response: Response,
    me: MaybeMeDep,
    body: Annotated[DailyPlayIn | None, Body()] = None,
) -> DailyPlayOut:
    """The caller's table today, once a day: the caller at seat 0 (North-South) with a
    `standard` computer partner against two more, dealing today's boards in order, one hand
    each. Pressed again: the same table."""
    body = body or DailyPlayIn()
    seat = await ctx.daily.press(
        caller_of(request, me), body.name or guest_name(), may_open(request)
    )
    if from_browser(request):
        await keep_daily_seat(ctx, request, response, me, seat)
    response.headers.update(NO_STORE)
    return DailyPlayOut(code=seat.code, url=f"/r/{seat.code}", token=seat.token)


async def keep_daily_seat(
    ctx: ContextDep, request: Request, response: Response, me: Any, seat: DailySeat
) -> None:
    """The browser's cookies for the day's table: the seat and daily cookies for a guest,
    the tables cookie for everyone."""
    if seat.token is not None:
        snap = await ctx.rooms.read(ctx.rooms.snapshot, seat.code)
        set_seat_cookie(response, request, snap, seat.token)
        response.set_cookie(
            DAILY_COOKIE,
            seat.token,
            max_age=60 * 60 * 48,
            path="/",
            httponly=True,
            samesite="lax",
            secure=request.url.scheme == "https",
        )
    elif me is not None:
        remember_table(response, request, seat.code, me.seat_token(seat.code))


@router.get("/{date}", responses=errors_of(404))
async def get_day(
    ctx: ContextDep,
    request: Request,
    response: Response,
    me: MaybeMeDep,
    date: Annotated[str, Path(max_length=32)],
) -> Any:
    """A day: the boards the caller has played, each with its traveller (R33); every board
    and the seed once the day is over (``python -m app.verify`` checks the answer); the
    day's ranking by percent."""
    response.headers.update(NO_STORE)
    return await ctx.daily.read(ctx.daily.day_view, date, caller_of(request, me))


@router.get("/{date}/boards/{board}", responses=errors_of(403, 404))
async def get_traveller(
    ctx: ContextDep,
    request: Request,
    response: Response,
    me: MaybeMeDep,
    date: Annotated[str, Path(max_length=32)],
    board: Annotated[int, Path(ge=1, le=64)],
) -> Any:
    """One board's traveller: every result at it today, their matchpoints and percent (R32),
    to a caller who has played it (R33; anyone once the day is over)."""
    response.headers.update(NO_STORE)
    return await ctx.daily.read(ctx.daily.traveller, date, board, caller_of(request, me))


# -- the page ------------------------------------------------------------------------------


@pages.get("/daily", response_class=HTMLResponse)
async def daily_page(ctx: ContextDep, request: Request, me: MaybeMeDep) -> HTMLResponse:
    """Today's boards: the person's progress, the travellers of the boards played, the day's
    ranking, and the button that opens (or reopens) the person's table."""
    caller = caller_of(request, me)
    today = await ctx.daily.read(ctx.daily.summary, caller)
    day = await ctx.daily.read(ctx.daily.day_view, today["date"], caller)
    return HTMLResponse(render_daily(today, day), headers=NO_STORE)


@pages.post("/daily/play")
async def daily_play_page(ctx: ContextDep, request: Request, me: MaybeMeDep) -> Response:
    """The page's button: to the person's table today, its seat kept in the cookies."""
    try:
        seat = await ctx.daily.press(caller_of(request, me), guest_name(), may_open(request))
    except errors.TooMany as refused:
        return HTMLResponse(
            render_error(status_of(refused), page_message(refused)),
            status_of(refused),
            headers=headers_of(refused),
        )
    response = RedirectResponse(f"/r/{seat.code}", status_code=303)
    await keep_daily_seat(ctx, request, response, me, seat)
    return response
