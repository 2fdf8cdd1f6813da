"""Play now (API.md § Fourth round): a seat at once for anyone, a guest or a player, at a
public table: one waiting in its lobby, else one in play where a computer player holds a
seat (taken as a latecomer takes it: from the next deal), else a new public table with three
computer players, started at once. A table in play only while someone is at it: one whose
people have all gone would keep a latecomer waiting on their away cover for the next deal.

Presses are taken one at a time across every app process (PostgreSQL: an advisory lock held
for the press; SQLite, one process: a lock of the process), so fifty guests at once fill the
tables four by four and never two tables where one would do. Each seat is still taken through
the room's versioned commit, so a table never holds more than four whatever else joins it.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from sqlalchemy import Engine, text

from app.reasons import N_, reason
from app.rules import preset_of, preset_rules
from app.services import errors
from app.services.decide import BANNED, claim_of, shuns_any
from app.services.identity import seat_of, token_hash
from app.services.leavers import refuse_cooling_off
from app.services.options import RoomOptions
from app.services.players import SignedIn
from app.services.rooms import JoinedSeat, Rooms
from app.services.snapshot import RoomSnap
from app.services.social import Social
from app.services.warden import CLEAR, PlaceStanding
from app.store import social_repo
from app.store.db import read, write

PUBLIC_PLAY_OFF = reason(
    "public_play_off",
    "public play is turned off on this server (ALLFOURS_PUBLIC_PLAY)",
    N_("Play now is turned off on this server: open a private table for your friends."),
)
# The advisory lock's key on PostgreSQL: any number no other part of the app takes.
PLAY_NOW_LOCK = 3636_0001
_LOCKS: dict[int, threading.Lock] = {}
_LOCKS_LOCK = threading.Lock()


@dataclass(frozen=True, slots=True)
class PlayNowSeat:
    """Where play now seated the caller: ``token`` is a guest's new seat token (None for a
    player, whose key acts for the seat, or a guest seated already); ``pending``: a computer
    player's seat, the caller's from the next deal."""

    code: str
    seat: int
    token: str | None
    pending: bool
    snap: RoomSnap


class PlayNow:
    def __init__(
        self, rooms: Rooms, social: Social, someone_here: Callable[[RoomSnap], bool]
    ) -> None:
        self.rooms = rooms
        self.social = social
        self.someone_here = someone_here  # the keeper's: a person at the table is here
        self.engine: Engine = rooms.engine
        # Presses wait their turn on the event loop, not in worker threads: fifty presses at
        # once must not hold every thread of the pool that the other requests need.
        self._turn = asyncio.Lock()

    async def press(
        self,
        *,
        me: SignedIn | None,
        token: str | None,
        name: str,
        preset: str | None,
        may_open: Callable[[], None] = lambda: None,
    ) -> PlayNowSeat:
        """``play`` from the event loop: one press of this process at a time in a worker
        thread (the database's lock then orders the processes' presses)."""
        async with self._turn:
            return await asyncio.to_thread(
                self.play, me=me, token=token, name=name, preset=preset, may_open=may_open
            )

    def play(
        self,
        *,
        me: SignedIn | None,
        token: str | None,
        name: str,
        preset: str | None,
        may_open: Callable[[], None] = lambda: None,
    ) -> PlayNowSeat:
        """A seat now; the same one when the caller holds one at a public table already.
        ``token``: a guest's seat token from an earlier press; ``may_open`` refuses a new
        table (the per-address room quota) by raising. A player who left 3 of their last 10
        public games is cooled off (app/services/leavers.py)."""
        with self._one_at_a_time():
            standing = self.rooms.warden.standing(me.player.id) if me is not None else CLEAR
            if standing.banned:
                raise errors.Forbidden(BANNED)  # play now's tables are all public
            shuns = standing.shuns
            held = self._held(me, token, shuns)
            if held is not None:
                return held  # back to their own table, cooling off or not
            if me is not None:
                refuse_cooling_off(self.engine, me.player.id)  # a leaver's (429 cooling_off)
            with read(self.engine) as conn:
                codes = social_repo.open_public_rooms(conn)
            # A table waiting in its lobby first, then one in play (its bots' seats).
            for waiting in (True, False):
                for code in codes:
                    seated = self._try(code, me, name, preset, standing, waiting)
                    if seated is not None:
                        return seated
            may_open()
            return self._new_table(me, name, preset)

    # -- the steps -------------------------------------------------------------------------

    def _held(
        self, me: SignedIn | None, token: str | None, shuns: frozenset[int]
    ) -> PlayNowSeat | None:
        """The caller's seat (or claim) at a public table still open, if any; not one shared
        with a player blocked since (that game finishes, and play now seats them apart)."""
        digest = token_hash(token) if token and me is None else None
        with read(self.engine) as conn:
            codes = social_repo.public_room_of(
                conn, player_id=me.player.id if me else None, digest=digest
            )
        for code in codes:
            snap = self.rooms.snapshot(code)
            if not _open(snap) or (shuns and shuns_any(snap, shuns)):
                continue
            mine = me.seat_token(code) if me is not None else token
            seat = seat_of(snap, mine)
            if seat is not None:
                return PlayNowSeat(code, seat, None, False, snap)
            claimed = claim_of(snap, mine)
            if claimed is not None:
                return PlayNowSeat(code, claimed, None, True, snap)
        return None

    def _try(
        self,
        code: str,
        me: SignedIn | None,
        name: str,
        preset: str | None,
        standing: PlaceStanding,
        waiting: bool,
    ) -> PlayNowSeat | None:
        snap = self.rooms.snapshot(code)
        if not _open(snap) or snap.options.reserved or (snap.game is None) != waiting:
            return None
        if preset is not None and preset_of(snap.rules) != preset:
            return None
        if standing.shuns and shuns_any(snap, standing.shuns):
            return None
        seat = _free_seat(snap)
        if seat is None or (not waiting and not self.someone_here(snap)):
            return None
        try:
            joined = self._join(code, seat, me, name, standing)
        except errors.ApiError:
            return None  # taken meanwhile (another process's join): the next table
        if joined.snap.game is None and joined.snap.full:
            # The lobby's fourth: the table starts (four players with profiles: rated).
            after = self.rooms.start(code=code, token=None, admin=True)
            joined = JoinedSeat(joined.seat, joined.token, after, joined.pending)
        return self._seated(joined, me)

    def _new_table(self, me: SignedIn | None, name: str, preset: str | None) -> PlayNowSeat:
        # Out of the lobby until its seats are filled: no other process seats anyone there
        # meanwhile (on SQLite the processes share no lock).
        snap = self.rooms.create_room(
            rules=preset_rules(preset), seed=None, options=RoomOptions(public=True), listed=False
        )
        joined = self._join(snap.code, 0, me, name, CLEAR)
        for seat in (1, 2, 3):
            self.rooms.seat_bot(code=snap.code, token=None, seat=seat, level=None, admin=True)
        started = self.rooms.start(code=snap.code, token=None, admin=True)
        with write(self.engine) as conn:
            social_repo.list_public(conn, snap.code)
        return self._seated(JoinedSeat(joined.seat, joined.token, started, joined.pending), me)

    def _join(
        self, code: str, seat: int, me: SignedIn | None, name: str, standing: PlaceStanding
    ) -> JoinedSeat:
        if me is None:
            return self.rooms.join(code=code, name=name, seat=seat, token=None)
        return self.rooms.join(
            code=code,
            name=me.player.name,
            seat=seat,
            token=me.seat_token(code),
            player=me.seat_player,
            standing=standing,
        )

    def _seated(self, joined: JoinedSeat, me: SignedIn | None) -> PlayNowSeat:
        token = None if me is not None else joined.token
        return PlayNowSeat(joined.snap.code, joined.seat, token, joined.pending, joined.snap)

    @contextmanager
    def _one_at_a_time(self) -> Iterator[None]:
        with _process_lock(self.engine):
            if self.engine.dialect.name != "postgresql":
                yield
                return
            with self.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
                conn.execute(text("SELECT pg_advisory_lock(:key)"), {"key": PLAY_NOW_LOCK})
                try:
                    yield
                finally:
                    conn.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": PLAY_NOW_LOCK})


def _process_lock(engine: Engine) -> threading.Lock:
    with _LOCKS_LOCK:
        return _LOCKS.setdefault(id(engine), threading.Lock())


def _open(snap: RoomSnap) -> bool:
    """A table play now seats at: waiting in its lobby, or with a game in play."""
    return snap.game is None or snap.in_play


def _free_seat(snap: RoomSnap) -> int | None:
    """In the lobby an empty seat (else a computer player's, taken at once); in play, a
    computer player's seat nobody has claimed yet."""
    if snap.game is None:
        empty = [i for i, s in enumerate(snap.seats) if s is None]
        if empty:
            return empty[0]
    bots = [s.seat for s in snap.seats if s is not None and s.bot and s.claim is None]
    return bots[0] if bots else None
