"""The seats panel: every seat placed round the table from the viewer's chair, named once."""

from __future__ import annotations

from app.rules.state import Phase
from app.web.panels.seats import POSITIONS, seats
from tests.web.views import lobby_view, playthrough, server_view


def test_the_viewer_sits_at_the_bottom_and_play_goes_round_to_the_right() -> None:
    state = next(s for s in playthrough(3) if s.phase is Phase.PLAY)
    for you in (0, 1, 2, 3):
        panel = seats(server_view(state, you, version=1))
        assert [s.pos for s in panel.around] == list(POSITIONS)
        assert panel.around[0].seat == you and panel.around[1].seat == (you + 1) % 4
        assert panel.by_number[you].name == "You" and panel.by_number[you].you
        assert panel.by_number[(you + 2) % 4].partner_of_viewer
        assert panel.seated and panel.you == you


def test_a_spectator_sees_seat_0_at_the_bottom_and_nobody_named_you() -> None:
    state = next(s for s in playthrough(3) if s.phase is Phase.PLAY)
    panel = seats(server_view(state, None, version=1))
    assert panel.around[0].seat == 0 and not panel.seated and panel.you is None
    assert [s.name for s in panel.by_number] == ["Ann", "Bob", "Cy", "Dan"]
    assert not any(s.you or s.partner_of_viewer for s in panel.by_number)


def test_the_turn_dealer_and_hand_sizes_while_a_hand_is_played() -> None:
    for state in playthrough(3):
        if state.phase is not Phase.PLAY or state.turn is None:
            continue
        view = server_view(state, state.turn, version=1)
        panel = seats(view)
        assert panel.turn is not None and panel.turn.seat == state.turn and panel.your_turn
        assert panel.dealer is not None and panel.dealer.seat == state.dealer
        assert [s.hand_size for s in panel.by_number] == view.hand_sizes
        assert [s.turn for s in panel.by_number].count(True) == 1


def test_in_the_lobby_nobody_deals_or_acts_and_empty_seats_are_counted() -> None:
    panel = seats(lobby_view(["Ann", None, "Cy"], 0))
    assert panel.dealer is None and panel.turn is None and not panel.your_turn
    assert [s.empty for s in panel.by_number] == [False, True, False, True]
    assert not panel.all_seated
    assert all(s.hand_size == 0 and s.tricks_won is None for s in panel.by_number)


def test_names_are_told_apart_and_computer_players_named_as_such() -> None:
    view = lobby_view(["Bot (standard)", "Bot", "  Ann  ", ""], None, bots=(0, 1))
    names = [s.display_name for s in seats(view).by_number]
    assert names == ["Computer 1 (standard)", "Computer 2 (standard)", "Ann", "Player 4"]


def test_a_spectator_may_take_an_unclaimed_computer_players_seat() -> None:
    view = lobby_view(["Ann", "Bob", "Cy", "Dan"], None, bots=(1,))
    assert seats(view).takeable
    raw = list(view.seats)
    bot = raw[1]
    assert bot is not None
    raw[1] = bot.model_copy(update={"claimed": True})
    assert not seats(view.model_copy(update={"seats": raw})).takeable
    assert not seats(lobby_view(["Ann", "Bob", "Cy", "Dan"], 0, bots=(1,))).takeable


def test_the_host_is_known_to_the_host_only() -> None:
    view = lobby_view(["Ann", "Bob"], 0).model_copy(update={"host": 0})
    assert seats(view).you_host
    assert not seats(view.model_copy(update={"you": 1})).you_host
    assert not seats(view.model_copy(update={"you": None})).you_host
