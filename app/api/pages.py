"""The HTML pages: home, the room (lobby, table, result), the forms htmx posts, the stream.

Thin, like the JSON routes: each calls the same service as its API twin and answers with the
viewer's table rendered from the viewer's view (app/web). Forms work without JavaScript too
(a 303 back to the room); with htmx they get the table fragment to swap in at once, while the
page's one event stream brings everybody else's moves.
"""

from __future__ import annotations

from contextlib import suppress
from typing import Annotated

from fastapi import APIRouter, FastAPI, Form, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import ValidationError
from sse_starlette import EventSourceResponse

from app import i18n
from app.api.answers import (
    NO_STORE,
    TABLES_HELD,
    htmx,
    page_answer,
    remember_table,
    set_seat_cookie,
    tables_held,
    viewer_seat,
)
from app.api.caching import VersionedStatic
from app.api.context import Context, ContextDep, MaybeMeDep, TokenDep, player_key
from app.api.limits import ROOM_QUOTA
from app.api.lobby import lobby
from app.api.sealed import BOARD_SEATS_ONLY
from app.api.stream import event_stream
from app.i18n import _
from app.live.presence import Presence
from app.rules.config import UnknownPreset
from app.services import errors, invites
from app.services.decide import action_from
from app.services.identity import seat_of_mark, typed_code
from app.services.options import DEFAULT_OPTIONS, RoomOptions
from app.services.players import SignedIn
from app.services.snapshot import RoomSnap
from app.services.view import hand_records, room_view, seat_flags, view_text
from app.web.assets import STATIC
from app.web.held import HeldTable, held_table
from app.web.house_rules import chosen_rules
from app.web.refusals import page_message
from app.web.render import (
    chat_renderer,
    render_home,
    render_how_to_play,
    render_live,
    render_room,
    render_sheet,
    render_sheet_page,
    table_renderer,
)

router = APIRouter(include_in_schema=False)


def install(app: FastAPI) -> None:
    """The pages and their static files (CSS, script, vendored htmx)."""
    app.include_router(router, dependencies=[BOARD_SEATS_ONLY])  # a table of boards: R33
    app.mount("/static", VersionedStatic(directory=STATIC), name="static")


@router.get("/", response_class=HTMLResponse)
async def home(ctx: ContextDep, request: Request, me: MaybeMeDep) -> HTMLResponse:
    held = await _tables_held(ctx, request, me)
    name = me.player.name if me else None
    invited = await ctx.players.run(invites.invitations, ctx.rooms, me) if me else []
    asking = await ctx.players.run(ctx.social.asking_count, me.player.id) if me else 0
    found = await ctx.rooms.read(lobby, ctx, me.player.id if me else None)
    # The lobby is live: no cache keeps the page (a guest's neither).
    page = render_home(
        held=held,
        signed_in_as=name,
        public_play=found.public_play,
        tables=found.tables,
        invitations=invited,
        friend_requests=asking,
    )
    return HTMLResponse(page, headers=NO_STORE)


async def _tables_held(ctx: Context, request: Request, me: SignedIn | None) -> list[HeldTable]:
    """The tables this browser still holds a seat at (its tables cookie, checked against
    each room's seats: a seat freed or taken over since is left out), latest first; for a
    signed-in player, also the seats their profile holds (on a device that never sat there)."""
    held = []
    seen = set()
    for code, mark in tables_held(request):
        try:
            snap = await ctx.rooms.read(ctx.rooms.snapshot, code)
        except errors.NotFound:
            continue
        seat = seat_of_mark(snap, mark)
        if seat is not None:
            held.append(held_table(snap, seat))
            seen.add(code)
    mine = await ctx.players.run(ctx.players.seats_held, me) if me else []
    for code, seat in mine[: max(0, TABLES_HELD - len(held))]:
        if code in seen:
            continue
        with suppress(errors.NotFound):
            held.append(held_table(await ctx.rooms.read(ctx.rooms.snapshot, code), seat))
    return held


@router.get("/how-to-play", response_class=HTMLResponse)
async def how_to_play() -> HTMLResponse:
    return HTMLResponse(render_how_to_play())


