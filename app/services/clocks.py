"""The table's two clocks, one source for the view, the page and the keeper that acts on them.

- The away cover: a seated human whose turn it is, with no stream and no request for
  ``away_s``, is covered by a computer player (app/services/keeper.py). Its deadline is
  ``max(last sign of life, the moment the turn came) + away_s``.
- The turn timer (room option ``turn_timer_s``): each decision of a human may take that long
  (times ``turn_scale``, 1 outside tests), counted from the moment the version that gave the
  turn was committed (``rooms.changed_at``, so every app process and a restarted one count
  from the same instant). When it runs out the computer makes that one decision, and the
  player keeps the seat.
- The reckoning (renege mode, R23, room option ``reckon_s``): a hand whose last card is played
  is scored when every seat has said "score it" or ``reckon_s`` (times ``turn_scale``) after
  that card, counted from ``games.reckon_since``, whichever is first.

Deadlines are wall-clock Unix seconds: a rendered view is shared by every viewer of one
version and sent later to streams that connect later, so it carries absolute deadlines and
the seconds left at the moment it was rendered (``timed_at``), never a stale countdown.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from app.live.presence import Presence
from app.rules import Phase
from app.services.snapshot import RoomSnap


@dataclass(frozen=True, slots=True)
class Deadlines:
    """A view's clocks: per seat, when the computer plays for it (None: not counting), and
    when the turn timer runs out (None: no timer running)."""

    away: tuple[float | None, float | None, float | None, float | None]
    turn: float | None
    reckon: float | None = None  # when the hand being reckoned is scored (R23)


NO_DEADLINES = Deadlines((None, None, None, None), None)


def turn_since(snap: RoomSnap) -> float:
    """When the turn came to the seat to act: the commit time of this version (now, for a
    version whose time is not known: a past version, a room stored before 0006)."""
    return snap.at.timestamp() if snap.at is not None else time.time()


def human_to_act(snap: RoomSnap) -> int | None:
    """The seat of the human whose decision the game waits for, or None."""
    if snap.game is None or (seat := snap.game.state.turn) is None:
        return None
    info = snap.seats[seat]
    return seat if info is not None and not info.bot else None


def turn_deadline(snap: RoomSnap, scale: float) -> float | None:
    """When the turn timer makes the current human decision for the seat (None: no timer)."""
    timer = snap.options.turn_timer_s
    if not timer or human_to_act(snap) is None:
        return None
    return turn_since(snap) + timer * scale


def away_deadline(snap: RoomSnap, presence: Presence, away_s: float) -> float | None:
    """When the away cover starts for the human to act (now: already covered; None: they are
    here, or no human is to act)."""
    seat = human_to_act(snap)
    if seat is None or presence.connected(snap.code, seat):
        return None
    if presence.covered(snap.code, seat):
        return time.time()
    return max(presence.last_seen_wall(snap.code, seat), turn_since(snap)) + away_s


def reckon_deadline(snap: RoomSnap, scale: float) -> float | None:
    """R23: when the hand being reckoned is scored, "score it" or not (None: no reckoning)."""
    game = snap.game
    if game is None or game.state.phase is not Phase.RECKONING:
        return None
    since = game.reckon_since.timestamp() if game.reckon_since is not None else turn_since(snap)
    return since + snap.options.reckon_s * scale


def deadlines(snap: RoomSnap, presence: Presence) -> Deadlines:
    reckon = reckon_deadline(snap, presence.turn_scale)
    if reckon is not None:
        return Deadlines((None, None, None, None), None, _tenth(reckon))
    if human_to_act(snap) is None:
        return NO_DEADLINES
    away = away_deadline(snap, presence, presence.away_s)
    seat = snap.game.state.turn if snap.game is not None else None
    per_seat: list[float | None] = [None, None, None, None]
    if seat is not None and away is not None:
        per_seat[seat] = _tenth(away)
    turn = turn_deadline(snap, presence.turn_scale)
    return Deadlines(
        (per_seat[0], per_seat[1], per_seat[2], per_seat[3]),
        _tenth(turn) if turn is not None else None,
    )


def _tenth(deadline: float) -> float:
    """A deadline to the tenth of a second below (the views' cache key: a new sign of life a
    moment later renders no new view); never later than the true one."""
    return math.floor(deadline * 10) / 10


def seconds_left(deadline: float | None, now: float) -> int | None:
    """Whole seconds from ``now`` to ``deadline`` (rounded up, never below 0)."""
    return None if deadline is None else max(0, math.ceil(deadline - now))
