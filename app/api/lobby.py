"""The lobby: the public tables waiting or in play (API.md § Fourth round), as the JSON API
gives them (``GET /api/lobby``) and the home page lists them."""

from __future__ import annotations

from pydantic import BaseModel, Field

from app.api.context import Context
from app.rules import preset_of
from app.services.privacy import shown_handle, unlisted_among
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


def lobby_table(
    ctx: Context, snap: RoomSnap, unlisted: frozenset[int] = frozenset(), viewer: int | None = None
) -> LobbyTable:
    """A public table as the lobby shows it to ``viewer``: an unlisted player seated there is
    named, their handle shown only to themself (app/players/privacy.py)."""
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
                seat=s.seat,
                name=s.name,
                bot=s.bot,
                handle=shown_handle(
                    s.player.handle,
                    listed=s.player.id not in unlisted,
                    player=s.player.id,
                    viewer=viewer,
                )
                if s.player
                else None,
            )
            for s in snap.seats
        ],
    )


def lobby(ctx: Context, viewer: int | None = None) -> LobbyOut:
    """The public tables in their lobby or in play, with somebody at them, as ``viewer`` (a
    player's id, None: a guest) is shown them."""
    if not ctx.settings.public_play:
        return LobbyOut(public_play=False, tables=[])
    snaps = []
    for code in ctx.social.open_public_rooms():
        snap = ctx.rooms.snapshot(code)
        if any(s is not None and not s.bot for s in snap.seats):
            snaps.append(snap)
    seated = {s.player.id for snap in snaps for s in snap.seats if s is not None and s.player}
    unlisted = unlisted_among(ctx.engine, seated)
    return LobbyOut(
        public_play=True, tables=[lobby_table(ctx, snap, unlisted, viewer) for snap in snaps]
    )