@router.post("/rooms", dependencies=[ROOM_QUOTA])  # ALLFOURS_ROOMS_PER_HOUR
async def open_table(ctx: ContextDep, request: Request, me: MaybeMeDep) -> Response:
    form = await request.form()
    try:
        rules = chosen_rules({k: v for k, v in form.items() if isinstance(v, str)})
        public = form.get("public") if ctx.settings.public_play else None
        options = room_options(form.get("reckon_s"), public, form.get("hints"))
    except UnknownPreset as err:
        return HTMLResponse(render_home(error=_rules_refused(str(err))), 422)
    except ValidationError as err:
        detail = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in err.errors())
        return HTMLResponse(render_home(error=_rules_refused(detail)), 422)
    try:
        snap = await ctx.rooms.write(
            ctx.rooms.create_room,
            rules=rules,
            seed=None,
            options=options,
            by=me.player.id if me else None,
        )
    except errors.Forbidden as refused:  # a banned player's public table
        return HTMLResponse(render_home(error=page_message(refused)), 403)
    return RedirectResponse(f"/r/{snap.code}", status_code=303)


def room_options(reckon_s: object, public: object = None, hints: object = None) -> RoomOptions:
    """The room options the create-table form sets: the reckoning's time (R23), a whole
    number of seconds, a public table, and hints for practice; absent, the defaults. Raises
    pydantic's ValidationError."""
    chosen: dict[str, object] = {}
    if isinstance(reckon_s, str) and reckon_s.strip():
        chosen["reckon_s"] = reckon_s.strip()
    if public == "true":
        chosen["public"] = True
    if hints == "true":
        chosen["hints"] = True
    return RoomOptions.model_validate(chosen) if chosen else DEFAULT_OPTIONS


def _rules_refused(detail: str) -> str:
    # The detail is the validator's own (English) words: it names the field at fault.
    return _("Those rules do not work: %(detail)s") % {"detail": detail}


async def _find(ctx: Context, typed: str) -> RoomSnap | None:
    """The room a person typed, pasted or followed: the code as given, else as it reads
    without case, spaces or dashes (``P9D5-btxd hggh``), else None."""
    for code in dict.fromkeys((typed, typed_code(typed))):
        try:
            return await ctx.rooms.read(ctx.rooms.snapshot, code)
        except errors.NotFound:
            continue
    return None


def _no_table(typed: str) -> HTMLResponse:
    shown = typed.strip()[:40]
    message = _("No table “%(code)s” here.") % {"code": shown}
    return HTMLResponse(render_home(error=message, code=shown), 404)


@router.get("/join")
async def join_by_code(ctx: ContextDep, code: str = "") -> Response:
    if not typed_code(code) or len(code) > 200:
        message = _("Type the table's code.")
        return HTMLResponse(render_home(error=message, code=code[:40]), 422)
    snap = await _find(ctx, code)
    if snap is None:
        return _no_table(code)
    return RedirectResponse(f"/r/{snap.code}", status_code=303)


@router.get("/r/{code}", response_class=HTMLResponse)
async def room(
    ctx: ContextDep,
    code: str,
    token: TokenDep,
    me: MaybeMeDep,
    invited: Annotated[bool, Query()] = False,
) -> Response:
    """The room page; ``invited``: "Invite a friend" just sent one (its word is said)."""
    snap = await _find(ctx, code)
    if snap is None:
        return _no_table(code)
    if snap.code != code:  # typed by hand: to the one address each table has
        return RedirectResponse(f"/r/{snap.code}", status_code=301)
    seat = viewer_seat(ctx, snap, token)
    # A seated player may invite a friend to the table.
    friends = await ctx.players.run(ctx.social.ties, me) if me and seat is not None else None
    shown = [f.handle for f in friends.friends] if friends else []
    name = me.player.name if me else None
    night = await ctx.nights.read(ctx.nights.table_of_room, snap.code)
    view = room_view(snap, seat, ctx.presence)
    page = render_room(view, shown, player_name=name, night=night, invited=invited and bool(shown))
    return HTMLResponse(page, headers={"Cache-Control": "no-store"})


