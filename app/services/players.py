"""Players (API.md § Fourth round, *Players*): a profile made in one step, the devices it is
signed in on (one key each), one-time sign-in links, and the seats a profile holds.

A player key is checked at every request that carries one: it is looked up by its hash and
kept, so that a table's requests do not each ask the database. What a key acts as (the profile,
the device, the seat key) is kept while the key lives (``acting``: a move, an event of an open
stream; re-read every ``SEEN_EVERY``, which writes the device's "last seen"); the profile's
other fields (its name, its language) only a moment (``KEPT_S``: ``known``, for pages). A device
signed out or a profile deleted is forgotten at once, in this process and, through the
notifier (PostgreSQL's NOTIFY), in the others, and the key's open streams end with it; when
the notifier lost its channel (a reconnection), every process forgets every key it kept."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import ParamSpec, TypeVar

from sqlalchemy import Connection, Engine
from sqlalchemy.exc import IntegrityError

from app.i18n import LANGUAGES
from app.players import keys
from app.players.handles import folded_handle
from app.players.reasons import (
    CODE_GONE,
    HANDLE_SHAPE,
    HANDLE_TAKEN,
    LANGUAGE_UNKNOWN,
    NO_DEVICE,
)
from app.players.state import DeviceRow, ProfileRow
from app.services import career, errors
from app.services.identity import seat_of_mark, token_hash
from app.services.names import clean_name, device_label
from app.services.quotas import Quotas
from app.services.rooms import Rooms
from app.services.snapshot import SeatPlayer
from app.store import passkey_repo, push_repo, social_repo
from app.store import player_repo as repo
from app.store.db import read, write

P = ParamSpec("P")
T = TypeVar("T")

SIGNIN_CODE_S = 10 * 60  # a sign-in link lives ten minutes, and is used once
EXPORT_FORMAT = "allfours-player-export/1"
KEPT_S = 2.0  # how long a key's profile (its name, its language) is kept without a read
SEEN_EVERY = timedelta(minutes=5)  # how often a device's "last seen" is written
# How long a key's identity (the profile's id, the device, the seat key: none changes while
# the key lives) is served from memory: a sign-out or a deletion forgets it sooner, at once,
# in every process; this bound is the "last seen" write's, and a backstop.
HELD_S = SEEN_EVERY.total_seconds()
KNOWN_MAX = 65536  # keys kept at most in a process (all forgotten past it: re-read, not lost)


@dataclass(frozen=True, slots=True)
class SignedIn:
    """A request's player: the profile, and the device (its key) it came from."""

    player: ProfileRow
    device: int
    key_hash: str
    seat_key: bytes  # keys.seat_key: the profile's secret keyed with the server secret

    def seat_token(self, room_code: str) -> str:
        """The player's seat token at a room: every device of theirs acts for the seat."""
        return keys.seat_token(self.seat_key, room_code)

    @property
    def seat_player(self) -> SeatPlayer:
        return SeatPlayer(self.player.id, self.player.handle)


@dataclass(frozen=True, slots=True)
class NewKey:
    """A device just signed in: its profile and its key (given once, never again)."""

    player: ProfileRow
    key: str


