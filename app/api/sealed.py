"""A table of boards is its own seats' (RULES.md R33): no one learns a board's results — its
view, its page, its streams, its records, replays, review or stats — before they have played
it. Every door that reads a room by its code (the routers that app/main.py gives this
dependency) asks here first; a caller not seated at such a table is refused (403
``board_table_private``). The rule itself is the room's option, kept in one place: a room
deals boards or it does not (RoomOptions.boards, set when it opens)."""

from __future__ import annotations

from fastapi import Depends, Request

from app.api.admin_token import is_admin
from app.api.context import Context, TokenDep
from app.services import errors
from app.services.decide import BOARD_TABLE_PRIVATE
from app.services.identity import seat_of, typed_code

READS = frozenset({"GET", "HEAD"})


async def board_seats_only(request: Request, token: TokenDep) -> None:
    typed = request.path_params.get("code")
    if request.method not in READS or not isinstance(typed, str):
        return
    ctx: Context = request.app.state.ctx
    # The code as given, else as a person typed it (the pages read "P9D5-btxd hggh" too).
    for code in dict.fromkeys((typed, typed_code(typed))):
        if ctx.rooms.deals_boards(code) is False:
            return  # the common case, known without a read: an ordinary table
        try:
            snap = await ctx.rooms.read(ctx.rooms.snapshot, code)
        except errors.NotFound:
            continue
        if not snap.options.boards or is_admin(ctx.settings.admin_token, request):
            return
        if seat_of(snap, token) is None:
            raise errors.Forbidden(BOARD_TABLE_PRIVATE)
        return
    # No room by that code: the route says so in its own words.


BOARD_SEATS_ONLY = Depends(board_seats_only)
