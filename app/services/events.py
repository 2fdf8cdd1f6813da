"""The live stream of one room for one viewer, as an async generator of SSE events.

The first event is the viewer's current view; then one ``state`` event per new version, in
order (id = version), each rendered for this viewer; and, if ``presence_event`` names one,
an event of that name (no id) when someone comes or goes; it ends when ``end`` is set (the
server is stopping). The JSON API sends none (API.md:
every event is a ``state`` with its version); the htmx table re-renders on them.
With ``talk``, the room's table talk travels too, as events without an id (never disturbing
the version sequence): after the first view the recent ``chat`` messages, then each new one,
and a ``nudge`` (``{"seat": n}``, the seat nudged) when someone nudges the player to act.
A new message comes whole with its announcement (from this process or over LISTEN), so the
database is read for the talk once per connection, and again only when the stream may have
missed some (it fell far behind, or the notification channel was lost).
``render`` turns a view into the event's data: JSON for the API, an HTML fragment for the
htmx table. No database session is held between events: each version
is read from the snapshot cache, or from the log in a worker thread.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from typing import Any

from app.live.hub import Hub, StreamEnd, Subscription
from app.live.presence import Presence
from app.services.identity import seat_of
from app.services.rooms import Rooms
from app.services.snapshot import RoomSnap
from app.services.talk import ChatMessageOut, RoomTalk
from app.services.view import RenderedViews, Renderer, json_renderer, view_text

__all__ = ["MAX_CATCH_UP", "Renderer", "json_renderer", "room_events"]

Json = dict[str, Any]
ChatRenderer = Callable[[ChatMessageOut], str]


def chat_json(message: ChatMessageOut) -> str:
    return message.model_dump_json()


# Behind by more than this many versions (a long stall): send the current view only.
MAX_CATCH_UP = 32


class Heard:
    """The chat messages a stream has sent, by id, so that a message announced twice (after
    commit, then over LISTEN) or read back after a gap is sent once. Ids rise, but two
    processes may commit theirs out of order, so it remembers a window of ids, not the top one."""

    KEEP = 256

    def __init__(self) -> None:
        self._ids: set[int] = set()

    def first(self, message_id: int) -> bool:
        """Whether this is the first time; remembers it."""
        if message_id in self._ids:
            return False
        self._ids.add(message_id)
        if len(self._ids) > 2 * self.KEEP:
            self._ids = set(sorted(self._ids)[-self.KEEP :])
        return True


async def room_events(
    *,
    rooms: Rooms,
    hub: Hub,
    presence: Presence,
    views: RenderedViews,
    code: str,
    seat: int | None,
    render: Renderer = json_renderer,
    state_event: str = "state",
    presence_event: str | None = None,
    end: StreamEnd | None = None,
    talk: RoomTalk | None = None,
    say: ChatRenderer = chat_json,
    token: str | None = None,
    hidden: frozenset[str] = frozenset(),
) -> AsyncIterator[Json]:
    """Events as dicts for sse-starlette (``event``, ``id``, ``data``). With the viewer's
    ``token``, the stream ends when the token's seat changes (the host moved or replaced the
    player, a latecomer's claim was taken up): the client reconnects and is shown its new
    seat, never the old seat's cards. The chat of the players whose handles are ``hidden``
    (the viewer blocked them) is never sent."""

    def moved(snap: RoomSnap) -> bool:
        return token is not None and seat_of(snap, token) != seat

    async def snapshot(version: int | None) -> RoomSnap:
        if version is not None:
            cached = rooms.cached(code, version)
            if cached is not None:
                return cached
        return await asyncio.to_thread(rooms.snapshot, code, version)

    def event(snap: RoomSnap, name: str, with_id: bool) -> Json:
        out: Json = {"event": name, "data": view_text(views, snap, seat, presence, render)}
        if with_id:
            out["id"] = str(snap.version)
        return out

    with hub.subscribe(code, talk=talk is not None) as sub, presence.stream(code, seat):
        if end is not None:
            end.attach(sub)
        current = await snapshot(None)
        sent = current.version
        sub.latest = max(sub.latest, sent)
        sub.presence = False
        if moved(current):
            return  # seated elsewhere since the request was read: the next connection shows it
        yield event(current, state_event, True)
        heard = Heard()
        if talk is not None:
            async for said in _recent(talk, code, sub, heard, say, hidden):
                yield said
        while True:
            await sub.wait()
            if sub.closed:
                return
            if sub.resync:
                sub.resync = False
                now = await snapshot(None)
                sub.latest = max(sub.latest, now.version)
            if sub.latest - sent > MAX_CATCH_UP:
                current = await snapshot(None)
                sent = current.version
                if moved(current):
                    return
                yield event(current, state_event, True)
            while sent < sub.latest:
                snap = await snapshot(sent + 1)
                if snap.version <= sent:
                    break  # announced but not readable yet: the next wake-up brings it
                current, sent = snap, snap.version
                if moved(current):
                    return
                yield event(current, state_event, True)
            if sub.presence:
                sub.presence = False
                if presence_event is not None:
                    yield event(current, presence_event, False)
            if talk is not None:
                while sub.nudges:
                    yield {"event": "nudge", "data": json.dumps({"seat": sub.nudges.pop(0)})}
                while sub.chat_gap or sub.said:
                    if sub.chat_gap:
                        async for said in _recent(talk, code, sub, heard, say, hidden):
                            yield said
                        continue
                    message = sub.said.pop(0)
                    if heard.first(message.id):
                        out = ChatMessageOut.model_validate_json(message.json)
                        if out.handle is None or out.handle not in hidden:
                            yield {"event": "chat", "data": say(out)}


async def _recent(
    talk: RoomTalk,
    code: str,
    sub: Subscription,
    heard: Heard,
    say: ChatRenderer,
    hidden: frozenset[str],
) -> AsyncIterator[Json]:
    """The recent messages from the database, those not sent yet. Messages announced while
    they are read stay in ``sub.said`` and follow (once each)."""
    sub.chat_gap = False
    for message in await asyncio.to_thread(talk.recent, code, hidden):
        if heard.first(message.id):
            yield {"event": "chat", "data": say(message)}
