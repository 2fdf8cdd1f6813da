"""Views for the renderer tests, made by the real engine (no hand-written card lists).

``server_view`` adds to ``observe(state, seat).to_json()`` the fields the server adds (API.md
"The view": code, version, rules, seats, you), so the renderer sees what a browser would get.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

from app.rules.config import Rules
from app.rules.engine import apply, legal_actions, new_game
from app.rules.state import Phase, State
from app.rules.view import observe
from app.services.view import lobby_json

NAMES = ("Ann", "Bob", "Cy", "Dan")
CODE = "k3x9q2"


def seats_json(names: Sequence[str | None] = NAMES, bots: Sequence[int] = ()) -> list[Any]:
    return [
        None if name is None else {"seat": n, "name": name, "bot": n in bots, "connected": True}
        for n, name in enumerate(names)
    ]


def lobby_view(
    names: Sequence[str | None], you: int | None, *, rules: Rules | None = None, version: int = 1
) -> dict[str, Any]:
    return {
        **lobby_json(),
        "code": CODE,
        "version": version,
        "rules": (rules or Rules()).model_dump(),
        "seats": seats_json(names),
        "you": you,
    }


def server_view(
    state: State, seat: int | None, *, version: int, bots: Sequence[int] = ()
) -> dict[str, Any]:
    view = observe(state, seat).to_json()
    view.update(
        code=CODE,
        version=version,
        rules=state.rules.model_dump(),
        seats=seats_json(bots=bots),
        you=seat,
    )
    return view


def playthrough(
    seed: int, rules: Rules | None = None, *, first_dealer: int | None = None
) -> Iterator[State]:
    """Every state of one whole game, random legal moves, from the seeded deal to the end."""
    rng = random.Random(seed)
    state = new_game(rules or Rules(), seed, first_dealer)
    yield state
    while state.phase is not Phase.GAME_OVER:
        state = apply(state, rng.choice(legal_actions(state)))
        yield state
