"""A room at one version: seats, rules and the replayed game. Built from the action log.

Snapshots are immutable and cached by (room, version), so open streams render each new
version from memory; any version can be rebuilt from the log when it is not cached.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

from sqlalchemy import Connection

from app.rules import Action, Rules, State, apply, new_game
from app.rules.cards import parse
from app.store import repo


@dataclass(frozen=True, slots=True)
class SeatInfo:
    seat: int
    name: str
    bot: bool
    level: str | None
    token_hash: str | None


@dataclass(frozen=True, slots=True)
class GameInfo:
    id: int
    number: int
    seed: int
    first_dealer: int
    started_version: int
    seq: int  # actions applied so far
    last: repo.ActionLog | None  # the last action applied
    state: State


@dataclass(frozen=True, slots=True)
class RoomSnap:
    id: int
    code: str
    version: int
    rules: Rules
    seed: int | None
    seats: tuple[SeatInfo | None, SeatInfo | None, SeatInfo | None, SeatInfo | None]
    game: GameInfo | None

    @property
    def full(self) -> bool:
        return all(s is not None for s in self.seats)

    @property
    def in_play(self) -> bool:
        return self.game is not None and self.game.state.turn is not None


def action_of(log: repo.ActionLog) -> Action:
    return Action(log.type, parse(log.card) if log.card is not None else None)  # type: ignore[arg-type]


def load(conn: Connection, room: repo.RoomRow, at_version: int | None = None) -> RoomSnap:
    """The room as it was at ``at_version`` (default: now), replayed from the log."""
    version = room.version if at_version is None else at_version
    seat_list: list[SeatInfo | None] = [None, None, None, None]
    for s in repo.seats_of(conn, room.id, at_version):
        seat_list[s.seat] = SeatInfo(s.seat, s.name, s.bot, s.level, s.token_hash)
    game = None
    row = repo.latest_game(conn, room.id, at_version)
    if row is not None:
        logs = repo.actions_of(conn, row.id, at_version)
        state = new_game(Rules.model_validate(row.rules), row.seed, row.first_dealer)
        for log in logs:
            state = apply(state, action_of(log))
        game = GameInfo(
            id=row.id,
            number=row.number,
            seed=row.seed,
            first_dealer=row.first_dealer,
            started_version=row.started_version,
            seq=len(logs),
            last=logs[-1] if logs else None,
            state=state,
        )
    return RoomSnap(
        id=room.id,
        code=room.code,
        version=version,
        rules=Rules.model_validate(room.rules),
        seed=room.seed,
        seats=(seat_list[0], seat_list[1], seat_list[2], seat_list[3]),
        game=game,
    )


class SnapCache:
    """The last few versions of recently used rooms (thread-safe)."""

    def __init__(self, rooms: int = 4096, per_room: int = 16) -> None:
        self._rooms: OrderedDict[str, OrderedDict[int, RoomSnap]] = OrderedDict()
        self._max_rooms = rooms
        self._per_room = per_room
        self._lock = threading.Lock()

    def get(self, code: str, version: int | None = None) -> RoomSnap | None:
        with self._lock:
            versions = self._rooms.get(code)
            if not versions:
                return None
            self._rooms.move_to_end(code)
            if version is None:
                return next(reversed(versions.values()))
            return versions.get(version)

    def put(self, snap: RoomSnap) -> None:
        with self._lock:
            versions = self._rooms.get(snap.code)
            if versions is None:
                versions = self._rooms[snap.code] = OrderedDict()
                while len(self._rooms) > self._max_rooms:
                    self._rooms.popitem(last=False)
            self._rooms.move_to_end(snap.code)
            versions[snap.version] = snap
            # Keep them ordered by version, newest last.
            if len(versions) > 1 and next(reversed(versions)) != max(versions):
                ordered = sorted(versions.items())
                versions.clear()
                versions.update(ordered)
            while len(versions) > self._per_room:
                versions.popitem(last=False)
