"""What the routes answer with, shared by every route module (no route module imports
another's): the JSON view, the page's table after a form, the seat cookie, the error shapes
of the OpenAPI document. The event stream is app/api/stream.py's."""

from __future__ import annotations

import re
from typing import Any

from fastapi import Request, Response
from fastapi.responses import HTMLResponse, RedirectResponse

from app import i18n
from app.api.context import SEAT_COOKIE, TABLES_COOKIE, Context
from app.api.schemas import ErrorOut
from app.services.identity import MARK_LENGTH, seat_mark, seat_of
from app.services.snapshot import RoomSnap
from app.services.view import json_renderer, view_text
from app.settings import Settings
from app.web.render import table_renderer


def errors_of(*codes: int) -> dict[int | str, dict[str, Any]]:
    return {code: {"model": ErrorOut} for code in codes}


def viewer_seat(ctx: Context, snap: RoomSnap, token: str | None) -> int | None:
    """The caller's seat (None: a spectator); a seated caller counts as present."""
    seat = seat_of(snap, token)
    if seat is not None:
        ctx.presence.touch(snap.code, seat)
    return seat


def view_response(ctx: Context, snap: RoomSnap, token: str | None) -> Response:
    """The caller's view as JSON, rendered once and shared with the caller's own stream.
    Never cached: it holds the caller's hand."""
    seat = viewer_seat(ctx, snap, token)
    text = view_text(ctx.views, snap, seat, ctx.presence, json_renderer)
    return Response(text, media_type="application/json", headers=NO_STORE)


NO_STORE = {"Cache-Control": "no-store"}


def set_seat_cookie(response: Response, request: Request, snap: RoomSnap, token: str) -> None:
    """The browser's seat token: HttpOnly, SameSite=Lax, scoped to this room's pages and API,
    Secure when served over HTTPS. A browser that already holds another seat of this table
    keeps that cookie: a second seat never silently takes the place of the first."""
    held = request.cookies.get(SEAT_COOKIE)
    if held and held != token and seat_of(snap, held) is not None:
        remember_table(response, request, snap.code, held)
        return
    remember_table(response, request, snap.code, token)
    for path in (f"/r/{snap.code}", f"/api/rooms/{snap.code}"):
        response.set_cookie(
            SEAT_COOKIE,
            token,
            max_age=60 * 60 * 24 * 30,
            path=path,
            httponly=True,
            samesite="lax",
            secure=request.url.scheme == "https",
        )


TABLES_HELD = 8  # the home page lists the latest tables a browser took a seat at
_HELD = re.compile(rf"([A-Za-z0-9_-]{{1,32}}):([0-9a-f]{{{MARK_LENGTH}}})")


def tables_held(request: Request) -> list[tuple[str, str]]:
    """The (room code, seat mark) pairs of the browser's tables cookie, latest first; what
    does not read as one is left out."""
    pairs = []
    for item in request.cookies.get(TABLES_COOKIE, "").split(".")[:TABLES_HELD]:
        found = _HELD.fullmatch(item)
        if found:
            pairs.append((found[1], found[2]))
    return pairs


def remember_table(response: Response, request: Request, code: str, token: str) -> None:
    """This table first in the browser's tables cookie (site-wide, HttpOnly): the home page
    offers the way back to its seat."""
    remember_tables(response, request, [(code, token)])


def remember_tables(response: Response, request: Request, seats: list[tuple[str, str]]) -> None:
    """These tables (code, the seat token that acts there now) first in the tables cookie,
    in one Set-Cookie (a seat claimed by a profile has a new token, so a new mark)."""
    first = [(code, seat_mark(token)) for code, token in seats]
    codes = {code for code, _ in seats}
    kept = [(c, m) for c, m in tables_held(request) if c not in codes]
    value = ".".join(f"{c}:{m}" for c, m in [*first, *kept][:TABLES_HELD])
    response.set_cookie(
        TABLES_COOKIE,
        value,
        max_age=60 * 60 * 24 * 30,
        path="/",
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )


def forget_seat_cookie(response: Response, request: Request, code: str) -> None:
    """A room's seat cookie goes: a player's key acts for the seat from now on."""
    for path in (f"/r/{code}", f"/api/rooms/{code}"):
        response.delete_cookie(
            SEAT_COOKIE,
            path=path,
            httponly=True,
            samesite="lax",
            secure=request.url.scheme == "https",
        )


def from_browser(request: Request) -> bool:
    """A page's fetch or htmx request, not a script: only browsers get the seat cookie, so
    one cookie-keeping API client can seat four players and still look on as a spectator."""
    headers = request.headers
    return "sec-fetch-mode" in headers or "hx-request" in headers


def htmx(request: Request) -> bool:
    return request.headers.get("hx-request") == "true"


def table_html(ctx: Context, snap: RoomSnap, token: str | None) -> str:
    """The caller's table, rendered once and shared with the caller's own stream."""
    seat = viewer_seat(ctx, snap, token)
    return view_text(ctx.views, snap, seat, ctx.presence, table_renderer(i18n.current()))


def page_answer(ctx: Context, request: Request, snap: RoomSnap, token: str | None) -> Response:
    """The table after a form: the fragment for htmx, back to the room for a plain form."""
    if htmx(request):
        return HTMLResponse(table_html(ctx, snap, token), headers={"Cache-Control": "no-store"})
    return RedirectResponse(f"/r/{snap.code}", status_code=303)


def site_address(settings: Settings, request: Request) -> str:
    """The site's address for a link sent by a message (an invite): ALLFOURS_PUBLIC_URL when
    set (behind a proxy the request's own address may be the inner one), else the address
    this request was asked at."""
    return settings.public_url or str(request.base_url).rstrip("/")
