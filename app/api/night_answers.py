"""What the club night's routes share (its JSON API and its pages): the night's services as
dependencies, the director's and players' tokens, the night as JSON, a player's link."""

from __future__ import annotations

import json
from typing import Annotated

from fastapi import Depends, Request, Response

from app.api.answers import NO_STORE
from app.api.bearer import bearer_token
from app.api.context import ContextDep
from app.night.state import NightState
from app.players import keys
from app.services.night_steward import NightSteward
from app.services.night_view import night_json
from app.services.nights import Nights

DIRECTOR_COOKIE = "allfours_director"
# A night player's link token: its own name, never the site's player key cookie's
# ("allfours_player", app/api/context.py), which it once shared: both were sent to the
# night's pages and one hid the other (issue #43). The old name is still read, unless what it
# holds is a player key, so a night in progress keeps its players.
NIGHT_LINK_COOKIE = "allfours_night_link"
OLD_NIGHT_LINK_COOKIE = "allfours_player"


async def get_nights(ctx: ContextDep) -> Nights:
    return ctx.nights


async def get_steward(ctx: ContextDep) -> NightSteward:
    return ctx.steward


NightsDep = Annotated[Nights, Depends(get_nights)]
StewardDep = Annotated[NightSteward, Depends(get_steward)]


async def director_token(request: Request) -> str | None:
    """The director's token: ``Authorization: Bearer``, else the night's director cookie
    (with a player key as the bearer: a director who registers players by handle)."""
    given = bearer_token(request)
    if given is not None and not keys.is_key(given):
        return given
    return request.cookies.get(DIRECTOR_COOKIE) or None


def night_link(request: Request) -> str | None:
    """The night's player link token the browser holds (its cookie), if any."""
    token = request.cookies.get(NIGHT_LINK_COOKIE)
    if token:
        return token
    old = request.cookies.get(OLD_NIGHT_LINK_COOKIE)
    return old if old and not keys.is_key(old) else None


async def player_token(request: Request) -> str | None:
    """A player's link token: ``Authorization: Bearer``, else the night's player cookie."""
    given = bearer_token(request)
    if given is not None:
        return None if keys.is_key(given) else given
    return night_link(request)


DirectorDep = Annotated[str | None, Depends(director_token)]
PlayerDep = Annotated[str | None, Depends(player_token)]


def night_response(nights: Nights, state: NightState, status: int = 200) -> Response:
    body = night_json(state, nights.snapshot)
    return Response(
        json.dumps(body), status_code=status, media_type="application/json", headers=NO_STORE
    )


def player_link(code: str, token: str) -> str:
    return f"/n/{code}/p/{token}"
