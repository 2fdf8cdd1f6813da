"""The page's event stream, gzipped with a flush per event (app/api/stream_gzip.py)."""

from __future__ import annotations

import zlib

import pytest
from starlette.types import Message

from app.api.stream_gzip import GzipEvents, accepts_gzip


@pytest.mark.parametrize(
    ("header", "wanted"),
    [
        ("gzip, deflate, br", True),
        ("br;q=1.0, gzip;q=0.5", True),
        ("GZIP", True),
        ("gzip;q=0", False),
        ("identity", False),
        ("", False),
        ("deflate", False),
    ],
)
def test_gzip_only_when_the_client_names_it(header: str, wanted: bool) -> None:
    scope = {"type": "http", "headers": [(b"accept-encoding", header.encode())]}
    assert accepts_gzip(scope) is wanted


async def test_each_event_decodes_whole_as_soon_as_it_is_sent() -> None:
    sent: list[Message] = []

    async def send(message: Message) -> None:
        sent.append(message)

    gz = GzipEvents(send)
    await gz({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"9")]})
    start = dict(sent[0]["headers"])
    assert start[b"content-encoding"] == b"gzip"
    assert b"content-length" not in start
    assert start[b"vary"] == b"Accept-Encoding"
    inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)
    table = b"event: state\r\nid: 1\r\ndata: <section>" + b"x" * 5000 + b"</section>\r\n\r\n"
    for n, event in enumerate([table, b": ping\r\n\r\n", table.replace(b"id: 1", b"id: 2")]):
        await gz({"type": "http.response.body", "body": event, "more_body": True})
        # Everything sent so far decodes to everything written so far: nothing held back.
        assert inflate.decompress(sent[-1]["body"]) == event
        if n == 2:
            assert len(sent[-1]["body"]) < 100  # the window still holds the previous table
    await gz({"type": "http.response.body", "body": b"", "more_body": False})
    assert inflate.decompress(sent[-1]["body"]) == b""
    assert inflate.eof  # a proper gzip trailer at the end
