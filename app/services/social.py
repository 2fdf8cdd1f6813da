"""The ties between players (API.md § Fourth round, *Play now, friends, blocks*): friend
requests (the other's same request accepts one), blocks, and who is online at which public
table. A block keeps two players apart everywhere: no seat at one table (``shunned``, checked
where a seat is taken), no requests nor invitations, no chat of the blocked one for the
blocker (``blocked_by``, checked where chat is read)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import Connection, Engine, select

from app.live.presence import Presence
from app.players.handles import folded_handle
from app.players.reasons import NO_PLAYER
from app.reasons import N_, reason
from app.services import errors
from app.services.decide import BLOCKED
from app.services.players import SignedIn
from app.services.quotas import Quotas
from app.store import player_repo, social_repo
from app.store.db import read, write
from app.store.models import Player, PlayerKey, Seat

NOT_YOURSELF = reason("not_yourself", "that is your own profile", N_("That is your own profile."))
SEARCH_SHORT = reason(
    "search_too_short",
    "a search needs {count} to {max} characters",
    N_("Type at least %(count)s letters of a name or handle."),
)
# A search finds a few players by a piece of their name or handle: never a list of everyone.
SEARCH_MIN, SEARCH_MAX, SEARCH_FOUND = 2, 40, 20
# A seat's sign of life this recent (any app process writes it) counts as online; a device
# checked in this recently too (its "last seen" is written every 5 minutes).
SEAT_ONLINE = timedelta(minutes=2)
DEVICE_ONLINE = timedelta(minutes=6)


@dataclass(frozen=True, slots=True)
class FriendShown:
    handle: str
    name: str
    online: bool
    room: str | None  # a public table they sit at


@dataclass(frozen=True, slots=True)
class PlayerFound:
    handle: str
    name: str


@dataclass(frozen=True, slots=True)
class Tie:
    """The reader's tie to one other player (their profile page's buttons)."""

    friend: bool
    asked: bool  # the reader asked, not yet answered
    blocked: bool  # the reader blocked them


@dataclass(frozen=True, slots=True)
class Ties:
    """A player's friends, requests both ways, and blocks, by handle."""

    friends: list[FriendShown]
    asked: list[str]  # requests the player made, not yet answered
    asking: list[str]  # requests made to the player, not yet answered
    blocked: list[str]


