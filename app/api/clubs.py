"""Clubs and seasons' JSON API (API.md § Fourth round, Clubs and seasons): open a club,
invite and join, remove members and name admins, start a season, the club and a season's
exports. Thin routes over app/services/clubs.py."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Request, Response
from fastapi.responses import JSONResponse

from app.api.answers import NO_STORE, errors_of, site_address
from app.api.club_schemas import (
    ClubCreated,
    ClubView,
    CreateClub,
    InviteOut,
    InvitesRevoked,
    JoinClub,
    Member,
    NameAdmin,
    NightTaken,
    SeasonOut,
    StartSeason,
    TakeNight,
)
from app.api.context import ContextDep, MaybeMeDep, MeDep
from app.services.clubs import season_json

router = APIRouter(prefix="/api", tags=["clubs"])

Code = Annotated[str, Path(max_length=32, description="the club's code")]
Handle = Annotated[str, Path(max_length=40, description="a member's handle, any case")]
Number = Annotated[int, Path(ge=1, le=100000, description="the season's number")]


@router.post("/clubs", status_code=201, response_model=ClubCreated, responses=errors_of(401, 422))
async def open_club(ctx: ContextDep, me: MeDep, body: CreateClub) -> ClubCreated:
    """A player opens a club and is its first admin."""
    opened = await ctx.clubs.run(ctx.clubs.open, me, body.name, body.order)
    return ClubCreated(code=opened.code, url=f"/c/{opened.code}")


@router.get("/clubs/{code}", response_model=ClubView, responses=errors_of(404))
async def club(ctx: ContextDep, code: Code, me: MaybeMeDep) -> JSONResponse:
    """The club: members, seasons, nights, and the latest season's standings (counted from
    its nights' records on each read); an unlisted member's handle only to the members."""
    found = await ctx.clubs.run(ctx.clubs.club, code, me)
    return JSONResponse(found, headers=NO_STORE)


@router.post(
    "/clubs/{code}/invites",
    status_code=201,
    response_model=InviteOut,
    responses=errors_of(401, 403, 404),
)
async def invite(ctx: ContextDep, request: Request, me: MeDep, code: Code) -> Response:
    """An admin makes an invite link (only its hash is kept): its address whole, to send."""
    token = await ctx.clubs.run(ctx.clubs.invite, me, code)
    site = site_address(ctx.settings, request)
    out = InviteOut(url=f"{site}/c/{code}/join/{token}", invite=token)
    return Response(out.model_dump_json(), 201, media_type="application/json", headers=NO_STORE)


@router.delete(
    "/clubs/{code}/invites", response_model=InvitesRevoked, responses=errors_of(401, 403, 404)
)
async def revoke_invites(ctx: ContextDep, me: MeDep, code: Code) -> InvitesRevoked:
    """An admin revokes every invite link of the club: using one then answers 410."""
    return InvitesRevoked(revoked=await ctx.clubs.run(ctx.clubs.revoke_invites, me, code))


@router.post("/clubs/{code}/join", response_model=Member, responses=errors_of(401, 404, 410))
async def join(ctx: ContextDep, me: MeDep, code: Code, body: JoinClub) -> Member:
    """A player joins with an invite link's token (a revoked one: 410)."""
    return Member(**await ctx.clubs.run(ctx.clubs.join, me, code, body.invite))


@router.delete(
    "/clubs/{code}/members/{handle}", status_code=204, responses=errors_of(401, 403, 404, 409)
)
async def remove_member(ctx: ContextDep, me: MeDep, code: Code, handle: Handle) -> Response:
    """An admin removes a member (a member may leave); the club's last admin stays (409).
    The nights they played stay counted."""
    await ctx.clubs.run(ctx.clubs.remove, me, code, handle)
    return Response(status_code=204)


@router.post("/clubs/{code}/admins", response_model=Member, responses=errors_of(401, 403, 404))
async def name_admin(ctx: ContextDep, me: MeDep, code: Code, body: NameAdmin) -> Member:
    """An admin names a member an admin."""
    return Member(**await ctx.clubs.run(ctx.clubs.name_admin, me, code, body.handle))


@router.post(
    "/clubs/{code}/seasons",
    status_code=201,
    response_model=SeasonOut,
    responses=errors_of(401, 403, 404, 409),
)
async def start_season(ctx: ContextDep, me: MeDep, code: Code, body: StartSeason) -> SeasonOut:
    """An admin starts a season; the running one ends. Nights opened from then on count."""
    started = await ctx.clubs.run(ctx.clubs.start_season, me, code, body.name, body.after)
    return SeasonOut(**season_json(started))


@router.post(
    "/clubs/{code}/nights",
    status_code=201,
    response_model=NightTaken,
    responses=errors_of(401, 403, 404, 409),
)
async def take_night(ctx: ContextDep, me: MeDep, code: Code, body: TakeNight) -> NightTaken:
    """An admin who directs a night opened without a club puts it in the club's running
    season. A night of a club (this one or another) never moves: 409 ``night_in_a_club``."""
    season = await ctx.clubs.run(ctx.clubs.take_night, me, code, body.night, body.director_token)
    return NightTaken(night=body.night, season=season)


@router.get("/clubs/{code}/seasons/{number}/export.json", responses=errors_of(404))
async def export_json(ctx: ContextDep, code: Code, number: Number, me: MaybeMeDep) -> JSONResponse:
    """The season: its standings and awards, and every night's export inside."""
    found = await ctx.clubs.run(ctx.clubs.export_json, code, number, me)
    return JSONResponse(found, headers=NO_STORE)


@router.get(
    "/clubs/{code}/seasons/{number}/export.csv",
    response_class=Response,
    responses={200: {"content": {"text/csv": {}}}, **errors_of(404)},
)
async def export_csv(ctx: ContextDep, code: Code, number: Number, me: MaybeMeDep) -> Response:
    """The season's standings, pairs then players, as CSV."""
    text = await ctx.clubs.run(ctx.clubs.export_csv, code, number, me)
    return Response(text, media_type="text/csv; charset=utf-8", headers=NO_STORE)
