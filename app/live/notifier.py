"""The notifier interface: how a committed version reaches every process's hub.

A write calls ``in_transaction`` inside the move's transaction (PostgreSQL issues its
``NOTIFY`` there, so it is sent if and only if the move commits) and ``after_commit`` once it
has committed (from a worker thread). The in-process notifier publishes straight to the hub;
a LISTEN/NOTIFY notifier (app/live/postgres.py) delivers every ``room:version`` payload it
hears to its hub, and calls ``hub.resync_all()`` after reconnecting, since notifications sent
in the gap are gone. The hub ignores versions a stream already has, so delivering a version
twice (locally after commit, then again from LISTEN) is harmless.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

from sqlalchemy import Connection

from app.live.hub import Hub, Nudge, RoomEvent, Said

CHANNEL = "allfours"
# A club night's versions go out on the same channel as the rooms', named ``night-<code>``
# (no room code the server makes has a hyphen): the night steward listens for them, the
# table keeper ignores them.
NIGHT_PREFIX = "night-"


# Besides versions, a room has events that are not versions: a chat message (carried whole,
# ``code:chat:id:json``, so no process reads it back from the database; a name of 24 and a text
# of 200 characters keep it far below NOTIFY's 8,000 bytes) and a nudge (``code:nudge:mark``).
# They never raise the room's version, so a move never waits on them.


# A key signed out (a device, a deleted profile's devices): ``key-ended:<the key's hash>``, so
# every process ends that key's open streams at once. No room code has a hyphen.
KEY_ENDED = "key-ended:"


def key_payload(digest: str) -> str:
    return KEY_ENDED + digest


def parse_key_payload(text: str) -> str | None:
    """A key signed out's payload: its hash (64 hex digits), else None."""
    if not text.startswith(KEY_ENDED):
        return None
    digest = text.removeprefix(KEY_ENDED)
    return digest if len(digest) == 64 and all(c in "0123456789abcdef" for c in digest) else None


def payload(code: str, version: int) -> str:
    return f"{code}:{version}"


def event_payload(code: str, event: RoomEvent) -> str:
    if isinstance(event, Said):
        return f"{code}:chat:{event.id}:{event.json}"
    return f"{code}:nudge:{event.mark}"


def parse_payload(text: str) -> tuple[str, int] | None:
    """A version's payload: ``code:version``."""
    code, sep, version = text.partition(":")
    if not sep or not code or not version.isdigit():
        return None
    return code, int(version)


def parse_event_payload(text: str) -> tuple[str, RoomEvent] | None:
    """A room event's payload: ``code:chat:id:json`` or ``code:nudge:mark``."""
    code, _, rest = text.partition(":")
    kind, _, rest = rest.partition(":")
    if not code:
        return None
    if kind == "nudge" and rest.isdigit():
        return code, Nudge(int(rest))
    n, _, json = rest.partition(":")
    if kind == "chat" and n.isdigit() and json:
        return code, Said(int(n), json)
    return None


class Notifier(ABC):
    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    @abstractmethod
    def in_transaction(self, conn: Connection, code: str, version: int) -> None:
        """Called inside the transaction that made ``version``, before it commits."""

    def after_commit(self, code: str, version: int) -> None:
        """Called once ``version`` is committed, from any thread: tell this process now."""
        self.hub.publish_threadsafe(code, version)

    @abstractmethod
    def event_in_transaction(self, conn: Connection, code: str, event: RoomEvent) -> None:
        """Called inside the transaction that made the room event (a chat message, a nudge)."""

    def event_after_commit(self, code: str, event: RoomEvent) -> None:
        """Called once the room event is committed, from any thread."""
        self.hub.event_threadsafe(code, event)

    def keys_ended_in_transaction(self, conn: Connection, digests: list[str]) -> None:  # noqa: B027
        """Called inside the transaction that signs keys out (the other processes' part)."""

    def keys_ended_after_commit(self, digests: list[str]) -> None:
        """Called once the keys are signed out, from any thread: this process's streams."""
        self.hub.keys_ended_threadsafe(digests)

    async def start(self) -> None:  # noqa: B027 - optional hook
        """Open whatever the notifier listens on (called in the app's lifespan)."""

    async def stop(self) -> None:  # noqa: B027 - optional hook
        """Close it."""


class LocalNotifier(Notifier):
    """One process (SQLite): the hub is the whole audience."""

    def in_transaction(self, conn: Connection, code: str, version: int) -> None:
        return None

    def event_in_transaction(self, conn: Connection, code: str, event: RoomEvent) -> None:
        return None
