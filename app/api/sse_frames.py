"""A stream's events as the bytes on the wire, written here rather than by sse-starlette.

sse-starlette encodes each event through ``ServerSentEvent.encode``: a regular expression
over the whole data to split its lines, on every event of every stream (a seat's JSON view
is one line of about 1,700 bytes, the table's HTML some forty). The same frames, written with
plain replacements, cost a fraction of that (`python -m bench.send_path`).
sse-starlette sends bytes as they are, so its stream handling, pings and shutdown stay.
"""

from __future__ import annotations

import re
from collections.abc import AsyncGenerator, Mapping
from contextlib import aclosing
from typing import Any

from sse_starlette import ServerSentEvent

# The line ends of the SSE format (what an EventSource splits on), as sse-starlette's.
_LINE_END = re.compile(r"\r\n|\r|\n")
_FIELDS = frozenset({"id", "event", "data"})


def frame(event: Mapping[str, Any], sep: str = "\r\n") -> bytes:
    """``event`` (``id``, ``event``, ``data``) as sse-starlette would encode it."""
    if not event.keys() <= _FIELDS:  # retry, comment: sse-starlette's own encoder
        return ServerSentEvent(**event, sep=sep).encode()
    head = ""
    if (ident := event.get("id")) is not None:
        head = f"id: {_one_line(str(ident))}{sep}"
    if (name := event.get("event")) is not None:
        head += f"event: {_one_line(str(name))}{sep}"
    data = event.get("data")
    if data is None:
        return f"{head}{sep}".encode()
    text = str(data)
    if "\r" in text:  # every line end as "\n" first, "\r\n" as one
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if "\n" in text:  # one data line per line
        text = text.replace("\n", f"{sep}data: ")
    return f"{head}data: {text}{sep}{sep}".encode()


def _one_line(text: str) -> str:
    """An id or an event name with its line ends taken out, as sse-starlette's."""
    return _LINE_END.sub("", text) if "\r" in text or "\n" in text else text


async def frames(
    events: AsyncGenerator[Mapping[str, Any], None], sep: str = "\r\n"
) -> AsyncGenerator[bytes, None]:
    """``events`` framed; closing this closes ``events`` at once (its subscriptions end)."""
    async with aclosing(events):
        async for event in events:
            yield frame(event, sep)
