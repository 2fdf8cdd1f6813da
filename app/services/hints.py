"""Hints for practice (issue #38): at a table with the option ``hints`` the seat on turn may
ask what to do, and why in a reason code. Judged like a review's decision, from the seat's
own Observation only, over the standard player's count of imagined deals. A game with hints
is never rated (app/services/career.py)."""

from __future__ import annotations

from app.bots import rng_for
from app.bots.review import hint
from app.reasons import N_, reason
from app.rules import observe
from app.services import errors
from app.services.decide import NOT_YOUR_TURN, seated
from app.services.identity import check_code
from app.services.reviews import Json, action_word
from app.services.rooms import Rooms

HINTS_OFF = reason(
    "hints_off",
    "room {code} does not give hints (room option hints)",
    N_("This table gives no hints."),
)
NO_GAME_NOW = reason(
    "no_hint_now",
    "room {code} has no game in play",
    N_("There is no game in play to give a hint for."),
)


def hint_for(rooms: Rooms, code: str, token: str | None) -> Json:
    """``{"action", "why"}`` for the caller's seat, on its turn."""
    check_code(code)
    snap = rooms.snapshot(code)
    if not snap.options.hints:
        raise errors.Conflict(HINTS_OFF, code=code)
    seat = seated(snap, token)
    game = snap.game
    if game is None or game.over:
        raise errors.Conflict(NO_GAME_NOW, code=code)
    state = game.state
    if state.turn != seat:
        raise errors.NotYourTurn(NOT_YOUR_TURN, seat=-1 if state.turn is None else state.turn)
    obs = observe(state, seat)
    action, why = hint(obs, rng_for(game.seed, game.seq))
    return {"action": action_word(action), "why": why}
