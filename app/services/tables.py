"""The use cases: create a room, join, seat a bot, start, act, rematch, view, hand records,
and the one write path under them.

A use case turns its request into a command (app/services/decide.py decides what it does to
a room) and commits it: the decision runs on the cached latest snapshot and is committed if
the conditional ``UPDATE rooms SET version = v + 1 WHERE version = v`` (the first statement
that writes, so racing writers serialise there) proves the room still at that version; a
refusal stands once a plain read proves the same, without a write transaction. Otherwise
the room is read inside the write transaction and the command decided again. What changed
is written (app/services/persist.py), notified inside the transaction, committed, then
published. Every method is synchronous; the routes run them through ``call``: on the event
loop's thread on SQLite when the writer lock is free (a move is then one short local
transaction), else in a worker thread; reads through ``read``, in a worker thread. These two
are the routes' one way to the services.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any, Literal, ParamSpec, TypeVar

from sqlalchemy import Engine
from sqlalchemy.exc import IntegrityError, OperationalError

from app import logs
from app.api.view_schemas import HandRecordView, hand_records
from app.bots import DEFAULT_LEVEL, LEVELS
from app.live.notifier import Notifier
from app.reasons import N_, reason
from app.rules import Action, Rules, observe
from app.rules.shuffle import SEED_BITS
from app.rules.state import Call
from app.services import errors
from app.services.decide import (
    Act,
    Command,
    HostBot,
    HostFree,
    HostMove,
    Join,
    Rematch,
    SeatBot,
    Start,
    TableAct,
    claim_of,
    decide,
    judged_call,
)
from app.services.identity import check_code, new_room_code, new_token, seat_of, token_hash
from app.services.names import clean_name
from app.services.options import DEFAULT_OPTIONS, RoomOptions
from app.services.persist import persist
from app.services.snapshot import ReplayOf, RoomSnap, SnapCache, load
from app.store import repo
from app.store.db import WriterBusy, inline_writes, on_loop, read, write

RETRIES = 8

HAND_NOT_OVER = reason(
    "hand_not_over",
    "hand {hand} is not over (or does not exist) in this game",
    N_("That hand is not over yet."),
)
NO_FREE_CODE = reason(
    "no_free_code", "could not draw a free room code", N_("No table could be opened: try again.")
)
UNKNOWN_LEVEL = reason(
    "unknown_level",
    "level must be one of {levels}",
    N_("That did not work: check what you entered."),
)
_MOVED_ON = N_("The table moved on: here it is as it is now.")
STALE_VERSION = reason(
    "stale_version", "version {expected} is not current (the room is at {current})", _MOVED_ON
)
VERSION_OVERTAKEN = reason("version_overtaken", "version {expected} is not current", _MOVED_ON)
CHANGED_FIRST = reason("changed_first", "another change was made first", _MOVED_ON)

Json = dict[str, Any]
P = ParamSpec("P")
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Joined:
    seat: int
    token: str
    snap: RoomSnap
    # A computer player's seat taken while a hand is in play: the caller holds it from the
    # next deal, and watches until then.
    pending: bool = False


class Tables:
    """The rooms of this server, on one database."""

    def __init__(self, engine: Engine, notifier: Notifier, cache: SnapCache | None = None):
        self.engine = engine
        self.notifier = notifier
        self.cache = cache or SnapCache()
        self._inline = inline_writes(engine)

    async def call(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
        """Run a use case from the event loop: inline on SQLite unless another thread is
        writing (then, like every PostgreSQL call, in a worker thread). A use case that finds
        the writer lock taken has written nothing yet, so running it again is safe."""
        if self._inline:
            try:
                with on_loop():
                    return fn(*args, **kwargs)
            except WriterBusy:
                pass
        return await asyncio.to_thread(fn, *args, **kwargs)

    async def read(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
        """Run a read from the event loop, in a worker thread (a room read from the log, a
        record replayed, the stats counted: too long to hold the loop for)."""
        return await asyncio.to_thread(fn, *args, **kwargs)

    # -- reading ---------------------------------------------------------------------------

    def snapshot(self, code: str, version: int | None = None) -> RoomSnap:
        """The room now (read from the database's version), or at an exact past version."""
        check_code(code)
        if version is not None:
            cached = self.cache.get(code, version)
            if cached is not None:
                return cached
        with read(self.engine) as conn:
            room = repo.room_by_code(conn, code)
            if room is None:
                raise errors.NotFound(errors.NO_ROOM, code=code)
            if version is None or version >= room.version:
                cached = self.cache.get(code, room.version)
                if cached is not None:
                    return cached
                snap = load(conn, room)
            else:
                snap = load(conn, room, max(version, 0))
        self.cache.put(snap)
        return snap

    def cached(self, code: str, version: int) -> RoomSnap | None:
        return self.cache.get(code, version)

    def hand_record(self, code: str, n: int, token: str | None) -> HandRecordView:
        snap = self.snapshot(code)
        game = snap.game
        if game is None or not 1 <= n <= len(game.state.history):
            raise errors.NotFound(HAND_NOT_OVER, hand=n)
        return hand_records(observe(game.state, seat_of(snap, token)))[n - 1]

    # -- writing ---------------------------------------------------------------------------

    def create_room(
        self,
        *,
        rules: Rules,
        seed: int | None,
        first_dealer: int | None = None,
        replay_of: ReplayOf | None = None,
        options: RoomOptions = DEFAULT_OPTIONS,
    ) -> RoomSnap:
        """A new room; with ``replay_of``, one that deals that game again (its seed and first
        dealer)."""
        for _ in range(RETRIES):
            code = new_room_code()
            try:
                with write(self.engine) as conn:
                    room_id = repo.insert_room(
                        conn,
                        code=code,
                        rules=rules.model_dump(mode="json"),
                        seed=seed,
                        first_dealer=first_dealer,
                        replay_of=(replay_of.code, replay_of.number) if replay_of else None,
                        options=options.model_dump() if options != DEFAULT_OPTIONS else None,
                    )
            except IntegrityError:
                continue  # a code collision: draw again
            snap = RoomSnap(
                room_id,
                code,
                0,
                rules,
                seed,
                (None, None, None, None),
                None,
                first_dealer=first_dealer,
                replay_of=replay_of,
                options=options,
            )
            self.cache.put(snap)
            return snap
        raise errors.Conflict(NO_FREE_CODE)

    def join(
        self,
        *,
        code: str,
        name: str,
        seat: int | None,
        token: str | None,
        reserved: bool = False,
        own_seat: bool = False,
    ) -> Joined:
        """A human takes a seat; a caller already seated here gets its own seat back. With
        ``reserved`` (a club night's player link), ``token`` is the seat's token to be, and
        the seat may be one of a night's reserved seats; with ``own_seat`` too (the night's
        player of that seat), a person substituting in it gives it back (at the game's end)."""
        fresh = token if reserved and token else new_token()
        command = Join(token, clean_name(name), seat, token_hash(fresh), reserved, own_seat)
        snap = self._commit(code, command)
        mine = seat_of(snap, token)
        if mine is not None and token is not None:
            return Joined(mine, token, snap)
        claimed = claim_of(snap, token)
        if claimed is not None and token is not None:
            return Joined(claimed, token, snap, pending=True)
        joined = seat_of(snap, fresh)
        if joined is not None:
            return Joined(joined, fresh, snap)
        claimed = claim_of(snap, fresh)
        assert claimed is not None  # decide gave the fresh token a seat, or a claim on one
        return Joined(claimed, fresh, snap, pending=True)

    def seat_bot(
        self, *, code: str, token: str | None, seat: int, level: str | None, admin: bool = False
    ) -> RoomSnap:
        level = level or DEFAULT_LEVEL
        if level not in LEVELS:
            raise errors.Invalid(UNKNOWN_LEVEL, levels=", ".join(LEVELS))
        return self._commit(code, SeatBot(token, seat, level, admin))

    def start(self, *, code: str, token: str | None, admin: bool = False) -> RoomSnap:
        return self._commit(code, Start(token, secrets.randbits(SEED_BITS), admin))

    def rematch(self, *, code: str, token: str | None, admin: bool = False) -> RoomSnap:
        return self._commit(code, Rematch(token, secrets.randbits(SEED_BITS), admin))

    def act(
        self,
        *,
        code: str,
        token: str | None,
        action: Action,
        expected: int | None,
        seat: int | None = None,
        auto: bool = False,
    ) -> RoomSnap:
        """A seat's action. ``seat`` (with no token) is the server acting for a bot."""
        done = self._commit(code, Act(token, action, expected, seat, auto), expected=expected)
        if done.game is not None and (last := done.game.last) is not None:
            logs.move(
                room=code,
                version=done.version,
                seat=last.seat,
                action=last.type,
                card=last.card,
                auto=last.auto,
            )
        return done

    # -- renege mode (R22-R23) ---------------------------------------------------------------

    def call_renege(self, *, code: str, token: str | None, lift: int) -> tuple[RoomSnap, Call]:
        """A seated person calls renege on ``lift``: the room after, and the judgement."""
        done = self._commit(code, TableAct(token, "call", lift))
        return done, judged_call(done)

    def reckoned(self, *, code: str, token: str | None) -> RoomSnap:
        """A seated person says "score it"."""
        return self._commit(code, TableAct(token, "reckoned"))

    def table_act(
        self,
        *,
        code: str,
        type: Literal["call", "reckoned", "score"],
        seat: int | None,
        expected: int,
        lift: int | None = None,
    ) -> RoomSnap:
        """The server's own: a computer player's call or "score it", or the reckoning's time
        up (``seat`` None), against the version it was decided on."""
        command = TableAct(None, type, lift, seat, auto=True)
        return self._commit(code, command, expected=expected)

    # -- the host's powers -------------------------------------------------------------------

    def host_bot(
        self, *, code: str, token: str | None, seat: int, level: str | None, away: bool
    ) -> RoomSnap:
        level = level or DEFAULT_LEVEL
        if level not in LEVELS:
            raise errors.Invalid(UNKNOWN_LEVEL, levels=", ".join(LEVELS))
        return self._commit(code, HostBot(token, seat, level, away))

    def host_free(self, *, code: str, token: str | None, seat: int) -> RoomSnap:
        return self._commit(code, HostFree(token, seat))

    def host_move(self, *, code: str, token: str | None, seat: int, to: int) -> RoomSnap:
        return self._commit(code, HostMove(token, seat, to))

    # -- the one write path ----------------------------------------------------------------

    def _commit(self, code: str, command: Command, *, expected: int | None = None) -> RoomSnap:
        """The room after ``command``, committed (or unchanged, when it changes nothing)."""
        check_code(code)
        done = self._commit_from_cache(code, command, expected=expected)
        if done is not None:
            return done
        for _ in range(RETRIES):
            try:
                with write(self.engine) as conn:
                    room = repo.room_by_code(conn, code)
                    if room is None:
                        raise errors.NotFound(errors.NO_ROOM, code=code)
                    if expected is not None and expected != room.version:
                        raise errors.StaleVersion(
                            STALE_VERSION, expected=expected, current=room.version
                        )
                    snap = self.cache.get(code, room.version)
                    if snap is None:
                        snap = load(conn, room)
                    after = decide(snap, command)
                    if after is None:
                        return snap
                    now = datetime.now(UTC)
                    if not repo.bump_version(conn, room.id, room.version, now):
                        if expected is not None:
                            raise errors.StaleVersion(VERSION_OVERTAKEN, expected=expected)
                        raise _Retry
                    after = persist(conn, snap, replace(after, at=now))
                    self.notifier.in_transaction(conn, code, after.version)
            except _Retry:
                continue
            except IntegrityError:
                # Another process wrote first (PostgreSQL, two app processes).
                if expected is not None:
                    raise errors.StaleVersion(CHANGED_FIRST) from None
                continue
            except OperationalError as err:
                if "locked" in str(err) or "serializ" in str(err) or "deadlock" in str(err):
                    continue
                raise
            self.cache.put(snap)
            return self._published(after)
        raise errors.Conflict(errors.ROOM_BUSY)

    def _commit_from_cache(
        self, code: str, command: Command, *, expected: int | None
    ) -> RoomSnap | None:
        """The fast path: apply the change to the cached latest snapshot and commit it if the
        room is still at that version (the conditional UPDATE decides). A refusal stands once
        a plain read shows the room still at the cached version: it takes no write
        transaction (on SQLite, not the writer lock). None = take the slow path, which reads
        the room first: no cache, or a stale cache (another process moved first)."""
        cached = self.cache.get(code)
        if cached is None or (expected is not None and expected != cached.version):
            return None
        try:
            after = decide(cached, command)
        except errors.ApiError:
            if self._current_version(code) == cached.version:
                raise
            return None
        if after is None:  # nothing to change (a seat rejoined): the same proof as a refusal
            return cached if self._current_version(code) == cached.version else None
        try:
            with write(self.engine) as conn:
                now = datetime.now(UTC)
                if not repo.bump_version(conn, cached.id, cached.version, now):
                    raise _Retry
                after = persist(conn, cached, replace(after, at=now))
                self.notifier.in_transaction(conn, code, after.version)
        except (_Retry, IntegrityError):
            return None
        return self._published(after)

    def _current_version(self, code: str) -> int | None:
        with read(self.engine) as conn:
            room = repo.room_by_code(conn, code)
        return room.version if room is not None else None

    def _published(self, after: RoomSnap) -> RoomSnap:
        self.cache.put(after)
        self.notifier.after_commit(after.code, after.version)
        return after


class _Retry(Exception):
    pass
