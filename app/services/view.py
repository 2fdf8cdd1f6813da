"""The view of API.md for one caller: room facts + ``observe(state, seat).to_json()``.

Nothing here reads the raw state except through ``observe``: the only door for private
information.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from app.live.presence import Presence
from app.rules import observe
from app.rules.config import Rules
from app.services.snapshot import RoomSnap

Json = dict[str, Any]
Renderer = Callable[[Json], str]
# A seat's (connected, auto) flags, None for an empty seat: with the snapshot and the
# viewer's seat, all a view depends on.
Flags = tuple[tuple[bool, bool] | None, ...]


def json_renderer(view: Json) -> str:
    return json.dumps(view, separators=(",", ":"))


def lobby_json() -> Json:
    return {
        "phase": "lobby",
        "dealer": None,
        "beggar": None,
        "turn": None,
        "hand_number": 0,
        "kicks": [],
        "kick_points": [],
        "decision": None,
        "trump": None,
        "hand": [],
        "hand_sizes": [0, 0, 0, 0],
        "trick": [],
        "last_trick": None,
        "tricks_won": [0, 0],
        "legal": [],
        "refused": [],
        "scores": [0, 0],
        "last_hand": None,
        "last_hand_totals": None,
        "winner": None,
    }


def rules_json(rules: Rules) -> Json:
    return rules.model_dump(mode="json")


def seat_flags(snap: RoomSnap, presence: Presence) -> Flags:
    in_play = snap.in_play
    code = snap.code
    return tuple(
        None
        if info is None
        else (
            info.bot or presence.connected(code, info.seat),
            not info.bot and in_play and presence.covered(code, info.seat),
        )
        for info in snap.seats
    )


def room_view(snap: RoomSnap, seat: int | None, presence: Presence) -> Json:
    return _view(snap, seat, seat_flags(snap, presence))


def _view(snap: RoomSnap, seat: int | None, flags: Flags) -> Json:
    game = snap.game
    seats: list[Json | None] = []
    for info, flag in zip(snap.seats, flags, strict=True):
        if info is None or flag is None:
            seats.append(None)
            continue
        seats.append(
            {
                "seat": info.seat,
                "name": info.name,
                "bot": info.bot,
                "level": info.level,
                "connected": flag[0],
                "auto": flag[1],
            }
        )
    view: Json = {
        "code": snap.code,
        "version": snap.version,
        "rules": rules_json(snap.rules),
        "seats": seats,
        "you": seat,
        "game_number": game.number if game else 0,
    }
    if game is None:
        view.update(lobby_json())
    else:
        view.update(observe(game.state, seat).to_json())
        # The seed is a secret until the game is over: then anyone may check the deals.
        view["seed"] = game.seed if game.state.winner is not None else None
    return view


class RenderedViews:
    """Rendered views of each room's newest snapshot rendered so far, shared by every stream
    (and the move's own response) that shows the same seat's view with the same presence:
    several tabs or spectators of one room cost one render per version. Only the newest
    snapshot of a room is kept, and at most ``rooms`` rooms. Event-loop thread only."""

    def __init__(self, rooms: int = 4096) -> None:
        self._rooms: OrderedDict[str, tuple[RoomSnap, dict[tuple[Any, ...], str]]] = OrderedDict()
        self._max_rooms = rooms

    def text(self, snap: RoomSnap, seat: int | None, presence: Presence, render: Renderer) -> str:
        flags = seat_flags(snap, presence)
        key = (render, seat, flags)
        entry = self._rooms.get(snap.code)
        if entry is not None and entry[0] is snap:
            found = entry[1].get(key)
            if found is not None:
                return found
        text = render(_view(snap, seat, flags))
        if entry is not None and entry[0] is snap:
            entry[1][key] = text
        elif entry is None or entry[0].version < snap.version:
            # A catching-up stream's older version is rendered but not kept.
            self._rooms[snap.code] = (snap, {key: text})
            self._rooms.move_to_end(snap.code)
            while len(self._rooms) > self._max_rooms:
                self._rooms.popitem(last=False)
        return text


def view_text(
    views: RenderedViews,
    snap: RoomSnap,
    seat: int | None,
    presence: Presence,
    render: Renderer = json_renderer,
) -> str:
    """``render(room_view(snap, seat, presence))``, rendered once per version and viewer
    (``views``: the app's cache of them, in its Context)."""
    return views.text(snap, seat, presence, render)
