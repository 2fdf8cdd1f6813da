"""The use cases: create a room, join, seat a bot, start, act, rematch, view, hand records,
and the one write path under them.

A use case turns its request into a command (app/services/decide.py decides what it does to
a room) and commits it through the one versioned commit (app/services/commit.py, which
nights use too; ``_RoomBook`` is a room's side of it): the decision runs on the cached
latest snapshot and is committed if
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

from sqlalchemy import Connection, Engine
from sqlalchemy.exc import IntegrityError

from app import logs, metrics
from app.bots import DEFAULT_LEVEL, LEVELS
from app.live.notifier import Notifier
from app.reasons import N_, reason
from app.rules import Action, Rules, observe
from app.rules.board import RENEGE_MODES
from app.rules.shuffle import SEED_BITS
from app.rules.state import Call
from app.services import errors
from app.services.commit import Committer, LostRace, drew_code
from app.services.decide import (
    BANNED,
    BLOCKED,
    Act,
    Banished,
    ClaimSeat,
    Command,
    ForgetPlayer,
    HostBot,
    HostFree,
    HostMove,
    OutOfTurn,
    Rematch,
    SeatComputer,
    Start,
    TakeSeat,
    claim_of,
    decide,
    judged_call,
)
from app.services.herald import Herald, Silent
from app.services.identity import check_code, new_token, seat_of, token_hash
from app.services.names import clean_name
from app.services.options import DEFAULT_OPTIONS, RoomOptions
from app.services.persist import persist
from app.services.snapshot import ReplayOf, RoomSnap, SeatPlayer, SnapCache, load
from app.services.warden import CLEAR, Lenient, PlaceStanding, Warden
from app.store import repo
from app.store.db import WriterBusy, inline_writes, on_loop, read, write
from app.views.records import HandRecordView, hand_records

BOARD_TABLES_KEPT = 65536  # rooms whose kind is kept known (all forgotten past it: read again)
HAND_NOT_OVER = reason(
    "hand_not_over",
    "hand {hand} is not over (or does not exist) in this game",
    N_("That hand is not over yet."),
)
NO_FREE_CODE = reason(
    "no_free_code", "could not draw a free room code", N_("No table could be opened: try again.")
)
BOARD_RENEGE = reason(
    "board_renege",
    "a table of boards plays renege off or one (R31)",
    N_("Boards are played with renege off or one."),
)
UNKNOWN_LEVEL = reason(
    "unknown_level",
    "level must be one of {levels}",
    N_("That did not work: check what you entered."),
)


def known_level(level: str | None) -> str:
    """A computer player's level, the default when none is given; refused when unknown."""
    level = level or DEFAULT_LEVEL
    if level not in LEVELS:
        raise errors.Invalid(UNKNOWN_LEVEL, levels=", ".join(LEVELS))
    return level


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
class JoinedSeat:
    seat: int
    token: str
    snap: RoomSnap
    # A computer player's seat taken while a hand is in play: the caller holds it from the
    # next deal, and watches until then.
    pending: bool = False


