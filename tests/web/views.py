"""Views for the renderer tests, made by the real engine (no hand-written card lists).

``server_view`` adds to ``game_view(observe(state, seat))`` the fields the server adds (API.md
"The view": code, version, rules, seats, you), so the renderer sees what a browser would get.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from app.rules.config import Rules, preset_of
from app.rules.engine import apply, legal_actions, new_game
from app.rules.state import Phase, State
from app.rules.view import observe
from app.services.match import MatchView
from app.services.options import RoomOptions
from app.services.view import RoomView, SeatView
from app.views.game import LOBBY, GameView, game_view

NAMES = ("Ann", "Bob", "Cy", "Dan")
CODE = "k3x9q2"


def seats_view(
    names: Sequence[str | None] = NAMES, bots: Sequence[int] = ()
) -> list[SeatView | None]:
    return [
        None
        if name is None
        else SeatView(
            seat=n,
            name=name,
            bot=n in bots,
            level="standard" if n in bots else None,  # every computer player has a level
            connected=True,
            auto=False,
        )
        for n, name in enumerate([*names, *[None] * (4 - len(names))])
    ]


def _room(
    game: GameView, seats: list[SeatView | None], you: int | None, rules: Rules, version: int
) -> RoomView:
    return RoomView(
        **dict(game),
        code=CODE,
        version=version,
        rules=rules,
        seats=seats,
        you=you,
        game_number=0 if game.phase == "lobby" else 1,
        replay_of=None,
        preset=preset_of(rules),
        options=RoomOptions(),
        match=MatchView(bullseyes=[0, 0], to=1, winner=None),
    )


def lobby_view(
    names: Sequence[str | None],
    you: int | None,
    *,
    rules: Rules | None = None,
    version: int = 1,
    bots: Sequence[int] = (),
) -> RoomView:
    return _room(LOBBY, seats_view(names, bots), you, rules or Rules(), version)


def server_view(
    state: State, seat: int | None, *, version: int, bots: Sequence[int] = ()
) -> RoomView:
    return _room(game_view(observe(state, seat)), seats_view(bots=bots), seat, state.rules, version)


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


def beg_with_last_lift(seed: int = 3) -> RoomView:
    """The beggar's view of a game's first beg decision after a played-out deal: the view
    carries that deal's last lift in ``last_trick`` (issue 14), so the page can show the lift
    while the new deal begins."""
    states = list(playthrough(seed))
    state = next(s for s in states if s.phase is Phase.BEG and s.history and s.history[-1].tricks)
    view = server_view(state, (state.dealer + 1) % 4, version=states.index(state))
    assert view.last_trick is not None and view.tricks_won == [0, 0]
    return view
