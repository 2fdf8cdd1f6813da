"""The clocks panel: the away countdown, the turn timer and the reckoning, as the view counts."""

from __future__ import annotations

from app.rules.state import Phase
from app.services.options import RoomOptions
from app.web.panels.clocks import clock_text, clocks
from tests.web.views import lobby_view, playthrough, server_view


def test_a_countdown_reads_minutes_and_seconds() -> None:
    assert clock_text(105) == "1:45" and clock_text(0) == "0:00" and clock_text(60) == "1:00"


def test_while_a_hand_is_played_the_seat_to_act_has_the_turn_timer() -> None:
    state = next(s for s in playthrough(5) if s.phase is Phase.PLAY)
    turn = state.turn
    assert turn is not None
    view = server_view(state, None, version=9).model_copy(
        update={
            "away": [None, 105, None, 0],
            "turn_deadline": 25,
            "timed_at": 1_800_000_000.5,
            "options": RoomOptions(turn_timer_s=30),
        }
    )
    panel = clocks(view)
    assert panel.away_s == (None, 105, None, 0) and panel.away_text(1) == "1:45"
    assert panel.turn_s == tuple(25 if n == turn else None for n in range(4))
    assert panel.timed_at == 1_800_000_000.5 and panel.turn_timer_s == 30
    assert panel.reckon_s is None


def test_no_clock_runs_in_the_lobby() -> None:
    view = lobby_view(["Ann", "Bob"], 0).model_copy(
        update={"away": [5, 5, 5, 5], "turn_deadline": 3, "reckon_deadline": 4}
    )
    panel = clocks(view)
    assert panel.away_s == (None,) * 4 and panel.turn_s == (None,) * 4
    assert panel.reckon_s is None and panel.timed_at == 0.0
