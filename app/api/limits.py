"""Limits one client address meets in the API: open event streams (per address and per room)
and room creation (per address, apart from the general rate limit).

The client address is the one uvicorn's proxy-headers middleware put in the scope (the
player's, behind a proxy trusted by ``FORWARDED_ALLOW_IPS``), as for the rate limit. Both
counters live in the app's Context (``streams``, ``room_quota``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from fastapi import Depends, Request
from starlette.types import Scope

from app.api.admin_token import is_admin
from app.reasons import N_, reason
from app.services import errors
from app.services.quotas import TokenBuckets

# A seated player's own streams are let in up to this many even when the room is full, so
# spectators can never lock the players out of their own table.
SEAT_RESERVE = 4

_TOO_MANY = N_("Too fast: wait a moment and try again.")
STREAMS_FROM_ADDRESS = reason(
    "too_many_streams", "more than {count} open event streams from {address}", _TOO_MANY
)
STREAMS_FOR_ROOM = reason(
    "room_streams_full", "more than {count} open event streams for this room", _TOO_MANY
)
TOO_MANY_ROOMS = reason(
    "too_many_rooms",
    "more than {per_hour} new rooms an hour from {address}",
    N_("Too many new tables from here: try again later."),
)

K = TypeVar("K")


def client_address(scope: Scope) -> str:
    client: Any = scope.get("client")
    return str(client[0]) if client else "unknown"


class StreamGate:
    """Counts open event streams per client address, per room and per seat."""

    def __init__(self, *, per_address: int, per_room: int) -> None:
        self.per_address = per_address
        self.per_room = per_room
        self._by_address: dict[str, int] = {}
        self._by_room: dict[str, int] = {}
        self._by_seat: dict[tuple[str, int], int] = {}

    def admit(self, address: str, room: str, seat: int | None) -> errors.TooMany | None:
        """Count one more stream, or say why not (nothing is counted then)."""
        if self.per_address and self._by_address.get(address, 0) >= self.per_address:
            return errors.TooMany(STREAMS_FROM_ADDRESS, count=self.per_address, address=address)
        if self.per_room and self._by_room.get(room, 0) >= self.per_room:
            own = self._by_seat.get((room, seat), 0) if seat is not None else SEAT_RESERVE
            if own >= SEAT_RESERVE:
                return errors.TooMany(STREAMS_FOR_ROOM, count=self.per_room)
        _add(self._by_address, address, 1)
        _add(self._by_room, room, 1)
        if seat is not None:
            _add(self._by_seat, (room, seat), 1)
        return None

    def release(self, address: str, room: str, seat: int | None) -> None:
        _add(self._by_address, address, -1)
        _add(self._by_room, room, -1)
        if seat is not None:
            _add(self._by_seat, (room, seat), -1)

    def spectators(self, room: str) -> int:
        """The streams open on ``room`` in this process that hold no seat."""
        seated = sum(self._by_seat.get((room, seat), 0) for seat in range(4))
        return max(self._by_room.get(room, 0) - seated, 0)

    def open_streams(self, address: str | None = None) -> int:
        if address is None:
            return sum(self._by_address.values())
        return self._by_address.get(address, 0)


def _add(counts: dict[K, int], key: K, n: int) -> None:
    value = counts.get(key, 0) + n
    if value > 0:
        counts[key] = value
    else:
        counts.pop(key, None)


class RoomQuota:
    """``per_hour`` new rooms per client address, refilled evenly over the hour; the admin
    token (ALLFOURS_ADMIN_TOKEN) is not counted."""

    def __init__(self, per_hour: int, admin_token: str | None = None) -> None:
        self.per_hour = per_hour
        self.buckets = TokenBuckets(per_hour, per_hour / 3600.0) if per_hour > 0 else None
        self.admin_token = admin_token

    def take(self, address: str, now: float | None = None) -> int:
        """0 if ``address`` may open a room now (and it is counted), else the seconds to wait."""
        return self.buckets.take(address, now) if self.buckets is not None else 0

    def is_admin(self, request: Request) -> bool:
        return is_admin(self.admin_token, request)


def may_open(request: Request) -> Callable[[], None]:
    """What a room's opening asks first, for routes that open one only sometimes (play now,
    today's boards: not when the caller has a table already): 429 with Retry-After over the
    quota; the admin token is not counted."""
    quota: RoomQuota = request.app.state.ctx.room_quota
    admin = quota.is_admin(request)
    address = client_address(request.scope)

    def take() -> None:
        wait = 0 if admin else quota.take(address)
        if wait:
            refused = errors.TooMany(TOO_MANY_ROOMS, per_hour=quota.per_hour, address=address)
            refused.retry_after = wait
            raise refused

    return take


async def room_quota(request: Request) -> None:
    """A dependency of the routes that open a room every time: the quota, as ``may_open``."""
    may_open(request)()


ROOM_QUOTA = Depends(room_quota)
