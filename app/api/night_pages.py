"""The club night's pages: open a night, a player's night (/n/{code}), the board for the
venue's screen (/n/{code}/board), the director's page (/n/{code}/direct), and the links that
put a player's, a director's or a substitute's token into a cookie. Plain forms (they work
without the page's script); the live parts follow the night's stream of HTML."""

from __future__ import annotations

from collections.abc import AsyncIterator
from functools import partial
from typing import Annotated, Any

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import ValidationError
from sse_starlette import EventSourceResponse

from app import i18n
from app.api.answers import set_seat_cookie
from app.api.context import ContextDep, MaybeMeDep
from app.api.errors import status_of
from app.api.night_answers import (
    DIRECTOR_COOKIE,
    NIGHT_LINK_COOKIE,
    NightsDep,
    StewardDep,
    night_link,
    player_link,
)
from app.api.night_schemas import CreateNight
from app.night.options import NightOptions
from app.night.reasons import NOT_DIRECTOR
from app.night.state import Json, NightState
from app.reasons import Reason
from app.services import errors
from app.services.clubs import club_of_night
from app.services.night_steward import NightSteward
from app.services.night_view import night_json, with_grace
from app.services.nights import Nights
from app.web.error_page import render_error
from app.web.night import (
    Page,
    context,
    pair_names,
    render,
    render_live,
    render_missing,
    render_open,
)
from app.web.refusals import page_message
from app.web.render import environment

router = APIRouter(include_in_schema=False)
NO_STORE = {"Cache-Control": "no-store"}
MONTH = 60 * 60 * 24 * 30
VIEWS = ("player", "board", "direct")


def _cookie(response: Response, request: Request, name: str, value: str, *paths: str) -> None:
    for path in paths:
        response.set_cookie(
            name,
            value,
            max_age=MONTH,
            path=path,
            httponly=True,
            samesite="lax",
            secure=request.url.scheme == "https",
        )


def _page(nights: Nights, state: NightState, request: Request, **kwargs: Any) -> Page:
    body = night_json(state, nights.snapshot)
    you = kwargs.pop("you", None)
    me = kwargs.pop("me", None)
    if you is None:
        you = nights.pair_of(state, night_link(request), me)
    club = club_of_night(nights.engine, state.row.id)
    return Page(body, pair_names(body), you=you, club=club, **kwargs)


async def _load(nights: Nights, code: str) -> NightState | None:
    try:
        return await nights.read(nights.load, code)
    except errors.NotFound:
        return None


