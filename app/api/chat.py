"""Table talk over the JSON API (API.md § Second round): the chat and the nudge."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Path, Response
from pydantic import BaseModel, ConfigDict, Field

from app.api.answers import NO_STORE, errors_of
from app.api.context import ContextDep, MaybeMeDep, TokenDep
from app.services.talk import PRESETS, TEXT_MAX, ChatMessageOut

router = APIRouter(prefix="/api", tags=["table talk"])

Code = Annotated[str, Path(description="the room code")]


class ChatIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    # Trimmed and cleaned by the service; the bound here only keeps huge bodies out.
    text: str | None = Field(
        None, max_length=4 * TEXT_MAX, description=f"1-{TEXT_MAX} characters after trimming"
    )
    preset: str | None = Field(None, description="one of: " + ", ".join(PRESETS))


class ChatOut(BaseModel):
    messages: list[ChatMessageOut] = Field(description="the last 100, oldest first")


@router.post(
    "/rooms/{code}/chat",
    status_code=201,
    response_model=ChatMessageOut,
    responses=errors_of(403, 404, 422, 429),
)
async def post_chat(
    ctx: ContextDep, code: Code, token: TokenDep, body: Annotated[ChatIn, Body()]
) -> ChatMessageOut:
    return await ctx.rooms.write(ctx.talk.post, code, token, text=body.text, preset=body.preset)


@router.get("/rooms/{code}/chat", response_model=ChatOut, responses=errors_of(404))
async def get_chat(ctx: ContextDep, code: Code, me: MaybeMeDep, response: Response) -> ChatOut:
    response.headers.update(NO_STORE)
    hidden = await ctx.social.hidden(me)  # the chat of those the reader blocked: never
    return ChatOut(messages=await ctx.rooms.read(ctx.talk.recent, code, hidden))


@router.post("/rooms/{code}/nudge", status_code=204, responses=errors_of(403, 404, 409, 429))
async def nudge(ctx: ContextDep, code: Code, token: TokenDep) -> Response:
    await ctx.rooms.write(ctx.talk.nudge, code, token)
    return Response(status_code=204)
