"""A route whose usual request skips FastAPI's dependency solving (the move's route).

FastAPI solves a route's dependencies, reads and checks its body through ~40 frames per
request: about a tenth of the server's CPU at 500 moves a second (bench.live's profile).
``Presolved`` keeps the route as FastAPI has it (its OpenAPI entry, its errors) and calls the
endpoint directly when the request is the usual one: a JSON object body that the route's own
pydantic model accepts. Anything else (another content type, bad JSON, a refused body, any
dependency override) goes FastAPI's own way, so every error is written as FastAPI writes it.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from fastapi import Request, Response
from fastapi.routing import APIRoute
from pydantic import BaseModel, ValidationError

# The endpoint called with the request and its body, already checked.
Shortcut = Callable[[Request, Any], Awaitable[Response]]


def presolved(model: type[BaseModel], shortcut: Shortcut) -> type[APIRoute]:
    """A route class calling ``shortcut(request, body)`` for a JSON body ``model`` accepts."""

    class Presolved(APIRoute):
        def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
            solved = super().get_route_handler()
            provider = self.dependency_overrides_provider

            async def handler(request: Request) -> Response:
                if not getattr(provider, "dependency_overrides", None):
                    body = await _body_of(request, model)
                    if body is not None:
                        return await shortcut(request, body)
                return await solved(request)  # the body read stays cached on the request

            return handler

    return Presolved


async def _body_of(request: Request, model: type[BaseModel]) -> BaseModel | None:
    """The body as FastAPI would check it (``json.loads``, then the model on the object), or
    None when FastAPI should answer instead."""
    if request.headers.get("content-type") != "application/json":
        return None
    try:
        payload = json.loads(await request.body())
    except ValueError:
        return None
    if not isinstance(payload, dict):
        return None
    try:
        return model.model_validate(payload)
    except ValidationError:
        return None
