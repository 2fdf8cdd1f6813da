"""What the players' routes answer with, shared by the route modules that sign a device in
(app/api/players.py: a new profile, a sign-in link; app/api/passkeys.py: a passkey): the
player cookie, the sign-in attempts per address, a new key's answer. No route module imports
another (tests/test_imports.py)."""

from __future__ import annotations

from fastapi import Request, Response
from fastapi.responses import JSONResponse

from app.api.answers import NO_STORE, from_browser
from app.api.context import PLAYER_COOKIE, Context
from app.api.limits import client_address
from app.api.player_schemas import PlayerKeyOut
from app.reasons import N_, reason
from app.services import errors
from app.services.players import NewKey
from app.services.quotas import TokenBuckets

KEY_MAX_AGE = 400 * 24 * 3600  # what browsers allow a cookie at most
TOO_MANY_SIGNINS = reason(
    "too_many_signins",
    "too many sign-in attempts from {address}",
    N_("Too many sign-in attempts from here: wait a minute."),
)


def set_player_cookie(response: Response, request: Request, key: str) -> None:
    response.set_cookie(
        PLAYER_COOKIE,
        key,
        max_age=KEY_MAX_AGE,
        path="/",
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )


def clear_player_cookie(response: Response, request: Request) -> None:
    response.delete_cookie(
        PLAYER_COOKIE, path="/", httponly=True, samesite="lax", secure=request.url.scheme == "https"
    )


def signin_try(ctx: Context, request: Request) -> None:
    """One sign-in attempt of this address (a code, a passkey): 429 over the limit."""
    _one_try(ctx.signin_tries, request)


def admin_signin_try(ctx: Context, request: Request) -> None:
    """One try of the admin token from this address: a bucket apart from the players'."""
    _one_try(ctx.admin_tries, request)


def ceremony_try(ctx: Context, request: Request) -> None:
    """One passkey ceremony begun by this address (a challenge kept): 429 over the limit."""
    _one_try(ctx.ceremonies, request)


def _one_try(buckets: TokenBuckets, request: Request) -> None:
    address = client_address(request.scope)
    wait = buckets.take(address)
    if wait:
        refused = errors.TooMany(TOO_MANY_SIGNINS, address=address)
        refused.retry_after = wait
        raise refused


def keyed(new: NewKey, request: Request, status: int) -> JSONResponse:
    """A new key's answer: its profile and key; a browser also gets it as the cookie."""
    body = PlayerKeyOut(handle=new.player.handle, name=new.player.name, key=new.key)
    response = JSONResponse(body.model_dump(), status_code=status, headers=NO_STORE)
    if from_browser(request):
        set_player_cookie(response, request, new.key)
    return response
