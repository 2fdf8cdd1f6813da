"""The use cases: create a room, join, seat a bot, start, act, rematch, view, hand records.

Each write checks the change against the room at its latest version, takes the version with
the conditional ``UPDATE rooms SET version = v + 1 WHERE version = v`` (the first statement
that writes, so racing writers serialise there), appends what changed, notifies inside the
transaction, commits, then publishes. The room comes from the snapshot cache when that
UPDATE proves it current, else from the database. Every method is synchronous; the routes
run them through ``call``: on the event loop's thread on SQLite when the writer lock is
free (a move is then one short local transaction), else in a worker thread.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, ParamSpec, TypeVar

from sqlalchemy import Connection, Engine
from sqlalchemy.exc import IntegrityError, OperationalError

from app import logs
from app.bots import DEFAULT_LEVEL, LEVELS
from app.live.notifier import Notifier
from app.rules import (
    Action,
    IllegalMove,
    NotOffered,
    Rules,
    apply,
    hand_record_json,
    new_game,
)
from app.rules.cards import code as card_code
from app.rules.engine import first_dealer_for
from app.services import errors
from app.services.names import clean_name
from app.services.snapshot import GameInfo, RoomSnap, SeatInfo, SnapCache, load
from app.store import repo
from app.store.db import WriterBusy, inline_writes, on_loop, read, write

CODE_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i: read aloud, typed by hand
CODE_LENGTH = 12  # ~59 bits: unguessable
SEED_LIMIT = 2**63 - 1
RETRIES = 8

Json = dict[str, Any]
P = ParamSpec("P")
T = TypeVar("T")


def new_token() -> str:
    return secrets.token_urlsafe(32)  # 256 random bits


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_room_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


_CODE_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")


def check_code(code: str) -> None:
    """Codes are short and plain; anything else is no room (and never reaches the database:
    PostgreSQL refuses a NUL in a string with an error)."""
    if not 1 <= len(code) <= 32 or not _CODE_CHARS.issuperset(code):
        raise errors.NotFound(f"no room {code[:40]!r}")


def seat_of(snap: RoomSnap, token: str | None) -> int | None:
    """The caller's seat, comparing token hashes in constant time; None = spectator."""
    if not token:
        return None
    digest = token_hash(token)
    found = None
    for info in snap.seats:
        hashed = info.token_hash if info is not None else None
        if hashed is not None and hmac.compare_digest(hashed, digest):
            found = info.seat if info is not None else None
    return found


