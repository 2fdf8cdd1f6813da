"""A seated player invites a friend to their table (API.md § Fourth round): the invitation is
recorded for the friend's home page. ``invite`` is the one place an invitation is made, so
the Web Push notification (event ``invite``) is sent from here too."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from app.reasons import N_, reason
from app.services import errors
from app.services.decide import BLOCKED
from app.services.identity import seat_of
from app.services.players import SignedIn
from app.services.rooms import Rooms
from app.services.social import Social
from app.store import social_repo
from app.store.db import read, write

INVITE_SEATED_ONLY = reason(
    "invite_seated_only",
    "only a player seated at this table may invite to it",
    N_("Take a seat at this table first."),
)
FRIENDS_ONLY = reason(
    "friends_only", "{handle!r} is not your friend", N_("You may invite only your friends.")
)
# An invitation is shown on the friend's home page this long.
SHOWN_FOR = timedelta(hours=2)


def invite(rooms: Rooms, social: Social, me: SignedIn, code: str, handle: str) -> None:
    """Record ``me``'s invitation of their friend ``handle`` to the table ``code`` where
    ``me`` sits; the friend's devices are told too (Web Push, their ``invite`` event)."""
    snap = rooms.snapshot(code)
    if seat_of(snap, me.seat_token(code)) is None:
        raise errors.Forbidden(INVITE_SEATED_ONLY)
    other = social.other(me, handle)
    if other in rooms.warden.standing(me.player.id).shuns:
        raise errors.Conflict(BLOCKED)
    if not social.are_friends(me.player.id, other):
        raise errors.Forbidden(FRIENDS_ONLY, handle=handle[:40])
    social.quotas.room_invites.take(me.player.handle)
    with write(rooms.engine) as conn:
        social_repo.invite(conn, other, me.player.id, snap.code, datetime.now(UTC))
    rooms.herald.invited(snap.code, other, me.player.name)


def invitations(rooms: Rooms, me: SignedIn) -> list[tuple[str, str, str]]:
    """(room code, friend's handle, friend's name) of the invitations to ``me`` lately."""
    with read(rooms.engine) as conn:
        return social_repo.invitations_of(conn, me.player.id, datetime.now(UTC) - SHOWN_FOR)
