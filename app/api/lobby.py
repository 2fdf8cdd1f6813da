"""The lobby: the public tables waiting or in play (API.md § Fourth round), as the JSON API
gives them (``GET /api/lobby``) and the home page lists them."""

from __future__ import annotations

from pydantic import BaseModel, Field

from app.api.context import Context
from app.rules import preset_of
from app.services.snapshot import RoomSnap


class LobbySeat(BaseModel):
    seat: int
    name: str
    bot: bool
    handle: str | None


class LobbyTable(BaseModel):
    code: str
    url: str
    preset: str
    phase: str = Field(description="lobby, or the game's phase")
    rated: bool = Field(description="the room's option rated")
    spectators: int = Field(description="open streams watching the table without a seat")
    seats: list[LobbySeat | None]


class LobbyOut(BaseModel):
    public_play: bool
    tables: list[LobbyTable]


def lobby_table(ctx: Context, snap: RoomSnap) -> LobbyTable:
    game = snap.game
    return LobbyTable(
        code=snap.code,
        url=f"/r/{snap.code}",
        preset=preset_of(snap.rules),
        phase="lobby" if game is None else game.state.phase.value,
        rated=snap.options.rated,
        spectators=ctx.streams.spectators(snap.code),
        seats=[
            None
            if s is None
            else LobbySeat(
                seat=s.seat, name=s.name, bot=s.bot, handle=s.player.handle if s.player else None
            )
            for s in snap.seats
        ],
    )


def lobby(ctx: Context) -> LobbyOut:
    """The public tables in their lobby or in play, with somebody at them."""
    if not ctx.settings.public_play:
        return LobbyOut(public_play=False, tables=[])
    tables = []
    for code in ctx.social.open_public_rooms():
        snap = ctx.rooms.snapshot(code)
        if any(s is not None and not s.bot for s in snap.seats):
            tables.append(lobby_table(ctx, snap))
    return LobbyOut(public_play=True, tables=tables)
