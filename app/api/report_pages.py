"""The page that reports a player (issue #36): ``/p/{handle}/report`` (``?room=`` from a
table), its form calling the same service as ``POST /api/reports``. The reporter is the
browser's player (its player cookie); a refusal comes back as the form with the reason in
the reader's words, at the refusal's status."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Path, Query
from fastapi.responses import HTMLResponse

from app.api.answers import NO_STORE
from app.api.context import ContextDep, MaybeMeDep
from app.api.errors import status_of
from app.services import errors, moderation
from app.web.refusals import page_message
from app.web.report import REASONS, render_report

router = APIRouter(include_in_schema=False)

Handle = Annotated[str, Path(max_length=40)]


def _page(html: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(html, status, headers=NO_STORE)


@router.get("/p/{handle}/report", response_class=HTMLResponse)
async def report_page(
    me: MaybeMeDep, handle: Handle, room: Annotated[str, Query(max_length=40)] = ""
) -> HTMLResponse:
    return _page(render_report(handle.lower(), signed_in=me is not None, room=room))


@router.post("/p/{handle}/report", response_class=HTMLResponse)
async def report_form(
    ctx: ContextDep,
    me: MaybeMeDep,
    handle: Handle,
    room: Annotated[str, Form(max_length=40)] = "",
    reason: Annotated[str, Form(max_length=16)] = "",
    text: Annotated[str, Form(max_length=2000)] = "",
) -> HTMLResponse:
    shown = handle.lower()
    if me is None:
        return _page(render_report(shown, signed_in=False), 401)

    def again(status: int, error: str | None = None) -> HTMLResponse:
        html = render_report(
            shown, signed_in=True, room=room, reason=reason, text=text, error=error
        )
        return _page(html, status)

    why = next((value for value, _ in REASONS if value == reason), None)
    if why is None:
        return again(422)  # the form's radios require one
    try:
        await ctx.players.run(
            moderation.report,
            ctx.rooms,
            me,
            handle=handle,
            room=room,  # the service reads the code as typed (app/services/identity.py)
            why=why,
            text=text,
        )
    except errors.ApiError as refused:
        return again(status_of(refused), page_message(refused))
    return _page(render_report(shown, signed_in=True, done=True), 201)
