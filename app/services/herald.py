"""Who hears of a room's moments outside the table: a game dealt, a player nudged, a
club night's tables drawn, a friend invited. The rooms and the nights call a herald after
their change is committed; the server's is Web Push (app/services/push.py). A herald never
holds up its caller: it takes note and does its work elsewhere."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from app.services.snapshot import RoomSnap


@dataclass(frozen=True, slots=True)
class NightTableOpen:
    """One table of a club night's new round, and the profiles that play at it."""

    room: str
    number: int
    players: tuple[int, ...]


class Herald(Protocol):
    def game_started(self, snap: RoomSnap, *, rematch: bool) -> None: ...

    def nudged(self, snap: RoomSnap, seat: int, by: str) -> None: ...

    def night_round(
        self, night: str, name: str, round_: int, tables: Sequence[NightTableOpen]
    ) -> None: ...

    def invited(self, code: str, player: int, by: str) -> None: ...


class Silent:
    """A herald that tells no one (a server without push, the tests of the rooms alone)."""

    def game_started(self, snap: RoomSnap, *, rematch: bool) -> None:
        pass

    def nudged(self, snap: RoomSnap, seat: int, by: str) -> None:
        pass

    def night_round(
        self, night: str, name: str, round_: int, tables: Sequence[NightTableOpen]
    ) -> None:
        pass

    def invited(self, code: str, player: int, by: str) -> None:
        pass
