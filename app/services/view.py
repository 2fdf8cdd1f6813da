"""The view of API.md for one caller: room facts + ``observe(state, seat).to_json()``.

Nothing here reads the raw state except through ``observe``: the only door for private
information.
"""

from __future__ import annotations

from typing import Any

from app.live.presence import Presence
from app.rules import observe
from app.rules.config import Rules
from app.services.snapshot import RoomSnap

Json = dict[str, Any]


def lobby_json() -> Json:
    return {
        "phase": "lobby",
        "dealer": None,
        "beggar": None,
        "turn": None,
        "hand_number": 0,
        "kicks": [],
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
        "winner": None,
    }


def rules_json(rules: Rules) -> Json:
    return rules.model_dump(mode="json")


def room_view(snap: RoomSnap, seat: int | None, presence: Presence) -> Json:
    game = snap.game
    in_play = game is not None and game.state.turn is not None
    seats: list[Json | None] = []
    for info in snap.seats:
        if info is None:
            seats.append(None)
            continue
        auto = not info.bot and in_play and presence.covered(snap.code, info.seat)
        seats.append(
            {
                "seat": info.seat,
                "name": info.name,
                "bot": info.bot,
                "level": info.level,
                "connected": info.bot or presence.connected(snap.code, info.seat),
                "auto": auto,
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
