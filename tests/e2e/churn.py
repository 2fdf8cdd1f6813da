"""A table that keeps changing, as fast as the server can make it change, for the browser tests
of what a person is in the middle of while tables arrive (tests/e2e/test_live_controls.py).

From threads of the test process, through the API only: a player's stream comes and goes
(their "away" chip comes and goes, one table each way, in every phase), and in the lobby the
host seats a computer player and frees the seat again. Nothing of it is test-only in the
server: a busy table does all of it. Each loop pauses PAUSE_S between changes: a browser on a
loaded machine takes in some thirty tables a second, and faster the page only queues them (a
person's clicks then wait behind the queue, which no table does at a real table).
"""

from __future__ import annotations

import threading
import time
from types import TracebackType

import httpx

PAUSE_S = 0.04


class Churn:
    """``with Churn(server, code, flapper=bob_token, host=ann_token, seat=3):`` the table
    changes until the block ends. ``flapper``: a seated player's token, whose stream opens
    and closes; ``host`` and ``seat``: the host's token and an empty lobby seat to fill and
    free. ``changes``: how many changes the server took so far."""

    def __init__(
        self,
        server: str,
        code: str,
        *,
        flapper: str,
        host: str | None = None,
        seat: int | None = None,
    ) -> None:
        self.server, self.code = server, code
        self.flapper, self.host, self.seat = flapper, host, seat
        self.changes = 0
        self.errors: list[str] = []
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []

    def __enter__(self) -> Churn:
        loops = [self._flap]
        if self.host is not None and self.seat is not None:
            loops.append(self._seat_and_free)
        for loop in loops:
            thread = threading.Thread(target=self._run, args=(loop,), daemon=True)
            thread.start()
            self._threads.append(thread)
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=30)
        if kind is None:
            assert self.errors == [], self.errors

    def wait_for(self, changes: int, timeout_s: float = 60) -> None:
        """Until the server took ``changes`` more changes from this churn."""
        goal, end = self.changes + changes, time.monotonic() + timeout_s
        while self.changes < goal and time.monotonic() < end and not self.errors:
            time.sleep(0.02)
        assert self.errors == [] and self.changes >= goal, (self.changes, goal, self.errors)

    def _run(self, loop: object) -> None:
        assert callable(loop)
        with httpx.Client(base_url=f"{self.server}/api/rooms/{self.code}", timeout=30) as client:
            while not self._stop.is_set():
                try:
                    loop(client)
                    self._stop.wait(PAUSE_S)
                except httpx.HTTPError as why:
                    self.errors.append(repr(why))
                    return

    def _flap(self, client: httpx.Client) -> None:
        """The player's stream opens (its first event is the table: they are here) and
        closes again (away)."""
        auth = {"Authorization": f"Bearer {self.flapper}"}
        with client.stream("GET", "/events", headers=auth) as r:
            r.raise_for_status()
            for line in r.iter_lines():
                if line.startswith("data:"):
                    break
            self.changes += 1
            self._stop.wait(PAUSE_S)
        self.changes += 1

    def _seat_and_free(self, client: httpx.Client) -> None:
        auth = {"Authorization": f"Bearer {self.host}"}
        client.post("/bots", json={"seat": self.seat}, headers=auth).raise_for_status()
        self.changes += 1
        self._stop.wait(PAUSE_S)
        client.post("/host/free", json={"seat": self.seat}, headers=auth).raise_for_status()
        self.changes += 1