class Players:
    """The profiles of this server, on the rooms' database."""

    def __init__(
        self, engine: Engine, rooms: Rooms, server_key: bytes, quotas: Quotas | None = None
    ) -> None:
        self.engine = engine
        self.rooms = rooms
        self._server_key = server_key  # app/store/server_key.py: never in the database
        self.quotas = quotas or Quotas()
        self._known: dict[str, tuple[float, SignedIn | None]] = {}
        self._lock = threading.Lock()
        self._epoch = 0  # raised by every forget: a read that overlapped one is not kept

    async def run(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
        """A use case from the event loop, in a worker thread."""
        return await asyncio.to_thread(fn, *args, **kwargs)

    # -- who is asking -----------------------------------------------------------------

    def signed_in(self, key: str | None) -> SignedIn | None:
        """The player a key signs in (None: not a key, or not one of a living profile), read
        from the database (and kept: see ``known``, ``acting``)."""
        if not keys.is_key(key):
            return None
        assert key is not None
        digest = keys.hashed(key)
        now = time.monotonic()
        with self._lock:
            epoch = self._epoch
        with read(self.engine) as conn:
            found = repo.player_by_key(conn, digest)
        me = self.signed_in_as(found[0], found[1], digest) if found else None
        if found is not None and datetime.now(UTC) - found[2] > SEEN_EVERY:
            with write(self.engine) as conn:  # the devices list's "last seen", roughly
                repo.touch_key(conn, found[1], datetime.now(UTC))
        with self._lock:
            # A key forgotten while it was read (signed out in another process: the read may
            # have begun before that commit) is not kept: it would outlive its sign-out.
            if self._epoch == epoch:
                if len(self._known) >= KNOWN_MAX:
                    self._known.clear()
                self._known[digest] = (now, me)
        return me

    def signed_in_as(self, player: ProfileRow, device: int, key_hash: str) -> SignedIn:
        return SignedIn(player, device, key_hash, self.seat_key(player))

    def seat_key(self, player: ProfileRow) -> bytes:
        assert player.secret is not None  # a living profile's
        return keys.seat_key(self._server_key, player.secret)

    def seat_token(self, player: ProfileRow, room_code: str) -> str:
        """The player's seat token at ``room_code`` (the one derivation: SignedIn's is it)."""
        return keys.seat_token(self.seat_key(player), room_code)

    async def known(self, key: str | None) -> SignedIn | None:
        """``signed_in`` from the event loop (a request that shows the profile): from what was
        checked in the last moment, else from the database in a worker thread."""
        return await self._checked(key, KEPT_S)

    async def acting(self, key: str | None) -> SignedIn | None:
        """Who a key acts as, for a move or an open stream's next event: from memory while the
        key lives (a sign-out or a deletion forgets it at once, in every process), else from
        the database in a worker thread. Its profile's name and language may be a few minutes
        old: its id, its device and its seat key are the key's for life."""
        return await self._checked(key, HELD_S)

    async def seat_token_of(self, key: str | None, room_code: str) -> str | None:
        """The seat token a key's player holds at ``room_code`` (None: not a living key)."""
        me = await self.acting(key)
        return None if me is None else me.seat_token(room_code)

    async def _checked(self, key: str | None, fresh_s: float) -> SignedIn | None:
        if not keys.is_key(key):
            return None
        assert key is not None
        fresh, kept = self._kept(keys.hashed(key), time.monotonic(), fresh_s)
        if fresh:
            return kept
        return await self.run(self.signed_in, key)

    def _kept(self, digest: str, now: float, fresh_s: float) -> tuple[bool, SignedIn | None]:
        """Whether the key was checked in the last ``fresh_s`` (a key that signed nobody in:
        only ``KEPT_S``), and what it signed in then."""
        with self._lock:
            kept = self._known.get(digest)
        if kept is None:
            return False, None
        age = now - kept[0]
        if age < KEPT_S or (kept[1] is not None and age < fresh_s):
            return True, kept[1]
        return False, None

    def forget(self, digests: Iterable[str]) -> None:
        """Keys signed out (here, or in another process: the hub tells): never kept."""
        with self._lock:
            self._epoch += 1
            for digest in digests:
                self._known.pop(digest, None)

    def forget_all(self) -> None:
        """The notifier lost its channel a while (the hub resyncs): a key signed out in
        another process meanwhile went unheard, so every key is checked again."""
        with self._lock:
            self._epoch += 1
            self._known.clear()

    # -- a profile ---------------------------------------------------------------------

    def create(
        self,
        *,
        address: str,
        handle: str,
        name: str,
        language: str | None = None,
        device: str = "",
        claim: Iterable[str] = (),
    ) -> NewKey:
        """A profile in one step, signed in on this device; the seats the ``claim``ed seat
        tokens hold become the player's, with the games already played in them. Every way
        in (the JSON route, the forms) comes here: ``address``, the client's, is counted
        against the profiles' quota (one refused for its handle's shape or its name is not;
        one refused as taken is, so that handles are not tried in bulk)."""
        folded = folded_handle(handle)
        if folded is None:
            raise errors.Invalid(HANDLE_SHAPE, handle=handle[:40])
        name = clean_name(name)
        if language is not None and language not in LANGUAGES:
            raise errors.Invalid(LANGUAGE_UNKNOWN, language=language[:16])
        self.quotas.profiles.take(address)
        try:
            with write(self.engine) as conn:
                player_id = repo.insert_player(
                    conn, handle=folded, name=name, language=language, secret=keys.new_secret()
                )
                key = _new_key(conn, player_id, device)
                player = repo.player_by_id(conn, player_id)
        except IntegrityError:
            raise errors.HandleTaken(HANDLE_TAKEN, handle=folded) from None
        assert player is not None
        self.claim(player, claim)
        return NewKey(player, key)

    def change(
        self,
        me: SignedIn,
        *,
        name: str | None = None,
        language: str | None = None,
        listed: bool | None = None,
    ) -> ProfileRow:
        values: dict[str, object] = {}
        if name is not None:
            values["name"] = clean_name(name)
        if language is not None:
            if language not in LANGUAGES:
                raise errors.Invalid(LANGUAGE_UNKNOWN, language=language[:16])
            values["language"] = language
        if listed is not None:
            values["listed"] = listed
        with write(self.engine) as conn:
            if values:
                repo.update_player(conn, me.player.id, **values)
            player = repo.player_by_id(conn, me.player.id)
        assert player is not None
        self.forget([me.key_hash])
        return player

    def delete(self, me: SignedIn) -> None:
        """Erase the caller's profile: devices, passkeys, links go at once; the seats it
        holds become guests' seats nobody holds (the tables play on with the away cover)."""
        with write(self.engine) as conn:
            gone = repo.wipe_player(conn, me.player.id, datetime.now(UTC))
            social_repo.forget_ties(conn, me.player.id)  # friends, blocks, invitations
            rooms = repo.rooms_of_player(conn, me.player.id)
            self.rooms.notifier.keys_ended_in_transaction(conn, gone)
        self._keys_ended(gone)
        for code in rooms:
            with contextlib.suppress(errors.ApiError):  # the room went meanwhile
                self.rooms.forget_player(code=code, player=me.player.id)

    def export(self, me: SignedIn) -> dict[str, object]:
        """Everything the server keeps about the player (API.md ``GET /api/me/export``): the
        profile and its rating, its devices, passkeys and push subscriptions, the seats it
        holds, its career (the figures of every game counted). Never a key, a secret or a
        code."""
        with read(self.engine) as conn:
            player = repo.player_by_id(conn, me.player.id)
            devices = repo.devices_of(conn, me.player.id)
            seats = repo.seats_of_player(conn, me.player.id)
            ties = social_repo.ties_export(conn, me.player.id)
            passkeys = [
                {
                    "id": k.id,
                    "name": k.name,
                    "created_at": k.created_at.isoformat(),
                    "last_used": k.used_at.isoformat() if k.used_at else None,
                }
                for k in passkey_repo.passkeys_of(conn, me.player.id)
            ]
            push = [
                {"endpoint": p.endpoint, "events": list(p.events)}
                for p in push_repo.subscriptions_of(conn, me.player.id)
            ]
        assert player is not None
        counted = career.export(self.engine, me.player.id)
        return {
            "format": EXPORT_FORMAT,
            "profile": {
                "handle": player.handle,
                "name": player.name,
                "language": player.language,
                "listed": player.listed,
                "created_at": player.created_at.isoformat(),
                "rating": counted["rating"],
            },
            "devices": [
                {
                    "id": d.id,
                    "name": d.device,
                    "first_seen": d.created_at.isoformat(),
                    "last_seen": d.seen_at.isoformat(),
                }
                for d in devices
            ],
            "seats": [{"room": code, "seat": seat} for code, seat in seats],
            "passkeys": passkeys,
            "push_subscriptions": push,
            **ties,  # friend requests both ways, blocks, invitations (issue #36)
            "stats": counted["stats"],
            "games": counted["games"],
        }

    def seats_held(self, me: SignedIn) -> list[tuple[str, int]]:
        """(room code, seat) of the seats the player holds, the latest tables first."""
        with read(self.engine) as conn:
            return repo.seats_of_player(conn, me.player.id)

    # -- devices -----------------------------------------------------------------------

    def devices(self, me: SignedIn) -> list[DeviceRow]:
        with read(self.engine) as conn:
            return repo.devices_of(conn, me.player.id)

    def rename_device(self, me: SignedIn, device: int, name: str) -> None:
        """A device named as its player tells them apart ("Ria's phone"): two phones of one
        kind both read "Chrome · Android" from their browsers."""
        label = device_label(name)
        with write(self.engine) as conn:
            if not repo.rename_device(conn, me.player.id, device, label):
                raise errors.NotFound(NO_DEVICE, id=device)

    def sign_out(self, me: SignedIn, device: int) -> None:
        """End a device's key at once (the caller's own too, when it names itself)."""
        with write(self.engine) as conn:
            digest = repo.delete_device(conn, me.player.id, device)
            if digest is not None:
                self.rooms.notifier.keys_ended_in_transaction(conn, [digest])
        if digest is None:
            raise errors.NotFound(NO_DEVICE, id=device)
        self._keys_ended([digest])

    def _keys_ended(self, digests: list[str]) -> None:
        """Keys signed out, committed: forgotten here at once, and their open streams end,
        in this process now and in the others by the notifier (API.md, "Sessions end")."""
        self.forget(digests)
        self.rooms.notifier.keys_ended_after_commit(digests)

    def signin_link(self, me: SignedIn) -> tuple[str, int]:
        """A one-time code that signs another device in, and how many seconds it lives."""
        code, now = keys.new_signin_code(), datetime.now(UTC)
        with write(self.engine) as conn:
            repo.forget_old_codes(conn, now - timedelta(days=1))
            repo.insert_code(
                conn,
                player_id=me.player.id,
                code_hash=keys.hashed(code),
                expires_at=now + timedelta(seconds=SIGNIN_CODE_S),
            )
        return code, SIGNIN_CODE_S

    def signin_profile(self, code: str) -> ProfileRow:
        """The profile a sign-in code would sign in (named on the page before it is used);
        410 once it is used or expired."""
        with read(self.engine) as conn:
            player_id = repo.code_player(conn, keys.hashed(code), datetime.now(UTC))
            player = repo.player_by_id(conn, player_id) if player_id is not None else None
        if player is None or player.deleted:
            raise errors.Gone(CODE_GONE)
        return player

    def signin(self, code: str, *, device: str = "") -> NewKey:
        """A new key for this device, from a sign-in code used once within its ten minutes.
        It signs in, nothing more: the guest seats the device holds stay the guest's (a link
        may be another's, sent as "join my table": issue #43); seats are claimed only when a
        browser makes a profile."""
        with write(self.engine) as conn:
            player_id = repo.use_code(conn, keys.hashed(code), datetime.now(UTC))
            player = repo.player_by_id(conn, player_id) if player_id is not None else None
            if player is None or player.deleted:
                raise errors.Gone(CODE_GONE)
            key = _new_key(conn, player.id, device)
        return NewKey(player, key)

    def new_key(self, player: ProfileRow, *, device: str = "") -> NewKey:
        """A key for a device that proved it is the player's another way (a passkey)."""
        with write(self.engine) as conn:
            key = _new_key(conn, player.id, device)
        return NewKey(player, key)

    # -- seats -------------------------------------------------------------------------

    def claim(self, player: ProfileRow, tokens: Iterable[str]) -> list[str]:
        """The seats the guest tokens hold become the player's; the rooms they are at."""
        claimed = []
        for token in dict.fromkeys(t for t in tokens if t and not keys.is_key(t)):
            with read(self.engine) as conn:
                code = repo.room_of_seat_token(conn, token_hash(token))
            if code is not None and self._claim(player, code, token=token):
                claimed.append(code)
        return claimed

    def claim_marks(self, player: ProfileRow, marks: Iterable[tuple[str, str]]) -> list[str]:
        """The seats a browser holds by the home page's marks (its tables cookie: each room's
        code and its seat's mark, never the token) become the player's; the rooms they are
        at. A mark no seat answers to any more (freed, taken over) claims nothing."""
        claimed = []
        for code, mark in dict.fromkeys(marks):
            try:
                seat = seat_of_mark(self.rooms.snapshot(code), mark)
            except errors.ApiError:
                continue  # the room went
            if seat is not None and self._claim(player, code, token=None, seat=seat, mark=mark):
                claimed.append(code)
        return claimed

    def _claim(
        self,
        player: ProfileRow,
        code: str,
        *,
        token: str | None,
        seat: int | None = None,
        mark: str = "",
    ) -> bool:
        """One guest seat (its token, or its seat and mark) made the player's."""
        try:
            self.rooms.claim_seat(
                code=code,
                player=SeatPlayer(player.id, player.handle),
                name=player.name,
                fresh=self.seat_token(player, code),
                token=token,
                seat=seat,
                mark=mark,
            )
        except errors.ApiError:
            return False  # the room went, or the name is not one a seat takes
        return True


def _new_key(conn: Connection, player_id: int, device: str) -> str:
    key = keys.new_key()
    now = datetime.now(UTC)
    repo.insert_key(conn, player_id=player_id, key_hash=keys.hashed(key), device=device, at=now)
    return key
