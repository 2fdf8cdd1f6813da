"""The players' JSON routes (API.md § Fourth round, *Players*): a profile in one step, the
caller's own profile, devices and one-time sign-in links."""

from __future__ import annotations

from dataclasses import asdict
from typing import Annotated

from fastapi import APIRouter, Body, Path, Request, Response
from fastapi.responses import JSONResponse

from app.api.answers import NO_STORE, errors_of
from app.api.context import ContextDep, MeDep
from app.api.limits import client_address
from app.api.passkey_schemas import passkeys_out
from app.api.player_answers import clear_player_cookie, keyed, signin_try
from app.api.player_schemas import (
    DeviceOut,
    MeChange,
    MeOut,
    NewPlayer,
    PlayerKeyOut,
    RenameDevice,
    SigninIn,
    SigninLinkOut,
)
from app.players.devices import device_name
from app.players.state import DeviceRow
from app.services.players import SignedIn
from app.services.social import Ties

router = APIRouter(prefix="/api", tags=["players"])


@router.post(
    "/players", status_code=201, response_model=PlayerKeyOut, responses=errors_of(409, 422)
)
async def create_player(ctx: ContextDep, body: NewPlayer, request: Request) -> JSONResponse:
    """A profile in one step; this device is signed in to it. Each seat a ``claim``ed seat
    token holds becomes the player's, with the games already played in it."""
    new = await ctx.players.run(
        ctx.players.create,
        address=client_address(request.scope),
        handle=body.handle,
        name=body.name,
        language=body.language,
        device=device_name(request.headers.get("user-agent")),
        claim=body.claim,
    )
    return keyed(new, request, 201)


def me_out(
    me: SignedIn,
    devices: list[DeviceRow],
    passkeys: list[dict[str, object]],
    push: list[dict[str, object]],
    ties: Ties | None = None,
) -> MeOut:
    return MeOut(
        friends=[asdict(f) for f in ties.friends] if ties else [],
        blocks=[{"handle": h} for h in ties.blocked] if ties else [],
        handle=me.player.handle,
        name=me.player.name,
        language=me.player.language,
        listed=me.player.listed,
        devices=[
            DeviceOut(
                id=d.id,
                name=d.device,
                first_seen=d.created_at,
                last_seen=d.seen_at,
                this_device=d.id == me.device,
            )
            for d in devices
        ],
        passkeys=passkeys,
        push_subscriptions=push,
    )


@router.get("/me", response_model=MeOut, responses=errors_of(401))
async def get_me(ctx: ContextDep, me: MeDep) -> JSONResponse:
    """The caller's own profile, with the devices signed in to it and its passkeys."""
    devices = await ctx.players.run(ctx.players.devices, me)
    passkeys = await ctx.passkeys.run(ctx.passkeys.of, me)
    push = await ctx.players.run(ctx.push.subscriptions, me.player.id)
    ties = await ctx.players.run(ctx.social.ties, me)
    out = me_out(me, devices, passkeys_out(passkeys), push, ties)
    return JSONResponse(out.model_dump(mode="json"), headers=NO_STORE)


@router.patch("/me", response_model=MeOut, responses=errors_of(401, 422))
async def change_me(ctx: ContextDep, me: MeDep, body: Annotated[MeChange, Body()]) -> JSONResponse:
    """Change the profile's name, language, or whether it is listed."""
    player = await ctx.players.run(
        ctx.players.change, me, name=body.name, language=body.language, listed=body.listed
    )
    changed = ctx.players.signed_in_as(player, me.device, me.key_hash)
    devices = await ctx.players.run(ctx.players.devices, changed)
    passkeys = await ctx.passkeys.run(ctx.passkeys.of, changed)
    push = await ctx.players.run(ctx.push.subscriptions, me.player.id)
    ties = await ctx.players.run(ctx.social.ties, changed)
    out = me_out(changed, devices, passkeys_out(passkeys), push, ties)
    return JSONResponse(out.model_dump(mode="json"), headers=NO_STORE)


@router.delete("/me", status_code=204, responses=errors_of(401))
async def delete_me(ctx: ContextDep, me: MeDep, request: Request) -> Response:
    """Erase the profile at once: devices, passkeys, links. Game records keep the seat names
    as played, no longer linked; the others' ratings stay as they were."""
    await ctx.players.run(ctx.players.delete, me)
    response = Response(status_code=204)
    clear_player_cookie(response, request)
    return response


@router.get("/me/export", responses=errors_of(401))
async def export_me(ctx: ContextDep, me: MeDep) -> JSONResponse:
    """Everything the server keeps about the caller, as JSON (a file to keep)."""
    out = await ctx.players.run(ctx.players.export, me)
    headers = {**NO_STORE, "Content-Disposition": f'attachment; filename="{me.player.handle}.json"'}
    return JSONResponse(out, headers=headers)


@router.get("/me/devices", response_model=list[DeviceOut], responses=errors_of(401))
async def devices(ctx: ContextDep, me: MeDep) -> JSONResponse:
    rows = await ctx.players.run(ctx.players.devices, me)
    out = me_out(me, rows, [], []).devices
    return JSONResponse([d.model_dump(mode="json") for d in out], headers=NO_STORE)


@router.patch("/me/devices/{device}", status_code=204, responses=errors_of(401, 404, 422))
async def rename_device(
    ctx: ContextDep,
    me: MeDep,
    device: Annotated[int, Path(ge=1, le=2**62, description="a device's id")],
    body: RenameDevice,
) -> Response:
    """Name a device as its player tells it apart ("Ria's phone", 1-40 characters)."""
    await ctx.players.run(ctx.players.rename_device, me, device, body.name)
    return Response(status_code=204)


@router.delete("/me/devices/{device}", status_code=204, responses=errors_of(401, 404))
async def sign_out(
    ctx: ContextDep,
    me: MeDep,
    device: Annotated[int, Path(ge=1, le=2**62, description="a device's id")],
    request: Request,
) -> Response:
    """Sign a device out: its key ends at once (its open streams end too)."""
    await ctx.players.run(ctx.players.sign_out, me, device)
    response = Response(status_code=204)
    if device == me.device:
        clear_player_cookie(response, request)
    return response


@router.post(
    "/me/signin-links", status_code=201, response_model=SigninLinkOut, responses=errors_of(401)
)
async def signin_link(ctx: ContextDep, me: MeDep, request: Request) -> JSONResponse:
    """A one-time link that signs another device in (ten minutes, once)."""
    code, expires_in = await ctx.players.run(ctx.players.signin_link, me)
    url = str(request.base_url).rstrip("/") + f"/signin/{code}"
    out = SigninLinkOut(url=url, code=code, expires_in=expires_in)
    return JSONResponse(out.model_dump(), status_code=201, headers=NO_STORE)


@router.post("/signin", response_model=PlayerKeyOut, responses=errors_of(410, 422, 429))
async def signin(ctx: ContextDep, body: SigninIn, request: Request) -> JSONResponse:
    """A new key for this device, by a sign-in link's code (410 once used or expired). It
    signs in, nothing more: ``claim`` is accepted and ignored (the seats stay the guest's)."""
    signin_try(ctx, request)
    new = await ctx.players.run(
        ctx.players.signin, body.code, device=device_name(request.headers.get("user-agent"))
    )
    return keyed(new, request, 200)
