"""The club night's JSON API (API.md § Third round, Club night): open a night, register
pairs, draw rounds, the director's forfeits, substitutes and corrections, the night and its
live events, its export."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, Body, Path, Response
from sse_starlette import EventSourceResponse

from app.api.answers import NO_STORE, errors_of
from app.api.context import ContextDep, MaybeMeDep
from app.api.night_answers import (
    DirectorDep,
    NightsDep,
    PlayerDep,
    StewardDep,
    night_response,
    player_link,
)
from app.api.night_schemas import (
    ComputerPlayers,
    Correction,
    CreateNight,
    Forfeit,
    NextRound,
    NightCreated,
    NightOut,
    NightSeat,
    PairRegistered,
    RegisterPair,
    Registration,
    Substitute,
)
from app.players import keys
from app.services.night_steward import NightSteward
from app.services.night_view import export_csv, export_json
from app.services.nights import Nights

router = APIRouter(prefix="/api", tags=["club night"])

# A night's changes go through Nights.write, its reads through Nights.read (both in a worker
# thread: a change may span several transactions, a round opening a room per table).

Code = Annotated[str, Path(description="the night's code")]
TableNumber = Annotated[int, Path(ge=1, le=64, description="the table's number this round")]


@router.post(
    "/nights",
    status_code=201,
    response_model=NightCreated,
    responses=errors_of(403, 404, 409, 422),
)
async def open_night(
    nights: NightsDep, ctx: ContextDep, me: MaybeMeDep, body: CreateNight
) -> NightCreated:
    """A night; with ``club``, a night of the club's running season (a club's admin)."""
    chosen = {
        "name": body.name,
        "format": body.format,
        "preset": body.preset,
        "rules": body.chosen_rules(),
        "options": body.options,
    }
    if body.club is not None:
        opened = await ctx.clubs.run(ctx.clubs.open_night, me, body.club, **chosen)
    else:
        opened = await nights.write(nights.open, **chosen)
    code = opened.code
    return NightCreated(
        code=code,
        director_token=opened.director_token,
        url=f"/n/{code}",
        director_url=f"/n/{code}/d/{opened.director_token}",
        board_url=f"/n/{code}/board",
    )


@router.post(
    "/nights/{code}/pairs",
    status_code=201,
    response_model=PairRegistered,
    responses=errors_of(403, 404, 409, 422),
)
async def register_pair(
    nights: NightsDep, code: Code, body: RegisterPair, director: DirectorDep, me: MaybeMeDep
) -> PairRegistered:
    """The director registers a pair, or anyone while registration is open. A handle is
    registered only by its player, a friend of theirs, or at a club's night an admin of that
    club (403 no_consent; the player's key: the bearer, or the site's player cookie); a club
    night's pairs given by handles are the club's members (422 for anyone else); two players
    one of whom blocked the other are no pair (409 blocked)."""
    done = await nights.write(
        nights.register,
        code,
        names=body.names,
        team=body.team,
        director=director,
        handles=body.handles,
        by=me.player.id if me else None,
    )
    return PairRegistered(pair=done.pair, links=[player_link(code, t) for t in done.tokens])


@router.post(
    "/nights/{code}/pairs/{pair}/links",
    response_model=PairRegistered,
    responses=errors_of(401, 403, 404),
)
async def renew_links(
    nights: NightsDep,
    code: Code,
    pair: Annotated[int, Path(ge=1, le=256, description="the pair's number")],
    director: DirectorDep,
) -> Response:
    """New links for a pair's players (the director's): the old ones stop working."""
    done = await nights.write(nights.renew_links, code, director=director, pair=pair)
    out = PairRegistered(pair=done.pair, links=[player_link(code, t) for t in done.tokens])
    return Response(out.model_dump_json(), media_type="application/json", headers=NO_STORE)


@router.post(
    "/nights/{code}/registration", response_model=NightOut, responses=errors_of(401, 403, 404)
)
async def registration(
    nights: NightsDep, code: Code, body: Registration, director: DirectorDep
) -> Response:
    """The director opens or closes self-registration."""
    state = await nights.write(nights.set_registration, code, director=director, open_=body.open)
    return await nights.read(night_response, nights, state)


@router.post(
    "/nights/{code}/rounds",
    status_code=201,
    response_model=NightOut,
    responses=errors_of(401, 403, 404, 409),
)
async def next_round(
    nights: NightsDep,
    steward: StewardDep,
    code: Code,
    director: DirectorDep,
    body: Annotated[NextRound | None, Body()] = None,
) -> Response:
    """Draws and opens the next round: a room per table, the pairs' seats reserved."""
    force = body.force if body else False
    state = await nights.write(nights.next_round, code, director=director, force=force)
    current = state.current
    for t in state.tables_of(current.number) if current else []:
        steward.knows(t.room_code, code)
    return await nights.read(night_response, nights, state, 201)


@router.get("/nights/{code}", response_model=NightOut, responses=errors_of(404))
async def get_night(nights: NightsDep, code: Code) -> Response:
    state = await nights.read(nights.load, code)
    return await nights.read(night_response, nights, state)


