"""Connection-level protections: what one client can hold of the server before any route runs.

uvicorn's httptools protocol, with:

- a deadline for the request line and headers (``header_timeout_s``, from the connection's
  start or the request's first byte): a connection that sends nothing, or half its headers,
  is closed (408 once a request began);
- a cap on their size (``max_header_bytes``): 431 and close, counted as the bytes arrive,
  so a 50 MB header is refused after its first few hundred kilobytes, not buffered whole;
- a deadline for the request body (``body_timeout_s``, from the end of the headers): a
  half-sent body gets 408 (or the connection closes, if the answer already started);
- a write stall limit (``send_timeout_s``): a reader that stops reading, so that the
  socket's buffers stay full that long, is dropped;
- a cap on open connections per peer address (``max_per_address``), except the addresses
  trusted as proxies (``FORWARDED_ALLOW_IPS``: behind a proxy every connection comes from it),
  and on all connections (``max_total``): the excess is refused at once (429, 503), before it
  can hold a file descriptor for long.

``raise_open_file_limit`` lifts the process's soft limit on open files to its hard limit.

It needs httptools (as ``uvicorn[standard]`` has it): h11, uvicorn's fallback, parses
differently and is slower (bench/live.py).
"""

from __future__ import annotations

import asyncio
import json
import logging
import resource
import time
from dataclasses import dataclass
from typing import Any, ClassVar

try:
    import httptools  # noqa: F401 - uvicorn's fast parser, which the protocol below extends
except ImportError as missing:  # pragma: no cover - a dependency of the project
    raise ImportError(
        "app.net needs httptools (a dependency in pyproject.toml): pip install httptools"
    ) from missing
from uvicorn.config import Config
from uvicorn.middleware.proxy_headers import _TrustedHosts
from uvicorn.protocols.http.httptools_impl import STATUS_LINE, HttpToolsProtocol
from uvicorn.protocols.utils import get_remote_addr
from uvicorn.server import ServerState

from app.api.security import policy_headers
from app.reasons import error_body

log = logging.getLogger("allfours.net")

# The uvicorn minor versions this module was tested on: it subclasses the httptools protocol
# and reaches parts uvicorn does not publish (``_TrustedHosts``, the parser's callbacks, the
# request cycle's flags, ``STATUS_LINE``). pyproject.toml pins uvicorn to them, and
# tests/hosting/test_uvicorn_version.py fails on any other: a new one is read and tested first.
TESTED_UVICORN = ("0.54",)

# File descriptors kept back from the connection cap for the database, the logs and the
# listening socket when the open-file limit is low.
RESERVED_FDS = 64


@dataclass(frozen=True)
class ConnectionLimits:
    header_timeout_s: float = 10.0
    body_timeout_s: float = 20.0
    send_timeout_s: float = 30.0
    max_header_bytes: int = 32_768
    max_per_address: int = 256  # 0: no cap
    max_total: int = 0  # 0: no cap (uvicorn's limit_concurrency still answers 503)


class _Throttled:
    """At most one warning a minute per kind: a flood of refusals must not flood the log."""

    def __init__(self, every_s: float = 60.0) -> None:
        self.every_s = every_s
        self._last: dict[str, float] = {}
        self._missed: dict[str, int] = {}

    def warning(self, kind: str, message: str, *args: Any) -> None:
        now = time.monotonic()
        if now - self._last.get(kind, -self.every_s) < self.every_s:
            self._missed[kind] = self._missed.get(kind, 0) + 1
            return
        self._last[kind] = now
        missed = self._missed.pop(kind, 0)
        extra = f" ({missed} more like it in the last minute)" if missed else ""
        log.warning(message + extra, *args, extra={"event": "refused", "reason": kind})


def _answer(status: int, error: str, detail: str) -> bytes:
    """A whole HTTP response in the API's error format, closing the connection, with the
    security headers every answer carries (app/api/security.py)."""
    body = json.dumps(error_body(error, detail)).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", b"%d" % len(body)),
        (b"connection", b"close"),
        *policy_headers(""),
    ]
    return b"".join(
        [STATUS_LINE[status], *(b"%s: %s\r\n" % pair for pair in headers), b"\r\n", body]
    )


