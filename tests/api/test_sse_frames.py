"""app/api/sse_frames.py writes each event's bytes as sse-starlette's own encoder would."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, Mapping
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from sse_starlette import ServerSentEvent

from app.api.sse_frames import frame, frames

# Line ends of every kind among ordinary text, and text that is no line end at all but
# that str.splitlines would split on (an EventSource does not).
PIECES = st.sampled_from(["a", "é", " ", "\r", "\n", "\r\n", "\u2028", "\x0b"])
TEXT = st.lists(PIECES, max_size=12).map("".join)


@given(
    data=st.none() | TEXT,
    name=st.none() | TEXT,
    ident=st.none() | st.integers(0, 10**6).map(str) | TEXT,
    sep=st.sampled_from(["\r\n", "\n"]),
)
def test_a_frame_is_what_sse_starlette_writes(
    data: str | None, name: str | None, ident: str | None, sep: str
) -> None:
    event = {k: v for k, v in {"data": data, "event": name, "id": ident}.items() if v is not None}
    expected = ServerSentEvent(data, event=name, id=ident, sep=sep).encode()
    assert frame(event, sep) == expected


def test_other_fields_go_to_sse_starlette() -> None:
    assert frame({"data": "x", "retry": 3000}) == ServerSentEvent("x", retry=3000).encode()


def test_closing_the_frames_closes_the_events_at_once() -> None:
    """A stream that ends (the reader left) ends its events' subscriptions then, not when
    the collector gets to them."""
    closed = []

    async def events() -> AsyncGenerator[Mapping[str, Any], None]:
        try:
            while True:
                yield {"event": "state", "data": "{}"}
        finally:
            closed.append(True)

    async def main() -> None:
        framed = frames(events())
        assert await anext(framed) == b"event: state\r\ndata: {}\r\n\r\n"
        await framed.aclose()
        assert closed == [True]

    asyncio.run(main())