@router.post("/nights/{code}/sit", response_model=NightSeat, responses=errors_of(401, 403, 409))
async def sit(nights: NightsDep, code: Code, token: PlayerDep, me: MaybeMeDep) -> NightSeat:
    """A player (``Authorization: Bearer <the token of their link>``) takes their seat at
    their table this round; the answer's token is their seat token there. A player registered
    by their handle is seated by their player key instead (the token is then null: the key
    acts for the seat)."""
    link = None if keys.is_key(token) else token
    seated = await nights.write(nights.sit, code, link, me)
    return NightSeat(
        room=seated.room,
        seat=seated.seat,
        token=seated.token,
        url=f"/r/{seated.room}",
        pending=seated.pending,
    )


@router.post(
    "/nights/{code}/tables/{t}/forfeit",
    response_model=NightOut,
    responses=errors_of(401, 403, 404, 409),
)
async def forfeit(
    nights: NightsDep, code: Code, t: TableNumber, body: Forfeit, director: DirectorDep
) -> Response:
    state = await nights.write(nights.forfeit, code, director=director, table=t, pair=body.pair)
    return await nights.read(night_response, nights, state)


@router.post(
    "/nights/{code}/tables/{t}/substitute",
    response_model=NightSeat | None,
    responses=errors_of(401, 403, 404, 409, 422),
)
async def substitute(
    nights: NightsDep, code: Code, t: TableNumber, body: Substitute, director: DirectorDep
) -> Response:
    """A substitute in an absent player's seat: a person (the answer: their seat and the
    link that seats them) or a computer player (the answer: null)."""
    seated = await nights.write(
        nights.substitute,
        code,
        director=director,
        table=t,
        seat=body.seat,
        name=body.name,
        bot=body.bot,
    )
    if seated is None:
        return Response("null", media_type="application/json")
    out = NightSeat(
        room=seated.room,
        seat=seated.seat,
        token=seated.token,
        url=f"/r/{seated.room}",
        pending=seated.pending,
        link=f"/n/{code}/s/{seated.token}",
    )
    return Response(out.model_dump_json(), media_type="application/json", headers=NO_STORE)


@router.post(
    "/nights/{code}/computer-players",
    response_model=NightOut,
    responses=errors_of(401, 403, 404, 409, 422),
)
async def computer_players(
    nights: NightsDep, code: Code, body: ComputerPlayers, director: DirectorDep
) -> Response:
    """A computer player in every empty seat of one table this round, or of every table
    still playing (after the grace time); seats someone holds keep them."""
    state = await nights.write(
        nights.computer_players, code, director=director, table=body.table, level=body.level
    )
    return await nights.read(night_response, nights, state)


@router.post(
    "/nights/{code}/tables/{t}/result",
    response_model=NightOut,
    responses=errors_of(401, 403, 404, 422),
)
async def correct(
    nights: NightsDep, code: Code, t: TableNumber, body: Correction, director: DirectorDep
) -> Response:
    """The director sets a match's result by hand (shown as corrected)."""
    state = await nights.write(
        nights.correct,
        code,
        director=director,
        round_=body.round or None,
        table=t,
        bullseyes=body.bullseyes,
    )
    return await nights.read(night_response, nights, state)


@router.get(
    "/nights/{code}/events",
    response_class=EventSourceResponse,
    responses={
        200: {
            "description": "event: night, id: <n>, data: <night JSON>, on every change to the"
            " night and to its tables' scores; pings as comments",
            "content": {"text/event-stream": {"schema": {"type": "string"}}},
        },
        **errors_of(404),
    },
)
async def events(
    ctx: ContextDep, nights: NightsDep, steward: StewardDep, code: Code
) -> EventSourceResponse:
    await nights.read(nights.load, code)  # 404 before the stream starts
    return EventSourceResponse(
        night_events(nights, steward, code),
        ping=ctx.settings.ping_s,
        headers={"X-Accel-Buffering": "no", "Cache-Control": "no-store"},
    )


async def night_events(
    nights: Nights, steward: NightSteward, code: str
) -> AsyncIterator[dict[str, Any]]:
    """The night now, then again after every change (changes during a send coalesce)."""
    woken = steward.watch(code)
    try:
        sent = None
        n = 0
        while True:
            text = await steward.night_text(code)
            if text != sent:
                n += 1
                sent = text
                yield {"event": "night", "id": str(n), "data": text}
            await woken.wait()
            woken.clear()
    finally:
        steward.unwatch(code, woken)


@router.get("/nights/{code}/export.json", responses=errors_of(404))
async def export_night_json(nights: NightsDep, code: Code) -> Response:
    """The night whole: standings, every match, every table's game records (each one as
    ``python -m app.verify`` checks it)."""
    state = await nights.read(nights.load, code)

    body = await nights.read(export_json, state, nights.record)
    return Response(
        json.dumps(body, indent=1),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="night-{code}.json"'},
    )


@router.get("/nights/{code}/export.csv", responses=errors_of(404))
async def export_night_csv(nights: NightsDep, code: Code) -> Response:
    """The standings and every match's result, as CSV."""
    state = await nights.read(nights.load, code)
    return Response(
        export_csv(state),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="night-{code}.csv"'},
    )
