"""The passkeys' JSON routes (API.md § Fourth round, *Players*): a signed-in player adds,
lists and removes passkeys; anyone signs in with one (a new key for this device).

A ceremony is two requests: the options (a challenge the server keeps five minutes), then
the browser's answer. Passkeys are bound to the site's host: ``ALLFOURS_PUBLIC_URL`` when
set, else the origin each request came to (app/players/passkeys.py ``relying_party``)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Request, Response
from fastapi.responses import JSONResponse

from app.api.answers import NO_STORE, errors_of
from app.api.context import ContextDep, MeDep
from app.api.passkey_schemas import NewPasskey, PasskeyOut, PasskeySignin
from app.api.player_answers import ceremony_try, keyed, signin_try
from app.api.player_schemas import PlayerKeyOut
from app.players.devices import device_name
from app.players.passkeys import RelyingParty, relying_party

router = APIRouter(prefix="/api", tags=["passkeys"])

_OPTIONS: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "the options for the browser's WebAuthn call (PublicKeyCredential"
        "CreationOptionsJSON / ...RequestOptionsJSON: binary values in base64url)",
        "content": {"application/json": {"schema": {"type": "object"}}},
    }
}


def site(ctx: ContextDep, request: Request) -> RelyingParty:
    return relying_party(ctx.settings.public_url, str(request.base_url))


def _options(text: str) -> Response:
    return Response(text, media_type="application/json", headers=NO_STORE)


@router.post("/me/passkeys/options", responses={**_OPTIONS, **errors_of(401, 429)})
async def add_options(ctx: ContextDep, me: MeDep, request: Request) -> Response:
    """The options to make a passkey for the caller's profile (``navigator.credentials
    .create``); answer with ``POST /api/me/passkeys`` within five minutes."""
    ceremony_try(ctx, request)
    text = await ctx.passkeys.run(ctx.passkeys.add_options, me, site(ctx, request))
    return _options(text)


@router.post(
    "/me/passkeys", status_code=201, response_model=PasskeyOut, responses=errors_of(401, 422)
)
async def add_passkey(
    ctx: ContextDep, me: MeDep, body: NewPasskey, request: Request
) -> JSONResponse:
    """Keep the passkey the browser made; a bad, late or replayed answer → 422
    ``passkey_refused``."""
    row = await ctx.passkeys.run(
        ctx.passkeys.add,
        me,
        body.credential,
        site(ctx, request),
        name=body.name,
        device=device_name(request.headers.get("user-agent")),
    )
    out = PasskeyOut.of(row)
    return JSONResponse(out.model_dump(mode="json"), status_code=201, headers=NO_STORE)


@router.get("/me/passkeys", response_model=list[PasskeyOut], responses=errors_of(401))
async def list_passkeys(ctx: ContextDep, me: MeDep) -> JSONResponse:
    rows = await ctx.passkeys.run(ctx.passkeys.of, me)
    out = [PasskeyOut.of(row).model_dump(mode="json") for row in rows]
    return JSONResponse(out, headers=NO_STORE)


@router.delete("/me/passkeys/{passkey}", status_code=204, responses=errors_of(401, 404))
async def remove_passkey(
    ctx: ContextDep,
    me: MeDep,
    passkey: Annotated[int, Path(ge=1, le=2**62, description="a passkey's id")],
) -> Response:
    """Remove a passkey: it signs nobody in any more (404 ``no_passkey`` if not yours)."""
    await ctx.passkeys.run(ctx.passkeys.remove, me, passkey)
    return Response(status_code=204)


@router.post("/passkeys/signin-options", responses={**_OPTIONS, **errors_of(429)})
async def signin_options(ctx: ContextDep, request: Request) -> Response:
    """The options to sign in with a passkey (``navigator.credentials.get``): none named,
    the browser offers those it holds for this site; answer with ``POST /api/passkeys/signin``
    within five minutes."""
    ceremony_try(ctx, request)
    text = await ctx.passkeys.run(ctx.passkeys.signin_options, site(ctx, request))
    return _options(text)


@router.post("/passkeys/signin", response_model=PlayerKeyOut, responses=errors_of(422, 429))
async def signin(ctx: ContextDep, body: PasskeySignin, request: Request) -> JSONResponse:
    """A new key for this device, by a passkey of the profile (and the player cookie for a
    browser); a bad, late or replayed answer → 422 ``passkey_refused``."""
    signin_try(ctx, request)
    new = await ctx.passkeys.run(
        ctx.passkeys.signin,
        body.credential,
        site(ctx, request),
        device=device_name(request.headers.get("user-agent")),
    )
    return keyed(new, request, 200)
