"""The page's part of "nobody stalls the table" (issue 15), rendered from views alone: the
away countdown and the turn ring on the seat to act, what the computer played for a returning
player, and "Take this seat" on a computer player's seat for a spectator."""

from __future__ import annotations

from app.rules.state import Phase, State
from app.services.options import RoomOptions
from app.services.view import RoomView
from app.views.shapes import ActionView
from app.web.render import render_table
from tests.web.dom import having, parse
from tests.web.views import lobby_view, playthrough, server_view


def _in_play(seat: int | None, bots: tuple[int, ...] = ()) -> tuple[State, RoomView]:
    state = next(s for s in playthrough(5) if s.phase is Phase.PLAY)
    return state, server_view(state, seat, version=9, bots=bots)


def test_the_seat_to_act_shows_the_away_countdown_and_the_turn_ring() -> None:
    state, view = _in_play(None)
    turn = state.turn
    assert turn is not None
    away: list[int | None] = [None, None, None, None]
    away[turn] = 105
    view = view.model_copy(
        update={
            "away": away,
            "turn_deadline": 25,
            "timed_at": 1_800_000_000.5,
            "options": RoomOptions(turn_timer_s=30),
        }
    )
    elements = parse(render_table(view))
    (clock,) = having(elements, "data-away-clock")
    assert clock.get("data-seconds") == "105" and clock.get("data-timed-at") == "1800000000.5"
    assert "computer plays in 1:45" in " ".join(clock.all_text().split())
    (ring,) = having(elements, "data-turn-ring")
    assert ring.get("data-seconds") == "25" and ring.get("data-total") == "30"
    assert not ring.has("style")  # the strict CSP: no inline style, app.js uses the CSSOM
    plate = next(a for a in ring.ancestors if a.has("data-seat-plate"))
    assert plate.get("data-seat-plate") == str(turn)


def test_no_clock_without_a_deadline() -> None:
    _, view = _in_play(0)
    elements = parse(render_table(view))
    assert not having(elements, "data-away-clock") and not having(elements, "data-turn-ring")


def test_the_returning_player_is_told_what_the_computer_played_for_them() -> None:
    _, view = _in_play(0)
    view = view.model_copy(
        update={"played_for_you": [ActionView(type="stand"), ActionView(type="play", card="9S")]}
    )
    elements = parse(render_table(view))
    (note,) = having(elements, "data-played-for")
    text = " ".join(note.all_text().split())
    assert "the computer stood and played 9♠ for you" in text
    assert having(elements, "data-dismiss-played-for")


def test_a_spectator_may_take_a_bots_seat_in_play_and_in_the_lobby() -> None:
    _, view = _in_play(None, bots=(1, 3))
    takes = having(parse(render_table(view)), "data-action")
    seats = sorted(e.get("data-seat") or "" for e in takes if e.get("data-action") == "take-seat")
    assert seats == ["1", "3"]
    # A seated player is offered nothing of the kind.
    _, mine = _in_play(0, bots=(1, 3))
    assert not [
        e
        for e in having(parse(render_table(mine)), "data-action")
        if e.get("data-action") == "take-seat"
    ]
    lobby = lobby_view(["Ann", "Bot (standard)", None, None], None, bots=(1,))
    takes = having(parse(render_table(lobby)), "data-action")
    assert [e.get("data-seat") for e in takes if e.get("data-action") == "take-seat"] == ["1"]


def test_the_host_alone_gets_the_seat_controls() -> None:
    lobby = lobby_view(["Ann", "Bob", None, None], 0).model_copy(update={"host": 0})
    actions = [e.get("data-action") for e in having(parse(render_table(lobby)), "data-action")]
    assert actions.count("host-move") == 2 and actions.count("host-free") == 1  # not her own
    guest = lobby_view(["Ann", "Bob", None, None], 1).model_copy(update={"host": 0})
    actions = [e.get("data-action") for e in having(parse(render_table(guest)), "data-action")]
    assert not [a for a in actions if a and a.startswith("host-")]
    # In play: a computer player for the seat of a player who has gone (covered for meanwhile:
    # not merely without an open stream, which a player between two pages also is).
    _, view = _in_play(0)
    seats = [
        s.model_copy(update={"connected": s.seat != 2, "auto": s.seat == 2}) if s else s
        for s in view.seats
    ]
    view = view.model_copy(update={"host": 0, "seats": seats})
    found = [
        e
        for e in having(parse(render_table(view)), "data-action")
        if e.get("data-action") == "host-bot"
    ]
    assert [e.get("data-seat") for e in found] == ["2"]


def test_after_the_game_a_spectator_takes_a_bots_seat_for_the_rematch() -> None:
    *_, over = playthrough(5)
    view = server_view(over, None, version=99, bots=(3,))
    takes = [
        e
        for e in having(parse(render_table(view)), "data-action")
        if e.get("data-action") == "take-seat"
    ]
    assert [e.get("data-seat") for e in takes] == ["3"]