@router.get("/r/{code}/table", response_class=HTMLResponse)
async def table(ctx: ContextDep, request: Request, code: str, token: TokenDep) -> Response:
    """A fresh snapshot of the table: what a page fetches when it wakes up, and what it polls
    where the event stream cannot get through. Its ETag names all the table depends on (the
    version, the viewer's seat, who is here): asked with that tag in If-None-Match, an
    unchanged table is a 304 without a body."""
    snap = await ctx.rooms.read(ctx.rooms.snapshot, code)
    seat = viewer_seat(ctx, snap, token)
    tag = table_tag(snap, seat, ctx.presence)
    headers = {"Cache-Control": "no-store", "ETag": tag}
    if tag in _tags(request.headers.get("if-none-match", "")):
        return Response(status_code=304, headers=headers)
    html = view_text(ctx.views, snap, seat, ctx.presence, table_renderer(i18n.current()))
    return HTMLResponse(html, headers=headers)


def table_tag(snap: RoomSnap, seat: int | None, presence: Presence) -> str:
    """A weak ETag (the body may travel gzipped) for one viewer's table at this moment, in
    the language it is read in (a reader who switches language must not get a 304)."""
    here = "".join(
        "-" if flag is None else "ca"[flag[1]] if flag[0] or flag[1] else "o"
        for flag in seat_flags(snap, presence)
    )
    return f'W/"{snap.version}.{"s" if seat is None else seat}.{here}.{i18n.current()}"'


def _tags(header: str) -> set[str]:
    """The tags an If-None-Match names, each also as a weak one (the comparison is weak)."""
    tags = {t.strip() for t in header.split(",") if t.strip()}
    return tags | {t if t.startswith("W/") else f"W/{t}" for t in tags}


@router.get("/r/{code}/sheet", response_class=HTMLResponse)
async def sheet(ctx: ContextDep, request: Request, code: str, token: TokenDep) -> HTMLResponse:
    """The score sheet of the current game, as the caller may see it (``observe`` for the
    caller's seat, public facts only for a spectator): the fragment for htmx, else a page."""
    snap = await ctx.rooms.read(ctx.rooms.snapshot, code)
    seat = viewer_seat(ctx, snap, token)
    view, records = room_view(snap, seat, ctx.presence), hand_records(snap, seat)
    render = render_sheet if htmx(request) else render_sheet_page
    # One address, two answers: a cache must tell them apart by the htmx header.
    headers = {"Cache-Control": "no-store", "Vary": "HX-Request"}
    return HTMLResponse(render(view, records), headers=headers)


@router.get("/r/{code}/events")
async def table_events(
    ctx: ContextDep, code: str, token: TokenDep, me: MaybeMeDep, request: Request
) -> EventSourceResponse:
    """The page's one stream: the viewer's table as HTML, first a snapshot, then each change
    (and each coming or going, so "away" shows), all as ``state`` events that htmx swaps in.
    Gzipped, flushed per event, for a browser that accepts it: a move costs a few hundred
    bytes instead of the whole table's HTML."""
    snap = await ctx.rooms.read(ctx.rooms.snapshot, code)
    return event_stream(
        ctx,
        snap,
        token,
        gzip=True,
        key=player_key(request) if me else None,  # a player's stream ends with their key
        # Bound to the reader's language: the stream renders long after this request.
        render=table_renderer(i18n.current()),
        presence_event="state",
        say=chat_renderer(i18n.current()),
        hidden=await ctx.social.hidden(me),  # the chat of those the viewer blocked: never
    )


