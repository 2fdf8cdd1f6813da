"""The OpenAPI document as the server really answers: FastAPI's, plus what the middleware
answers for every route, with integer bounds written as the integers they are."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from app.api.schemas import ErrorOut
from app.reasons import REASONS

Json = dict[str, Any]

_BOUNDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")
_ERROR = {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorOut"}}}
# Answered before any route runs: the rate limit, the cross-site check, the body limit and a
# body that is not JSON.
_EVERY_ROUTE = {"429": "too many requests from this address (Retry-After says when to retry)"}
_STATE_CHANGING = {"403": "not allowed: the admin option, another seat, or another site's page"}
_WITH_BODY = {"400": "the body is not valid JSON", "413": "the body is too large"}


def install(app: FastAPI, models: tuple[type[BaseModel], ...]) -> None:
    """Serve the corrected document; ``models`` are those whose integer bounds to keep."""

    def openapi() -> Json:
        if app.openapi_schema is None:
            doc = get_openapi(
                title=app.title,
                version=app.version,
                description=app.description,
                routes=app.routes,
            )
            _document_middleware_errors(doc)
            _list_reasons(doc)
            _exact_bounds(doc, models)
            app.openapi_schema = doc
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def _document_middleware_errors(doc: Json) -> None:
    doc.setdefault("components", {}).setdefault("schemas", {}).setdefault(
        "ErrorOut", ErrorOut.model_json_schema()
    )
    for path, operations in doc.get("paths", {}).items():
        if not path.startswith("/api/"):
            continue
        for method, operation in operations.items():
            answers = dict(_EVERY_ROUTE)
            if method in ("post", "put", "patch", "delete"):
                answers |= _STATE_CHANGING
            if "requestBody" in operation:
                answers |= _WITH_BODY
            responses = operation.setdefault("responses", {})
            for status, description in answers.items():
                responses.setdefault(status, {"description": description, "content": _ERROR})


def _list_reasons(doc: Json) -> None:
    """ErrorOut's ``code``: every reason the server gives (app/reasons.py), each with its
    English detail's template (``x-reasons``); the connection-level answers (a body too
    large, a rate limit, a server at its limit) name their kind."""
    code = doc["components"]["schemas"]["ErrorOut"]["properties"]["code"]
    code["description"] = (
        "the precise reason, stable: one of "
        + ", ".join(sorted(REASONS))
        + "; an answer given before any route runs names its kind (as `error`)"
    )
    code["x-reasons"] = {name: REASONS[name].detail for name in sorted(REASONS)}


def _exact_bounds(doc: Json, models: tuple[type[BaseModel], ...]) -> None:
    """FastAPI reads ``minimum``/``maximum`` into floats (a seat's bound becomes ``3.0``, the
    seed's ``2**63 - 1`` rounds up to ``2**63``): take them again from pydantic's own schema."""
    _, exact = models_json_schema(
        [(model, "validation") for model in models],
        ref_template="#/components/schemas/{model}",
    )
    served = doc.get("components", {}).get("schemas", {})
    for name, schema in exact.get("$defs", {}).items():
        if name in served:
            _copy_bounds(served[name], schema)


def _copy_bounds(served: Any, exact: Any) -> None:
    if isinstance(served, dict) and isinstance(exact, dict):
        for key, value in exact.items():
            if key in _BOUNDS and isinstance(value, int) and key in served:
                served[key] = value
            elif key in served:
                _copy_bounds(served[key], value)
    elif isinstance(served, list) and isinstance(exact, list) and len(served) == len(exact):
        for one, other in zip(served, exact, strict=True):
            _copy_bounds(one, other)