@dataclass(frozen=True, slots=True)
class Joined:
    seat: int
    token: str
    snap: RoomSnap


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
                raise errors.NotFound(f"no room {code!r}")
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

    def hand_record(self, code: str, n: int, token: str | None) -> Json:
        snap = self.snapshot(code)
        game = snap.game
        if game is None or not 1 <= n <= len(game.state.history):
            raise errors.NotFound(f"hand {n} is not over (or does not exist) in this game")
        record = game.state.history[n - 1]
        return hand_record_json(
            record, seat_of(snap, token), game_over=game.state.winner is not None
        )

    # -- writing ---------------------------------------------------------------------------

    def create_room(self, *, rules: Rules, seed: int | None) -> RoomSnap:
        for _ in range(RETRIES):
            code = new_room_code()
            try:
                with write(self.engine) as conn:
                    room_id = repo.insert_room(
                        conn, code=code, rules=rules.model_dump(mode="json"), seed=seed
                    )
            except IntegrityError:
                continue  # a code collision: draw again
            snap = RoomSnap(room_id, code, 0, rules, seed, (None, None, None, None), None)
            self.cache.put(snap)
            return snap
        raise errors.Conflict("could not draw a free room code")

    def join(self, *, code: str, name: str, seat: int | None, token: str | None) -> Joined:
        """A human takes a seat; a caller already seated here gets its own seat back."""
        name = clean_name(name)
        fresh = new_token()
        digest = token_hash(fresh)
        result: dict[str, Any] = {}

        def change(snap: RoomSnap) -> RoomSnap | None:
            mine = seat_of(snap, token)
            if mine is not None:
                result["seat"], result["token"] = mine, token
                return None  # rejoining: nothing changes
            free = [i for i, s in enumerate(snap.seats) if s is None]
            if seat is None:
                if not free:
                    raise errors.SeatTaken("the table is full")
                chosen = free[0]
            elif snap.seats[seat] is not None:
                raise errors.SeatTaken(f"seat {seat} is taken")
            else:
                chosen = seat
            result["seat"], result["token"] = chosen, fresh
            info = SeatInfo(chosen, name, False, None, digest)
            return _with_seat(snap, info)

        snap = self._change(code, change, expected=None)
        return Joined(result["seat"], result["token"], snap)

    def seat_bot(
        self, *, code: str, token: str | None, seat: int, level: str | None, admin: bool = False
    ) -> RoomSnap:
        level = level or DEFAULT_LEVEL
        if level not in LEVELS:
            raise errors.Invalid(f"level must be one of {', '.join(LEVELS)}")

        def change(snap: RoomSnap) -> RoomSnap:
            if not admin:
                self._seated(snap, token)
            if snap.seats[seat] is not None:
                raise errors.SeatTaken(f"seat {seat} is taken")
            name = f"Bot ({level})"
            return _with_seat(snap, SeatInfo(seat, name, True, level, None))

        return self._change(code, change, expected=None)

    def start(self, *, code: str, token: str | None, admin: bool = False) -> RoomSnap:
        def change(snap: RoomSnap) -> RoomSnap:
            if not admin:
                self._seated(snap, token)
            if snap.game is not None:
                raise errors.Conflict("the game has already started")
            if not snap.full:
                raise errors.Conflict("every seat must be filled before the game starts")
            seed = snap.seed if snap.seed is not None else secrets.randbits(63)
            return _with_game(snap, number=1, seed=seed, first_dealer=first_dealer_for(seed))

        return self._change(code, change, expected=None)

    def rematch(self, *, code: str, token: str | None) -> RoomSnap:
        def change(snap: RoomSnap) -> RoomSnap:
            self._seated(snap, token)
            game = snap.game
            if game is None or game.state.winner is None:
                raise errors.Conflict("a rematch needs a finished game")
            number = game.number + 1
            if snap.seed is not None:
                seed = (snap.seed + number - 1) % (SEED_LIMIT + 1)  # reproducible rematches
            else:
                seed = secrets.randbits(63)
            return _with_game(
                snap, number=number, seed=seed, first_dealer=(game.state.dealer + 1) % 4
            )

        return self._change(code, change, expected=None)

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

        def change(snap: RoomSnap) -> RoomSnap:
            actor = seat if seat is not None else self._seated(snap, token)
            game = snap.game
            if game is None:
                raise errors.NotOfferedNow("the game has not started")
            state = game.state
            if state.turn is None:
                raise errors.NotOfferedNow("the game is over")
            if state.turn != actor:
                last = game.last
                if (
                    expected is None
                    and last is not None
                    and last.seat == actor
                    and last.version == snap.version
                    and (last.type, last.card) == _log_key(action)
                ):
                    # The very move just accepted, sent again: a race lost, not a wrong turn.
                    raise errors.StaleVersion("that move was already made")
                raise errors.NotYourTurn(f"it is seat {state.turn}'s turn")
            try:
                after = apply(state, action)
            except NotOffered as err:
                raise errors.NotOfferedNow(str(err)) from None
            except IllegalMove as err:
                raise errors.IllegalMoveError(str(err)) from None
            log = repo.ActionLog(
                seq=game.seq + 1,
                seat=actor,
                type=action.type,
                card=card_code(action.card) if action.card is not None else None,
                version=snap.version + 1,
                auto=auto,
            )
            new_game_info = replace(game, seq=log.seq, last=log, state=after)
            return replace(snap, version=snap.version + 1, game=new_game_info)

        done = self._change(code, change, expected=expected)
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

    # -- the one write path ----------------------------------------------------------------

    def _seated(self, snap: RoomSnap, token: str | None) -> int:
        mine = seat_of(snap, token)
        if mine is None:
            if token:
                raise errors.Unauthorized("this token holds no seat at this table")
            raise errors.Unauthorized("a seat token is needed (Authorization: Bearer <token>)")
        return mine

    def _change(
        self,
        code: str,
        change: Callable[[RoomSnap], RoomSnap | None],
        *,
        expected: int | None,
    ) -> RoomSnap:
        check_code(code)
        done = self._change_from_cache(code, change, expected=expected)
        if done is not None:
            return done
        for _ in range(RETRIES):
            try:
                with write(self.engine) as conn:
                    room = repo.room_by_code(conn, code)
                    if room is None:
                        raise errors.NotFound(f"no room {code!r}")
                    if expected is not None and expected != room.version:
                        raise errors.StaleVersion(
                            f"version {expected} is not current (the room is at {room.version})"
                        )
                    snap = self.cache.get(code, room.version)
                    if snap is None:
                        snap = load(conn, room)
                    after = change(snap)
                    if after is None:
                        return snap
                    if not repo.bump_version(conn, room.id, room.version):
                        if expected is not None:
                            raise errors.StaleVersion(f"version {expected} is not current")
                        raise _Retry
                    after = _persist(conn, snap, after)
                    self.notifier.in_transaction(conn, code, after.version)
            except _Retry:
                continue
            except IntegrityError:
                # Another process wrote first (PostgreSQL, two app processes).
                if expected is not None:
                    raise errors.StaleVersion("another change was made first") from None
                continue
            except OperationalError as err:
                if "locked" in str(err) or "serializ" in str(err) or "deadlock" in str(err):
                    continue
                raise
            self.cache.put(snap)
            return self._published(after)
        raise errors.Conflict("the room is busy: try again")

    def _change_from_cache(
        self,
        code: str,
        change: Callable[[RoomSnap], RoomSnap | None],
        *,
        expected: int | None,
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
            after = change(cached)
        except errors.ApiError:
            if self._current_version(code) == cached.version:
                raise
            return None
        if after is None:  # nothing to change (a seat rejoined): the same proof as a refusal
            return cached if self._current_version(code) == cached.version else None
        try:
            with write(self.engine) as conn:
                if not repo.bump_version(conn, cached.id, cached.version):
                    raise _Retry
                after = _persist(conn, cached, after)
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


def _log_key(action: Action) -> tuple[str, str | None]:
    return action.type, card_code(action.card) if action.card is not None else None


def _with_seat(snap: RoomSnap, info: SeatInfo) -> RoomSnap:
    seats = list(snap.seats)
    seats[info.seat] = info
    return replace(snap, version=snap.version + 1, seats=(seats[0], seats[1], seats[2], seats[3]))


def _with_game(snap: RoomSnap, *, number: int, seed: int, first_dealer: int) -> RoomSnap:
    version = snap.version + 1
    state = new_game(snap.rules, seed, first_dealer)
    game = GameInfo(
        id=0,  # assigned by the insert
        number=number,
        seed=seed,
        first_dealer=first_dealer,
        started_version=version,
        seq=0,
        last=None,
        state=state,
    )
    return replace(snap, version=version, game=game)


def _persist(conn: Connection, before: RoomSnap, after: RoomSnap) -> RoomSnap:
    """Write what ``after`` adds to ``before`` (a seat, a game, or one action)."""
    version = after.version
    for old, new in zip(before.seats, after.seats, strict=True):
        if old is None and new is not None:
            repo.insert_seat(
                conn,
                room_id=after.id,
                seat=new.seat,
                name=new.name,
                bot=new.bot,
                level=new.level,
                token_hash=new.token_hash,
                version=version,
            )
    game = after.game
    if game is None:
        return after
    if before.game is None or game.number != before.game.number:
        game_id = repo.insert_game(
            conn,
            room_id=after.id,
            number=game.number,
            rules=after.rules.model_dump(mode="json"),
            seed=game.seed,
            first_dealer=game.first_dealer,
            version=version,
            turn=game.state.turn,
        )
        return replace(after, game=replace(game, id=game_id))
    if game.last is not None and game.seq != before.game.seq:
        log = game.last
        repo.insert_action(
            conn,
            game_id=game.id,
            seq=log.seq,
            seat=log.seat,
            type=log.type,
            card=log.card,
            version=log.version,
            auto=log.auto,
        )
        repo.set_turn(conn, game.id, game.state.turn)
    return after
