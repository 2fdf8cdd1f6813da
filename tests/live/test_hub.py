"""The in-process hub and the stream generator: versions in order, resync after a lost
channel, presence, and a pluggable renderer (the htmx table renders HTML with it)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from app.live.hub import SAID_PENDING_MAX, Hub, Nudge, Said, StreamEnd
from app.live.notifier import (
    LocalNotifier,
    event_payload,
    key_payload,
    parse_event_payload,
    parse_key_payload,
    parse_payload,
    payload,
)
from app.live.presence import Presence
from app.rules import Action, Rules
from app.serve import migrate
from app.services.events import room_events
from app.services.rooms import Rooms
from app.services.talk import ChatMessageOut, RoomTalk
from app.services.view import RenderedViews, RoomView
from app.store.db import make_engine


async def test_subscriptions_keep_the_highest_version_and_wake() -> None:
    hub = Hub()
    hub.bind(asyncio.get_running_loop())
    heard: list[tuple[str, int]] = []
    hub.on_version(lambda code, v: heard.append((code, v)))
    with hub.subscribe("r1") as sub, hub.subscribe("r2") as other:
        hub.publish("r1", 3)
        hub.publish("r1", 2)  # late and lower: ignored by the stream
        assert await sub.wait(1) is True
        assert sub.latest == 3
        assert await other.wait(0.01) is False
        hub.resync_all()
        assert await other.wait(1) is True and other.resync
        assert hub.stream_count() == 2
    assert hub.stream_count() == 0
    assert heard == [("r1", 3), ("r1", 2)]


async def test_publish_from_a_worker_thread_reaches_the_loop() -> None:
    hub = Hub()
    hub.bind(asyncio.get_running_loop())
    notifier = LocalNotifier(hub)
    with hub.subscribe("r") as sub:
        await asyncio.to_thread(notifier.after_commit, "r", 7)
        assert await sub.wait(1) and sub.latest == 7


def test_payload_round_trip() -> None:
    assert parse_payload(payload("abc", 12)) == ("abc", 12)
    assert parse_payload("garbage") is None
    assert parse_payload("a:b") is None
    # A room event's payload is never taken for a version, nor the other way round.
    said = Said(7, '{"id":7,"text":"a: b:c"}')  # the message's own colons stay its own
    assert parse_payload(event_payload("abc", said)) is None
    assert parse_event_payload(event_payload("abc", said)) == ("abc", said)
    assert parse_event_payload(event_payload("abc", Nudge(9))) == ("abc", Nudge(9))
    assert parse_event_payload(payload("abc", 12)) is None
    assert parse_event_payload("abc:shout:1") is None
    assert parse_event_payload("abc:chat:7") is None
    assert parse_event_payload("abc:chat:x:{}") is None
    assert parse_event_payload("abc:nudge:1:2") is None


def test_a_key_signed_out_ends_its_streams_and_no_other() -> None:
    """The sign-out's payload is neither a version nor a room event; the hub ends the
    streams of that key alone, and tells the players' cache."""
    digest = "ab" * 32
    assert parse_key_payload(key_payload(digest)) == digest
    assert parse_payload(key_payload(digest)) is None
    assert parse_event_payload(key_payload(digest)) is None
    assert parse_key_payload(payload("abc", 12)) is None
    assert parse_key_payload("key-ended:nothex") is None
    hub, heard = Hub(), list[str]()
    hub.on_keys_ended(heard.extend)
    mine, other = StreamEnd(), StreamEnd()
    with hub.watch_key(digest, mine), hub.watch_key("cd" * 32, other):
        hub.keys_ended([digest])
    assert heard == [digest]
    assert mine._set and not other._set


def test_presence_counts_streams_and_covers_the_away() -> None:
    changes: list[str] = []
    p = Presence(on_change=changes.append)
    with p.stream("r", 1):
        with p.stream("r", 1):
            assert p.connected("r", 1)
        assert p.connected("r", 1)
        p.cover("r", 1)  # an open stream is never covered
        assert not p.covered("r", 1)
    assert not p.connected("r", 1)
    p.cover("r", 1)
    assert p.covered("r", 1)
    p.touch("r", 1)  # back: the seat is theirs again
    assert not p.covered("r", 1)
    with p.stream("r", None):
        pass  # spectators are nobody's presence
    assert changes == ["r", "r", "r", "r"]