class Social:
    """Friends and blocks, on the rooms' database."""

    def __init__(self, engine: Engine, presence: Presence, quotas: Quotas | None = None) -> None:
        self.engine = engine
        self.presence = presence
        self.quotas = quotas or Quotas()

    def other(self, me: SignedIn, handle: str) -> int:
        """The id of the living profile ``handle`` names; never the asker's own."""
        folded = folded_handle(handle)
        with read(self.engine) as conn:
            found = player_repo.player_by_handle(conn, folded) if folded else None
        if found is None or found.secret is None:
            raise errors.NotFound(NO_PLAYER, handle=handle[:40])
        if found.id == me.player.id:
            raise errors.Invalid(NOT_YOURSELF)
        return found.id

    def open_public_rooms(self) -> list[str]:
        with read(self.engine) as conn:
            return social_repo.open_public_rooms(conn)

    async def shuns(self, me: SignedIn | None) -> frozenset[int]:
        """``shunned`` from the event loop (in a worker thread); nobody for a guest."""
        if me is None:
            return frozenset()
        return await asyncio.to_thread(self.shunned, me.player.id)

    def shunned(self, player_id: int) -> frozenset[int]:
        """The players never seated with this one."""
        with read(self.engine) as conn:
            return frozenset(social_repo.shunned(conn, player_id))

    async def hidden(self, me: SignedIn | None) -> frozenset[str]:
        """The handles whose chat ``me`` never sees (those they blocked); none for a guest."""
        if me is None:
            return frozenset()
        return await asyncio.to_thread(self.hidden_handles, me.player.id)

    def hidden_handles(self, player_id: int) -> frozenset[str]:
        with read(self.engine) as conn:
            blocked = social_repo.blocked_by_me(conn, player_id)
            return frozenset(h for h, _ in social_repo.handles_of(conn, blocked).values())

    # -- friends ---------------------------------------------------------------------------

    def befriend(self, me: SignedIn, handle: str) -> bool:
        """A friend request (or the acceptance of theirs); whether the two are friends now.
        Between a blocker and the blocked: 409 blocked."""
        other = self.other(me, handle)
        with write(self.engine) as conn:
            if other in social_repo.shunned(conn, me.player.id):
                raise errors.Conflict(BLOCKED)
            if me.player.id not in social_repo.asked(conn, other):  # a request, not a yes
                self.quotas.friend_requests.take(me.player.handle)
            social_repo.ask_friend(conn, me.player.id, other, datetime.now(UTC))
            return me.player.id in social_repo.asked(conn, other)

    def unfriend(self, me: SignedIn, handle: str) -> None:
        other = self.other(me, handle)
        with write(self.engine) as conn:
            social_repo.unfriend(conn, me.player.id, other)

    def decline(self, me: SignedIn, handle: str) -> bool:
        """Refuse ``handle``'s friend request to ``me``; a friendship stays (ending one is
        ``unfriend``). Whether there was a request to refuse."""
        other = self.other(me, handle)
        with write(self.engine) as conn:
            return social_repo.drop_request(conn, other, me.player.id)

    def withdraw(self, me: SignedIn, handle: str) -> bool:
        """Take back ``me``'s friend request to ``handle``, not yet answered; a friendship
        stays. Whether there was a request to take back."""
        other = self.other(me, handle)
        with write(self.engine) as conn:
            return social_repo.drop_request(conn, me.player.id, other)

    def asking_count(self, player_id: int) -> int:
        """How many friend requests to the player wait for an answer (the home page's badge)."""
        with read(self.engine) as conn:
            asking = social_repo.asked_by(conn, player_id) - social_repo.asked(conn, player_id)
            return len(social_repo.handles_of(conn, asking))

    def search(self, me: SignedIn, text: str) -> list[PlayerFound]:
        """Listed players whose handle or name holds ``text`` (any case), at most
        SEARCH_FOUND: never an unlisted one (API.md § Fifth round, "Privacy"), nor the
        searcher, nor one of a block either way. Counted in the searcher's quota."""
        wanted = " ".join(text.split()).lower()
        if not SEARCH_MIN <= len(wanted) <= SEARCH_MAX:
            raise errors.Invalid(SEARCH_SHORT, count=SEARCH_MIN, max=SEARCH_MAX)
        self.quotas.player_searches.take(me.player.handle)
        mine = me.player.id
        with read(self.engine) as conn:
            leaving_out = social_repo.shunned(conn, mine) | {mine}
            found = social_repo.find_listed(
                conn, wanted, leaving_out=leaving_out, limit=SEARCH_FOUND
            )
        return [PlayerFound(handle, name) for handle, name in found]

    def friend_ids(self, player_id: int) -> set[int]:
        with read(self.engine) as conn:
            return social_repo.asked(conn, player_id) & social_repo.asked_by(conn, player_id)

    def are_friends(self, a: int, b: int) -> bool:
        return b in self.friend_ids(a)

    def tie(self, me: SignedIn, handle: str) -> Tie | None:
        """``me``'s tie to ``handle``; None for their own profile."""
        if handle == me.player.handle:
            return None
        other = self.other(me, handle)
        with read(self.engine) as conn:
            asked = other in social_repo.asked(conn, me.player.id)
            asking = other in social_repo.asked_by(conn, me.player.id)
            blocked = other in social_repo.blocked_by_me(conn, me.player.id)
        return Tie(asked and asking, asked and not asking, blocked)

    def ties(self, me: SignedIn) -> Ties:
        mine = me.player.id
        with read(self.engine) as conn:
            asked = social_repo.asked(conn, mine)
            asking = social_repo.asked_by(conn, mine)
            blocked = social_repo.blocked_by_me(conn, mine)
            names = social_repo.handles_of(conn, asked | asking | blocked)
            friends = asked & asking
            online, rooms = self._whereabouts(conn, friends)
        return Ties(
            friends=sorted(
                (
                    FriendShown(h, n, i in online, rooms.get(i))
                    for i, (h, n) in names.items()
                    if i in friends
                ),
                key=lambda f: f.handle,
            ),
            asked=sorted(names[i][0] for i in asked - asking if i in names),
            asking=sorted(names[i][0] for i in asking - asked if i in names),
            blocked=sorted(names[i][0] for i in blocked if i in names),
        )

    def _whereabouts(self, conn: Connection, ids: set[int]) -> tuple[set[int], dict[int, str]]:
        """Who of ``ids`` is online (a seat or a device of theirs seen lately, or a stream of
        theirs open in this process), and the public table each sits at."""
        if not ids:
            return set(), {}
        now = datetime.now(UTC)
        online: set[int] = set()
        seats_q = (
            select(
                Seat.player_id,
                Seat.seat,
                Seat.seen_at,
                social_repo.rooms.c.code,
                social_repo.rooms.c.public,
            )
            .join(social_repo.rooms, social_repo.rooms.c.id == Seat.room_id)
            .where(Seat.player_id.in_(ids))
            .order_by(social_repo.rooms.c.id.desc())
        )
        public = set(social_repo.open_public_rooms(conn))
        rooms: dict[int, str] = {}
        for player_id, seat, seen_at, code, is_public in conn.execute(seats_q):
            if seen_at is not None and _utc(seen_at) > now - SEAT_ONLINE:
                online.add(player_id)
            if self.presence.connected(code, seat):
                online.add(player_id)
            if is_public and code in public:
                rooms.setdefault(player_id, code)
        devices_q = select(PlayerKey.player_id).where(
            PlayerKey.player_id.in_(ids), PlayerKey.seen_at > now - DEVICE_ONLINE
        )
        online |= set(conn.scalars(devices_q))
        return online, rooms

    # -- blocks ----------------------------------------------------------------------------

    def block(self, me: SignedIn, handle: str) -> None:
        """Block a player: any friendship between them ends too."""
        other = self.other(me, handle)
        with write(self.engine) as conn:
            social_repo.block(conn, me.player.id, other, datetime.now(UTC))
            social_repo.unfriend(conn, me.player.id, other)

    def unblock(self, me: SignedIn, handle: str) -> None:
        other = self.other(me, handle)
        with write(self.engine) as conn:
            social_repo.unblock(conn, me.player.id, other)

    def player_id(self, handle: str) -> int | None:
        folded = folded_handle(handle)
        if folded is None:
            return None
        with read(self.engine) as conn:
            return conn.scalar(select(Player.id).where(Player.handle == folded))


def _utc(at: datetime) -> datetime:
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)