def _html(text: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(text, status, headers=NO_STORE)


@router.get("/n", response_class=HTMLResponse)
async def open_page() -> HTMLResponse:
    return _html(render_open())


@router.post("/n")
async def open_night(
    nights: NightsDep,
    request: Request,
    name: Annotated[str, Form()] = "",
    format: Annotated[str, Form()] = "round_robin",
    match: Annotated[int, Form()] = 2,
    standings: Annotated[str, Form()] = "wins_first",
    grace_s: Annotated[int, Form()] = 180,
) -> Response:
    try:
        body = CreateNight.model_validate(
            {
                "name": name,
                "format": format,
                "options": NightOptions.model_validate(
                    {"match": match, "standings": standings, "grace_s": grace_s}
                ),
            }
        )
    except ValidationError:
        return _html(render_open(error=i18n.gettext("Give the night a name.")), 422)
    opened = await nights.write(
        nights.open,
        name=body.name,
        format=body.format,
        preset=body.preset,
        rules=body.chosen_rules(),
        options=body.options,
    )
    return RedirectResponse(f"/n/{opened.code}/d/{opened.director_token}", 303)


@router.get("/n/{code}", response_class=HTMLResponse)
async def player_page(
    nights: NightsDep, code: str, request: Request, me: MaybeMeDep
) -> HTMLResponse:
    state = await _load(nights, code)
    if state is None:
        return _html(render_missing(code), 404)
    page = await nights.read(_page, nights, state, request, me=me)
    return _html(render("player", page))


@router.get("/n/{code}/board", response_class=HTMLResponse)
async def board_page(nights: NightsDep, code: str, request: Request) -> HTMLResponse:
    state = await _load(nights, code)
    if state is None:
        return _html(render_missing(code), 404)
    page = await nights.read(_page, nights, state, request, you=-1)
    return _html(render("board", page))


def _refused(refused: errors.ApiError) -> HTMLResponse:
    return _html(render_error(status_of(refused), page_message(refused)), status_of(refused))


@router.get("/n/{code}/p/{token}")
async def player_link_page(nights: NightsDep, code: str, token: str, request: Request) -> Response:
    """A player's own link: their token into the night's cookie, then their night."""
    try:
        await nights.read(nights.player, code, token)
    except errors.ApiError as refused:
        return _refused(refused)
    response = RedirectResponse(f"/n/{code}", 303)
    _cookie(response, request, NIGHT_LINK_COOKIE, token, f"/n/{code}", f"/api/nights/{code}")
    return response


@router.get("/n/{code}/d/{token}")
async def director_link_page(
    nights: NightsDep, code: str, token: str, request: Request
) -> Response:
    state = await _load(nights, code)
    if state is None:
        return _html(render_missing(code), 404)
    if not nights.is_director(state, token):
        return _refused(errors.Forbidden(_not_director()))
    response = RedirectResponse(f"/n/{code}/direct", 303)
    _cookie(response, request, DIRECTOR_COOKIE, token, f"/n/{code}", f"/api/nights/{code}")
    return response


def _not_director() -> Reason:
    return NOT_DIRECTOR


@router.get("/n/{code}/s/{token}")
async def substitute_link_page(
    ctx: ContextDep, nights: NightsDep, code: str, token: str, request: Request
) -> Response:
    """A substitute's link: the seat token into the room's cookie, then the table."""
    room = await nights.read(nights.room_of_seat, token)
    if room is None:
        return _html(render_missing(code), 404)
    snap = await ctx.rooms.read(ctx.rooms.snapshot, room)
    response = RedirectResponse(f"/r/{room}", 303)
    set_seat_cookie(response, request, snap, token)
    return response


@router.post("/n/{code}/sit")
async def sit(
    ctx: ContextDep, nights: NightsDep, code: str, request: Request, me: MaybeMeDep
) -> Response:
    """ "Go to your table": the player's seat there, its token in the room's cookie (a
    player registered by their handle is seated by their profile: no cookie, the key acts)."""
    try:
        seated = await nights.write(nights.sit, code, night_link(request), me)
    except errors.ApiError as refused:
        return _refused(refused)
    response = RedirectResponse(f"/r/{seated.room}", 303)
    if seated.token is not None:
        snap = await ctx.rooms.read(ctx.rooms.snapshot, seated.room)
        set_seat_cookie(response, request, snap, seated.token)
    return response


# -- registering oneself -----------------------------------------------------------------------


def partners(*typed: str) -> tuple[list[str], list[str | None]]:
    """A pair as its form gives it: each partner a name, or "@handle" for a player with a
    profile (seated by it each round, no link needed)."""
    names: list[str] = []
    handles: list[str | None] = []
    for text in typed:
        handle = text.strip().removeprefix("@") if text.strip().startswith("@") else None
        names.append(handle or text)
        handles.append(handle)
    return names, handles


async def _register_page(
    nights: Nights, state: NightState, request: Request, status: int = 200, **kwargs: Any
) -> HTMLResponse:
    page = await nights.read(_page, nights, state, request, you=-1)
    for key, value in kwargs.items():
        setattr(page, key, value)
    ctx = context(page)
    return _html(environment().get_template("night_register.html").render(**ctx), status)


@router.get("/n/{code}/register", response_class=HTMLResponse)
async def register_page(nights: NightsDep, code: str, request: Request) -> HTMLResponse:
    """The link a director shares while registration is open: pairs register themselves."""
    state = await _load(nights, code)
    if state is None:
        return _html(render_missing(code), 404)
    return await _register_page(nights, state, request)


@router.post("/n/{code}/register", response_class=HTMLResponse)
async def register_self(
    nights: NightsDep,
    code: str,
    request: Request,
    me: MaybeMeDep,
    first: Annotated[str, Form()] = "",
    second: Annotated[str, Form()] = "",
    team: Annotated[str | None, Form()] = None,
) -> HTMLResponse:
    state = await _load(nights, code)
    if state is None:
        return _html(render_missing(code), 404)
    try:
        names, handles = partners(first, second)
        done = await nights.write(
            partial(
                nights.register,
                code,
                names=names,
                handles=handles,
                team=team,
                director=None,
                by=me.player.id if me else None,
            )
        )
    except errors.ApiError as refused:
        message = page_message(refused)
        return await _register_page(nights, state, request, status_of(refused), message=message)
    links = [player_link(code, t) for t in done.tokens]
    return await _register_page(nights, state, request, links=links)


# -- the director's page ---------------------------------------------------------------------


async def _direct(
    nights: Nights, code: str, request: Request, status: int = 200, **kwargs: Any
) -> HTMLResponse:
    state = await _load(nights, code)
    if state is None:
        return _html(render_missing(code), 404)
    director = request.cookies.get(DIRECTOR_COOKIE)
    if director is None or not nights.is_director(state, director):
        return _refused(errors.Forbidden(_not_director()))
    page = await nights.read(_page, nights, state, request, you=-1, director=True, **kwargs)
    page.pair_links = await nights.read(_pair_links, nights, state, director, request)
    page.director_link = _absolute(request, f"/n/{code}/d/{director}")
    return _html(render("direct", page), status)


def _absolute(request: Request, path: str) -> str:
    return str(request.base_url).rstrip("/") + path


def _pair_links(
    nights: Nights, state: NightState, director: str, request: Request
) -> dict[int, list[tuple[str, str]] | None]:
    """Every pair's players' links as the director's page shows them (name, url)."""
    names = {p.number: p.names for p in state.pairs}
    return {
        pair: None
        if tokens is None
        else [
            (name, _absolute(request, player_link(state.code, token)))
            for name, token in zip(names[pair], tokens, strict=True)
        ]
        for pair, tokens in nights.pair_links(state, director).items()
    }


@router.get("/n/{code}/direct", response_class=HTMLResponse)
async def direct_page(nights: NightsDep, code: str, request: Request) -> HTMLResponse:
    return await _direct(nights, code, request)


async def _acting(nights: Nights, code: str, request: Request, act: Any) -> HTMLResponse:
    """Run a director's action; the page again, with what it gave or why it was refused."""
    try:
        shown = await nights.write(act, request.cookies.get(DIRECTOR_COOKIE))
    except errors.ApiError as refused:
        return await _direct(
            nights, code, request, status_of(refused), message=page_message(refused)
        )
    return await _direct(nights, code, request, **(shown or {}))


@router.post("/n/{code}/direct/pairs", response_class=HTMLResponse)
async def add_pair(
    nights: NightsDep,
    code: str,
    request: Request,
    me: MaybeMeDep,
    first: Annotated[str, Form()] = "",
    second: Annotated[str, Form()] = "",
    team: Annotated[str | None, Form()] = None,
) -> HTMLResponse:
    by = me.player.id if me else None

    def act(director: str | None) -> None:
        # The pair's links join every pair's on the page (derived from the director's token).
        names, handles = partners(first, second)
        nights.register(code, names=names, handles=handles, team=team, director=director, by=by)

    return await _acting(nights, code, request, act)


@router.post("/n/{code}/direct/registration", response_class=HTMLResponse)
async def registration(
    nights: NightsDep, code: str, request: Request, open: Annotated[str, Form()] = "0"
) -> HTMLResponse:
    def act(director: str | None) -> None:
        nights.set_registration(code, director=director, open_=open == "1")

    return await _acting(nights, code, request, act)


@router.post("/n/{code}/direct/rounds", response_class=HTMLResponse)
async def next_round(
    nights: NightsDep, steward: StewardDep, code: str, request: Request
) -> HTMLResponse:
    def act(director: str | None) -> None:
        state = nights.next_round(code, director=director)
        current = state.current
        for t in state.tables_of(current.number) if current else []:
            steward.knows(t.room_code, code)

    return await _acting(nights, code, request, act)


@router.post("/n/{code}/direct/tables/{t}/substitute", response_class=HTMLResponse)
async def substitute(
    nights: NightsDep,
    code: str,
    t: int,
    request: Request,
    seat: Annotated[int, Form(ge=0, le=3)] = 0,
    name: Annotated[str, Form()] = "",
) -> HTMLResponse:
    def act(director: str | None) -> dict[str, Any] | None:
        person = name.strip() or None
        seated = nights.substitute(
            code,
            director=director,
            table=t,
            seat=seat,
            name=person,
            bot=None if person else "standard",
        )
        if seated is None:
            return None
        return {"sub_link": _absolute(request, f"/n/{code}/s/{seated.token}")}

    return await _acting(nights, code, request, act)


@router.post("/n/{code}/direct/pairs/{pair}/links", response_class=HTMLResponse)
async def renew_links(nights: NightsDep, code: str, pair: int, request: Request) -> HTMLResponse:
    """New links for a pair's players (the old ones stop working)."""

    def act(director: str | None) -> None:
        nights.renew_links(code, director=director, pair=pair)

    return await _acting(nights, code, request, act)


@router.post("/n/{code}/direct/computer-players", response_class=HTMLResponse)
async def computer_players(
    nights: NightsDep,
    code: str,
    request: Request,
    table: Annotated[int | None, Form(ge=1, le=64)] = None,
    level: Annotated[str, Form()] = "standard",
) -> HTMLResponse:
    """Computer players in every empty seat of one table, or of the whole round."""

    def act(director: str | None) -> None:
        nights.computer_players(code, director=director, table=table, level=level)

    return await _acting(nights, code, request, act)


@router.post("/n/{code}/direct/tables/{t}/forfeit", response_class=HTMLResponse)
async def forfeit(
    nights: NightsDep, code: str, t: int, request: Request, pair: Annotated[int, Form()] = 0
) -> HTMLResponse:
    def act(director: str | None) -> None:
        nights.forfeit(code, director=director, table=t, pair=pair)

    return await _acting(nights, code, request, act)


@router.post("/n/{code}/direct/tables/{t}/result", response_class=HTMLResponse)
async def correct(
    nights: NightsDep,
    code: str,
    t: int,
    request: Request,
    a: Annotated[int, Form(ge=0, le=4)] = 0,
    b: Annotated[int, Form(ge=0, le=4)] = 0,
) -> HTMLResponse:
    def act(director: str | None) -> None:
        nights.correct(code, director=director, round_=None, table=t, bullseyes=[a, b])

    return await _acting(nights, code, request, act)


# -- the live parts ----------------------------------------------------------------------------


@router.get("/n/{code}/live")
async def live(
    nights: NightsDep,
    steward: StewardDep,
    code: str,
    request: Request,
    me: MaybeMeDep,
    view: str = "board",
) -> Response:
    """The page's live part as HTML, again after every change (event: night)."""
    state = await _load(nights, code)
    if state is None or view not in VIEWS:
        return _html(render_missing(code), 404)
    you = await nights.read(nights.pair_of, state, night_link(request), me)
    return EventSourceResponse(
        _live_events(nights, steward, code, view, you, i18n.current()),
        ping=15,
        headers={"X-Accel-Buffering": "no", "Cache-Control": "no-store"},
    )


def _live_html(body: Json, view: str, you: int | None, lang: str) -> str:
    with i18n.reading(lang):
        return render_live(view, Page(body, pair_names(body), you=you, director=view == "direct"))


async def _live_events(
    nights: Nights, steward: NightSteward, code: str, view: str, you: int | None, lang: str
) -> AsyncIterator[dict[str, Any]]:
    woken = steward.watch(code)
    try:
        sent = None
        while True:
            body = with_grace(await steward.night_body(code))
            html = await nights.read(_live_html, body, view, you, lang)
            if html != sent:
                sent = html
                yield {"event": "night", "data": html}
            await woken.wait()
            woken.clear()
    finally:
        steward.unwatch(code, woken)