async def _take(stream: AsyncIterator[dict[str, Any]], n: int) -> list[dict[str, Any]]:
    out = []
    async for event in stream:
        out.append(event)
        if len(out) == n:
            break
    return out


@dataclass
class Local:
    """One process's live parts on a fresh SQLite database."""

    rooms: Rooms
    hub: Hub
    presence: Presence


@pytest.fixture
async def local(tmp_path: Path) -> AsyncIterator[Local]:
    url = f"sqlite:///{tmp_path / 'a.db'}"
    migrate(url)
    engine = make_engine(url)
    hub = Hub()
    hub.bind(asyncio.get_running_loop())
    yield Local(Rooms(engine, LocalNotifier(hub)), hub, Presence(on_change=hub.presence_changed))
    engine.dispose()


async def test_room_events_render_with_a_pluggable_renderer(local: Local) -> None:
    rooms, hub, presence = local.rooms, local.hub, local.presence
    room = rooms.create_room(rules=Rules(), seed=5)
    tokens = [
        rooms.join(code=room.code, name=n, seat=None, token=None).token
        for n in ("Ann", "Ben", "Cal", "Dee")
    ]

    def html(view: RoomView) -> str:
        return f"<div data-phase='{view.phase}' data-version='{view.version}'></div>"

    stream = room_events(
        rooms=rooms,
        hub=hub,
        presence=presence,
        views=RenderedViews(),
        code=room.code,
        seat=0,
        render=html,
    )
    first = await _take(stream, 1)
    assert first == [
        {"event": "state", "id": "4", "data": "<div data-phase='lobby' data-version='4'></div>"}
    ]
    started = await asyncio.to_thread(rooms.start, code=room.code, token=tokens[0])
    beggar = started.game.state.turn if started.game else None
    assert beggar is not None
    await asyncio.to_thread(
        rooms.act, code=room.code, token=tokens[beggar], action=Action("beg"), expected=None
    )
    events = await _take(stream, 2)
    assert [e["id"] for e in events] == ["5", "6"]
    assert "data-phase='beg'" in events[0]["data"]
    assert "data-phase='give_or_run'" in events[1]["data"]
    await stream.aclose()  # type: ignore[attr-defined]
    assert not presence.connected(room.code, 0)


async def test_presence_events_only_when_asked(local: Local) -> None:
    rooms, hub, presence = local.rooms, local.hub, local.presence
    room = rooms.create_room(rules=Rules(), seed=5)
    rooms.join(code=room.code, name="Ann", seat=0, token=None)
    common = {
        "rooms": rooms,
        "hub": hub,
        "presence": presence,
        "views": RenderedViews(),
        "code": room.code,
    }
    quiet = room_events(**common, seat=None)  # type: ignore[arg-type]
    chatty = room_events(**common, seat=None, presence_event="presence")  # type: ignore[arg-type]
    assert len(await _take(quiet, 1)) == 1
    assert len(await _take(chatty, 1)) == 1
    with presence.stream(room.code, 0):  # Ann opens a stream elsewhere
        event = (await _take(chatty, 1))[0]
        assert event["event"] == "presence" and "id" not in event
        assert '"connected":true' in event["data"]
        rooms.join(code=room.code, name="Ben", seat=1, token=None)
        hub.publish(room.code, 2)
        assert [e["event"] for e in await _take(quiet, 1)] == ["state"]
    await quiet.aclose()  # type: ignore[attr-defined]
    await chatty.aclose()  # type: ignore[attr-defined]


@pytest.mark.parametrize("before_first_event", [False, True])
async def test_a_stream_ends_of_itself_when_the_server_stops(
    local: Local, before_first_event: bool
) -> None:
    room = local.rooms.create_room(rules=Rules(), seed=5)
    end = StreamEnd()
    stream = room_events(
        rooms=local.rooms,
        hub=local.hub,
        presence=local.presence,
        views=RenderedViews(),
        code=room.code,
        seat=None,
        end=end,
    )
    if before_first_event:
        end.set()  # the server stopped before the stream read its first view
    assert len(await _take(stream, 1)) == 1
    end.set()
    with pytest.raises(StopAsyncIteration):
        await asyncio.wait_for(anext(stream), 1)