class Rooms:
    """The rooms of this server, on one database."""

    def __init__(
        self,
        engine: Engine,
        notifier: Notifier,
        cache: SnapCache | None = None,
        herald: Herald | None = None,
        warden: Warden | None = None,
    ):
        self.engine = engine
        # Who hears of a game dealt or a player nudged, away from the table (Web Push).
        self.herald: Herald = herald or Silent()
        # Who may sit where: the bans and blocks, asked where a seat is asked for.
        self.warden: Warden = warden or Lenient()
        self.notifier = notifier
        self.cache = cache or SnapCache()
        # Whether a room deals boards (RoomOptions.boards: set at its opening, never changed),
        # as its snapshots said: the doors that read a room ask it first (R33).
        self._boards: dict[str, bool] = {}
        self._inline = inline_writes(engine)
        self._committer = Committer(engine, notifier)

    async def write(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
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
        if len(self._boards) >= BOARD_TABLES_KEPT:
            self._boards.clear()
        self._boards[code] = bool(snap.options.boards)
        return snap

    def deals_boards(self, code: str) -> bool | None:
        """Whether the room deals boards (a duplicate table), None until a snapshot of it
        was read here."""
        return self._boards.get(code)

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
        listed: bool | None = None,
        by: int | None = None,
    ) -> RoomSnap:
        """A new room; with ``replay_of``, one that deals that game again (its seed and first
        dealer); ``listed`` False: a public table listed later (``list_public``). ``by``: the
        profile opening it (a banned one opens no public table: 403 banned)."""
        if options.public and by is not None and self.warden.standing(by).banned:
            raise errors.Forbidden(BANNED)
        if options.boards and rules.renege not in RENEGE_MODES:
            raise errors.Invalid(BOARD_RENEGE)

        def insert(conn: Connection, code: str) -> RoomSnap:
            room_id = repo.insert_room(
                conn,
                code=code,
                rules=rules.model_dump(mode="json"),
                seed=seed,
                first_dealer=first_dealer,
                replay_of=(replay_of.code, replay_of.number) if replay_of else None,
                options=options.model_dump() if options != DEFAULT_OPTIONS else None,
                listed=listed,
            )
            return RoomSnap(
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

        snap = drew_code(self.engine, insert, busy=NO_FREE_CODE)
        self.cache.put(snap)
        return snap

    def join(
        self,
        *,
        code: str,
        name: str,
        seat: int | None,
        token: str | None,
        reserved: bool = False,
        own_seat: bool = False,
        player: SeatPlayer | None = None,
        standing: PlaceStanding | None = None,
    ) -> JoinedSeat:
        """A human takes a seat; a caller already seated here gets its own seat back. With
        ``reserved`` (a club night's player link), ``token`` is the seat's token to be, and
        the seat may be one of a night's reserved seats; with ``own_seat`` too (the night's
        player of that seat), a person substituting in it gives it back (at the game's end).
        With ``player``, ``token`` is the player's seat token here (app/players/keys.py) and
        the seat is held under the profile, as the place's rules let it (its ``standing``,
        asked of the warden unless the caller has it already)."""
        fresh = token if (reserved or player) and token else new_token()
        if standing is None:
            standing = self.warden.standing(player.id) if player is not None else CLEAR
        command = TakeSeat(
            token,
            clean_name(name),
            seat,
            token_hash(fresh),
            reserved,
            own_seat,
            player,
            standing.shuns,
            standing.banned,
        )
        snap = self._commit(code, command)
        mine = seat_of(snap, token)
        if mine is not None and token is not None:
            return JoinedSeat(mine, token, snap)
        claimed = claim_of(snap, token)
        if claimed is not None and token is not None:
            return JoinedSeat(claimed, token, snap, pending=True)
        joined = seat_of(snap, fresh)
        if joined is not None:
            return JoinedSeat(joined, fresh, snap)
        claimed = claim_of(snap, fresh)
        assert claimed is not None  # decide gave the fresh token a seat, or a claim on one
        return JoinedSeat(claimed, fresh, snap, pending=True)

    def claim_seat(
        self,
        *,
        code: str,
        token: str | None,
        player: SeatPlayer,
        name: str,
        fresh: str,
        seat: int | None = None,
        mark: str = "",
    ) -> RoomSnap:
        """The seat ``token`` holds here becomes ``player``'s (``fresh``: their seat token);
        with no token, the ``seat`` whose token the home page's ``mark`` was made from. A
        claim is a way to a seat: the place's rules hold (403 banned, 409 blocked)."""
        standing = self.warden.standing(player.id)
        command = ClaimSeat(
            token,
            player,
            name,
            token_hash(fresh),
            seat=seat,
            mark=mark,
            shuns=standing.shuns,
            banned=standing.banned,
        )
        return self._commit(code, command)

    def forget_player(self, *, code: str, player: int) -> RoomSnap:
        """A deleted profile's seat here is held by nobody from now on."""
        return self._commit(code, ForgetPlayer(player, token_hash(new_token())))

    def banish(self, *, code: str, player: int) -> RoomSnap:
        """A banned player's seats here go to computer players (a public table's)."""
        return self._commit(code, Banished(player, DEFAULT_LEVEL))

    def seat_bot(
        self,
        *,
        code: str,
        token: str | None,
        seat: int,
        level: str | None,
        admin: bool = False,
        stands_in: str | None = None,
    ) -> RoomSnap:
        return self._commit(code, SeatComputer(token, seat, known_level(level), admin, stands_in))

    def start(self, *, code: str, token: str | None, admin: bool = False) -> RoomSnap:
        done = self._commit(code, Start(token, secrets.randbits(SEED_BITS), admin))
        self.herald.game_started(done, rematch=False)
        return done

    def rematch(self, *, code: str, token: str | None, admin: bool = False) -> RoomSnap:
        if not admin:
            self._apart(code)
        done = self._commit(code, Rematch(token, secrets.randbits(SEED_BITS), admin))
        self.herald.game_started(done, rematch=True)
        return done

    def _apart(self, code: str) -> None:
        """Two players at this table, one of whom blocked the other since they sat down
        (or a player banned since, at a public table): their game finishes, and no new one
        seats them again (409 blocked, 403 banned)."""
        snap = self.cache.get(code) or self.snapshot(code)
        ids = {s.player.id for s in snap.seats if s is not None and s.player is not None}
        if snap.options.public and self.warden.banned_among(ids):
            raise errors.Forbidden(BANNED)
        if self.warden.apart(ids):
            raise errors.Conflict(BLOCKED)

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
            metrics.count_move()
        return done

    # -- renege mode (R22-R23) ---------------------------------------------------------------

    def call_renege(self, *, code: str, token: str | None, lift: int) -> tuple[RoomSnap, Call]:
        """A seated person calls renege on ``lift``: the room after, and the judgement."""
        done = self._commit(code, OutOfTurn(token, "call", lift))
        return done, judged_call(done)

    def reckoned(self, *, code: str, token: str | None) -> RoomSnap:
        """A seated person says "score it"."""
        return self._commit(code, OutOfTurn(token, "reckoned"))

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
        command = OutOfTurn(None, type, lift, seat, auto=True)
        return self._commit(code, command, expected=expected)

    # -- the host's powers -------------------------------------------------------------------

    def host_bot(
        self, *, code: str, token: str | None, seat: int, level: str | None, away: bool
    ) -> RoomSnap:
        return self._commit(code, HostBot(token, seat, known_level(level), away))

    def host_free(self, *, code: str, token: str | None, seat: int) -> RoomSnap:
        return self._commit(code, HostFree(token, seat))

    def host_move(self, *, code: str, token: str | None, seat: int, to: int) -> RoomSnap:
        return self._commit(code, HostMove(token, seat, to))

    # -- the one write path ----------------------------------------------------------------

    def _commit(self, code: str, command: Command, *, expected: int | None = None) -> RoomSnap:
        """The room after ``command``, committed (or unchanged, when it changes nothing)."""
        check_code(code)
        book = _RoomBook(self, code, command, expected)
        done = self._commit_from_cache(book)
        if done is not None:
            return done
        return self._committer.commit(book, busy=errors.ROOM_BUSY)

    def _commit_from_cache(self, book: _RoomBook) -> RoomSnap | None:
        """The fast path: apply the change to the cached latest snapshot and commit it if the
        room is still at that version (the conditional UPDATE decides). A refusal stands once
        a plain read shows the room still at the cached version: it takes no write
        transaction (on SQLite, not the writer lock). None = take the slow path, which reads
        the room first: no cache, or a stale cache (another process moved first)."""
        code, expected = book.code, book.expected
        cached = self.cache.get(code)
        if cached is None or (expected is not None and expected != cached.version):
            return None
        try:
            after = decide(cached, book.command)
        except errors.ApiError:
            if self._current_version(code) == cached.version:
                raise
            return None
        if after is None:  # nothing to change (a seat rejoined): the same proof as a refusal
            return cached if self._current_version(code) == cached.version else None
        try:
            with write(self.engine) as conn:
                now = datetime.now(UTC)
                done = self._committer.written(conn, _FastBook(book), cached, after, now)
        except (LostRace, IntegrityError):
            return None
        return self._committer.announced(book, done)

    def _current_version(self, code: str) -> int | None:
        with read(self.engine) as conn:
            room = repo.room_by_code(conn, code)
        return room.version if room is not None else None


class _RoomBook:
    """A room's side of the versioned commit (app/services/commit.py)."""

    def __init__(self, rooms: Rooms, code: str, command: Command, expected: int | None) -> None:
        self.rooms = rooms
        self.code = code
        self.channel = code
        self.command = command
        self.expected = expected
        self._read: RoomSnap | None = None

    def read(self, conn: Connection) -> RoomSnap:
        room = repo.room_by_code(conn, self.code)
        if room is None:
            raise errors.NotFound(errors.NO_ROOM, code=self.code)
        if self.expected is not None and self.expected != room.version:
            raise errors.StaleVersion(STALE_VERSION, expected=self.expected, current=room.version)
        snap = self.rooms.cache.get(self.code, room.version)
        if snap is None:
            snap = load(conn, room)
        self._read = snap
        return snap

    def decide(self, snap: RoomSnap, now: datetime) -> RoomSnap | None:
        return decide(snap, self.command)

    def bump(self, conn: Connection, snap: RoomSnap, now: datetime) -> bool:
        if repo.bump_version(conn, snap.id, snap.version, now):
            return True
        if self.expected is not None:
            raise errors.StaleVersion(VERSION_OVERTAKEN, expected=self.expected)
        return False

    def persist(
        self, conn: Connection, snap: RoomSnap, change: RoomSnap, now: datetime
    ) -> RoomSnap:
        return persist(conn, snap, replace(change, at=now))

    def version(self, done: RoomSnap) -> int:
        return done.version

    def unchanged(self, snap: RoomSnap) -> RoomSnap:
        return snap

    def published(self, done: RoomSnap) -> None:
        if self._read is not None:
            self.rooms.cache.put(self._read)
        self.rooms.cache.put(done)

    def taken(self) -> None:
        """Another process wrote first (PostgreSQL, two app processes)."""
        if self.expected is not None:
            raise errors.StaleVersion(CHANGED_FIRST)


class _FastBook(_RoomBook):
    """The fast path's: a version lost to another writer sends it to the slow path."""

    def __init__(self, book: _RoomBook) -> None:
        super().__init__(book.rooms, book.code, book.command, None)
