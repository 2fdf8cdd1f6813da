"""Quotas (API.md § Fifth round, "A rule holds on every path"): how many of a thing one
client address or one player may make in a while, kept here for every way in (a JSON route,
its form twin, a link), each checked by the service that makes the thing.

Each quota is a token bucket per key (a burst of the quota, refilled evenly over its period),
in this process's memory as the rate limit and the rooms' quota are: several processes on one
PostgreSQL database each keep their own (a client meets at most one quota per process).
Over a quota: 429 ``too_many`` with ``Retry-After``.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

from app.reasons import N_, reason
from app.services import errors

HOUR, DAY = 3600.0, 86400.0

TOO_MANY = reason(
    "too_many",
    "more than {count} {thing} {period} from {who}",
    N_("Too many of these lately: try again later."),
)


class TokenBuckets:
    """A token bucket per key: a burst of ``capacity``, refilled evenly at ``per_second``."""

    def __init__(self, capacity: int, per_second: float) -> None:
        self.capacity = float(capacity)
        self.rate = per_second
        self._buckets: dict[str, tuple[float, float]] = {}
        self._last_sweep = time.monotonic()

    def take(self, key: str, now: float | None = None) -> int:
        """0 when ``key`` may go on now (one token taken), else the seconds until it may."""
        now = time.monotonic() if now is None else now
        tokens, last = self._buckets.get(key, (self.capacity, now))
        tokens = min(self.capacity, tokens + (now - last) * self.rate)
        if tokens < 1:
            self._buckets[key] = (tokens, now)
            return max(1, math.ceil((1 - tokens) / self.rate))
        self._buckets[key] = (tokens - 1, now)
        self._sweep(now)
        return 0

    def _sweep(self, now: float) -> None:
        """Forget the buckets that have been full again for a while (once a minute)."""
        if now - self._last_sweep < 60:
            return
        self._last_sweep = now
        full = self.capacity / self.rate
        for key, (_, last) in list(self._buckets.items()):
            if now - last > full:
                del self._buckets[key]


class Quota:
    """``count`` of one ``thing`` per key (an address, a player) in ``period_s``; 0: none."""

    def __init__(self, thing: str, count: int, period_s: float) -> None:
        self.thing = thing
        self.count = count
        self.period_s = period_s
        self.buckets = TokenBuckets(count, count / period_s) if count > 0 else None

    def take(self, who: str | int) -> None:
        """Count one more for ``who``, or refuse it (429 too_many, nothing counted)."""
        if self.buckets is None:
            return
        wait = self.buckets.take(str(who))
        if wait:
            period = "in an hour" if self.period_s == HOUR else "in a day"
            refused = errors.TooMany(
                TOO_MANY, count=self.count, thing=self.thing, period=period, who=str(who)
            )
            refused.retry_after = wait
            raise refused


@dataclass
class Quotas:
    """The place's quotas, one object per process (built at start, handed to each service
    that makes the thing counted)."""

    profiles_per_hour: int = 30
    profiles: Quota = field(init=False)  # per client address (a club's venue: one address)
    friend_requests: Quota = field(default_factory=lambda: Quota("friend requests", 30, DAY))
    clubs: Quota = field(default_factory=lambda: Quota("clubs", 5, DAY))
    club_invites: Quota = field(default_factory=lambda: Quota("club invite links", 30, HOUR))
    room_invites: Quota = field(default_factory=lambda: Quota("invitations", 30, HOUR))
    # Per player: a search box typed into now and then, not a walk through every name.
    player_searches: Quota = field(default_factory=lambda: Quota("player searches", 120, HOUR))

    def __post_init__(self) -> None:
        self.profiles = Quota("new profiles", self.profiles_per_hour, HOUR)
