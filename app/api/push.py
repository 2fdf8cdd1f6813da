"""Web Push over the JSON API (API.md § Fourth round, *The phone*): the server's VAPID key,
a player's subscriptions, and a seat's page saying whether it is in sight (what "your turn"
waits for). Thin routes over app/services/push.py."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Body, Path, Response
from pydantic import BaseModel, ConfigDict, Field

from app.api.answers import NO_STORE, errors_of
from app.api.context import ContextDep, MeDep, TokenDep
from app.push.reasons import NOT_SEATED
from app.push.words import EVENTS, Event
from app.services import errors
from app.services.identity import seat_of

router = APIRouter(prefix="/api", tags=["push"])

Code = Annotated[str, Path(description="the room code")]


class PushKeyOut(BaseModel):
    public_key: str = Field(description="the VAPID public key (applicationServerKey), base64url")


class BrowserKeys(BaseModel):
    model_config = ConfigDict(extra="ignore")

    p256dh: str = Field(max_length=200, description="the browser's P-256 key, base64url")
    auth: str = Field(max_length=100, description="the 16-byte secret, base64url")


class BrowserSubscription(BaseModel):
    model_config = ConfigDict(extra="ignore")  # browsers add expirationTime

    endpoint: str = Field(max_length=1000, description="on a push service the host allows")
    keys: BrowserKeys


class SubscribeIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    subscription: BrowserSubscription
    events: list[Event] = Field(
        default_factory=lambda: list(EVENTS),
        max_length=5,
        description="what to be told of: turn, table, night, invite, nudge",
    )


class SubscriptionOut(BaseModel):
    endpoint: str
    events: list[str]
    created_at: datetime | None = None


class UnsubscribeIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    endpoint: str = Field(max_length=1000)


class SightIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    visible: bool = Field(description="whether the page is in sight now")


@router.get("/push/key", response_model=PushKeyOut)
async def push_key(ctx: ContextDep) -> PushKeyOut:
    """The key a browser subscribes with; the same for every process, across restarts."""
    return PushKeyOut(public_key=await ctx.rooms.read(ctx.push.public_key))


@router.post(
    "/me/push",
    status_code=201,
    response_model=SubscriptionOut,
    responses=errors_of(401, 422),
)
async def subscribe(
    ctx: ContextDep, me: MeDep, body: Annotated[SubscribeIn, Body()], response: Response
) -> SubscriptionOut:
    """This browser's push subscription, kept for the player, with the events chosen."""
    response.headers.update(NO_STORE)
    kept = await ctx.rooms.write(
        ctx.push.subscribe,
        me.player.id,
        endpoint=body.subscription.endpoint,
        p256dh=body.subscription.keys.p256dh,
        auth=body.subscription.keys.auth,
        events=body.events,
    )
    return SubscriptionOut.model_validate(kept)


@router.delete("/me/push", status_code=204, responses=errors_of(401, 422))
async def unsubscribe(
    ctx: ContextDep, me: MeDep, body: Annotated[UnsubscribeIn, Body()]
) -> Response:
    """No more notifications to this endpoint (none was kept: nothing changes)."""
    await ctx.rooms.write(ctx.push.unsubscribe, me.player.id, body.endpoint)
    return Response(status_code=204)


@router.post("/rooms/{code}/sight", status_code=204, responses=errors_of(403, 404, 422))
async def sight(
    ctx: ContextDep, code: Code, token: TokenDep, body: Annotated[SightIn, Body()]
) -> Response:
    """A seated player's page came into sight or went out of it: "your turn" is pushed once
    no page of the seat has been in sight for a while."""
    snap = await ctx.rooms.read(ctx.rooms.snapshot, code)
    seat = seat_of(snap, token)
    if seat is None:
        raise errors.Forbidden(NOT_SEATED)
    ctx.presence.touch(code, seat)
    await ctx.rooms.write(ctx.push.seen, code, seat, visible=body.visible)
    return Response(status_code=204)
