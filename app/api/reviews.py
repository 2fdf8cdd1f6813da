"""The review of a finished game: ask for it, read it (API.md "The review of a game"). Thin
routes over app/services/reviews.py; the work is done by worker processes."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path
from fastapi.responses import HTMLResponse, JSONResponse

from app.api.context import ContextDep, TokenDep
from app.api.review_schemas import HintOut, ReviewAsked, ReviewOut
from app.api.schemas import ErrorOut
from app.services.hints import hint_for
from app.services.reviews import review_json
from app.web.review import hint_line

router = APIRouter(prefix="/api", tags=["reviews"])
pages = APIRouter(include_in_schema=False)

Code = Annotated[str, Path(description="the room code")]
GameNumber = Annotated[
    int, Path(ge=1, le=2**31 - 1, description="the game's number in the room, 1-based")
]
NO_STORE = {"Cache-Control": "no-store"}  # its progress changes until it is done


def _errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    return {code: {"model": ErrorOut} for code in codes}


@router.post(
    "/rooms/{code}/games/{g}/review",
    status_code=202,
    response_model=ReviewAsked,
    responses=_errors(404, 409, 422),
)
async def ask_review(ctx: ContextDep, code: Code, g: GameNumber) -> JSONResponse:
    """Ask for the review of game ``g`` (anyone, once it is over; 409 before): queued for a
    worker, or already done (asked before, or the same game in another room)."""
    row = await ctx.reviews.run(ctx.reviews.ask, code, g)
    if row.state != "done":
        await ctx.reviews.run(ctx.review_workers.ensure)
    return JSONResponse({"state": row.state}, status_code=202, headers=NO_STORE)


@router.get(
    "/rooms/{code}/games/{g}/review",
    response_model=ReviewOut,
    responses=_errors(404, 409, 422),
)
async def get_review(ctx: ContextDep, code: Code, g: GameNumber) -> JSONResponse:
    """The review of game ``g``: its state and progress; each decision's loss once done
    (404 ``review_not_asked`` before anyone asked for it)."""
    row = await ctx.reviews.run(ctx.reviews.status, code, g)
    return JSONResponse(review_json(row), headers=NO_STORE)


@router.get(
    "/rooms/{code}/hint", response_model=HintOut, responses=_errors(401, 403, 404, 409, 422)
)
async def get_hint(ctx: ContextDep, code: Code, token: TokenDep) -> JSONResponse:
    """A hint for the caller's seat on its turn, at a table with the option ``hints``
    (practice: such a game is never rated)."""
    body = await ctx.rooms.read(hint_for, ctx.rooms, code, token)
    return JSONResponse(body, headers=NO_STORE)


@pages.get("/r/{code}/hint", response_class=HTMLResponse)
async def hint_page(ctx: ContextDep, code: Code, token: TokenDep) -> HTMLResponse:
    """The table's "Hint" (htmx): the hint as a line in the reader's language."""
    body = await ctx.rooms.read(hint_for, ctx.rooms, code, token)
    return HTMLResponse(hint_line(body["action"], body["why"]), headers=NO_STORE)
