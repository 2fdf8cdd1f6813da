"""app/api/stream.py's LimitedEventSource replaces sse-starlette's private
``_send_with_timeout``: it runs only on the sse-starlette it was tested on, and these tests
fail when that method's signature or its part in a stream changes."""

from __future__ import annotations

import inspect
import tomllib
from collections.abc import AsyncIterator
from pathlib import Path

import anyio
import pytest
import sse_starlette
from sse_starlette import EventSourceResponse
from starlette.types import Message, Send

from app.api.limits import StreamGate
from app.api.stream import TESTED_SSE_STARLETTE, LimitedEventSource

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def _minor(version: str) -> str:
    return ".".join(version.split(".")[:2])


def _installed() -> str:
    from importlib.metadata import version

    return version("sse-starlette")


def test_the_installed_sse_starlette_is_one_the_stream_was_tested_on() -> None:
    assert _minor(_installed()) in TESTED_SSE_STARLETTE, (
        f"sse-starlette {_installed()} is not one app/api/stream.py was tested on"
        f" ({TESTED_SSE_STARLETTE}): read its sse.py (_send_with_timeout, _send_interrupted),"
        " run these tests and tests/api, then add it"
    )


def test_pyproject_admits_only_the_tested_minor_versions() -> None:
    deps = tomllib.loads(PYPROJECT.read_text())["project"]["dependencies"]
    (pin,) = [d for d in deps if d.startswith("sse-starlette")]
    low, high = (part.strip() for part in pin.removeprefix("sse-starlette").split(","))
    assert low == f">={min(TESTED_SSE_STARLETTE)}", pin
    major, minor = max(TESTED_SSE_STARLETTE).split(".")
    assert high == f"<{major}.{int(minor) + 1}", pin


def test_the_private_method_is_still_the_one_replaced() -> None:
    assert sse_starlette.EventSourceResponse is EventSourceResponse
    ours = inspect.signature(LimitedEventSource._send_with_timeout)
    theirs = inspect.signature(EventSourceResponse._send_with_timeout)
    assert list(ours.parameters) == list(theirs.parameters) == ["self", "send", "message"]
    assert inspect.iscoroutinefunction(EventSourceResponse._send_with_timeout)
    # The flag a failed send sets, which decides whether a closing send is tried.
    assert "_send_interrupted" in inspect.getsource(EventSourceResponse.__call__)


async def _three() -> AsyncIterator[bytes]:
    for n in range(3):
        yield f"data: {n}\r\n\r\n".encode()


def _source(gate: StreamGate) -> LimitedEventSource:
    return LimitedEventSource(_three(), gate=gate, room="abcd", seat=None, ping=0)


async def _never() -> Message:
    await anyio.sleep_forever()
    raise AssertionError  # pragma: no cover


async def test_every_send_of_a_stream_goes_through_the_replaced_method() -> None:
    sent: list[Message] = []
    through: list[Message] = []

    class Counted(LimitedEventSource):
        async def _send_with_timeout(self, send: Send, message: Message) -> None:
            through.append(message)
            await super()._send_with_timeout(send, message)

    async def send(message: Message) -> None:
        sent.append(message)

    gate = StreamGate(per_address=4, per_room=4)
    stream = Counted(_three(), gate=gate, room="abcd", seat=None, ping=0)
    scope = {"type": "http", "method": "GET", "client": ("10.0.0.1", 1), "headers": []}
    await stream(scope, _never, send)
    bodies = [m["body"] for m in sent if m["type"] == "http.response.body"]
    assert b"".join(bodies) == b"data: 0\r\n\r\ndata: 1\r\n\r\ndata: 2\r\n\r\n"
    assert through == [m for m in sent if m["type"] == "http.response.body" and m["body"]]
    assert gate.open_streams() == 0


async def test_a_failed_send_is_marked_and_no_closing_send_follows() -> None:
    sent: list[Message] = []

    async def send(message: Message) -> None:
        if message["type"] == "http.response.body":
            raise OSError("the reader is gone")
        sent.append(message)

    gate = StreamGate(per_address=4, per_room=4)
    stream = _source(gate)
    scope = {"type": "http", "method": "GET", "client": ("10.0.0.1", 1), "headers": []}
    with pytest.raises(OSError):
        await stream(scope, _never, send)
    assert stream._send_interrupted
    assert [m["type"] for m in sent] == ["http.response.start"]
    assert gate.open_streams() == 0
