"""Friends, blocks and invitations over the JSON API (API.md § Fourth round, *Play now,
friends, blocks*). Thin routes over app/services/social.py and app/services/invites.py.

Added by issue #46 (finding people), beside API.md's routes:

- ``GET /api/search/players?q=`` — listed players whose handle or name holds ``q`` (2 to 40
  characters, any case), at most 20, those whose handle or name begins with it first. Never
  an unlisted profile, nor the searcher, nor a player of a block either way. Signed in only
  (401); ``q`` too short or too long: 422 ``search_too_short``; over the searcher's quota
  (120 an hour): 429 ``too_many``. Not under ``/api/players/``: a handle may be "search".
- ``DELETE /api/me/friend-requests/incoming/{handle}`` — decline their request (204).
- ``DELETE /api/me/friend-requests/outgoing/{handle}`` — withdraw one's own request (204).
  Neither ends a friendship (``DELETE /api/me/friends/{handle}`` does); with no request
  waiting, nothing changes (still 204).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query, Response
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


class PlayerFoundOut(BaseModel):
    handle: str
    name: str


@router.get(
    "/search/players", response_model=list[PlayerFoundOut], responses=errors_of(401, 422, 429)
)
async def search_players(
    ctx: ContextDep,
    me: MeDep,
    response: Response,
    q: Annotated[str, Query(max_length=80, description="a piece of a name or a handle")],
) -> list[PlayerFoundOut]:
    """Listed players by a piece of their handle or name (at most 20): never an unlisted
    one, nor one of a block either way."""
    response.headers.update(NO_STORE)
    found = await ctx.players.run(ctx.social.search, me, q)
    return [PlayerFoundOut(handle=p.handle, name=p.name) for p in found]


@router.delete(
    "/me/friend-requests/incoming/{handle}", status_code=204, responses=errors_of(401, 404, 422)
)
async def decline(ctx: ContextDep, me: MeDep, handle: Handle) -> Response:
    """Decline a friend request made to you (a friendship stays)."""
    await ctx.players.run(ctx.social.decline, me, handle)
    return Response(status_code=204)


@router.delete(
    "/me/friend-requests/outgoing/{handle}", status_code=204, responses=errors_of(401, 404, 422)
)
async def withdraw(ctx: ContextDep, me: MeDep, handle: Handle) -> Response:
    """Withdraw a friend request you made, not yet answered (a friendship stays)."""
    await ctx.players.run(ctx.social.withdraw, me, handle)
    return Response(status_code=204)


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
