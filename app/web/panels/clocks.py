"""The table's countdowns (app/services/clocks.py), in seconds at the view's ``timed_at``:
until the computer plays for an absent player, the turn timer, the reckoning (R23). The page's
script counts each down from there, so a view rendered once and sent later still reads right."""

from __future__ import annotations

from dataclasses import dataclass

from app.services.view import RoomView
from app.web.panels.seats import PLAYING_PHASES


def clock_text(seconds: int) -> str:
    """1:45, as a player reads a countdown."""
    return f"{seconds // 60}:{seconds % 60:02d}"


@dataclass(frozen=True, slots=True)
class Clocks:
    timed_at: float  # when the clocks were counted (Unix seconds)
    turn_timer_s: int  # the room's turn timer, 0: none
    away_s: tuple[int | None, ...]  # by seat: until the computer plays for this absent player
    turn_s: tuple[int | None, ...]  # by seat: left on the turn timer (the seat to act only)
    reckon_s: int | None  # left before the hand being reckoned is scored

    def away_text(self, seat: int) -> str:
        return clock_text(self.away_s[seat] or 0)

    @property
    def reckon_text(self) -> str:
        return clock_text(self.reckon_s or 0)


def clocks(view: RoomView) -> Clocks:
    playing = view.phase in PLAYING_PHASES
    turn = view.turn if playing else None
    return Clocks(
        timed_at=view.timed_at or 0.0,
        turn_timer_s=view.options.turn_timer_s,
        away_s=tuple(view.away[n] if playing else None for n in range(4)),
        turn_s=tuple(view.turn_deadline if playing and n == turn else None for n in range(4)),
        reckon_s=view.reckon_deadline if view.phase == "reckoning" else None,
    )
