"""Friends, blocks and invitations over the JSON API (API.md § Fourth round, *Play now,
friends, blocks*). Thin routes over app/services/social.py and app/services/invites.py."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Response
from pydantic import BaseModel, ConfigDict, Field

from app.api.answers import NO_STORE, errors_of
from app.api.context import ContextDep, MeDep
from app.services import invites

router = APIRouter(prefix="/api", tags=["friends and blocks"])

Handle = Annotated[str, Path(max_length=40, description="the player's handle, any case")]


class HandleIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    handle: str = Field(max_length=40, description="the other player's handle, any case")


class FriendOut(BaseModel):
    handle: str
    name: str
    online: bool
    room: str | None = Field(description="the code of a public table they sit at, else null")


class FriendAsked(BaseModel):
    handle: str
    friends: bool = Field(description="true: the other had asked too, so you are friends now")


@router.post("/me/friends", response_model=FriendAsked, responses=errors_of(401, 404, 409, 422))
async def befriend(ctx: ContextDep, me: MeDep, body: HandleIn) -> FriendAsked:
    """A friend request; the other's same request accepts it. To oneself: 422; between a
    blocker and the blocked: 409 blocked."""
    friends = await ctx.players.run(ctx.social.befriend, me, body.handle)
    return FriendAsked(handle=body.handle.strip().lower(), friends=friends)


@router.delete("/me/friends/{handle}", status_code=204, responses=errors_of(401, 404, 422))
async def unfriend(ctx: ContextDep, me: MeDep, handle: Handle) -> Response:
    """End a friendship, or withdraw a request, or refuse one."""
    await ctx.players.run(ctx.social.unfriend, me, handle)
    return Response(status_code=204)


@router.get("/me/friends", response_model=list[FriendOut], responses=errors_of(401))
async def friends(ctx: ContextDep, me: MeDep, response: Response) -> list[FriendOut]:
    """The player's friends: online or not, and the public table each sits at."""
    response.headers.update(NO_STORE)
    ties = await ctx.players.run(ctx.social.ties, me)
    return [
        FriendOut(handle=f.handle, name=f.name, online=f.online, room=f.room) for f in ties.friends
    ]


@router.post("/me/blocks", status_code=204, responses=errors_of(401, 404, 422))
async def block(ctx: ContextDep, me: MeDep, body: HandleIn) -> Response:
    """Block a player: never seated together, no requests nor invitations, and their chat
    is never shown to you. A friendship between you ends."""
    await ctx.players.run(ctx.social.block, me, body.handle)
    return Response(status_code=204)


@router.delete("/me/blocks/{handle}", status_code=204, responses=errors_of(401, 404, 422))
async def unblock(ctx: ContextDep, me: MeDep, handle: Handle) -> Response:
    await ctx.players.run(ctx.social.unblock, me, handle)
    return Response(status_code=204)


@router.post("/rooms/{code}/invite", status_code=204, responses=errors_of(401, 403, 404, 409, 422))
async def invite(
    ctx: ContextDep,
    me: MeDep,
    code: Annotated[str, Path(description="the room code")],
    body: HandleIn,
) -> Response:
    """A seated player invites a friend: shown on the friend's home page."""
    await ctx.players.run(invites.invite, ctx.rooms, ctx.social, me, code, body.handle)
    return Response(status_code=204)
