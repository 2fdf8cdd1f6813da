"""Structured logs: one line per request and one per move, as key=value text or JSON.

Every line carries an ``event`` name and flat fields, so ``grep event=move`` or
``jq 'select(.event=="move")'`` finds the moves. Tokens, cookies and cards still hidden
from other seats are never logged: a move line names the card only once it is on the table.
"""

from __future__ import annotations

import json
import logging
import re
import sys
import time
from datetime import UTC, datetime
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app import metrics

log = logging.getLogger("allfours")
request_log = logging.getLogger("allfours.request")
move_log = logging.getLogger("allfours.move")
HEALTH_PATH = "/healthz"

# uvicorn adds `color_message` (its message with terminal colours): not a field for us.
_STANDARD = set(logging.LogRecord("", 0, "", 0, "", None, None).__dict__) | {
    "message",
    "color_message",
}


def _fields(record: logging.LogRecord) -> dict[str, Any]:
    return {k: v for k, v in record.__dict__.items() if k not in _STANDARD}


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
            **_fields(record),
        }
        if record.exc_info:
            line["exc"] = self.formatException(record.exc_info)
        return json.dumps(line, default=str, separators=(",", ":"))


class TextFormatter(logging.Formatter):
    """``key=value`` lines. Text from clients (a path, a name) reaches the log with every
    control character escaped: a CR, ESC or TAB in a path can neither forge a line nor
    drive the operator's terminal."""

    def format(self, record: logging.LogRecord) -> str:
        when = datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds")
        parts = [when, record.levelname.lower(), record.name, escape(record.getMessage())]
        parts += [f"{k}={_quote(v)}" for k, v in _fields(record).items()]
        text = " ".join(parts)
        if record.exc_info:
            text += "\n" + escape(self.formatException(record.exc_info), keep="\n")
        return text


def escape(text: str, keep: str = "") -> str:
    """``text`` with each unprintable character (controls, format and line separators, but
    the plain space and those in ``keep``) written as its Python escape."""
    if text.isprintable():
        return text
    return "".join(
        c if c.isprintable() or c in keep else c.encode("unicode_escape").decode("ascii")
        for c in text
    )


def _quote(value: object) -> str:
    text = str(value)
    plain = text and text.isprintable() and not any(c in text for c in ' "=\\')
    return text if plain else json.dumps(text)


def configure(level: str = "info", json_lines: bool = False) -> None:
    """Our loggers and uvicorn's to stderr, one format for all."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if json_lines else TextFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    for name in ("uvicorn", "uvicorn.error"):
        logging.getLogger(name).handlers[:] = []
        logging.getLogger(name).propagate = True
    # Alembic says which migrations ran (worth keeping), but not which plugins it set up.
    logging.getLogger("alembic.runtime.plugins").setLevel(logging.WARNING)
    # Our request line replaces uvicorn's access log (it has the duration; theirs doesn't).
    logging.getLogger("uvicorn.access").disabled = True


def move(*, room: str, version: int, seat: int, action: str, card: str | None, auto: bool) -> None:
    """One accepted move (a bot's too), once committed. The card is on the table by then."""
    fields: dict[str, Any] = {"event": "move", "room": room, "version": version, "seat": seat}
    fields["action"] = action
    if card is not None:
        fields["card"] = card
    if auto:
        fields["auto"] = True
    move_log.info("move", extra=fields)


class RequestLog:
    """ASGI middleware: one line per HTTP request, written when the response is complete
    (for an event stream, when the stream closes: `ms` is then how long it was open)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500  # what the server answers if the app raises before responding

        async def send_and_note(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, send_and_note)
        finally:
            metrics.count_request(status)
            # Docker's health probe asks every few seconds: only a failing answer is news.
            quiet = status == 200 and scope["path"] == HEALTH_PATH
            if not quiet and request_log.isEnabledFor(logging.INFO):
                _log_request(scope, status, started)


# A club night's links carry a token in their path (a player's, the director's, a
# substitute's: /n/{code}/p/<token>), as do a player's one-time sign-in link
# (/signin/<code>) and a club's invite link (/c/{code}/join/<token>): the log keeps the
# path without it.
_SECRET_IN_PATH = re.compile(r"^(/n/[^/]+/[pds]/|/signin/|/c/[^/]+/join/)[^/]+")


def public_path(path: str) -> str:
    return _SECRET_IN_PATH.sub(r"\1…", path)


def _log_request(scope: Scope, status: int, started: float) -> None:
    client = scope.get("client")
    request_log.info(
        "request",
        extra={
            "event": "request",
            "method": scope["method"],
            "path": public_path(scope["path"]),
            "status": status,
            "ms": round((time.perf_counter() - started) * 1000, 2),
            "client": client[0] if client else None,
        },
    )
