"""The in-process hub: room code -> the subscriptions (open streams) of this process.

Every method runs on the event loop thread except ``publish_threadsafe``. A subscription
keeps only the highest version announced and two flags, so a slow stream never queues: it
wakes, reads what it missed from the store, and renders.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, NamedTuple

VersionListener = Callable[[str, int], None]

# A stream holds at most this many messages it has not sent yet; beyond that it has fallen
# behind and reads the recent ones from the database instead.
SAID_PENDING_MAX = 100


class Said(NamedTuple):
    """A chat message on its way to the streams: its id, and the message itself as JSON (the
    API's ``<message>``), so that no stream has to read it from the database."""

    id: int
    json: str


class Nudge(NamedTuple):
    """A nudge on its way to the streams: ``mark`` is when it was made and whom it nudges."""

    mark: int

    @property
    def seat(self) -> int:
        return self.mark % 4


RoomEvent = Said | Nudge


class Subscription:
    __slots__ = (
        "_event",
        "chat_gap",
        "closed",
        "code",
        "counted",
        "latest",
        "nudge_mark",
        "nudges",
        "presence",
        "resync",
        "said",
        "talk",
    )

    def __init__(self, code: str, counted: bool = True, talk: bool = True) -> None:
        self.code = code
        self.counted = counted  # an open stream (False: the server's own watcher)
        self.talk = talk  # it hears the room's chat and nudges
        self.latest = 0  # highest version announced for the room
        self.resync = False  # notifications may have been lost: re-read the current version
        self.presence = False  # someone's connected/auto flag changed
        self.closed = False  # the server is stopping: the stream ends
        self.said: list[Said] = []  # chat messages heard since the stream last looked
        self.chat_gap = False  # messages may have been missed: re-read the recent ones
        self.nudge_mark = 0  # the newest nudge announced (see nudge_mark())
        self.nudges: list[int] = []  # seats nudged since the stream last looked
        self._event = asyncio.Event()

    def _wake(self) -> None:
        self._event.set()

    def close(self) -> None:
        self.closed = True
        self._wake()

    async def wait(self, timeout: float | None = None) -> bool:
        """Until something happened (True) or ``timeout`` passed (False)."""
        if timeout is None:
            # A stream's own wait, once per event per stream: without wait_for's frame.
            await self._event.wait()
        else:
            try:
                await asyncio.wait_for(self._event.wait(), timeout)
            except TimeoutError:
                return False
        self._event.clear()
        return True


def nudge_mark(at_ms: int, seat: int) -> int:
    """A nudge's number on the notification channel: when it was made and whom it nudges."""
    return at_ms * 4 + seat


class StreamEnd:
    """sse-starlette's ``shutdown_event`` for one stream: when the server stops, the library
    calls ``set()`` and the stream's subscription closes, so the stream ends from its own
    side with its last chunk sent, instead of being cut off (which uvicorn logs as an error,
    once per open stream)."""

    def __init__(self) -> None:
        self._sub: Subscription | None = None
        self._set = False

    def attach(self, sub: Subscription) -> None:
        self._sub = sub
        if self._set:
            sub.close()

    def set(self) -> None:
        self._set = True
        if self._sub is not None:
            self._sub.close()


class Hub:
    def __init__(self) -> None:
        self._rooms: dict[str, set[Subscription]] = {}
        self._listeners: list[VersionListener] = []
        self._resync_listeners: list[Callable[[], None]] = []
        # The open streams of players' keys (by the key's hash), and who else hears of a key
        # signed out (the players' cache of keys checked).
        self._keys: dict[str, set[StreamEnd]] = {}
        self._key_listeners: list[Callable[[list[str]], None]] = []
        self._loop: asyncio.AbstractEventLoop | None = None

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop

    @contextmanager
    def subscribe(
        self, code: str, *, counted: bool = True, talk: bool = True
    ) -> Iterator[Subscription]:
        sub = Subscription(code, counted, talk)
        self._rooms.setdefault(code, set()).add(sub)
        try:
            yield sub
        finally:
            subs = self._rooms.get(code)
            if subs is not None:
                subs.discard(sub)
                if not subs:
                    del self._rooms[code]

    def on_version(self, listener: VersionListener) -> None:
        """Call ``listener(code, version)`` for every version announced (the bot driver)."""
        self._listeners.append(listener)

    def on_resync(self, listener: Callable[[], None]) -> None:
        self._resync_listeners.append(listener)

    def publish(self, code: str, version: int) -> None:
        for sub in self._rooms.get(code, ()):
            if version > sub.latest:
                sub.latest = version
                sub._wake()
        for listener in self._listeners:
            listener(code, version)

    def publish_threadsafe(self, code: str, version: int) -> None:
        self._on_loop(self.publish, code, version)

    def resync_all_threadsafe(self) -> None:
        """``resync_all`` on the hub's loop, from any thread or loop (the PostgreSQL listener)."""
        self._on_loop(self.resync_all)

    def _on_loop(self, fn: Callable[..., None], *args: Any) -> None:
        """Run ``fn`` on the hub's own loop: at once when already there, else scheduled."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            fn(*args)
        else:
            loop.call_soon_threadsafe(fn, *args)

    def event(self, code: str, event: RoomEvent) -> None:
        """A room event that is not a version: a chat message, or a nudge. Each may be heard
        twice (after commit, then from LISTEN): the stream sends a message once, and a nudge
        older than the newest one it heard is dropped."""
        for sub in self._rooms.get(code, ()):
            if not sub.talk:
                continue
            if isinstance(event, Said):
                if len(sub.said) >= SAID_PENDING_MAX:
                    sub.said.clear()
                    sub.chat_gap = True
                else:
                    sub.said.append(event)
            else:
                if event.mark <= sub.nudge_mark:
                    continue
                sub.nudge_mark = event.mark
                sub.nudges.append(event.seat)
            sub._wake()

    def event_threadsafe(self, code: str, event: RoomEvent) -> None:
        self._on_loop(self.event, code, event)

    def presence_changed(self, code: str) -> None:
        for sub in self._rooms.get(code, ()):
            sub.presence = True
            sub._wake()

    def resync_all(self) -> None:
        """After a lost notification channel: every stream re-reads the current version and
        the recent messages."""
        for subs in self._rooms.values():
            for sub in subs:
                sub.resync = True
                sub.chat_gap = True
                sub._wake()
        for listener in self._resync_listeners:
            listener()

    @contextmanager
    def watch_key(self, digest: str, end: StreamEnd) -> Iterator[None]:
        """While inside, the stream ``end`` ends once the key ``digest`` is signed out."""
        ends = self._keys.setdefault(digest, set())
        ends.add(end)
        try:
            yield
        finally:
            ends.discard(end)
            if not ends and self._keys.get(digest) is ends:
                del self._keys[digest]

    def on_keys_ended(self, listener: Callable[[list[str]], None]) -> None:
        self._key_listeners.append(listener)

    def keys_ended(self, digests: Iterable[str]) -> None:
        """Keys signed out (a device, a profile deleted), in any process: their streams end
        now, event or not (API.md § Fifth round, "Sessions end")."""
        gone = list(digests)
        for listener in self._key_listeners:
            listener(gone)
        for digest in gone:
            for end in list(self._keys.get(digest, ())):
                end.set()

    def keys_ended_threadsafe(self, digests: Iterable[str]) -> None:
        self._on_loop(self.keys_ended, list(digests))

    def stream_count(self) -> int:
        return sum(sub.counted for subs in self._rooms.values() for sub in subs)
