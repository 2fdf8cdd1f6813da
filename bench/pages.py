"""Page weight: the bytes on the wire for a first visit and a second one.

Starts the server on a fresh SQLite file, opens a room, and fetches as a browser would
(``Accept-Encoding: gzip, deflate, br``) the home page, the room page and the static files
the room page links to. Prints, per URL, the bytes of the body as sent (compressed or not),
the encoding and the caching header, then the total of a first visit and of a second one
(a browser that keeps what ``Cache-Control: immutable`` lets it keep asks for the HTML only).

    python -m bench.pages
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Sequence
from pathlib import Path

import httpx

from bench.live import HOST, server

BROWSER = {"Accept-Encoding": "gzip, deflate, br", "Accept": "text/html,*/*"}


def _wire(client: httpx.Client, url: str) -> tuple[int, str, str]:
    """(bytes of the body as sent, Content-Encoding, Cache-Control) of one GET."""
    with client.stream("GET", url, headers=BROWSER) as r:
        r.raise_for_status()
        sent = sum(len(chunk) for chunk in r.iter_raw())
        return sent, r.headers.get("content-encoding", "-"), r.headers.get("cache-control", "-")


def _linked(html: str) -> list[str]:
    """The page's own static files, in the order it links them."""
    return re.findall(r'(?:href|src)="(/static/[^"?]+\.(?:css|js)(?:\?v=\w+)?)"', html)


def main(argv: Sequence[str]) -> None:
    with (
        tempfile.TemporaryDirectory() as folder,
        server(f"sqlite:///{Path(folder) / 'pages.db'}", env={"ALLFOURS_ROOMS_PER_HOUR": "0"}) as (
            port,
            _,
        ),
    ):
        base = f"http://{HOST}:{port}"
        with httpx.Client(base_url=base, timeout=30) as client:
            code = client.post("/api/rooms", json={}).json()["code"]
            room_html = client.get(f"/r/{code}").text
            pages = ["/", f"/r/{code}"]
            statics = _linked(room_html)
            print(f"{'url':<52} {'bytes':>8}  encoding  cache-control")
            first = second = 0
            for url in pages + statics:
                sent, encoding, cache = _wire(client, url)
                print(f"{url:<52} {sent:>8}  {encoding:<8}  {cache}")
                first += sent
                if url in pages or "immutable" not in cache:
                    second += sent
            print(f"first visit to a room (page + its static files): {first} bytes")
            print(f"second visit (what the cache cannot answer): {second} bytes")


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