class GuardedHttpTools(HttpToolsProtocol):
    """One connection; ``guarded_protocol`` makes a subclass with its own limits and counts."""

    limits: ClassVar[ConnectionLimits] = ConnectionLimits()
    open_by_address: ClassVar[dict[str, int]] = {}
    trusted: ClassVar[_TrustedHosts | None] = None
    warn: ClassVar[_Throttled] = _Throttled()

    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        cls = type(self)
        if cls.trusted is None:
            cls.trusted = _TrustedHosts(config.forwarded_allow_ips)
        self._refused = False
        self._stopped = False  # we ended the connection: the parser's callbacks do nothing
        self._address: str | None = None  # counted in open_by_address
        self._deadline: asyncio.TimerHandle | None = None  # for the headers or the body
        self._stall: asyncio.TimerHandle | None = None
        self._in_head = True  # waiting for, or reading, a request line and headers
        self._began = False  # the current request's first byte has come
        self._head_bytes = 0  # bytes received while in the head (the head not yet parsed)
        self._head_size = 0  # the head's size as parsed so far
        self._heads_done = 0  # requests whose headers are complete, on this connection

    # -- connections ---------------------------------------------------------------------

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        limits = self.limits
        remote = get_remote_addr(transport)
        address = remote[0] if remote else None
        if limits.max_total and len(self.connections) >= limits.max_total:
            self._refuse_at_once(
                transport, 503, "unavailable", "the server is at its connection limit"
            )
            self.warn.warning("total", "refused connections: %d open", len(self.connections))
            return
        if address is not None and limits.max_per_address and address not in self._trusted():
            held = self.open_by_address.get(address, 0)
            if held >= limits.max_per_address:
                self._refuse_at_once(
                    transport,
                    429,
                    "too_many_requests",
                    f"more than {limits.max_per_address} open connections from {address}",
                )
                self.warn.warning(
                    "per_address", "refused connections from %s: %d open", address, held
                )
                return
            self.open_by_address[address] = held + 1
            self._address = address
        super().connection_made(transport)
        self._arm(limits.header_timeout_s, self._head_timed_out)

    def _trusted(self) -> _TrustedHosts:
        trusted = type(self).trusted
        assert trusted is not None
        return trusted

    def _refuse_at_once(
        self, transport: asyncio.Transport, status: int, error: str, detail: str
    ) -> None:
        """Before reading anything: answer and close, so the descriptor is free again."""
        self._refused = True
        self.transport = transport
        transport.write(_answer(status, error, detail))
        transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._unstall()
        if self._refused:
            return
        if self._address is not None:
            held = self.open_by_address.get(self._address, 1) - 1
            if held > 0:
                self.open_by_address[self._address] = held
            else:
                self.open_by_address.pop(self._address, None)
            self._address = None
        super().connection_lost(exc)

    # -- reading a request ---------------------------------------------------------------

    def data_received(self, data: bytes) -> None:
        if self._refused or self._stopped or self.transport.is_closing():
            return
        was_in_head = self._in_head
        heads_done = self._heads_done
        super().data_received(data)
        if self.transport.is_closing() or not self._in_head:
            return
        if was_in_head and heads_done == self._heads_done:
            self._head_bytes += len(data)  # every byte of it belongs to this request's head
        else:
            # A previous request ended inside this chunk: its part of it is not this head's.
            # Counted from the next chunk on (at most one chunk, 256 KiB, goes uncounted).
            self._head_bytes = 0
        if self._head_bytes > self.limits.max_header_bytes:
            self._head_too_large()

    def on_message_begin(self) -> None:
        if self._stopped:
            return
        super().on_message_begin()
        self._in_head = True
        self._began = True
        self._head_size = 0
        if self._deadline is None:  # a fresh connection's deadline runs from its start
            self._arm(self.limits.header_timeout_s, self._head_timed_out)

    def on_url(self, url: bytes) -> None:
        if self._stopped:
            return
        super().on_url(url)
        self._count_head(len(url))

    def on_header(self, name: bytes, value: bytes) -> None:
        if self._stopped:
            return
        super().on_header(name, value)
        self._count_head(len(name) + len(value) + 4)

    def on_headers_complete(self) -> None:
        if self._stopped:
            return
        self._in_head = False
        self._head_bytes = 0
        self._heads_done += 1
        self._disarm()
        super().on_headers_complete()
        # Until the body is complete (a GET's message completes at once, disarming it).
        self._arm(self.limits.body_timeout_s, self._body_timed_out)

    def on_body(self, body: bytes) -> None:
        if not self._stopped:
            super().on_body(body)

    def on_message_complete(self) -> None:
        if self._stopped:
            return
        self._disarm()
        self._in_head = True
        self._began = False
        super().on_message_complete()

    def _count_head(self, n: int) -> None:
        """The parsed size of the head so far: a whole head in one chunk is counted here."""
        self._head_size += n
        if self._head_size > self.limits.max_header_bytes:
            self._head_too_large()

    def _head_too_large(self) -> None:
        limit = self.limits.max_header_bytes
        detail = f"the request line and headers may hold at most {limit} bytes"
        self.warn.warning("header_size", "refused a request with headers over the limit")
        self._end_connection(431, "too_large", detail, answered=self._busy())

    def _head_timed_out(self) -> None:
        self._deadline = None
        if self.transport.is_closing():
            return
        if not self._began:
            self.transport.close()  # nothing asked: nothing to answer
            return
        detail = f"the request line and headers took more than {self.limits.header_timeout_s:g} s"
        self._end_connection(408, "timeout", detail, answered=self._busy())

    def _body_timed_out(self) -> None:
        self._deadline = None
        if self.transport.is_closing():
            return
        detail = f"the request body took more than {self.limits.body_timeout_s:g} s"
        answered = self.cycle is not None and self.cycle.response_started
        self._end_connection(408, "timeout", detail, answered=answered)

    def _busy(self) -> bool:
        """The previous request's answer is still being sent (a stream)."""
        return self.cycle is not None and not self.cycle.response_complete

    def _end_connection(self, status: int, error: str, detail: str, *, answered: bool) -> None:
        """Answer ``status`` unless an answer is already on its way, then close."""
        self._stopped = True
        self._disarm()
        cycle = self.cycle
        if cycle is not None and not cycle.response_complete:
            # The route (if one runs) sees the client gone, and writes nothing more.
            cycle.disconnected = True
            cycle.message_event.set()
        if not answered:
            self.transport.write(_answer(status, error, detail))
        self.transport.close()

    # -- writing ---------------------------------------------------------------------------

    def pause_writing(self) -> None:
        super().pause_writing()
        if self._stall is None:
            self._stall = self.loop.call_later(self.limits.send_timeout_s, self._stalled)

    def resume_writing(self) -> None:
        self._unstall()
        super().resume_writing()

    def _stalled(self) -> None:
        self._stall = None
        log.info(
            "dropped a connection whose reader stopped reading",
            extra={"event": "dropped", "reason": "send_timeout"},
        )
        self.transport.abort()

    # -- timers ----------------------------------------------------------------------------

    def _arm(self, delay: float, callback: Any) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(delay, callback)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _unstall(self) -> None:
        if self._stall is not None:
            self._stall.cancel()
            self._stall = None


def guarded_protocol(limits: ConnectionLimits) -> type[GuardedHttpTools]:
    """A protocol class for ``uvicorn.run(http=...)``, with its own per-address counts."""
    return type(
        "GuardedHttpTools",
        (GuardedHttpTools,),
        {"limits": limits, "open_by_address": {}, "trusted": None, "warn": _Throttled()},
    )


def raise_open_file_limit() -> int:
    """Lift the soft limit on open files to the hard limit where allowed; the soft limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else 1 << 20
    if soft == resource.RLIM_INFINITY or (soft >= wanted):
        return soft if soft != resource.RLIM_INFINITY else wanted
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    except (ValueError, OSError):
        return soft
    return wanted


def connection_cap(wanted: int, open_files: int) -> int:
    """``wanted`` connections, or fewer when the open-file limit would run out first."""
    return max(16, min(wanted, open_files - RESERVED_FDS))
