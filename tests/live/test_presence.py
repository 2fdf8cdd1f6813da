"""Presence forgets (issue 12): it kept an entry per (room, seat) for ever, closed rooms too."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from app.live.hub import Hub
from app.live.notifier import LocalNotifier
from app.live.presence import Presence
from app.rules import Rules
from app.serve import migrate
from app.services.housekeeping import Housekeeping, RoomSweeper
from app.services.rooms import Rooms
from app.store.db import make_engine


def test_presence_keeps_every_seat_for_ever() -> None:
    """Every seat ever seen stayed in memory, long after its players left."""
    p = Presence()
    for n in range(1000):
        p.touch(f"room{n}", n % 4)
    with p.stream("here", 2):
        p.touch("here", 1)
        assert p.prune(3600) == 0  # all fresh
        later = time.monotonic() + 7200
        assert p.prune(3600, now=later) == 1001  # only the open stream's seat stays
        assert p.connected("here", 2)
        assert p.size() == 2  # its stream, and its last sign of life
    assert not p.connected("here", 2)
    # A seat pruned counts as away, as it would have: gone longer than the horizon.
    assert p.last_seen("room7", 3) <= later - 3600


def test_presence_keeps_rooms_that_are_gone() -> None:
    """Closed and expired rooms stayed in presence (last seen, away cover) for ever."""
    p = Presence()
    p.touch("gone", 0)
    p.cover("gone", 1)
    p.touch("kept", 0)
    assert p.rooms() == {"gone", "kept"}
    p.forget(["gone"])
    assert p.rooms() == {"kept"}
    assert not p.covered("gone", 1)
    assert p.take_seen() == [("kept", 0)]


async def test_the_sweep_forgets_rooms_removed_anywhere(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'a.db'}"
    migrate(url)
    engine = make_engine(url)
    try:
        hub = Hub()
        hub.bind(asyncio.get_running_loop())
        rooms = Rooms(engine, LocalNotifier(hub))
        presence = Presence(on_change=hub.presence_changed)
        housekeeping = Housekeeping(rooms, presence)
        closed = rooms.create_room(rules=Rules(), seed=None).code
        open_ = rooms.create_room(rules=Rules(), seed=None).code
        presence.touch(closed, 0)
        presence.touch(open_, 0)
        housekeeping.close(closed)  # as the admin endpoint does, in a worker thread
        sweeper = RoomSweeper(housekeeping, ttl_days=30, empty_ttl_hours=6)
        assert await sweeper.sweep() == []
        assert presence.rooms() == {open_}
    finally:
        engine.dispose()