@router.post("/r/{code}/join")
async def join(
    ctx: ContextDep,
    request: Request,
    code: str,
    token: TokenDep,
    me: MaybeMeDep,
    name: Annotated[str, Form(max_length=40)] = "",
    seat: Annotated[int | None, Form(ge=0, le=3)] = None,
) -> Response:
    joined = await ctx.rooms.write(
        ctx.rooms.join,
        code=code,
        name=me.player.name if me else (name.strip() or name),
        seat=seat,
        token=token,
        player=me.seat_player if me else None,
    )
    # A claim on a computer player's seat (from the next deal): a spectator until then.
    seat_now = None if joined.pending else joined.seat
    if seat_now is not None:
        ctx.presence.touch(code, seat_now)
    response: Response
    if htmx(request):
        # The whole live element (the form morphs it whole), so the page's stream reopens
        # as this seat, with the cookie set by this very response (app.js closes the old
        # stream and opens the new one).
        view = room_view(joined.snap, seat_now, ctx.presence)
        response = HTMLResponse(render_live(view), headers={"Cache-Control": "no-store"})
    else:
        response = RedirectResponse(f"/r/{code}", status_code=303)
    if me is not None:  # the player's key acts for the seat: no seat cookie
        remember_table(response, request, code, joined.token)
    else:
        set_seat_cookie(response, request, joined.snap, joined.token)
    return response


@router.post("/r/{code}/bot")
async def seat_bot(
    ctx: ContextDep,
    request: Request,
    code: str,
    token: TokenDep,
    seat: Annotated[int, Form(ge=0, le=3)],
    level: Annotated[str | None, Form(max_length=20)] = None,
) -> Response:
    snap = await ctx.rooms.write(ctx.rooms.seat_bot, code=code, token=token, seat=seat, level=level)
    return page_answer(ctx, request, snap, token)


@router.post("/r/{code}/start")
async def start(ctx: ContextDep, request: Request, code: str, token: TokenDep) -> Response:
    snap = await ctx.rooms.write(ctx.rooms.start, code=code, token=token)
    return page_answer(ctx, request, snap, token)


@router.post("/r/{code}/act")
async def act(
    ctx: ContextDep,
    request: Request,
    code: str,
    token: TokenDep,
    type: Annotated[str, Form(max_length=20)],
    card: Annotated[str | None, Form(max_length=2)] = None,
    version: Annotated[int | None, Form(ge=0)] = None,
) -> Response:
    snap = await ctx.rooms.write(
        ctx.rooms.act,
        code=code,
        token=token,
        action=action_from(type, card),
        expected=version,
    )
    return page_answer(ctx, request, snap, token)


@router.post("/r/{code}/renege")
async def call_renege(
    ctx: ContextDep,
    request: Request,
    code: str,
    token: TokenDep,
    lift: Annotated[int, Form(ge=1, le=12)],
) -> Response:
    """R22: the form twin of POST /api/rooms/{code}/renege; the verdict is in the table."""
    snap, _judged = await ctx.rooms.write(ctx.rooms.call_renege, code=code, token=token, lift=lift)
    return page_answer(ctx, request, snap, token)


@router.post("/r/{code}/reckoned")
async def reckoned(ctx: ContextDep, request: Request, code: str, token: TokenDep) -> Response:
    """R23: "score it", the form twin of POST /api/rooms/{code}/reckoned."""
    snap = await ctx.rooms.write(ctx.rooms.reckoned, code=code, token=token)
    return page_answer(ctx, request, snap, token)


@router.post("/r/{code}/rematch")
async def rematch(ctx: ContextDep, request: Request, code: str, token: TokenDep) -> Response:
    snap = await ctx.rooms.write(ctx.rooms.rematch, code=code, token=token)
    return page_answer(ctx, request, snap, token)


def _said(request: Request, code: str) -> Response:
    """A table-talk form's answer: nothing to swap for htmx (the message or the nudge comes
    back on the stream), back to the room for a plain form."""
    if htmx(request):
        return Response(status_code=204)
    return RedirectResponse(f"/r/{code}", status_code=303)


@router.post("/r/{code}/chat")
async def chat(
    ctx: ContextDep,
    request: Request,
    code: str,
    token: TokenDep,
    chat: Annotated[str | None, Form(max_length=800)] = None,
    preset: Annotated[str | None, Form(max_length=32)] = None,
) -> Response:
    # A preset button sends the typed text too: the button is what was pressed.
    text = None if preset else chat
    await ctx.rooms.write(ctx.talk.post, code, token, text=text, preset=preset)
    return _said(request, code)


@router.post("/r/{code}/nudge")
async def nudge(ctx: ContextDep, request: Request, code: str, token: TokenDep) -> Response:
    await ctx.rooms.write(ctx.talk.nudge, code, token)
    return _said(request, code)
