"""Who is at the table in this process: open streams per seat, last sign of life, away cover.

A seat is ``connected`` while it has an open stream. A seated human with no stream and no
request for ``away_s`` while it is their turn is covered by a bot (``auto``) until they come
back: any stream or authenticated request of theirs hands the seat back at once.

Nothing is kept for ever: ``prune`` (the hourly room sweep) drops the signs of life older
than a horizon of seats with no stream, and ``forget`` everything of rooms that are gone.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager

Key = tuple[str, int]


class Presence:
    def __init__(
        self,
        on_change: Callable[[str], None] | None = None,
        *,
        away_s: float = 120.0,
        turn_scale: float = 1.0,
    ) -> None:
        # The clocks' settings (app/services/clocks.py), here because every view has them:
        # ALLFOURS_AWAY_S and ALLFOURS_TURN_TIMER_SCALE.
        self.away_s = away_s
        self.turn_scale = turn_scale
        self._streams: dict[Key, int] = {}
        self._last_seen: dict[Key, float] = {}
        self._covered: set[Key] = set()
        self._recent: set[Key] = set()  # signs of life since the last ``take_seen``
        self._started = time.monotonic()
        self._on_change = on_change or (lambda code: None)

    @contextmanager
    def stream(self, code: str, seat: int | None) -> Iterator[None]:
        if seat is None:
            yield
            return
        key = (code, seat)
        self._streams[key] = self._streams.get(key, 0) + 1
        changed = self._streams[key] == 1 or key in self._covered
        self._covered.discard(key)
        self._last_seen[key] = time.monotonic()
        if changed:
            self._on_change(code)
        try:
            yield
        finally:
            left = self._streams.get(key, 1) - 1
            self._last_seen[key] = time.monotonic()
            self._recent.add(key)
            if left:
                self._streams[key] = left
            else:
                self._streams.pop(key, None)
                self._on_change(code)

    def touch(self, code: str, seat: int) -> None:
        """An authenticated request: a sign of life (and the end of any away cover)."""
        key = (code, seat)
        self._last_seen[key] = time.monotonic()
        self._recent.add(key)
        if key in self._covered:
            self._covered.discard(key)
            self._on_change(code)

    def connected(self, code: str, seat: int) -> bool:
        return (code, seat) in self._streams

    def covered(self, code: str, seat: int) -> bool:
        return (code, seat) in self._covered

    def seen_within(self, code: str, seat: int, seconds: float) -> bool:
        """A stream of the seat's open here, or a request of theirs within ``seconds``."""
        key = (code, seat)
        if key in self._streams:
            return True
        seen = self._last_seen.get(key)
        return seen is not None and time.monotonic() - seen <= seconds

    def last_seen(self, code: str, seat: int) -> float:
        return self._last_seen.get((code, seat), self._started)

    def last_seen_wall(self, code: str, seat: int) -> float:
        """``last_seen`` as wall-clock Unix seconds (the clocks' deadlines are wall-clock)."""
        return time.time() - (time.monotonic() - self.last_seen(code, seat))

    def cover(self, code: str, seat: int) -> None:
        key = (code, seat)
        if key not in self._covered and key not in self._streams:
            self._covered.add(key)
            self._on_change(code)

    def take_seen(self) -> list[Key]:
        """Every seat seen since the last call: open streams and recent requests."""
        seen = self._recent | set(self._streams)
        self._recent = set()
        return sorted(seen)

    def rooms(self) -> set[str]:
        """Every room this process keeps something of."""
        keys = self._streams.keys() | self._last_seen.keys() | self._covered | self._recent
        return {code for code, _ in keys}

    def connected_rooms(self) -> set[str]:
        """Rooms with a seat's stream open in this process."""
        return {code for code, _ in self._streams}

    def forget(self, codes: Iterable[str]) -> None:
        """Drop what is kept of rooms that no longer exist (their streams end by themselves)."""
        gone = set(codes)
        if not gone:
            return
        self._last_seen = {k: t for k, t in self._last_seen.items() if k[0] not in gone}
        self._covered = {k for k in self._covered if k[0] not in gone}
        self._recent = {k for k in self._recent if k[0] not in gone}

    def prune(self, horizon_s: float, now: float | None = None) -> int:
        """Drop the signs of life older than ``horizon_s`` of seats with no open stream; the
        number dropped. With a horizon longer than the away time, a seat pruned is treated as
        the seat kept would be: away. Covered seats stay covered until their room goes."""
        now = time.monotonic() if now is None else now
        old = [
            key
            for key, seen in self._last_seen.items()
            if now - seen > horizon_s and key not in self._streams
        ]
        for key in old:
            del self._last_seen[key]
            self._recent.discard(key)
        return len(old)

    def size(self) -> int:
        """How many entries are kept (for tests and the curious)."""
        return len(self._streams) + len(self._last_seen) + len(self._covered) + len(self._recent)
