"""Every error of the API (/api/) and of a page's own requests (htmx, streams) as JSON
``{"error", "detail", "code", "params"}``; a page a browser asked for gets a page instead
(app/web/error_page.py), in the reader's language. Nothing a client sends becomes a 500."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from starlette.exceptions import HTTPException
from starlette.responses import Response

from app.api.middleware import error_page_of, wants_page
from app.api.schemas import RefusedValue
from app.logs import public_path
from app.reasons import N_, Param, error_body, reason
from app.services import errors
from app.services.errors import ApiError, Invalid
from app.web.error_page import render_error
from app.web.refusals import page_message

log = logging.getLogger("allfours.api")

_NAMES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "too_large",
    415: "unsupported_media_type",
    422: "invalid",
    429: "too_many_requests",
}


# Each kind of a use case's refusal (app/services/errors.py) and the status code the API
# answers it with: the one place a service's error meets HTTP. A kind not named here answers
# as its nearest named ancestor (NotYourTurn as Forbidden, StaleVersion as Conflict).
STATUS_OF: dict[type[ApiError], int] = {
    ApiError: 400,
    errors.Unauthorized: 401,
    errors.Forbidden: 403,
    errors.NotFound: 404,
    errors.Conflict: 409,
    errors.Gone: 410,
    errors.IllegalMoveError: 422,
    errors.Invalid: 422,
    errors.TooMany: 429,
}


def status_of(refused: ApiError) -> int:
    """The status code ``refused`` is answered with (STATUS_OF)."""
    for kind in type(refused).__mro__:
        status = STATUS_OF.get(kind)
        if status is not None:
            return status
    raise AssertionError(f"{type(refused).__name__} is not an ApiError")  # pragma: no cover


def headers_of(refused: ApiError) -> dict[str, str] | None:
    """The answer's extra headers: a refusal that knows when to ask again says it."""
    if refused.retry_after is None:
        return None
    return {"Retry-After": str(refused.retry_after)}


def error_response(
    status: int,
    error: str,
    detail: str,
    headers: dict[str, str] | None = None,
    message: str | None = None,
    code: str | None = None,
    params: Mapping[str, Param] | None = None,
) -> JSONResponse:
    body = error_body(error, detail, code, params)
    if message is not None:
        body["message"] = message
    return JSONResponse(body, status_code=status, headers=headers)


def _for_page(request: Request) -> bool:
    """A page's own request (htmx, outside /api/): its refusal also carries ``message``, the
    reason in the reader's language, which the page shows; ``detail`` stays English."""
    return request.headers.get("hx-request") == "true" and not request.url.path.startswith("/api/")


def _page(
    status: int, message: str | None = None, headers: dict[str, str] | None = None
) -> Response:
    return _html(render_error(status, message), status, headers)


def _html(page: str, status: int, headers: dict[str, str] | None = None) -> Response:
    return HTMLResponse(page, status, headers={**(headers or {}), "Cache-Control": "no-store"})


# A body or query the schema refuses: the detail lists pydantic's findings, ``fields`` names
# the fields. A field a service's check refused answers that check's own reason instead.
INVALID_REQUEST = reason(
    "invalid_request", "invalid request: {fields}", N_("That did not work: check what you entered.")
)
BAD_JSON = reason(
    "bad_json", "the body is not valid JSON", N_("That did not work: check what you entered.")
)


def _validation_detail(errors: list[Any]) -> str:
    parts = []
    for e in errors[:5]:
        loc = ".".join(str(p) for p in e.get("loc", ()) if p != "body")
        msg = str(e.get("msg", "invalid"))
        parts.append(f"{loc}: {msg}" if loc else msg)
    return "; ".join(parts) or "invalid request"


def _fields(errors: list[Any]) -> str:
    return ", ".join(".".join(str(p) for p in e.get("loc", ()) if p != "body") for e in errors[:5])


def _refused_field(errors: list[Any]) -> ApiError | None:
    """The refusal of a service's check that a field's validator met (a name, say)."""
    for e in errors:
        found = e.get("ctx", {}).get("error")
        if isinstance(found, RefusedValue):
            return found.refused
    return None


def install(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError) -> Response:
        status, headers = status_of(exc), headers_of(exc)
        if wants_page(request.scope):
            return _page(status, page_message(exc), headers)
        message = page_message(exc) if _for_page(request) else None
        return error_response(
            status,
            exc.error,
            exc.detail,
            headers,
            message=message,
            code=exc.code,
            params=exc.params,
        )

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> Response:
        errs = list(exc.errors())
        if any(e.get("type") == "json_invalid" for e in errs):
            return error_response(400, "bad_request", BAD_JSON.detail, code=BAD_JSON.code)
        said = _refused_field(errs) or Invalid(INVALID_REQUEST, fields=_fields(errs))
        if wants_page(request.scope):
            # A part of the address that is not one (a word for a game's number) names no page.
            if any(e.get("loc", ("",))[0] == "path" for e in errs):
                return _page(404)
            return _page(422, page_message(said))
        message = page_message(said) if _for_page(request) else None
        return error_response(
            422,
            "invalid",
            _validation_detail(errs),
            message=message,
            code=said.code,
            params=said.params,
        )

    @app.exception_handler(HTTPException)
    async def _http(request: Request, exc: HTTPException) -> Response:
        if wants_page(request.scope):  # an unknown address (404), a page posted to (405)...
            return _page(exc.status_code, None, getattr(exc, "headers", None))
        name = _NAMES.get(exc.status_code, "error")
        detail = exc.detail if isinstance(exc.detail, str) else name
        return error_response(exc.status_code, name, detail, getattr(exc, "headers", None))

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> Response:
        log.exception("unexpected error on %s %s", request.method, public_path(request.url.path))
        if wants_page(request.scope):  # outside the language layer (Starlette's outermost)
            return _html(error_page_of(request.scope, 500), 500)
        return error_response(500, "internal", "an unexpected error; it has been logged")