class CountingTalk(RoomTalk):
    """The room's talk, counting its reads of the recent messages from the database."""

    reads = 0

    def recent(self, code: str, hidden: frozenset[str] = frozenset()) -> list[ChatMessageOut]:
        self.reads += 1
        return super().recent(code, hidden)


def _talk_stream(local: Local, talk: RoomTalk, code: str) -> AsyncIterator[dict[str, Any]]:
    """A spectator's JSON stream of the room, with its talk."""
    return room_events(
        rooms=local.rooms,
        hub=local.hub,
        presence=local.presence,
        views=RenderedViews(),
        code=code,
        seat=None,
        talk=talk,
    )


def _texts(events: list[dict[str, Any]]) -> list[str]:
    return [json.loads(e["data"])["text"] for e in events if e["event"] == "chat"]


async def test_new_messages_come_whole_with_their_announcement(local: Local) -> None:
    """A message reaches the streams from its announcement: no stream reads the database for
    it, each sends it once though it is heard twice (after commit, then over LISTEN)."""
    rooms, hub = local.rooms, local.hub
    talk = CountingTalk(rooms)
    room = rooms.create_room(rules=Rules(), seed=5)
    token = rooms.join(code=room.code, name="Ann", seat=0, token=None).token
    await asyncio.to_thread(talk.post, room.code, token, text="early", preset=None)
    streams = [_talk_stream(local, talk, room.code) for _ in range(3)]
    for stream in streams:
        assert _texts(await _take(stream, 2)) == ["early"]
    assert talk.reads == 3  # once per connection
    with hub.subscribe(room.code, counted=False, talk=False) as keeper:  # the server's watcher
        said = await asyncio.to_thread(talk.post, room.code, token, text="Hang jack!", preset=None)
        assert not keeper.said and await keeper.wait(0.05) is False  # not woken by talk
    again = Said(said.id, said.model_dump_json())
    hub.event(room.code, again)  # the same message heard again, as from LISTEN
    for stream in streams:
        assert _texts(await _take(stream, 1)) == ["Hang jack!"]
    assert talk.reads == 3
    hub.event(room.code, Nudge(4 * 1000 + 2))
    for stream in streams:
        assert [e["event"] for e in await _take(stream, 1)] == ["nudge"]  # not the message twice
        await stream.aclose()  # type: ignore[attr-defined]


async def test_a_stream_that_may_have_missed_messages_reads_them_back(local: Local) -> None:
    """Fallen far behind, or after a lost notification channel, a stream reads the recent
    messages from the database and sends those it has not sent."""
    rooms, hub = local.rooms, local.hub
    talk = CountingTalk(rooms)
    room = rooms.create_room(rules=Rules(), seed=5)
    token = rooms.join(code=room.code, name="Ann", seat=0, token=None).token
    stream = _talk_stream(local, talk, room.code)
    await _take(stream, 1)
    said = await asyncio.to_thread(talk.post, room.code, token, text="one", preset=None)
    assert _texts(await _take(stream, 1)) == ["one"]
    # Announcements lost with the channel: the resync brings the message from the database.
    lost = await asyncio.to_thread(talk.post, room.code, token, text="two", preset=None)
    (sub,) = hub._rooms[room.code]
    sub.said.clear()
    hub.resync_all()
    assert _texts(await _take(stream, 1)) == ["two"]
    assert lost.id > said.id and talk.reads == 2
    # More announcements than a stream keeps while it is not reading: it reads them back.
    for n in range(SAID_PENDING_MAX + 1):
        hub.event(
            room.code,
            Said(10_000 + n, said.model_copy(update={"id": 10_000 + n}).model_dump_json()),
        )
    assert sub.chat_gap and not sub.said
    posted = await asyncio.to_thread(talk.post, room.code, token, text="three", preset=None)
    got = await _take(stream, 1)
    assert _texts(got) == ["three"] and talk.reads == 3
    assert json.loads(got[0]["data"])["id"] == posted.id
    await stream.aclose()  # type: ignore[attr-defined]
