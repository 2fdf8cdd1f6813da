"""The pages of kept games: the replay of a finished game, "play these deals again", and
opening an exported record file (checked by app.verify's logic before it is replayed).
Thin, like the other pages: app/services/records.py builds, app/web/replay.py renders."""

from __future__ import annotations

import json
from typing import Annotated

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import ValidationError
from starlette.datastructures import UploadFile
from starlette.exceptions import HTTPException

from app import i18n, verify
from app.api.context import ContextDep, TokenDep
from app.api.limits import ROOM_QUOTA
from app.api.record_schemas import GameRecordOut
from app.i18n import _
from app.services import errors, records
from app.services.identity import seat_of
from app.web.replay import render_open, render_replay, render_unavailable

router = APIRouter(include_in_schema=False)

RECORD_MAX_BYTES = 512 * 1024  # far above the longest game's record (tens of KiB)
# The body limit for the upload: the file plus the multipart framing around it.
UPLOAD_MAX_BYTES = RECORD_MAX_BYTES + 16 * 1024
NO_STORE = {"Cache-Control": "no-store"}
# ``hand`` and ``lift`` are read by replay.js from the URL; declared so bad ones are refused.
Position = Annotated[int | None, Query(ge=0, le=10_000)]


@router.get("/r/{code}/replay")
async def latest_replay(ctx: ContextDep, code: str) -> Response:
    """The replay of the room's latest game (the result page links here)."""
    try:
        snap = await ctx.rooms.read(ctx.rooms.snapshot, code)
    except errors.NotFound:
        message = _("No table “%(code)s” here.") % {"code": code[:40]}
        return HTMLResponse(render_unavailable(message, None), 404)
    if snap.game is None:
        message = _("This table has not started a game yet.")
        return HTMLResponse(render_unavailable(message, snap.code), 404)
    return RedirectResponse(f"/r/{snap.code}/games/{snap.game.number}/replay", status_code=303)


@router.get("/r/{code}/games/{g}/replay", response_class=HTMLResponse)
async def replay(
    ctx: ContextDep,
    code: str,
    g: Annotated[int, Path(ge=1, le=2**31 - 1)],
    token: TokenDep,
    hand: Position = None,
    lift: Position = None,
) -> HTMLResponse:
    try:
        record = await ctx.rooms.read(records.load_record, ctx.rooms, code, g)
    except errors.NotFound:
        # The page says it in the reader's words; err.detail is the API's English one.
        message = _("No game %(game)s at table “%(code)s”.") % {"game": g, "code": code[:40]}
        return HTMLResponse(render_unavailable(message, None), 404)
    if not record.over:
        message = _("This game is still being played: its replay opens once it is over.")
        return HTMLResponse(render_unavailable(message, record.snap.code), 409, headers=NO_STORE)
    seated = seat_of(record.snap, token) is not None
    page = render_replay(records.record_json(record), seated=seated)
    return HTMLResponse(page, headers=NO_STORE)


@router.post("/r/{code}/review")
async def ask_review(ctx: ContextDep, code: str) -> Response:
    """The result page's "Review this game": the review of the room's latest game asked for,
    then its replay, where the progress shows."""
    snap = await ctx.rooms.read(ctx.rooms.snapshot, code)
    if snap.game is None:
        message = _("This table has not started a game yet.")
        return HTMLResponse(render_unavailable(message, snap.code), 404)
    number = snap.game.number
    row = await ctx.reviews.run(ctx.reviews.ask, snap.code, number)
    if row.state != "done":
        await ctx.reviews.run(ctx.review_workers.ensure)
    return RedirectResponse(f"/r/{snap.code}/games/{number}/replay#review", status_code=303)


@router.post("/r/{code}/games/{g}/again", dependencies=[ROOM_QUOTA])
async def play_again(
    ctx: ContextDep, code: str, g: Annotated[int, Path(ge=1, le=2**31 - 1)], token: TokenDep
) -> Response:
    """The replay page's "Play these deals again": to the new table."""
    snap = await ctx.rooms.write(records.play_again, ctx.rooms, code, g, token)
    return RedirectResponse(f"/r/{snap.code}", status_code=303)


@router.get("/records/open", response_class=HTMLResponse)
async def open_form() -> HTMLResponse:
    return HTMLResponse(render_open(max_kib=RECORD_MAX_BYTES // 1024))


@router.post("/records/open", response_class=HTMLResponse)
async def open_record(request: Request) -> HTMLResponse:
    """A record file, checked against its seed, then replayed; a bad file gets its reason."""

    def refused(message: str, status: int) -> HTMLResponse:
        return HTMLResponse(render_open(error=message, max_kib=RECORD_MAX_BYTES // 1024), status)

    try:
        form = await request.form(max_files=1, max_fields=4, max_part_size=UPLOAD_MAX_BYTES)
    except HTTPException:  # the multipart parser's refusal of a broken or foreign body
        return refused(_("That upload could not be read: pick the record file and try again."), 400)
    upload = form.get("record")
    if not isinstance(upload, UploadFile):
        return refused(_("Pick a record file first."), 400)
    data = await upload.read(RECORD_MAX_BYTES + 1)
    await form.close()
    if len(data) > RECORD_MAX_BYTES:
        return refused(
            _("That file is larger than %(kib)s KiB: not a record.")
            % {"kib": i18n.number(RECORD_MAX_BYTES // 1024)},
            413,
        )
    try:
        parsed = json.loads(data)
    except (ValueError, UnicodeDecodeError):
        return refused(_("That file is not a game record (it is not JSON)."), 422)
    try:
        GameRecordOut.model_validate(parsed, strict=True)
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(x) for x in first["loc"]) or "the file"
        # The field and the validator's words stay as they are: they name the fault exactly.
        found = {"where": where, "why": first["msg"]}
        return refused(_("That file is not a game record (%(where)s: %(why)s).") % found, 422)
    try:
        verify.check(parsed)
    except verify.Mismatch as err:
        return refused(_("This record does not match its seed: %(why)s") % {"why": err}, 422)
    except verify.Unchecked as err:
        return refused(_("This record cannot be checked: %(why)s") % {"why": err}, 422)
    return HTMLResponse(render_replay(parsed, seated=False, stored=False), headers=NO_STORE)
