"""What the club night's routes share (its JSON API and its pages): the night's services as
dependencies, the director's and players' tokens, the night as JSON, a player's link."""

from __future__ import annotations

import json
from typing import Annotated

from fastapi import Depends, Request, Response

from app.api.answers import NO_STORE
from app.services.night_steward import NightSteward
from app.services.night_view import night_json
from app.services.nights import Nights, NightState

DIRECTOR_COOKIE = "allfours_director"
PLAYER_COOKIE = "allfours_player"


async def get_nights(request: Request) -> Nights:
    nights: Nights = request.app.state.nights
    return nights


async def get_steward(request: Request) -> NightSteward:
    steward: NightSteward = request.app.state.steward
    return steward


NightsDep = Annotated[Nights, Depends(get_nights)]
StewardDep = Annotated[NightSteward, Depends(get_steward)]


def _bearer(request: Request) -> str | None:
    scheme, _, value = request.headers.get("authorization", "").partition(" ")
    return value.strip() or None if scheme.lower() == "bearer" else None


async def director_token(request: Request) -> str | None:
    """The director's token: ``Authorization: Bearer``, else the night's director cookie."""
    return _bearer(request) or request.cookies.get(DIRECTOR_COOKIE) or None


async def player_token(request: Request) -> str | None:
    """A player's link token: ``Authorization: Bearer``, else the night's player cookie."""
    return _bearer(request) or request.cookies.get(PLAYER_COOKIE) or None


DirectorDep = Annotated[str | None, Depends(director_token)]
PlayerDep = Annotated[str | None, Depends(player_token)]


def night_response(nights: Nights, state: NightState, status: int = 200) -> Response:
    body = night_json(state, nights.tables.snapshot)
    return Response(
        json.dumps(body), status_code=status, media_type="application/json", headers=NO_STORE
    )


def player_link(code: str, token: str) -> str:
    return f"/n/{code}/p/{token}"
