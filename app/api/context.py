"""What the routes need, built once per app, and the Annotated dependencies that fetch it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy import Engine

from app.api.limits import RoomQuota, StreamGate
from app.live.hub import Hub
from app.live.notifier import Notifier
from app.live.presence import Presence
from app.services.keeper import TableKeeper
from app.services.tables import Tables
from app.services.talk import TableTalk
from app.services.view import RenderedViews
from app.settings import Settings

SEAT_COOKIE = "allfours_seat"


@dataclass
class Context:
    settings: Settings
    engine: Engine
    hub: Hub
    notifier: Notifier
    presence: Presence
    tables: Tables
    keeper: TableKeeper
    streams: StreamGate  # open event streams per client address and per room
    room_quota: RoomQuota  # new rooms per client address
    # Each room's newest views as rendered, shared by the streams that show the same one.
    views: RenderedViews = field(default_factory=RenderedViews)
    talk: TableTalk = field(init=False)  # the rooms' chat and nudges, on the same tables

    def __post_init__(self) -> None:
        self.talk = TableTalk(self.tables)


# Async (though they never await): FastAPI runs a plain ``def`` dependency in a worker
# thread, a hop per dependency per request.
async def get_context(request: Request) -> Context:
    ctx: Context = request.app.state.ctx
    return ctx


async def get_token(request: Request) -> str | None:
    """The seat token: ``Authorization: Bearer <token>``, else the room's cookie."""
    header = request.headers.get("authorization")
    if header:
        scheme, _, value = header.partition(" ")
        if scheme.lower() == "bearer" and value.strip():
            return value.strip()
    return request.cookies.get(SEAT_COOKIE) or None


ContextDep = Annotated[Context, Depends(get_context)]
TokenDep = Annotated[str | None, Depends(get_token)]
